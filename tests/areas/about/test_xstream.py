"""How GeoServer's Java stack prints values, reproduced: Double.toString, Jettison's typing,
String.format rounding, URLEncoder, and the metric HTML cell formats."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from geoserver_emulator.areas.about.metrics import human_bytes, local_time
from geoserver_emulator.areas.about.xstream import (
    java_double,
    java_fixed,
    java_string,
    jettison,
    url_encode,
)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (1.0, "1.0"),
        (0.1, "0.1"),
        (100.0, "100.0"),
        (1234567.0, "1234567.0"),
        (1e7, "1.0E7"),
        (12345678.9, "1.23456789E7"),
        (0.001, "0.001"),
        (0.0001, "1.0E-4"),
        (1.5e-5, "1.5E-5"),
        (-2.5, "-2.5"),
        (0.0, "0.0"),
        (-0.0, "-0.0"),
        (52428800.0, "5.24288E7"),
        (157286400.0, "1.572864E8"),
        (1e21, "1.0E21"),
        (43.75, "43.75"),
        (math.nan, "NaN"),
        (math.inf, "Infinity"),
        (-math.inf, "-Infinity"),
    ],
)
def test_java_double(value, text):
    assert java_double(value) == text


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_java_double_reads_back_exactly(value):
    text = java_double(value)
    assert float(text.replace("E", "e")) == value
    assert jettison(text) == value


@given(st.integers(min_value=-(2**63), max_value=2**63 - 1))
def test_longs_become_json_numbers(value):
    assert jettison(str(value)) == value


@pytest.mark.parametrize(
    ("text", "leaf"),
    [
        ("4", 4),
        ("007", "007"),
        ("-0", "-0"),
        ("+5", "+5"),
        ("12.5", 12.5),
        ("12.50", "12.50"),
        ("1.0", 1),
        ("1.0E10", 1e10),
        ("1e3", "1e3"),
        ("true", True),
        ("false", False),
        ("TRUE", "TRUE"),
        ("2.27.1", "2.27.1"),
        ("33.1", 33.1),
        ("", ""),
        ("9223372036854775808", "9223372036854775808"),
        ("NaN", "NaN"),
        ("Infinity", "Infinity"),
        (" 4", " 4"),
    ],
)
def test_jettison_typing(text, leaf):
    got = jettison(text)
    assert got == leaf and type(got) is type(leaf)


def test_java_string():
    assert java_string(True) == "true" and java_string(5) == "5" and java_string(2.0) == "2.0"
    assert java_string("x") == "x" and java_string(None) == "null"


@pytest.mark.parametrize(
    ("value", "places", "text"),
    [
        (0.125, 2, "0.13"),
        (0.15, 1, "0.2"),
        (2.675, 2, "2.68"),
        (6.25, 2, "6.25"),
        (16.0, 1, "16.0"),
        (0.3, 2, "0.30"),
    ],
)
def test_java_fixed_rounds_the_shortest_decimal_half_up(value, places, text):
    assert java_fixed(value, places) == text


def test_url_encode_is_form_encoding():
    assert url_encode("GeoServer Main") == "GeoServer+Main"
    assert url_encode("a/b~c*d.e-f_g") == "a%2Fb%7Ec*d.e-f_g"


@pytest.mark.parametrize(
    ("count", "text"),
    [
        (0, "0 B"),
        (512, "512 B"),
        (1023, "1023 B"),
        (1024, "1.0 KiB"),
        (1536, "1.5 KiB"),
        (17179869184, "16.0 GiB"),
        (9663676416, "9.0 GiB"),
        (107374182400, "100.0 GiB"),
        (2**40, "1.0 TiB"),
    ],
)
def test_human_bytes(count, text):
    assert human_bytes(count) == text


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(0, "00:00"), (59, "00:00:59"), (3600, "01:00"), (93784, "02:03:04"), (86400, "00:00")],
)
def test_local_time(seconds, text):
    assert local_time(seconds) == text
