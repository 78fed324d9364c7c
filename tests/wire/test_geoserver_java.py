"""Java's number texts (``wire/geoserver/java.py``) against the JDK's specification and the
values GeoServer's answers show."""

from __future__ import annotations

import math
import re
import struct

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from geoserver_emulator.wire.geoserver.java import (
    double_text,
    fixed,
    float_text,
    number_text,
    parse_double,
    string_of,
    url_encode,
)

JAVA_DOUBLE = re.compile(r"-?(?:NaN|Infinity|[0-9]+\.[0-9]+(?:E-?[0-9]+)?)")
"""the grammar of ``Double.toString``'s output"""


@pytest.mark.parametrize(
    ("value", "text"),
    [
        # the JDK's own constants, as their javadoc and every JVM print them
        (5e-324, "4.9E-324"),  # Double.MIN_VALUE: the closest two-digit decimal, not 5.0E-324
        (1.7976931348623157e308, "1.7976931348623157E308"),  # Double.MAX_VALUE
        (2.2250738585072014e-308, "2.2250738585072014E-308"),  # Double.MIN_NORMAL
        (math.nan, "NaN"),
        (math.inf, "Infinity"),
        (-math.inf, "-Infinity"),
        (0.0, "0.0"),
        (-0.0, "-0.0"),
        # plain from 10^-3 (included) to 10^7 (excluded), computerized notation outside
        (0.001, "0.001"),
        (0.000999, "9.99E-4"),
        (9999999.0, "9999999.0"),
        (9999999.999999998, "9999999.999999998"),
        (1e7, "1.0E7"),
        (1.0e21, "1.0E21"),
        (1e23, "1.0E23"),
        (123456789.0, "1.23456789E8"),
        (1.2345e-4, "1.2345E-4"),
        (1e308, "1.0E308"),
        (-1e-300, "-1.0E-300"),
        (3 * 5e-324, "1.5E-323"),
        # catalog bounds as GeoServer's sample data directory holds and writes them
        (-124.73142200000001, "-124.73142200000001"),
        (589980.0, "589980.0"),
        (4914010.0, "4914010.0"),
        (100.0, "100.0"),
        (0.1, "0.1"),
    ],
)
def test_double_to_string(value: float, text: str) -> None:
    assert double_text(value) == text


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (1.4e-45, "1.4E-45"),  # Float.MIN_VALUE
        (3.4028234663852886e38, "3.4028235E38"),  # Float.MAX_VALUE
        (0.1, "0.1"),  # the double 0.1 narrowed to a float reads back as 0.1
        (1.1, "1.1"),
        (16777216.0, "1.6777216E7"),
        (123456789.0, "1.2345679E8"),  # the float nearest (123456792), then its shortest text
        (1e-3, "0.001"),
        (1e39, "Infinity"),  # past Float.MAX_VALUE a narrowed double is infinite
        (1e-50, "0.0"),  # below half Float.MIN_VALUE it is zero
        (-0.0, "-0.0"),
        (math.nan, "NaN"),
    ],
)
def test_float_to_string(value: float, text: str) -> None:
    assert float_text(value) == text


finite = st.floats(allow_nan=False, allow_infinity=False)


@given(finite)
@example(5e-324)
@example(-2.2250738585072014e-308)
@example(0.001)
@example(1e7)
def test_double_text_reads_back_exactly_and_is_the_shortest(value: float) -> None:
    text = double_text(value)
    assert JAVA_DOUBLE.fullmatch(text), text
    assert parse_double(text) == value and math.copysign(1, parse_double(text)) == math.copysign(
        1, value
    )
    digits = text.lstrip("-").split("E")[0].replace(".", "").strip("0")
    shortest = repr(abs(value)).split("e")[0].replace(".", "").strip("0")
    assert len(digits) <= max(len(shortest), 2)


@given(st.floats(width=32, allow_nan=False, allow_infinity=False))
def test_float_text_reads_back_as_the_same_float(value: float) -> None:
    text = float_text(value)
    assert JAVA_DOUBLE.fullmatch(text), text
    back = struct.unpack("f", struct.pack("f", float(text)))[0]
    assert back == value


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1", 1.0),
        (" 2.5 ", 2.5),
        ("1e400", math.inf),  # past the range: infinity, as Java reads it
        ("-1e400", -math.inf),
        ("1e-400", 0.0),
        ("-0", -0.0),
        ("NaN", math.nan),
        ("Infinity", math.inf),
        ("+Infinity", math.inf),
        ("-Infinity", -math.inf),
        ("1.5d", 1.5),
        ("2f", 2.0),
        (".5", 0.5),
        ("5.", 5.0),
        ("1E3", 1000.0),
    ],
)
def test_parse_double_reads_what_java_reads(text: str, value: float) -> None:
    got = parse_double(text)
    assert got == value or (math.isnan(value) and math.isnan(got))
    assert math.copysign(1, got) == math.copysign(1, value)


@pytest.mark.parametrize("text", ["", "abc", "1e", "inf", "nan", "infinity", "1,5", "0x1p3", "--1"])
def test_parse_double_refuses_what_java_refuses(text: str) -> None:
    with pytest.raises(ValueError):
        parse_double(text)


def test_boxed_values_print_as_java_prints_them() -> None:
    assert number_text(7) == "7" and number_text(7.0) == "7.0" and number_text(True) == "true"
    assert number_text(2**70) == str(2**70)  # a BigInteger's digits
    assert string_of(None) == "null" and string_of("x") == "x" and string_of(1e7) == "1.0E7"


@pytest.mark.parametrize(
    ("value", "places", "text"),
    [(0.125, 2, "0.13"), (2.675, 2, "2.68"), (0.3, 2, "0.30"), (-0.0, 1, "-0.0")],
)
def test_fixed(value: float, places: int, text: str) -> None:
    assert fixed(value, places) == text


def test_fixed_of_non_finite_values() -> None:
    assert fixed(math.nan, 2) == "NaN" and fixed(-math.inf, 1) == "-Infinity"


def test_url_encode() -> None:
    assert url_encode("a b/c~d*e") == "a+b%2Fc%7Ed*e"
