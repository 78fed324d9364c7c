"""The parameters of ``/items`` (and of ``/search``'s JSON body), read as GeoServer's
``FeatureService`` reads them, with its error texts.

Names are case-sensitive, as Spring binds them: ``limit``, ``startIndex``, ``bbox``,
``bbox-crs``, ``datetime``, ``filter``, ``filter-lang``, ``filter-crs``, ``sortby``, ``crs``,
``ids``, ``properties``, ``exclude-properties``. A repeated single-valued parameter takes its
first value; list parameters (``sortby``, ``ids``, ``properties``) join every value and split
them at commas. Pure logic: values in, a ``Params`` or an ``ApiError`` out.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from datetime import UTC, date, datetime, timedelta
from typing import Any

from ...core.record import record
from ...filters.converters import parse_instant
from ...wire.geoserver.java import parse_double
from .errors import ApiError, invalid

MAX_INDEX = 2**31 - 1
"""GeoServer reads ``limit`` and ``startIndex`` into a Java ``int`` in the end"""


@record
class Params:
    start: int = 0
    limit: int | None = None
    bbox: str | None = None
    bbox_crs: str | None = None
    datetime: str | None = None
    filter: str | None = None
    filter_lang: str | None = None
    filter_crs: str | None = None
    sortby: list[str] | None = None
    crs: str | None = None
    ids: list[str] | None = None
    properties: list[str] | None = None
    exclude: list[str] | None = None


SINGLE = {
    "bbox": "bbox",
    "bbox-crs": "bbox_crs",
    "datetime": "datetime",
    "filter": "filter",
    "filter-lang": "filter_lang",
    "filter-crs": "filter_crs",
    "crs": "crs",
}
LISTS = {"sortby": "sortby", "ids": "ids", "properties": "properties"}
LISTS["exclude-properties"] = "exclude"


def from_query(pairs: Iterable[tuple[str, str]]) -> Params:
    """The parameters of a query string (``(name, value)`` pairs, in order)."""
    p = Params()
    seen: set[str] = set()
    lists: dict[str, list[str]] = {}
    for name, value in pairs:
        if name in LISTS:
            lists.setdefault(LISTS[name], []).extend(v for v in value.split(",") if v)
        elif name in SINGLE and name not in seen:
            seen.add(name)
            setattr(p, SINGLE[name], value if value != "" else None)
        elif name in ("limit", "startIndex") and name not in seen:
            seen.add(name)
            number = integer(value, name)
            if name == "limit":
                p.limit = number
            elif number is not None:
                p.start = number
    for attr, items in lists.items():
        setattr(p, attr, items)
    return p


def from_body(doc: Mapping[str, Any]) -> Params:
    """The parameters of a ``/search`` body (``APISearchQuery``: strings or arrays)."""
    p = Params()
    for key, attr in SINGLE.items():
        value = doc.get(key)
        if key == "bbox" and isinstance(value, list):
            value = ",".join(_json_number(v, key) for v in value)
        elif key == "filter" and isinstance(value, dict | list):
            from ...wire.json import dumps

            value = dumps(value).decode("utf-8")
        if value is not None and not isinstance(value, str):
            raise invalid(f"Invalid value for {key}: expected a string")
        setattr(p, attr, value or None)
    for key, attr in LISTS.items():
        value = doc.get(key)
        if isinstance(value, str):
            value = [v for v in value.split(",") if v]
        if value is not None and not (
            isinstance(value, list) and all(isinstance(v, str) for v in value)
        ):
            raise invalid(f"Invalid value for {key}: expected a string or an array of strings")
        setattr(p, attr, value)
    for key in ("limit", "startIndex"):
        value = doc.get(key)
        if isinstance(value, bool) or not isinstance(value, int | str | type(None)):
            raise invalid(f"Invalid syntax {value} for parameter {key}")
        number = integer(str(value), key) if value is not None else None
        if key == "limit":
            p.limit = number
        elif number is not None:
            p.start = number
    return p


def _json_number(value: Any, key: str) -> str:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise invalid(f"Invalid value for {key}: expected numbers")
    return repr(value)


_BIG_INTEGER = re.compile(r"[+-]?[0-9]+")


def integer(value: str, name: str) -> int | None:
    """A ``BigInteger`` parameter: None when empty; 400 as Spring's conversion failure when
    it is not an integer; 400 when negative."""
    if value == "":
        return None
    if _BIG_INTEGER.fullmatch(value) is None or len(value) > 1000:
        raise invalid(f"Invalid syntax {value} for parameter {name}")
    number = int(value)
    if number < 0:
        raise invalid(f"Invalid value for parameter {name}: {value}, it must not be negative")
    return min(number, MAX_INDEX)


# -- bbox -----------------------------------------------------------------------------------


def bbox_numbers(text: str) -> list[float]:
    """The 4 (or, 3D, 6) numbers of a ``bbox``, as ``APIBBoxParser`` reads them; the minimum
    above the maximum is refused."""
    parts = [p.strip() for p in text.split(",")]
    if len(parts) < 4:
        raise invalid(
            "Requested bounding box contains wrong number of coordinates (should have 4): "
            f"{len(parts)}"
        )
    count = 6 if len(parts) in (6, 7) else 4
    numbers = []
    for i, part in enumerate(parts[:count]):
        try:
            value = parse_double(part)
        except ValueError:
            value = math.nan
        if math.isnan(value) or math.isinf(value):
            raise invalid(f"Bounding box coordinate {i} is not parsable:{part}")
        numbers.append(value)
    if count == 6:
        numbers = [numbers[0], numbers[1], numbers[3], numbers[4]]
    return numbers


def check_box(minx: float, miny: float, maxx: float, maxy: float) -> None:
    if minx > maxx:
        raise invalid(f"illegal bbox, minX: {_java(minx)} is greater than maxX: {_java(maxx)}")
    if miny > maxy:
        raise invalid(f"illegal bbox, minY: {_java(miny)} is greater than maxY: {_java(maxy)}")


def _java(value: float) -> str:
    from ...wire.geoserver.java import double_text

    return double_text(value)


def roll_longitude(x: float) -> float:
    """A longitude brought into [-180, 180] (GeoServer's ``rollLongitude``)."""
    mod = math.fmod(x + 180, 360)
    if mod == 0:
        return 180.0 if x > 0 else -180.0
    return mod - 180


def lonlat_boxes(numbers: list[float]) -> list[tuple[float, float, float, float]]:
    """A CRS84 box as one or, across the antimeridian (min x above max x once rolled), two."""
    minx, miny, maxx, maxy = numbers
    minx, maxx = roll_longitude(minx), roll_longitude(maxx)
    if minx > maxx:
        check_box(minx, miny, 180.0, maxy)
        return [(minx, miny, 180.0, maxy), (-180.0, miny, maxx, maxy)]
    check_box(minx, miny, maxx, maxy)
    return [(minx, miny, maxx, maxy)]


# -- datetime -------------------------------------------------------------------------------

OPEN = ("..", "")

_DURATION = re.compile(
    r"P(?!$)(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?"
    r"(?:T(?=\d)(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?"
)


def time_range(text: str) -> tuple[datetime | None, datetime | None]:
    """The instants ``datetime`` names, as (start, end), both inclusive: an instant (a date
    alone covers its day), or ``start/end`` where an end may be open (``..``) or a duration
    (``P1M``) after the start or before the end."""
    try:
        return _time_range(text)
    except OverflowError:  # a duration past the calendar
        raise _bad_time(text) from None


def _time_range(text: str) -> tuple[datetime | None, datetime | None]:
    parts = text.split("/")
    if len(parts) == 1:
        start, end = _instant(parts[0], text)
        return start, end
    if len(parts) != 2:
        raise _bad_time(text)
    first, second = parts
    if first.upper().startswith("P") and second.upper().startswith("P"):
        raise _bad_time(text)
    if first.upper().startswith("P"):
        high = None if second in OPEN else _instant(second, text)[0]
        if high is None:
            raise _bad_time(text)
        return high - _duration(first, text), high
    low = None if first in OPEN else _instant(first, text)[0]
    if second.upper().startswith("P"):
        if low is None:
            raise _bad_time(text)
        return low, low + _duration(second, text)
    high = None if second in OPEN else _instant(second, text)[0]
    if low is None and high is None:
        raise _bad_time(text)
    if low is not None and high is not None and low > high:
        raise _bad_time(text)
    return low, high


def _bad_time(text: str) -> ApiError:
    return invalid(f"Invalid time specification, must be a single time, or a time range: {text}")


_DATE_ONLY = re.compile(r"\d{4}-\d{2}-\d{2}")


def _instant(value: str, whole: str) -> tuple[datetime, datetime]:
    """(first, last) instant of a value: a date alone covers its day (the range's ends are
    their first instants), a time is itself."""
    v = value.strip()
    if _DATE_ONLY.fullmatch(v):
        try:
            day = date.fromisoformat(v)
        except ValueError:
            raise _bad_time(whole) from None
        start = datetime(day.year, day.month, day.day, tzinfo=UTC)
        return start, start + timedelta(days=1) - timedelta(milliseconds=1)
    found = parse_instant(v) if v else None
    if found is None:
        raise _bad_time(whole)
    return found, found


def _duration(text: str, whole: str) -> timedelta:
    m = _DURATION.fullmatch(text.upper())
    if m is None:
        raise _bad_time(whole)
    years, months, weeks, days, hours, minutes = (int(g or 0) for g in m.groups()[:6])
    seconds = float(m.group(7) or 0)
    total_days = years * 365 + months * 30 + weeks * 7 + days
    if total_days > 3_650_000:
        raise _bad_time(whole)
    return timedelta(days=total_days, hours=hours, minutes=minutes, seconds=seconds)


# -- sortby ---------------------------------------------------------------------------------


def sort_keys(items: list[str]) -> list[tuple[str, bool]]:
    """``name``, ``+name``, ``-name`` (also ``name A``/``name D``) as (attribute, descending)."""
    out = []
    for raw in items:
        item = raw.strip()
        descending = False
        if item[:1] in "+-" and item:
            descending, item = item[0] == "-", item[1:].strip()
        elif item.upper().endswith((" A", " D", " ASC", " DESC")):
            item, _, order = item.rpartition(" ")
            descending = order.upper().startswith("D")
        if not item:
            raise invalid(f"Invalid sortby value: {raw}")
        out.append((item.strip(), descending))
    return out
