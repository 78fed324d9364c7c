"""How GeoServer's Java stack writes values: ``toString`` of numbers, Jettison's typing of
JSON leaves, ``URLEncoder`` links, ``String.format`` rounding and the REST HTML page frame.

GeoServer builds JSON by writing XML events through Jettison, so every leaf starts as text;
Jettison's default converter then turns a text into a JSON number or boolean when it reads
back exactly as Java prints that number or boolean (``"4"`` → 4, ``"12.5"`` → 12.5,
``"true"`` → true, but ``"2.27.1"``, ``"007"`` and ``"1e3"`` stay strings). The helpers
here reproduce that, so a client sees the same JSON types as from GeoServer.
"""

from __future__ import annotations

import html
import math
import re
from decimal import ROUND_HALF_UP, Decimal
from urllib.parse import quote_plus

from ...wire import xml as wxml

Scalar = str | int | float | bool

_LONG = re.compile(r"-?(?:0|[1-9][0-9]*)")
_DOUBLE = re.compile(r"-?[0-9]+\.[0-9]+(?:E-?[0-9]+)?")
_LONG_MIN, _LONG_MAX = -(2**63), 2**63 - 1


def java_double(value: float) -> str:
    """``Double.toString``: plain between 10^-3 and 10^7, else ``d.dddE±n``."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "-0.0" if math.copysign(1.0, value) < 0 else "0.0"
    sign, digits, exponent = Decimal(repr(value)).as_tuple()
    assert isinstance(exponent, int)
    ds = list(digits)
    while len(ds) > 1 and ds[-1] == 0:
        ds.pop()
        exponent += 1
    minus = "-" if sign else ""
    if 1e-3 <= abs(value) < 1e7:
        text = format(Decimal((0, tuple(ds), exponent)), "f")
        return minus + (text if "." in text else text + ".0")
    scientific = exponent + len(ds) - 1
    mantissa = "".join(map(str, ds[1:])) or "0"
    return f"{minus}{ds[0]}.{mantissa}E{scientific}"


def java_string(value: Scalar | None) -> str:
    """``String.valueOf`` of a value held as a Java ``String``, ``Long`` or ``Double``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return java_double(value)
    return str(value)


def jettison(text: str) -> Scalar:
    """The JSON leaf Jettison writes for an XML text."""
    if _LONG.fullmatch(text) and text != "-0" and _LONG_MIN <= int(text) <= _LONG_MAX:
        return int(text)
    if _DOUBLE.fullmatch(text):
        number = float(text.replace("E", "e"))
        if java_double(number) == text:
            return int(number) if number.is_integer() and "E" not in text else number
    if text in ("true", "false"):
        return text == "true"
    return text


def leaf(value: Scalar | None) -> Scalar:
    """A Java value as a JSON leaf: ``toString`` first, then Jettison's typing."""
    return jettison(java_string(value))


def java_fixed(value: float, places: int) -> str:
    """``String.format("%.Nf")``: the shortest decimal of the double, rounded half up."""
    exact = Decimal(repr(float(value)))
    return format(exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP), "f")


def url_encode(component: str) -> str:
    """``URLEncoder.encode(component, UTF-8)``: form encoding, space as ``+``."""
    return quote_plus(component, safe="*").replace("~", "%7E")


def html_page(body: str) -> str:
    """A REST HTML answer in the frame GeoServer's templates share (``head.ftl``/``tail.ftl``)."""
    return (
        "<html>\n<head>\n<title>GeoServer Configuration</title>\n"
        '<meta name="ROBOTS" content="NOINDEX, NOFOLLOW"/>\n</head>\n<body>\n'
        f"{body}\n</body>\n</html>\n"
    )


def xml_safe(text: str) -> bool:
    """Whether ``text`` holds only characters XML 1.0 allows (so every format can carry it)."""
    return wxml.xml_safe(text)


def esc(text: object) -> str:
    """Text escaped for HTML (quotes included)."""
    return html.escape(str(text), quote=True)
