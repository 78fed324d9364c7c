"""Property collectors: how each granule's index attributes get their values.

The regex collectors apply their regular expression to the granule's file name without its
extension (or to its full path with ``fullPath``), joining the groups of each match (the
whole match when there are no groups), as GeoTools' ``RegExPropertiesCollector`` does. The
timestamp collector parses its matches as dates (leniently, or with a ``format``) and fails
the granule when none parses; the numeric ones take the first match that converts and leave
the attribute empty otherwise. The others read the file's date, the current (emulated)
time, the TIFF ``DateTime`` tag, the pixel size or the CRS. Unknown collectors are skipped,
as GeoTools skips them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from ...core.budget import MATCH_SECONDS, Budget
from ...core.record import record
from .bindings import parse_instant, parse_with_format, simple_date_parser
from .granules import RasterInfo
from .indexer import Collector

MATCH_TIMEOUT = MATCH_SECONDS
"""seconds one collector match may take (a harvest's matches share a ``SpentBudget``)"""
NUMERIC = {
    "bytefilenameextractorspi": "int",
    "shortfilenameextractorspi": "int",
    "integerfilenameextractorspi": "int",
    "longfilenameextractorspi": "int",
    "floatfilenameextractorspi": "real",
    "doublefilenameextractorspi": "real",
}
REGEX_SPIS = frozenset({*NUMERIC, "timestampfilenameextractorspi", "stringfilenameextractorspi"})


class CollectError(Exception):
    """A collector that cannot fill its attribute for this granule."""


@record(frozen=True)
class GranuleFacts:
    """What the collectors may look at."""

    path: str
    """the full path of the file"""
    raster: RasterInfo
    modified: datetime | None
    now: datetime


def check(collector: Collector) -> str | None:
    """Why a collector's configuration is unusable, or None."""
    spi = collector.spi.lower()
    if spi not in REGEX_SPIS or collector.regex is None:
        return None
    from ..urlchecks.regexes import compile_java, regex  # slow to import: on first use

    try:
        compile_java(collector.regex)
    except regex.error as exc:
        return f"invalid regular expression {collector.regex!r}: {exc}"
    if collector.format and spi == "timestampfilenameextractorspi":
        try:
            simple_date_parser(collector.format)
        except ValueError as exc:
            return str(exc)
    return None


def collect(
    collector: Collector, facts: GranuleFacts, budget: Budget | None = None
) -> tuple[bool, Any]:
    """(applies, value): ``applies`` is False for a collector GeoTools would skip. The regex
    matches of a harvest share ``budget`` (``TooCostly`` past it)."""
    spi = collector.spi.lower()
    if spi in REGEX_SPIS:
        if collector.regex is None:
            return False, None
        return True, _from_name(spi, collector, facts, budget)
    other = OTHERS.get(spi)
    if other is None:
        return False, None
    return True, other(facts)


def _matches(collector: Collector, facts: GranuleFacts, budget: Budget | None) -> list[str]:
    name = facts.path if collector.full_path else _base_name(facts.path)
    assert collector.regex is not None
    from ..urlchecks.regexes import compile_java  # slow to import: on first use

    pattern = compile_java(collector.regex)
    timeout = MATCH_TIMEOUT if budget is None else budget.timeout(MATCH_TIMEOUT)
    cpu, wall = time.thread_time(), time.monotonic()
    try:
        found = list(pattern.finditer(name, timeout=timeout))
    except TimeoutError:
        raise CollectError(f"the regular expression {collector.regex!r} ran out of time") from None
    finally:
        if budget is not None:
            budget.spend(time.thread_time() - cpu, time.monotonic() - wall)
    out = []
    for m in found:
        groups = m.groups()
        out.append("".join(g or "" for g in groups) if groups else m.group(0))
    return out


def _from_name(spi: str, collector: Collector, facts: GranuleFacts, budget: Budget | None) -> Any:
    matches = _matches(collector, facts, budget)
    if spi == "timestampfilenameextractorspi":
        pattern = simple_date_parser(collector.format) if collector.format else None
        for text in matches:
            value = parse_with_format(text, pattern) if pattern else parse_instant(text)
            if value is not None:
                return value
        raise CollectError(
            f"no date found in {_base_name(facts.path)!r} "
            f"by the regular expression {collector.regex!r}"
        )
    if spi == "stringfilenameextractorspi":
        return matches[0] if matches else None
    for text in matches:
        try:
            return int(text) if NUMERIC[spi] == "int" else float(text)
        except ValueError:
            continue
    return None


def _base_name(path: str) -> str:
    base = path.replace("\\", "/").rsplit("/", 1)[-1]
    return base.rsplit(".", 1)[0] if "." in base else base


def _tiff_date(facts: GranuleFacts) -> Any:
    stamp = facts.raster.date_time
    if not stamp:
        return None
    try:
        return datetime.strptime(stamp.strip(), "%Y:%m:%d %H:%M:%S").replace(tzinfo=UTC)
    except ValueError:
        return None


def _resolution(axis: int) -> Callable[[GranuleFacts], Any]:
    def read(facts: GranuleFacts) -> Any:
        env, info = facts.raster.envelope, facts.raster
        return (
            (env.maxx - env.minx) / info.width if axis == 0 else (env.maxy - env.miny) / info.height
        )

    return read


OTHERS: dict[str, Callable[[GranuleFacts], Any]] = {
    "currentdateextractorspi": lambda facts: facts.now,
    "fsdateextractorspi": lambda facts: facts.modified,
    "dateextractorspi": _tiff_date,
    "resolutionextractorspi": _resolution(0),
    "resolutionxextractorspi": _resolution(0),
    "resolutionyextractorspi": _resolution(1),
    "crsextractorspi": lambda facts: facts.raster.crs,
}
