"""The time and elevation dimensions of a feature type or coverage: what the capabilities
write (values from a mosaic's index or the feature rows held, in the dimension's
presentation, the default value from its strategy) and which features a map request
selects with ``TIME``/``ELEVATION`` (or the default values).

Read from the resource's ``time``/``elevation`` metadata entries (a ``dimensionInfo``);
pure domain logic, no XML.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from ...features.resolver import source_for
from ...wire.geoserver.java import number_text as java_number
from ..catalog.entities import Coverage, FeatureType, Resource
from . import sources

if TYPE_CHECKING:
    from ...core.state import State
    from ...filters.tree import Filter

TIME_UNITS = "ISO8601"
ELEVATION_UNITS = "EPSG:5030"
ELEVATION_SYMBOL = "m"


class Dimension(NamedTuple):
    name: str
    """``time`` or ``elevation``"""
    units: str
    unit_symbol: str | None
    default: str
    values: str
    """the domain as the presentation writes it (``a,b,c`` or ``start/end/period``); empty
    when no value is held"""
    domain: bool = True
    """False for a coverage whose reader has no such domain (not a mosaic indexing the
    attribute): GeoServer then declares the dimension in 1.1.1 and writes no values"""


# -- dimensions ------------------------------------------------------------------------


def _info(resource: Resource, key: str) -> Mapping[str, Any] | None:
    entry = resource.metadata.get(key)
    if not isinstance(entry, Mapping):
        return None
    info = entry.get("dimensionInfo", entry)
    if not isinstance(info, Mapping):
        return None
    enabled = info.get("enabled")
    if enabled is True or str(enabled).lower() == "true":
        return info
    return None


def dimensions(state: State, resource: Resource, now: datetime.datetime) -> list[Dimension]:
    """The enabled ``time`` and ``elevation`` dimensions of a feature type or coverage,
    with the values the emulator holds: a mosaic's index (coverages), the feature rows'
    attribute (feature types); none held gives an empty domain."""
    out = []
    time_info = _info(resource, "time")
    if time_info is not None:
        raw = _values(state, resource, time_info, "Time")
        times = _times(raw)
        out.append(
            Dimension(
                "time",
                str(time_info.get("units") or TIME_UNITS),
                None,
                _time_default(time_info, times, now),
                _time_domain(time_info, times),
                raw is not None,
            )
        )
    elev_info = _info(resource, "elevation")
    if elev_info is not None:
        raw = _values(state, resource, elev_info, "Elevation")
        elevs = _elevations(raw)
        units = elev_info.get("units")
        symbol = elev_info.get("unitSymbol")
        if units is None:
            units, symbol = ELEVATION_UNITS, ELEVATION_SYMBOL
        out.append(
            Dimension(
                "elevation",
                str(units),
                str(symbol) if symbol else None,
                java_number(_elevation_default(elev_info, elevs)),
                _elevation_domain(elev_info, elevs),
                raw is not None,
            )
        )
    return out


def _values(
    state: State, resource: Resource, info: Mapping[str, Any], kind: str
) -> list[Any] | None:
    if isinstance(resource, Coverage):
        native = resource.native_coverage_name or resource.native_name or resource.name
        return sources.mosaic_domain(
            state, resource.workspace, resource.store, native, f"{kind}Attribute"
        )
    if isinstance(resource, FeatureType):
        attr = info.get("attribute")
        source = source_for(state, resource) if attr else None
        if not attr or source is None:
            return []
        return source.values(str(attr))
    return []


def _times(raw: list[Any] | None) -> list[datetime.datetime]:
    """The distinct instants among held values, sorted (unreadable ones left out)."""
    return sorted({t for t in (_instant(v) for v in raw or []) if t})


def _elevations(raw: list[Any] | None) -> list[float]:
    """The distinct numbers among held values, sorted (unreadable ones left out)."""
    return sorted({e for e in (_number(v) for v in raw or []) if e is not None})


def _instant(value: Any) -> datetime.datetime | None:
    if isinstance(value, datetime.datetime):
        return value if value.tzinfo else value.replace(tzinfo=datetime.UTC)
    if isinstance(value, datetime.date):
        return datetime.datetime(value.year, value.month, value.day, tzinfo=datetime.UTC)
    if value is None or value == "":
        return None
    from ...filters.converters import parse_instant

    return parse_instant(str(value))


def _number(value: Any) -> float | None:
    if value is None or value == "" or isinstance(value, bool):
        return None
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def iso(t: datetime.datetime) -> str:
    """An instant as GeoServer's ISO 8601 formatter writes it (UTC, milliseconds, ``Z``)."""
    u = t.astimezone(datetime.UTC)
    return u.strftime("%Y-%m-%dT%H:%M:%S.") + f"{u.microsecond // 1000:03d}Z"


def period(ms: int) -> str:
    """A duration in milliseconds as an ISO 8601 period (``P1D``, ``PT6H``, ``P0D``)."""
    seconds, millis = divmod(max(ms, 0), 1000)
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    out = "P" + (f"{days}D" if days else "")
    clock = (f"{hours}H" if hours else "") + (f"{minutes}M" if minutes else "")
    if secs or millis:
        clock += f"{secs}.{millis:03d}S" if millis else f"{secs}S"
    if clock:
        out += "T" + clock
    return out if out != "P" else "P0D"


def _presentation(info: Mapping[str, Any]) -> str:
    return str(info.get("presentation") or "LIST").upper()


def _resolution(info: Mapping[str, Any]) -> float | None:
    return _number(info.get("resolution"))


def _time_domain(info: Mapping[str, Any], times: list[datetime.datetime]) -> str:
    if not times:
        return ""
    shape = _presentation(info)
    if shape == "LIST":
        return ",".join(iso(t) for t in times)
    span = int((times[-1] - times[0]).total_seconds() * 1000)
    if shape == "DISCRETE_INTERVAL":
        res = _resolution(info)
        if res is not None:
            span = int(res)
        elif len(times) >= 2:
            span = int((times[1] - times[0]).total_seconds() * 1000)
        else:
            span = 0
    return f"{iso(times[0])}/{iso(times[-1])}/{period(span)}"


def _elevation_domain(info: Mapping[str, Any], elevs: list[float]) -> str:
    if not elevs:
        return ""
    shape = _presentation(info)
    if shape == "LIST":
        return ",".join(java_number(e) for e in elevs)
    step = elevs[-1] - elevs[0]
    if shape == "DISCRETE_INTERVAL":
        res = _resolution(info)
        step = res if res is not None else (elevs[1] - elevs[0] if len(elevs) >= 2 else 0.0)
    return f"{java_number(elevs[0])}/{java_number(elevs[-1])}/{java_number(float(step))}"


def _strategy(info: Mapping[str, Any]) -> tuple[str, str | None]:
    default = info.get("defaultValue")
    if not isinstance(default, Mapping):
        return "", None
    ref = default.get("referenceValue")
    return str(default.get("strategy") or "").upper(), None if ref is None else str(ref)


def _time_default(
    info: Mapping[str, Any], times: list[datetime.datetime], now: datetime.datetime
) -> str:
    strategy, ref = _strategy(info)
    if strategy == "FIXED" and ref:
        return ref
    if not times:
        return "current"
    if strategy == "MINIMUM":
        return iso(times[0])
    if strategy == "MAXIMUM":
        return iso(times[-1])
    target = _instant(ref) if strategy == "NEAREST" and ref else now
    target = target or now
    return iso(min(times, key=lambda t: (abs((t - target).total_seconds()), t)))


def _elevation_default(info: Mapping[str, Any], elevs: list[float]) -> float:
    strategy, ref = _strategy(info)
    if strategy == "FIXED" and ref and _number(ref) is not None:
        return float(_number(ref) or 0.0)
    if not elevs:
        return 0.0
    if strategy == "MAXIMUM":
        return elevs[-1]
    if strategy == "NEAREST" and ref and _number(ref) is not None:
        target = float(_number(ref) or 0.0)
        return min(elevs, key=lambda e: (abs(e - target), e))
    return elevs[0]


# -- the dimensions a map request selects ----------------------------------------------------


def feature_filter(
    state: State,
    resource: Resource,
    time: str | None,
    elevation: str | None,
    now: datetime.datetime,
) -> Filter | None:
    """Which features of a feature type a GetMap or GetFeatureInfo draws, by its enabled
    ``time``/``elevation`` dimensions: those the ``TIME``/``ELEVATION`` values name (an
    instant or number, a list, a ``start/end`` range), else those at the dimension's default
    value (GeoServer applies the default when the request names none), as a filter the
    source evaluates with the rest of the query (in SQL for a database). None: no
    selection."""
    from ...filters import build

    parts: list[Filter] = []
    info = _info(resource, "time")
    if isinstance(resource, FeatureType) and info is not None and info.get("attribute"):
        wanted = time
        if not wanted or wanted.lower() == "current":
            times = _times(_values(state, resource, info, "Time"))
            wanted = _time_default(info, times, now) if times else None
        ranges = _ranges(wanted, _instant) if wanted else []
        if ranges:
            parts.append(build.in_ranges(str(info["attribute"]), ranges))
    info = _info(resource, "elevation")
    if isinstance(resource, FeatureType) and info is not None and info.get("attribute"):
        wanted = elevation
        if not wanted:
            elevs = _elevations(_values(state, resource, info, "Elevation"))
            wanted = java_number(_elevation_default(info, elevs)) if elevs else None
        ranges = _ranges(wanted, _number) if wanted else []
        if ranges:
            parts.append(build.in_ranges(str(info["attribute"]), ranges))
    return build.all_of(parts)


def _ranges(text: str, read: Callable[[str], Any]) -> list[tuple[Any, Any]]:
    """The ranges ``text`` names (``a``, ``a,b``, ``low/high[/step]``), each bound read with
    ``read`` (None: unreadable, that part left out)."""
    ranges: list[tuple[Any, Any]] = []
    for part in text.split(","):
        bounds = part.strip().split("/")
        low = read(bounds[0])
        high = read(bounds[1]) if len(bounds) > 1 else low
        if low is not None and high is not None:
            ranges.append((low, high))
    return ranges


# -- the values a request names, parsed as GeoServer's KVP parsers parse them ---------------

# the formats GeoServer's time parser tries, leniently (any digit count), whole value only
_JAVA_DATE = re.compile(r"\d+(-\d+(-\d+(T\d+(:\d+(:\d+(\.\d+)?)?)?Z)?)?)?")
# (digits, then an optional dot and digits: written so that a long run of digits that fails
# to match is not tried at every split, which took quadratic time)
_JAVA_DOUBLE = re.compile(
    r"[+-]?(NaN|Infinity|((\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?[fFdD]?)"
    r"|0[xX]([0-9a-fA-F]+(\.[0-9a-fA-F]*)?|\.[0-9a-fA-F]+)[pP][+-]?\d+[fFdD]?)"
)


def _date_error(value: str) -> str | None:
    if value.lower() in ("current", "now", "present") or _JAVA_DATE.fullmatch(value):
        return None
    return f"Invalid date: {value}"


def time_error(text: str) -> str | None:
    """Why GeoServer's time parser refuses a ``TIME`` value (its ``ParseException`` message),
    or None when it parses: a comma list of dates (``yyyy``, ``yyyy-MM``, ``yyyy-MM-dd``,
    ``yyyy-MM-ddTHH[:mm[:ss[.SSS]]]Z``, ``current``/``now``/``present``), ``start/end`` or
    ``start/end/period`` where either bound may be an ISO duration (``P…``)."""
    value = text.strip()
    if not value:
        return None
    for date in value.split(","):
        if date.find("/") <= 0:
            err = _date_error(date)
            if err:
                return err
            continue
        period = date.split("/")
        if len(period) not in (2, 3):
            return f"Invalid time period: [{', '.join(period)}]"
        for bound in period[:2]:
            if not bound.upper().startswith("P") or bound.upper().startswith("PRESENT"):
                err = _date_error(bound)
                if err:
                    return err
        if len(period) == 3 and not period[2].upper().startswith("P"):
            return f"Invalid period increment given: {period[2]}"
    return None


def elevation_error(text: str) -> str | None:
    """Why Java's number parsing refuses an ``ELEVATION`` value (its
    ``NumberFormatException`` message), or None: a comma list of numbers or
    ``low/high[/step]`` ranges."""
    value = text.strip()
    if not value:
        return None
    for part in value.split(","):
        for number in part.split("/"):
            n = number.strip()
            if not n:
                return "empty String"
            if not _JAVA_DOUBLE.fullmatch(n):
                return f'For input string: "{n}"'
    return None
