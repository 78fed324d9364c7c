"""OGC Filter XML (Filter Encoding 1.0, 1.1 and 2.0, SLD rule filters) read into a ``Filter``.

The one module of the filter engine that reads XML: an element (parsed by ``wire.xml``) is
written as GeoTools' CQL text of the same filter (``filter_cql``), which ``ecql`` then reads,
so that an XML filter and its CQL text mean exactly the same. A filter made only of feature
or resource ids is read by ``resource_ids`` (a WFS query or transaction selects by id).
"""

from __future__ import annotations

from typing import Any

from ..wire import xml as wxml
from . import ecql
from .tree import INCLUDE, Filter

ID_ELEMENTS = frozenset({"FeatureId", "GmlObjectId", "ResourceId"})
"""the id elements of Filter Encoding 1.0 (``fid``), 1.1 (``gml:id``) and 2.0 (``rid``)"""
GML_ID = "{http://www.opengis.net/gml}id"


def parse_xml(el: Any | None) -> Filter:
    """The ``Filter`` of an OGC filter's first condition element (None: ``INCLUDE``);
    ``Invalid`` when its CQL text does not parse."""
    text = filter_cql(el)
    return INCLUDE if text is None else ecql.parse(text)


def first_condition(flt: Any) -> Any | None:
    """The first child element of an ``ogc:Filter``/``fes:Filter`` element."""
    return next((c for c in flt if isinstance(c.tag, str)), None)


def resource_ids(flt: Any) -> list[str | None] | None:
    """The ids an ``ogc:Filter`` element selects when its first condition is an id element
    (each child's ``fid``, ``rid`` or ``gml:id``; None where a child has none); None for a
    filter of any other kind."""
    first = first_condition(flt)
    if first is None or wxml.local(first.tag) not in ID_ELEMENTS:
        return None
    return [id_of(c) for c in flt if isinstance(c.tag, str)]


def id_of(el: Any) -> str | None:
    found: str | None = el.get("fid") or el.get("rid") or el.get(GML_ID)
    return found


_COMPARISONS = {
    "PropertyIsEqualTo": "=",
    "PropertyIsNotEqualTo": "<>",
    "PropertyIsLessThan": "<",
    "PropertyIsGreaterThan": ">",
    "PropertyIsLessThanOrEqualTo": "<=",
    "PropertyIsGreaterThanOrEqualTo": ">=",
}


def _expr(el: Any | None) -> str:
    if el is None:
        return "NULL"
    name = wxml.local(el.tag)
    if name in ("PropertyName", "ValueReference"):
        return (el.text or "").strip()
    if name == "Literal":
        text = (el.text or "").strip()
        try:
            int(text)
            return text
        except ValueError:
            pass
        try:
            float(text)
            return text
        except ValueError:
            return "'" + text.replace("'", "''") + "'"
    if name in ("Add", "Sub", "Mul", "Div"):
        op = {"Add": "+", "Sub": "-", "Mul": "*", "Div": "/"}[name]
        args = [c for c in el if isinstance(c.tag, str)]
        return "(" + f" {op} ".join(_expr(a) for a in args) + ")"
    if name == "Function":
        args = [_expr(c) for c in el if isinstance(c.tag, str)]
        return f"{el.get('name')}({', '.join(args)})"
    return (el.text or "").strip()


def filter_cql(el: Any | None) -> str | None:
    """GeoTools' CQL text of an OGC filter element (None for an empty filter)."""
    if el is None:
        return None
    name = wxml.local(el.tag)
    kids = [c for c in el if isinstance(c.tag, str)]
    if name in ("And", "Or"):
        parts = [filter_cql(c) or "INCLUDE" for c in kids]
        return "(" + f" {name.upper()} ".join(parts) + ")"
    if name == "Not":
        return f"NOT ({filter_cql(kids[0]) if kids else 'INCLUDE'})"
    if name in _COMPARISONS:
        lhs = _expr(kids[0] if kids else None)
        rhs = _expr(kids[1] if len(kids) > 1 else None)
        return f"{lhs} {_COMPARISONS[name]} {rhs}"
    if name == "PropertyIsBetween":
        lower = wxml.child(el, "LowerBoundary")
        upper = wxml.child(el, "UpperBoundary")
        low = first_condition(lower) if lower is not None else None
        high = first_condition(upper) if upper is not None else None
        return f"{_expr(kids[0])} BETWEEN {_expr(low)} AND {_expr(high)}"
    if name == "PropertyIsLike":
        pattern = _expr(kids[1]) if len(kids) > 1 else "''"
        wild, single = el.get("wildCard", "*"), el.get("singleChar", ".")
        if pattern.startswith("'"):
            pattern = pattern.replace(wild, "%").replace(single, "_")
        return f"{_expr(kids[0])} LIKE {pattern}"
    if name == "PropertyIsNull":
        return f"{_expr(kids[0])} IS NULL"
    if name in ID_ELEMENTS:
        ids = [id_of(c) for c in [el, *kids]]
        return "IN (" + ", ".join(f"'{i}'" for i in ids if i) + ")"
    return "INCLUDE"
