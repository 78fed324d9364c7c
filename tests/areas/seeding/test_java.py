"""Java semantics the printed numbers and orders depend on."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from geoserver_emulator.areas.seeding import java
from geoserver_emulator.areas.seeding.layer_codec import java_double
from geoserver_emulator.areas.seeding.status import estimate


def test_string_hash_matches_java():
    assert java.string_hash("") == 0
    assert java.string_hash("a") == 97
    assert java.string_hash("hello") == 99162322
    assert java.string_hash("Hello World") == -862545276 % 2**32
    # "Aa" and "BB" collide in Java
    assert java.string_hash("Aa") == java.string_hash("BB")


def test_hash_order_is_what_geoserver_2_28_prints():
    # GET /gwc/rest/layers/topp:states.json on GeoServer 2.28.5 (org.json HashMap order)
    seen = (
        '{"expireClients":0,"gutter":0,"expireCache":0,"parameterFilters":[],'
        '"metaWidthHeight":[4,4],"cacheWarningSkips":[],"name":"topp:states",'
        '"mimeFormats":[],"id":"x","gridSubsets":[],"enabled":true}'
    )
    written = [  # XStream writes the fields in declaration order
        "id", "enabled", "name", "mimeFormats", "gridSubsets", "metaWidthHeight",
        "expireCache", "expireClients", "parameterFilters", "gutter", "cacheWarningSkips",
    ]  # fmt: skip
    assert java.hash_order(written) == list(json.loads(seen))
    assert java.hash_order(["key", "defaultValue"]) == ["defaultValue", "key"]
    # the default gridsets and formats iterate in the order GWC falls back on
    assert java.hash_order(["EPSG:900913", "EPSG:4326"]) == ["EPSG:4326", "EPSG:900913"]
    assert java.hash_order(["image/jpeg", "image/png"]) == ["image/png", "image/jpeg"]


def test_round_and_narrowing():
    assert java.math_round(2.5) == 3 and java.math_round(-2.5) == -2
    assert java.math_round(float("nan")) == 0
    assert java.math_round(float("inf")) == java.LONG_MAX
    assert java.to_int(java.LONG_MAX - 5) == -6
    assert java.to_int(2**31) == -(2**31)
    assert java.rem(-5, 4) == -1 and java.int_div(-7, 2) == -3


@given(st.integers(-(2**70), 2**70))
def test_to_long_wraps_like_java(n):
    w = java.to_long(n)
    assert java.LONG_MIN <= w <= java.LONG_MAX and (w - n) % 2**64 == 0


def test_java_double_to_string():
    assert java_double(-20037508.34) == "-2.003750834E7"
    assert java_double(4969300.121476209) == "4969300.121476209"
    assert java_double(1.0) == "1.0" and java_double(0.0001) == "1.0E-4"


def test_estimate_quirks():
    # first metatile done within the first second: 0 * inf = NaN, rounded to 0
    assert estimate(spent=0, total=44739250, threads=1, done=0) == 0
    # first metatile took 3 s: inf rounds to Long.MAX_VALUE, narrowed to int
    assert estimate(spent=3, total=44739250, threads=1, done=0) == -1 - 3
    # 10 s for 160 of 5074 tiles per thread of 2
    assert estimate(spent=10, total=5074, threads=2, done=160) == round(10 * (5074 / 2) / 160) - 10
    # the GWC doc sample [17888,44739250,18319,1,1]: 22 s spent with 3 threads running
    assert estimate(spent=22, total=44739250, threads=3, done=17888) == 18319
