"""Values as GeoTools' filters read and write them: text of a value (Java's number and ISO
8601 formats, what ``LIKE`` and the string functions see) and a lenient ISO 8601 reading of
instants (what a text compared with a date converts to).

Moved here from the mosaics' index bindings (which import them from here), so that every
user of the filter engine shares one reading of dates and one text of numbers.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Any


def format_value(value: Any) -> str:
    """A value as GeoServer writes it in GML: Java's number and ISO 8601 formats."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return java_double(value)
    if isinstance(value, datetime):
        return iso_instant(value)
    return str(value)


def java_double(x: float) -> str:
    """``Double.toString``: ``10.0``, ``0.001``, ``1.0E7``, ``1.2345E-4``."""
    if x != x:
        return "NaN"
    if x in (float("inf"), float("-inf")):
        return "Infinity" if x > 0 else "-Infinity"
    sign = "-" if str(x).startswith("-") else ""
    if x == 0:
        return sign + "0.0"
    if 1e-3 <= abs(x) < 1e7:
        text = repr(x)
        return text if "." in text else text + ".0"
    digits, point = _shortest_digits(abs(x))
    return f"{sign}{digits[0]}.{digits[1:] or '0'}E{point - 1}"


def _shortest_digits(x: float) -> tuple[str, int]:
    """The shortest round-tripping digits of ``x`` > 0, and ``p`` with x = 0.DIGITS × 10^p."""
    mantissa, _, exp = repr(x).partition("e")
    whole, _, frac = mantissa.partition(".")
    raw = whole + frac
    stripped = raw.lstrip("0")
    point = len(whole) + int(exp or 0) - (len(raw) - len(stripped))
    return stripped.rstrip("0") or "0", point


def iso_instant(dt: datetime) -> str:
    """``2008-10-31T00:00:00Z`` (milliseconds shown only when there are some)."""
    dt = dt.astimezone(UTC)
    millis = dt.microsecond // 1000
    base = dt.strftime("%Y-%m-%dT%H:%M:%S")
    return f"{base}.{millis:03d}Z" if millis else f"{base}Z"


@cache
def _iso_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The extended and compact ISO 8601 forms (compiled on first use)."""
    extended = re.compile(
        r"(?P<y>\d{4})(?:-(?P<mo>\d{2})(?:-(?P<d>\d{2}))?)?"
        r"(?:[Tt ](?P<h>\d{2})(?::(?P<mi>\d{2})(?::(?P<s>\d{2})(?:[.,](?P<f>\d+))?)?)?)?"
        r"(?P<z>Z|[+-]\d{2}:?\d{2})?"
    )
    compact = re.compile(
        r"(?P<y>\d{4})(?:(?P<mo>\d{2})(?:(?P<d>\d{2}))?)?"
        r"(?:[Tt](?P<h>\d{2})(?:(?P<mi>\d{2})(?:(?P<s>\d{2})(?P<f>\d*))?)?)?"
        r"(?P<z>Z|[+-]\d{2}:?\d{2})?"
    )
    return extended, compact


def parse_instant(text: str) -> datetime | None:
    """A lenient ISO 8601 reading of a date or date-time (compact or extended), as GeoTools'
    ``DateTimeParser`` reads file-name timestamps: the start of the period the text names,
    in UTC unless it carries an offset. None when the text is not such a date."""
    text = text.strip()
    for pattern in _iso_patterns():
        match = pattern.fullmatch(text)
        if match is not None:
            return instant_of(match.groupdict())
    return None


def instant_of(g: dict[str, str | None]) -> datetime | None:
    """The instant of a match's groups (``y``, ``mo``, ``d``, ``h``, ``mi``, ``s``, ``f``
    for the fraction, ``z`` for the zone); None when they name no real date."""

    def num(key: str, default: int) -> int:
        value = g.get(key)
        return int(value) if value else default

    frac = g.get("f") or ""
    millis = int(frac[:3].ljust(3, "0")) if len(frac) <= 3 else int(frac) % 1000
    try:
        dt = datetime(
            num("y", 0),
            num("mo", 1),
            num("d", 1),
            num("h", 0),
            num("mi", 0),
            num("s", 0),
            millis * 1000,
            tzinfo=UTC,
        )
    except ValueError:
        return None
    zone = g.get("z")
    if zone and zone != "Z":
        sign = 1 if zone[0] == "+" else -1
        digits = zone[1:].replace(":", "")
        dt -= sign * timedelta(hours=int(digits[:2]), minutes=int(digits[2:]))
    return dt
