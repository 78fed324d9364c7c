"""How Java writes and reads numbers, as GeoServer's answers show them.

``double_text`` is ``Double.toString`` and ``float_text`` ``Float.toString`` as the JDK 19+
specification words them (the JDKs GeoServer runs on): the shortest decimal that reads back
as the same value, closest to it, in plain notation from 10^-3 (included) to 10^7
(excluded) and as ``d.dddE±n`` outside; ``NaN``, ``Infinity``, ``-Infinity``, ``-0.0``. When
one digit would do, the closest decimal of one or two digits is written
(``Double.MIN_VALUE`` is ``4.9E-324``, not ``5.0E-324``).

``parse_double`` is ``Double.parseDouble``: what XStream and GeoServer's converters accept in
a numeric field (``NaN``, ``Infinity``, a ``d``/``f`` suffix, ``1e400`` read as infinity).
"""

from __future__ import annotations

import math
import re
import struct
from collections.abc import Callable
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal
from urllib.parse import quote_plus

_PLAIN_LOW, _PLAIN_HIGH = Decimal("1e-3"), Decimal("1e7")
_PLAIN_FLOAT_LOW, _PLAIN_FLOAT_HIGH = 1e-3, 1e7
_SMALLEST_NORMAL = 2.2250738585072014e-308

_JAVA_FLOAT = re.compile(
    r"[+-]?(?:NaN|Infinity|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?[fFdD]?)"
)
"""the decimal forms ``Double.parseDouble`` accepts (after trimming blanks below U+0020)"""
_JAVA_INT = re.compile(r"[+-]?[0-9]+")


def double_text(value: float) -> str:
    """``Double.toString(value)``."""
    special = _special(value)
    if special is not None:
        return special
    if _PLAIN_FLOAT_LOW <= abs(value) < _PLAIN_FLOAT_HIGH:  # the common case: repr is plain
        text = repr(value)  # the shortest decimal that reads back, closest to the value
        return text if "." in text else text + ".0"
    if abs(value) < _SMALLEST_NORMAL:  # few bits: one digit may have a closer two-digit twin
        digits, exponent = _shortest(value, _double_reads_back)
    else:
        digits, exponent = _digits(Decimal(repr(abs(value))))
    return _layout(value < 0, digits, exponent)


def float_text(value: float) -> str:
    """``Float.toString(value)``: ``value`` is first rounded to a 32-bit float, as Java does
    when a ``double`` is narrowed."""
    value = _to_float32(value)
    special = _special(value)
    if special is not None:
        return special
    digits, exponent = _shortest(value, _float_reads_back)
    return _layout(value < 0, digits, exponent)


def number_text(value: float | int) -> str:
    """A number as Java writes its boxed value: an integer (``Integer``, ``Long``) as its
    digits, a float as ``Double.toString``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return double_text(value)


def parse_double(text: str) -> float:
    """``Double.parseDouble(text)``; ``ValueError`` where Java throws
    ``NumberFormatException`` (hexadecimal floats are not read)."""
    trimmed = text.strip("".join(map(chr, range(0x21))))
    if _JAVA_FLOAT.fullmatch(trimmed) is None:
        raise ValueError(f"For input string: {text!r}")
    body = trimmed.rstrip("fFdD")
    if body.lstrip("+-") == "NaN":
        return math.nan
    if body.lstrip("+-") == "Infinity":
        return -math.inf if body.startswith("-") else math.inf
    return float(body)  # Python rounds as Java does; past the range: ±inf, below: ±0.0


INT_BITS, LONG_BITS = 32, 64
"""the widths of Java's ``int`` and ``long``"""


def fits(value: int, bits: int = INT_BITS) -> bool:
    """Whether ``value`` fits a Java integer of ``bits`` bits (``int`` by default)."""
    return -(1 << (bits - 1)) <= value < 1 << (bits - 1)


def parse_int(text: str, bits: int = INT_BITS) -> int:
    """``Integer.parseInt`` (``Long.parseLong`` with ``bits=64``): an optional sign and ASCII
    digits, within the type's range; ``ValueError`` where Java throws
    ``NumberFormatException``."""
    if _JAVA_INT.fullmatch(text) is None:
        raise ValueError(f"For input string: {text!r}")
    value = int(text)
    if not fits(value, bits):
        raise ValueError(f"For input string: {text!r} (out of the range of a {bits}-bit integer)")
    return value


def parse_finite(text: str) -> float:
    """``parse_double`` for a field whose value must be a finite number (a bound, a size, a
    resolution): ``ValueError`` also for ``NaN``, the infinities and what lies past the
    double range (``1e400``)."""
    value = parse_double(text)
    if not math.isfinite(value):
        raise ValueError(f"Not a finite number: {text!r}")
    return value


def fixed(value: float, places: int) -> str:
    """``String.format("%.Nf", value)``: the shortest decimal of the double, rounded half up
    (``NaN`` and ``Infinity`` as Java's formatter writes them)."""
    special = _special(value)
    if special is not None and special not in ("0.0", "-0.0"):
        return special
    exact = Decimal(repr(float(value)))
    return format(exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP), "f")


def string_of(value: str | int | float | bool | None) -> str:
    """``String.valueOf`` of a value held as a Java ``String``, ``Long``, ``Double`` or
    ``Boolean`` (``null`` for None)."""
    if value is None:
        return "null"
    if isinstance(value, str):
        return value
    return number_text(value)


def url_encode(component: str) -> str:
    """``URLEncoder.encode(component, UTF-8)``: form encoding, space as ``+``."""
    return quote_plus(component, safe="*").replace("~", "%7E")


# -- the digits ----------------------------------------------------------------------------


def _special(value: float) -> str | None:
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "-0.0" if math.copysign(1.0, value) < 0 else "0.0"
    return None


def _double_reads_back(text: str, value: float) -> bool:
    return float(text) == value


def _float_reads_back(text: str, value: float) -> bool:
    return _to_float32(float(text)) == value


def _to_float32(value: float) -> float:
    try:
        narrowed: float = struct.unpack("f", struct.pack("f", value))[0]
    except OverflowError:  # past Float.MAX_VALUE (rounded): Java gives infinity
        return math.copysign(math.inf, value)
    return narrowed


def _shortest(value: float, check: Callable[[str, float], bool]) -> tuple[str, int]:
    """The digits (no trailing zero) and decimal exponent of the decimal Java writes for a
    finite, non-zero ``value``: ``value`` ≈ 0.DIGITS × 10^exponent."""
    exact = Decimal(abs(value))
    for length in range(1, 18):
        candidate = _round_to(exact, length)
        if check(str(candidate), abs(value)):
            if length == 1:  # Java picks the closest decimal of one or two digits
                two = _round_to(exact, 2)
                if check(str(two), abs(value)):
                    candidate = two
            return _digits(candidate)
    return _digits(Decimal(repr(abs(value))))  # pragma: no cover - 17 digits always read back


def _round_to(exact: Decimal, length: int) -> Decimal:
    """``exact`` rounded (half even) to ``length`` significant digits."""
    quantum = Decimal(1).scaleb(exact.adjusted() - length + 1)
    rounded = exact.quantize(quantum, rounding=ROUND_HALF_EVEN)
    if rounded.adjusted() > exact.adjusted():  # 9.96 → 10.0: one digit more than asked
        rounded = rounded.quantize(quantum.scaleb(1), rounding=ROUND_HALF_EVEN)
    return rounded


def _digits(number: Decimal) -> tuple[str, int]:
    _, digit_tuple, exponent = number.as_tuple()
    assert isinstance(exponent, int)
    digits = "".join(map(str, digit_tuple)).rstrip("0") or "0"
    return digits, exponent + len(digit_tuple)


def _layout(negative: bool, digits: str, exponent: int) -> str:
    """``0.DIGITS × 10^exponent`` in Java's notation."""
    sign = "-" if negative else ""
    magnitude = Decimal(f"0.{digits}E{exponent}")
    if _PLAIN_LOW <= magnitude < _PLAIN_HIGH:
        if exponent <= 0:
            return f"{sign}0.{'0' * -exponent}{digits}"
        whole, fraction = digits[:exponent].ljust(exponent, "0"), digits[exponent:]
        return f"{sign}{whole}.{fraction or '0'}"
    return f"{sign}{digits[0]}.{digits[1:] or '0'}E{exponent - 1}"
