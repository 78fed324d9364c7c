"""A style's rules and symbolizers, read from its SLD (1.0) or SE (1.1) body, as the
legends and maps need them.

Only what the emulator draws or reports is kept: rule name, title, abstract, filter (as
GeoTools' CQL text), scale range, and per symbolizer its kind (``Polygon``, ``Line``,
``Point``, ``Text``, ``Raster``) and parameters (fill, stroke, mark, size, label, colour
map). Bodies in other languages (CSS, YSLD...) read as one rule drawing the generic
symbolizer for the geometry.
"""

from __future__ import annotations

import functools
from typing import Any

from ...core.errors import EmulatorError
from ...core.record import field, record
from ...filters.ogc_xml import filter_cql, first_condition
from ...wire import xml as wxml
from . import expressions
from .expressions import Expr

KINDS = {
    "PolygonSymbolizer": "Polygon",
    "LineSymbolizer": "Line",
    "PointSymbolizer": "Point",
    "TextSymbolizer": "Text",
    "RasterSymbolizer": "Raster",
}


@record(frozen=True)
class Symbolizer:
    kind: str
    fill: dict[str, str] | None = None
    stroke: dict[str, str] | None = None
    graphic: dict[str, Any] | None = None
    """``{"mark": name, "size": text, "opacity", "rotation", "fill": {...}, "stroke": {...},
    "external": url, "format": type}``"""
    label: str | None = None
    font: dict[str, str] | None = None
    halo: dict[str, Any] | None = None
    colormap: tuple[tuple[str, str, str | None, str | None], ...] = ()
    """(quantity, colour, opacity, label) per entry"""
    colormap_type: str = "ramp"
    opacity: str | None = None
    name: str | None = None
    uom: str | None = None
    geometry: str | None = None
    dynamic: tuple[tuple[str, str, Expr], ...] = ()
    """the parameters computed per feature: (part, parameter, expression), where part is
    ``fill``, ``stroke``, ``font``, ``graphic``, ``graphic.fill`` or ``graphic.stroke``"""
    label_expr: Expr | None = None
    priority: Expr | None = None
    placement: Placement | None = None
    options: tuple[tuple[str, str], ...] = ()
    """vendor options, by name (``followLine``, ``spaceAround``, ``inclusion``…)"""
    graphic_fill: dict[str, Any] | None = None
    """a polygon's ``GraphicFill`` (as ``graphic``)"""

    def option(self, name: str, default: str | None = None) -> str | None:
        return next((v for k, v in self.options if k == name), default)


@record(frozen=True)
class Placement:
    """A label's placement: a point placement's anchor (0..1 of the label's box, y up),
    displacement (pixels, y up) and rotation (degrees, clockwise); or a line placement
    (``line``) with its perpendicular offset."""

    anchor: tuple[float, float] = (0.0, 0.5)
    displacement: tuple[float, float] = (0.0, 0.0)
    rotation: Expr | None = None
    line: bool = False
    offset: float = 0.0


@record(frozen=True)
class Rule:
    name: str | None = None
    title: str | None = None
    abstract: str | None = None
    filter: str | None = None
    """the filter as CQL text, None for none"""
    else_filter: bool = False
    min_scale: float | None = None
    max_scale: float | None = None
    symbolizers: tuple[Symbolizer, ...] = field(default_factory=tuple)
    titles: tuple[tuple[str, str], ...] = ()
    """the title's ``<Localized lang="…">`` translations (GeoServer's SLD extension)"""
    inclusion: str | None = None
    """the rule's ``inclusion`` vendor option: ``mapOnly``, ``legendOnly`` (None: both)"""

    def title_in(self, language: str | None) -> str | None:
        """The title for ``language`` (a ``LANGUAGE`` parameter, taken whole), else the
        default one."""
        if language:
            for lang, text in self.titles:
                if lang == language:
                    return text
        return self.title


@functools.lru_cache(maxsize=256)
def rules(body: bytes) -> tuple[Rule, ...]:
    """Every rule of the first UserStyle, in order (its feature type styles one after
    another); an empty tuple when the body is not an SLD document."""
    try:
        root = wxml.parse(body, "SLD")
    except EmulatorError:
        return ()
    style = next(
        (e for e in root.iter() if isinstance(e.tag, str) and wxml.local(e.tag) == "UserStyle"),
        None,
    )
    if style is None:
        return ()
    out: list[Rule] = []
    for fts in style:
        if not isinstance(fts.tag, str) or wxml.local(fts.tag) not in (
            "FeatureTypeStyle",
            "CoverageStyle",
        ):
            continue
        for el in fts:
            if isinstance(el.tag, str) and wxml.local(el.tag) == "Rule":
                out.append(_rule(el))
    return tuple(out)


def _rule(el: Any) -> Rule:
    desc = wxml.child(el, "Description")
    source = desc if desc is not None else el
    flt = wxml.child(el, "Filter")
    symbolizers = tuple(
        _symbolizer(c) for c in el if isinstance(c.tag, str) and wxml.local(c.tag) in KINDS
    )
    title_el = wxml.child(source, "Title")
    titles = tuple(
        (c.get("lang") or "", (c.text or "").strip())
        for c in (title_el if title_el is not None else ())
        if isinstance(c.tag, str) and wxml.local(c.tag) == "Localized"
    )
    return Rule(
        name=wxml.text(el, "Name"),
        title=wxml.text(source, "Title"),
        titles=titles,
        abstract=wxml.text(source, "Abstract"),
        filter=filter_cql(first_condition(flt)) if flt is not None else None,
        else_filter=wxml.child(el, "ElseFilter") is not None,
        min_scale=_float(wxml.text(el, "MinScaleDenominator")),
        max_scale=_float(wxml.text(el, "MaxScaleDenominator")),
        symbolizers=symbolizers,
        inclusion=dict(_options(el)).get("inclusion"),
    )


def _options(el: Any) -> tuple[tuple[str, str], ...]:
    """The ``VendorOption`` children of an element, in order."""
    return tuple(
        (c.get("name") or "", (c.text or "").strip())
        for c in el
        if isinstance(c.tag, str) and wxml.local(c.tag) == "VendorOption"
    )


def _dynamic(el: Any | None, part: str) -> list[tuple[str, str, Expr]]:
    """The parameters of ``el`` that are not plain literals, as expressions."""
    if el is None:
        return []
    out = []
    for p in el:
        if isinstance(p.tag, str) and wxml.local(p.tag) in ("CssParameter", "SvgParameter"):
            expr = expressions.parse(p)
            if not expr.constant and p.get("name"):
                out.append((part, p.get("name") or "", expr))
    return out


def _expr(el: Any | None) -> Expr | None:
    return expressions.parse(el) if el is not None else None


def _pair(el: Any | None, x: str, y: str, default: tuple[float, float]) -> tuple[float, float]:
    if el is None:
        return default
    return (_float(wxml.text(el, x)) or 0.0, _float(wxml.text(el, y)) or 0.0)


def _placement(el: Any | None) -> Placement | None:
    if el is None:
        return None
    line = wxml.child(el, "LinePlacement")
    if line is not None:
        return Placement(line=True, offset=_float(wxml.text(line, "PerpendicularOffset")) or 0.0)
    point = wxml.child(el, "PointPlacement")
    if point is None:
        return None
    return Placement(
        anchor=_pair(wxml.child(point, "AnchorPoint"), "AnchorPointX", "AnchorPointY", (0, 0.5)),
        displacement=_pair(
            wxml.child(point, "Displacement"), "DisplacementX", "DisplacementY", (0, 0)
        ),
        rotation=_expr(wxml.child(point, "Rotation")),
    )


def _float(value: str | None) -> float | None:
    try:
        return float(value) if value else None
    except ValueError:
        return None


def _params(el: Any | None) -> dict[str, str]:
    """CssParameter / SvgParameter values by name."""
    if el is None:
        return {}
    out = {}
    for p in el:
        if isinstance(p.tag, str) and wxml.local(p.tag) in ("CssParameter", "SvgParameter"):
            name = p.get("name")
            if name:
                out[name] = _value(p)
    return out


def _value(el: Any) -> str:
    """The text of a parameter: its literal, or ``[attribute]`` for a property reference."""
    parts = [el.text or ""]
    for c in el:
        if isinstance(c.tag, str) and wxml.local(c.tag) == "PropertyName":
            parts.append(f"[{(c.text or '').strip()}]")
        elif isinstance(c.tag, str) and wxml.local(c.tag) == "Literal":
            parts.append(c.text or "")
        parts.append(c.tail or "")
    return "".join(parts).strip()


def _graphic(el: Any | None) -> dict[str, Any] | None:
    if el is None:
        return None
    out: dict[str, Any] = {}
    mark = wxml.child(el, "Mark")
    if mark is not None:
        out["mark"] = wxml.text(mark, "WellKnownName") or "square"
        fill = wxml.child(mark, "Fill")
        stroke = wxml.child(mark, "Stroke")
        out["fill"] = _params(fill) if fill is not None else None
        out["stroke"] = _params(stroke) if stroke is not None else None
        out["dynamic"] = _dynamic(fill, "graphic.fill") + _dynamic(stroke, "graphic.stroke")
    external = wxml.child(el, "ExternalGraphic")
    if external is not None:
        res = wxml.child(external, "OnlineResource")
        if res is not None:
            out["external"] = res.get("{http://www.w3.org/1999/xlink}href")
        out["format"] = wxml.text(external, "Format")
    for key in ("Size", "Opacity", "Rotation"):
        node = wxml.child(el, key)
        if node is not None:
            out[key.lower()] = _value(node)
            expr = expressions.parse(node)
            if not expr.constant:
                out.setdefault("dynamic", []).append(("graphic", key.lower(), expr))
    return out


def _symbolizer(el: Any) -> Symbolizer:
    kind = KINDS[wxml.local(el.tag)]
    fill = wxml.child(el, "Fill")
    stroke = wxml.child(el, "Stroke")
    geometry = wxml.child(el, "Geometry")
    common: dict[str, Any] = {
        "name": wxml.text(el, "Name"),
        "uom": el.get("uom"),
        "geometry": _value(geometry) if geometry is not None else None,
    }
    common["options"] = _options(el)
    if kind == "Point":
        graphic = _graphic(wxml.child(el, "Graphic"))
        dynamic = tuple(graphic.pop("dynamic", ())) if graphic else ()
        return Symbolizer(kind, graphic=graphic, dynamic=dynamic, **common)
    if kind == "Text":
        label = wxml.child(el, "Label")
        halo = wxml.child(el, "Halo")
        font = wxml.child(el, "Font")
        halo_fill = wxml.child(halo, "Fill") if halo is not None else None
        computed = _dynamic(fill, "fill") + _dynamic(font, "font") + _dynamic(halo_fill, "halo")
        return Symbolizer(
            kind,
            dynamic=tuple(computed),
            label_expr=_expr(label),
            priority=_expr(wxml.child(el, "Priority")),
            placement=_placement(wxml.child(el, "LabelPlacement")),
            fill=_params(fill) if fill is not None else None,
            label=_value(label) if label is not None else None,
            font=_params(wxml.child(el, "Font")),
            halo=(
                {
                    "radius": wxml.text(halo, "Radius") or "1",
                    "fill": _params(wxml.child(halo, "Fill")),
                }
                if halo is not None
                else None
            ),
            **common,
        )
    if kind == "Raster":
        cmap = wxml.child(el, "ColorMap")
        entries: list[tuple[str, str, str | None, str | None]] = []
        ctype = "ramp"
        if cmap is not None:
            ctype = cmap.get("type") or "ramp"
            for e in cmap:
                if isinstance(e.tag, str) and wxml.local(e.tag) == "ColorMapEntry":
                    entries.append(
                        (
                            e.get("quantity") or "0",
                            e.get("color") or "#000000",
                            e.get("opacity"),
                            e.get("label"),
                        )
                    )
        return Symbolizer(
            kind,
            colormap=tuple(entries),
            colormap_type=ctype,
            opacity=wxml.text(el, "Opacity"),
            **common,
        )
    graphic_fill = wxml.child(fill, "GraphicFill") if fill is not None else None
    return Symbolizer(
        kind,
        fill=_params(fill) if fill is not None else None,
        stroke=_params(stroke) if stroke is not None else None,
        dynamic=tuple(_dynamic(fill, "fill") + _dynamic(stroke, "stroke")),
        graphic_fill=_graphic(wxml.child(graphic_fill, "Graphic"))
        if graphic_fill is not None
        else None,
        **common,
    )
