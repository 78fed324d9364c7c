"""What a published layer or group carries into the capabilities documents beyond its name
and boxes: translated titles and abstracts, keywords with their vocabulary, attribution,
authority URLs and identifiers, metadata and data links, and the time and elevation
dimensions with the values the emulator holds for them.

Everything is read from the catalog's generic fields (``catalog/fields.py``: ``extras``)
and metadata entries; pure domain logic, no XML.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from ..catalog.entities import Coverage, FeatureType, Layer, LayerGroup, Resource
from ..catalog.tree import java_number
from . import sources
from .errors import OwsError

if TYPE_CHECKING:
    from ...core.state import State

TIME_UNITS = "ISO8601"
ELEVATION_UNITS = "EPSG:5030"
ELEVATION_SYMBOL = "m"


class Keyword(NamedTuple):
    value: str
    language: str | None = None
    vocabulary: str | None = None


class Attribution(NamedTuple):
    title: str | None
    href: str | None
    logo: tuple[str, str, int, int] | None
    """(url, format, width, height) when all four are usable, as GeoServer requires"""


class Link(NamedTuple):
    """A metadata link (``metadata_type`` set) or a data link."""

    format: str | None
    href: str
    metadata_type: str | None = None
    about: str | None = None


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


# -- text ------------------------------------------------------------------------------


def keywords(raw: list[Any]) -> list[Keyword]:
    """Catalog keywords as GeoServer encodes them in a string:
    ``value\\@language=en\\;\\@vocabulary=v\\;`` (both parts optional)."""
    out = []
    for item in raw:
        if isinstance(item, Mapping):
            out.append(Keyword(str(item.get("value", "")), None, item.get("vocabulary")))
            continue
        text = str(item)
        value, sep, rest = text.partition("\\@")
        language = vocabulary = None
        if sep:
            for part in ("\\@" + rest).split("\\;"):
                key, _, val = part.removeprefix("\\@").partition("=")
                if key == "language" and val:
                    language = val
                elif key == "vocabulary" and val:
                    vocabulary = val
        out.append(Keyword(value, language, vocabulary))
    return out


def wanted_languages(accept: str | None) -> list[str]:
    """The locales an ``AcceptLanguages`` / ``Language`` value names, in order."""
    return [x for x in (accept or "").replace(",", " ").split() if x]


def translated(texts: Any, default: str | None, languages: list[str]) -> str | None:
    """The text for the first of ``languages`` that ``texts`` (locale → text) has; else the
    plain ``default``; else (no plain text) the translation GeoServer's international
    string gives for no locale (the empty key), or the first one."""
    if isinstance(texts, Mapping) and texts:
        for lang in languages:
            if lang in texts:
                return str(texts[lang])
            for key in texts:  # "en" matches "en_US" and the other way round
                if key.split("_")[0] == lang.split("-")[0].split("_")[0]:
                    return str(texts[key])
        if default is None:
            if "" in texts:
                return str(texts[""])
            return str(next(iter(texts.values())))
    return default


def text_for(languages: list[str], holder: Any, texts_key: str, default: str | None) -> str | None:
    """``default``, or its translation from ``holder`` (an entity with ``extras``, or a
    settings mapping) when ``languages`` names one it has (WFS 2.0, WCS 2.0)."""
    if not languages:
        return default
    extras = holder.get(texts_key) if isinstance(holder, Mapping) else holder.extras.get(texts_key)
    return translated(extras, default, languages) if extras else default


def check_languages(languages: list[str], holders: list[Any]) -> None:
    """GeoServer's check of ``AcceptLanguages`` (``InternationalContentHelper.verify``):
    refused when no title or abstract of the document (``holders``: their locale → text
    maps) has a translation at all, or none in a requested language (``*`` accepts any)."""
    if not languages:
        return
    supported = sorted(
        {str(k) for texts in holders if isinstance(texts, Mapping) for k in texts if k}
    )
    requested = ",".join(languages)
    if not supported:
        raise OwsError(
            f"Content has been requested in one of the following languages: {requested}. "
            "But there is no international content defined"
        )
    if "*" in languages:
        return
    for lang in languages:
        base = lang.replace("_", "-").split("-")[0]
        if lang in supported or (
            "-" not in lang and any(s.split("_")[0] == base for s in supported)
        ):
            return
    raise OwsError(
        f"Content has been requested in one of the following languages: {requested}. "
        f"But supported languages are: {','.join(supported)}"
    )


def holders(
    service: Mapping[str, Any], items: list[Any], resources: list[Resource | None]
) -> list[Any]:
    """The locale → text maps of a document: the service's, its items' and resources'."""
    out: list[Any] = [service.get("internationalTitle"), service.get("internationalAbstract")]
    for holder in [*items, *resources]:
        if holder is not None:
            out += [
                holder.extras.get("internationalTitle"),
                holder.extras.get("internationalAbstract"),
            ]
    return out


def title(item: Layer | LayerGroup, resource: Resource | None, languages: list[str]) -> str | None:
    if isinstance(item, LayerGroup):
        return translated(item.extras.get("internationalTitle"), item.title, languages)
    texts = (resource.extras.get("internationalTitle") if resource else None) or item.extras.get(
        "internationalTitle"
    )
    return translated(texts, resource.title if resource else None, languages)


def abstract(
    item: Layer | LayerGroup, resource: Resource | None, languages: list[str]
) -> str | None:
    if isinstance(item, LayerGroup):
        return translated(item.extras.get("internationalAbstract"), item.abstract, languages)
    texts = (resource.extras.get("internationalAbstract") if resource else None) or item.extras.get(
        "internationalAbstract"
    )
    return translated(texts, resource.abstract if resource else None, languages)


# -- links -----------------------------------------------------------------------------


def attribution(item: Layer | LayerGroup) -> Attribution | None:
    """The attribution GeoServer writes: None unless a title, a link or a whole logo (URL,
    format and positive sizes) is set."""
    a = item.extras.get("attribution")
    if not isinstance(a, Mapping):
        return None
    logo = None
    url, fmt = a.get("logoURL"), a.get("logoType")
    width, height = _int(a.get("logoWidth")), _int(a.get("logoHeight"))
    if url and fmt and width > 0 and height > 0:
        logo = (str(url), str(fmt), width, height)
    found = Attribution(a.get("title"), a.get("href"), logo)
    if found.title is None and found.href is None and logo is None:
        return None
    return found


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def authority_urls(item: Layer | LayerGroup) -> list[tuple[str, str]]:
    """(name, href) pairs; entries missing either are skipped, as GeoServer skips them."""
    out = []
    for u in item.extras.get("authorityURLs") or []:
        if isinstance(u, Mapping) and u.get("name") and u.get("href"):
            out.append((str(u["name"]), str(u["href"])))
    return out


def identifiers(item: Layer | LayerGroup) -> list[tuple[str, str]]:
    """(authority, identifier) pairs; incomplete ones are skipped."""
    out = []
    for i in item.extras.get("identifiers") or []:
        if isinstance(i, Mapping) and i.get("authority") and i.get("identifier"):
            out.append((str(i["authority"]), str(i["identifier"])))
    return out


def _links(raw: Any, metadata: bool) -> list[Link]:
    out = []
    for link in raw or []:
        if not isinstance(link, Mapping) or not link.get("content"):
            continue
        kind = link.get("metadataType") if metadata else None
        out.append(Link(link.get("type"), str(link["content"]), kind, link.get("about")))
    return out


def metadata_links(resource: Resource | None) -> list[Link]:
    return _links(resource.extras.get("metadataLinks") if resource else None, True)


def group_metadata_links(group: LayerGroup, members: list[Resource]) -> list[Link]:
    """A group's own links, else its layers' (GeoServer aggregates them, GEOS-4500)."""
    own = _links(group.extras.get("metadataLinks"), True)
    if own:
        return own
    out: list[Link] = []
    for res in members:
        for link in metadata_links(res):
            if link not in out:
                out.append(link)
    return out


def data_links(resource: Resource | None) -> list[Link]:
    return _links(resource.extras.get("dataLinks") if resource else None, False)


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
        times = sorted({t for t in (_instant(v) for v in raw or []) if t})
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
        elevs = sorted({e for e in (_number(v) for v in raw or []) if e is not None})
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
        table = sources.feature_table(
            state, resource.workspace, resource.store, resource.native_name or resource.name
        )
        if not attr or table is None:
            return []
        return [f.properties.get(attr) for f in table.features]
    return []


def _instant(value: Any) -> datetime.datetime | None:
    if isinstance(value, datetime.datetime):
        return value if value.tzinfo else value.replace(tzinfo=datetime.UTC)
    if isinstance(value, datetime.date):
        return datetime.datetime(value.year, value.month, value.day, tzinfo=datetime.UTC)
    if value is None or value == "":
        return None
    from ..mosaics.bindings import parse_instant

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


def feature_selector(
    state: State,
    resource: Resource,
    time: str | None,
    elevation: str | None,
    now: datetime.datetime,
) -> Callable[[Mapping[str, Any]], bool] | None:
    """Which features of a feature type a GetMap or GetFeatureInfo draws, by its enabled
    ``time``/``elevation`` dimensions: those the ``TIME``/``ELEVATION`` values name (an
    instant or number, a list, a ``start/end`` range), else those at the dimension's default
    value (GeoServer applies the default when the request names none). None: no selection."""
    tests: list[Callable[[Mapping[str, Any]], bool]] = []
    info = _info(resource, "time")
    if isinstance(resource, FeatureType) and info is not None and info.get("attribute"):
        attr = str(info["attribute"])
        wanted = time
        if not wanted or wanted.lower() == "current":
            raw = _values(state, resource, info, "Time") or []
            times = sorted({t for t in (_instant(v) for v in raw) if t})
            wanted = _time_default(info, times, now) if times else None
        match = _time_match(wanted) if wanted else None
        if match is not None:
            tests.append(lambda props, a=attr, m=match: m(_instant(props.get(a))))
    info = _info(resource, "elevation")
    if isinstance(resource, FeatureType) and info is not None and info.get("attribute"):
        attr = str(info["attribute"])
        wanted = elevation
        if not wanted:
            raw = _values(state, resource, info, "Elevation") or []
            elevs = sorted({e for e in (_number(v) for v in raw) if e is not None})
            wanted = java_number(_elevation_default(info, elevs)) if elevs else None
        ematch = _number_match(wanted) if wanted else None
        if ematch is not None:
            tests.append(lambda props, a=attr, m=ematch: m(_number(props.get(a))))
    if not tests:
        return None
    return lambda props: all(t(props) for t in tests)


def _time_match(text: str) -> Callable[[datetime.datetime | None], bool] | None:
    """A test for ``a``, ``a,b`` or ``start/end[/period]``; None when nothing parses."""
    ranges: list[tuple[datetime.datetime, datetime.datetime]] = []
    for part in text.split(","):
        bounds = part.strip().split("/")
        start = _instant(bounds[0])
        end = _instant(bounds[1]) if len(bounds) > 1 else start
        if start is not None and end is not None:
            ranges.append((start, end))
    if not ranges:
        return None
    return lambda t: t is not None and any(a <= t <= b for a, b in ranges)


def _number_match(text: str) -> Callable[[float | None], bool] | None:
    ranges: list[tuple[float, float]] = []
    for part in text.split(","):
        bounds = part.strip().split("/")
        low = _number(bounds[0])
        high = _number(bounds[1]) if len(bounds) > 1 else low
        if low is not None and high is not None:
            ranges.append((low, high))
    if not ranges:
        return None
    return lambda v: v is not None and any(a <= v <= b for a, b in ranges)
