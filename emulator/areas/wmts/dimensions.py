"""WMTS dimensions as GeoWebCache has them: a tile layer's parameter filters.

The capabilities write a ``Dimension`` for each filter but the style filter that has legal
values (string, float and integer filters; a regular expression filter has none), and its
key as a ``{KEY}`` placeholder in the ``ResourceURL`` templates. A ``GetTile`` passes the
filtered keys on to the map it draws: the request's value as the filter applies it, the
filter's default when the request names none, and nothing for a key no filter has (so
``TIME``/``ELEVATION`` select features only on a layer that filters them). A value a filter
refuses fails the request as GeoWebCache's ``ParameterException`` does (500,
``NoApplicableCode``).
"""

from __future__ import annotations

from typing import Any

from ...wire.geoserver.java import number_text as java_number
from ..ows.errors import NO_CODE, OwsError
from ..seeding import filters

PASSED_ON = ("TIME", "ELEVATION")
"""the keys the emulator's map drawing reads"""


def _filters(tile: Any) -> list[dict[str, Any]]:
    return [f for f in getattr(tile, "parameter_filters", None) or [] if isinstance(f, dict)]


def _kind(f: dict[str, Any]) -> str:
    return str(f.get("type") or "stringParameterFilter")


def _java_float(v: Any) -> str:
    return java_number(float(v))


def legal_values(f: dict[str, Any]) -> list[str] | None:
    """``ParameterFilter.getLegalValues``: the values as GWC writes them; None (any value)
    for a regular expression filter."""
    kind = _kind(f)
    values = f.get("values") if isinstance(f.get("values"), list) else []
    if kind == "regexParameterFilter":
        return None
    if kind == "styleParameterFilter":
        allowed = f.get("allowedStyles")
        return [str(a) for a in allowed] if isinstance(allowed, list) else []
    if kind == "floatParameterFilter":
        return [_java_float(v) for v in values if _is_number(v)]
    if kind == "integerParameterFilter":
        return [str(int(v)) for v in values if _is_number(v)]
    return [str(v) for v in values]


def _is_number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def encode(value: str | None) -> str:
    """``TileLayer.encodeDimensionValue``."""
    if value is None:
        return "_null"
    return value or "_empty"


def dimensions(tile: Any) -> list[tuple[str, str, list[str]]]:
    """(key, encoded default, encoded legal values) of the layer's WMTS dimensions."""
    out = []
    for f in _filters(tile):
        key = str(f.get("key", ""))
        values = legal_values(f)
        if key.upper() == "STYLES" or values is None:
            continue
        default = f.get("defaultValue")
        out.append(
            (key, encode(str(default) if default is not None else ""), [encode(v) for v in values])
        )
    return out


def _apply(f: dict[str, Any], value: str) -> str:
    key = str(f.get("key", ""))
    kind = _kind(f)
    if kind == "regexParameterFilter":
        if filters.accepts(f, value):
            return value
        raise OwsError(f"{value} violates filter for parameter {key}", NO_CODE)
    if kind in ("floatParameterFilter", "integerParameterFilter"):
        numbers = [float(v) for v in f.get("values") or [] if _is_number(v)]
        try:
            n = float(value) if kind == "floatParameterFilter" else float(int(value))
        except (ValueError, OverflowError):  # not a number, or an integer no float holds
            raise OwsError(f"{value} violates filter for parameter {key}", NO_CODE) from None
        show = _java_float if kind == "floatParameterFilter" else (lambda v: str(int(v)))
        if not numbers:
            return show(n)
        best = min(numbers, key=lambda v: abs(v - n))
        threshold = f.get("threshold")
        if _is_number(threshold) and threshold > 0 and abs(best - n) < float(threshold):
            return show(best)
        shown = "null" if threshold is None else str(threshold)
        raise OwsError(
            f"Closest match for {key}={value} is {show(best)}, but this exceeds the threshold"
            f" of {shown}",
            NO_CODE,
        )
    legal = legal_values(f) or []
    normalized = value
    normalize = f.get("normalize")
    if isinstance(normalize, dict) and str(normalize.get("case", "")).upper() == "UPPER":
        normalized = value.upper()
    elif isinstance(normalize, dict) and str(normalize.get("case", "")).upper() == "LOWER":
        normalized = value.lower()
    if normalized in legal:
        return normalized
    raise OwsError(f"{normalized} violates filter for parameter {key}", NO_CODE)


def tile_parameters(tile: Any, params: dict[str, str]) -> dict[str, str]:
    """``params`` with ``TIME``/``ELEVATION`` as GWC's filters pass them to the map: the
    filtered value (or the filter's default), and removed where no filter has the key."""
    out = {k: v for k, v in params.items() if k not in PASSED_ON}
    for f in _filters(tile):
        key = str(f.get("key", "")).upper()
        default = f.get("defaultValue")
        default_text = "" if default is None else str(default)
        value = params.get(key)
        if value == "_null":
            value = None
        elif value == "_empty":
            value = ""
        if not value or value == default_text:
            chosen = default_text
        else:
            chosen = _apply(f, value)
        if key in PASSED_ON and chosen:
            out[key] = chosen
    return out
