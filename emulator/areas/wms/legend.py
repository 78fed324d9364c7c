"""GetLegendGraphic: a legend image drawn from the style's rules, or GeoServer's JSON
legend structure (``format=application/json``).

Each rule is a row: an icon of WIDTH x HEIGHT (20 x 20 by default) drawing the rule's
symbolizers on a sample shape (a square for polygons, a diagonal for lines, the mark
centred for points), and, when the legend has more than one rule, the rule's title (else
its name) to the right in Pillow's built-in font. A raster style's colour map is drawn as
one swatch per entry with its label. Row sizes follow GeoServer's layout; glyphs and text
widths are Pillow's, not Java's.
"""

from __future__ import annotations

import functools
from typing import Any

from ...core.record import record, replace
from ..catalog.entities import Layer, LayerGroup, StyleRef
from ..ows.errors import INVALID, INVALID_FORMAT, LAYER_NOT_DEFINED, STYLE_NOT_DEFINED, OwsError
from ..ows.kvp import Call
from ..ows.model import View
from . import paint, styles
from .symbolizers import Rule, Symbolizer, rules

LEGEND_FORMATS = ("image/png", "image/jpeg", "image/gif", "application/json")
GAP = 2
"""pixels between an icon and its label"""


@record(frozen=True)
class Entry:
    """One layer's part of a legend."""

    layer: str
    title: str | None
    rules: tuple[Rule, ...]
    language: str | None = None
    """the ``LANGUAGE`` asked for: rule titles in that language where the style has them"""


def request(view: View, call: Call) -> tuple[list[Entry], str]:
    """The legend entries a GetLegendGraphic call asks for, and the format; refusals as
    GeoServer's ``GetLegendGraphicKvpReader`` words them."""
    layer_name = call.get("LAYER")
    if not layer_name:
        raise OwsError("LAYER parameter not present for GetLegendGraphic", LAYER_NOT_DEFINED)
    fmt = call.get("FORMAT")
    if not fmt:
        raise OwsError("Missing FORMAT parameter for GetLegendGraphic", "MissingFormat")
    try:
        item = view.find(layer_name, "layer", metadata=True)
    except OwsError:
        raise OwsError(f"{layer_name} layer does not exist.", LAYER_NOT_DEFINED, "layer") from None
    if fmt not in LEGEND_FORMATS:
        raise OwsError(f"Invalid graphic format: {fmt}", INVALID_FORMAT, "format")
    style_names = [s for s in (call.get("STYLE") or "").split(",")] if call.get("STYLE") else []
    pairs: list[tuple[Layer, StyleRef]] = []
    if isinstance(item, LayerGroup):
        members = list(view.member_layers(item))
        group_styles = item.styles + [None] * len(item.publishables)
        for i, layer in enumerate(members):
            ref = group_styles[i] if i < len(group_styles) and group_styles[i] else None
            pairs.append((layer, ref or _default(layer)))
    else:
        ref = _default(item)
        if style_names and style_names[0]:
            ref = style_ref(view, item, style_names[0])
        pairs.append((item, ref))
    rule_name = call.get("RULE")
    entries = []
    for layer, ref in pairs:
        data = styles.body(view.state, ref) or b""
        found = rules(data)
        if rule_name:
            found = tuple(r for r in found if r.name == rule_name)
            if not found:
                raise OwsError(f"Specified style does not contains a rule named {rule_name}")
        scale = call.get("SCALE")
        if scale:
            try:
                denominator = float(scale)
            except ValueError:
                raise OwsError(f"Invalid SCALE: {scale}", INVALID, "scale") from None
            found = tuple(r for r in found if _in_scale(r, denominator))
        title = view.resource(layer).title
        entries.append(Entry(layer.name, title, found, call.get("LANGUAGE")))
    return entries, fmt


def _default(layer: Layer) -> StyleRef:
    return layer.default_style or StyleRef(None, "generic")


def style_ref(view: View, layer: Layer, name: str) -> StyleRef:
    ws, sep, local = name.partition(":")
    candidates = (
        [StyleRef(ws, local)] if sep else [StyleRef(layer.workspace, name), StyleRef(None, name)]
    )
    for ref in candidates:
        if view.state.styles.get(ref.workspace, ref.name) is not None:
            return ref
    raise OwsError(f"No such style: {name}", STYLE_NOT_DEFINED, "style")


def _in_scale(rule: Rule, scale: float) -> bool:
    if rule.min_scale is not None and scale < rule.min_scale:
        return False
    return not (rule.max_scale is not None and scale >= rule.max_scale)


# -- image -------------------------------------------------------------------------------


def _rows(entries: list[Entry]) -> list[tuple[Rule | None, Symbolizer | None, str]]:
    rows: list[tuple[Rule | None, Symbolizer | None, str]] = []
    for entry in entries:
        raster = [s for r in entry.rules for s in r.symbolizers if s.kind == "Raster"]
        if raster and raster[0].colormap:
            for quantity, color, opacity, label in raster[0].colormap:
                swatch = Symbolizer("Polygon", fill={"fill": color, "fill-opacity": opacity or "1"})
                rows.append((None, swatch, label or quantity))
            continue
        for rule in entry.rules:
            if rule.inclusion == "mapOnly":
                continue
            shown = tuple(s for s in rule.symbolizers if s.option("inclusion") != "mapOnly")
            if shown != rule.symbolizers:
                rule = replace(rule, symbolizers=shown)
            rows.append((rule, None, rule.title_in(entry.language) or rule.name or ""))
    return rows


@functools.lru_cache(maxsize=512)
def sample_size(body: bytes) -> tuple[int, int]:
    """The size of the default legend of a style body (capabilities' LegendURL ``width``
    and ``height``, as GeoServer's ``LegendSample`` measures them)."""
    rows = _rows([Entry("", None, rules(body))])
    return _size(rows, 20, 20, None)


def _size(rows: list[Any], width: int, height: int, force_labels: bool | None) -> tuple[int, int]:
    labels = force_labels if force_labels is not None else len(rows) > 1
    text_width = max((paint.text_size(t)[0] for _, _, t in rows), default=0) if labels else 0
    total_w = width + (GAP + text_width if labels and text_width else 0)
    return total_w, max(height, height * len(rows))


def image(
    entries: list[Entry],
    width: int,
    height: int,
    fmt: str,
    transparent: bool,
    force_labels: bool | None = None,
) -> bytes:
    rows = _rows(entries)
    labels = force_labels if force_labels is not None else len(rows) > 1
    total_w, total_h = _size(rows, width, height, force_labels)
    background = (255, 255, 255, 0) if transparent else (255, 255, 255, 255)
    canvas = paint.Canvas(total_w, total_h, background)
    for i, (rule, swatch, label) in enumerate(rows):
        top = i * height
        symbolizers = rule.symbolizers if rule is not None else (swatch,) if swatch else ()
        for sym in symbolizers:
            _icon(canvas, sym, 0, top, width, height)
        if labels and label:
            th = paint.text_size(label)[1]
            canvas.text((width + GAP, top + (height - th) / 2), label)
    return canvas.encode(fmt, transparent)


def _icon(canvas: paint.Canvas, sym: Symbolizer | None, x: int, y: int, w: int, h: int) -> None:
    if sym is None:
        return
    if sym.kind == "Polygon":
        ring = [(x, y), (x + w - 1, y), (x + w - 1, y + h - 1), (x, y + h - 1)]
        canvas.polygon([ring], paint.fill_of(sym.fill), paint.stroke_of(sym.stroke))
    elif sym.kind == "Line":
        stroke = paint.stroke_of(sym.stroke or {})
        if stroke is not None:
            canvas.line([(x + 1, y + h - 2), (x + w - 2, y + 1)], stroke)
    elif sym.kind == "Point" and sym.graphic is not None:
        g = sym.graphic
        size = min(paint.number(g.get("size"), 6.0), min(w, h) - 1)
        fill = paint.fill_of(g.get("fill")) if g.get("fill") is not None else None
        stroke = paint.stroke_of(g.get("stroke")) if g.get("stroke") is not None else None
        if "mark" in g:
            canvas.mark(g["mark"], x + w / 2, y + h / 2, size, fill, stroke)
        else:  # an external graphic: a grey square stands for it
            canvas.mark("square", x + w / 2, y + h / 2, size, (128, 128, 128, 255), None)


# -- JSON --------------------------------------------------------------------------------


def json_legend(entries: list[Entry]) -> dict[str, Any]:
    """GeoServer's JSON legend (``JSONLegendGraphicBuilder``): keys in its order, values
    as it prints them (colours ``#RRGGBB``, numbers as text, filters as ``[CQL]``)."""
    legends = []
    for entry in entries:
        jrules = []
        for rule in entry.rules:
            jr: dict[str, Any] = {}
            if rule.name:
                jr["name"] = rule.name
            title = rule.title_in(entry.language)
            if title is not None:
                jr["title"] = title
            if rule.abstract is not None:
                jr["abstract"] = rule.abstract
            if rule.filter is not None:
                jr["filter"] = f"[{rule.filter}]"
            symbolizers = [{s.kind: _jsymbolizer(s)} for s in rule.symbolizers]
            if symbolizers:
                jr["symbolizers"] = symbolizers
            jrules.append(jr)
        if jrules:
            legends.append({"layerName": entry.layer, "title": entry.title, "rules": jrules})
    return {"Legend": legends} if legends else {}


def _num(text: str | None, default: str) -> str:
    value = text if text not in (None, "") else default
    assert value is not None
    if value.startswith("["):
        return f"'{value}'"
    try:
        int(value)
        return value
    except ValueError:
        pass
    try:
        f = float(value)
    except ValueError:
        return value
    return repr(f)


def _color(text: str | None, default: str) -> str:
    value = (text or default).strip()
    if value.startswith("["):
        return f"'{value}'"
    rgba = paint.colour(value)
    return "#{:02X}{:02X}{:02X}".format(*rgba[:3])


def _jstroke(out: dict[str, Any], stroke: dict[str, str] | None) -> None:
    if stroke is None:
        return
    out["stroke"] = stroke.get("stroke", "#000000")
    width = stroke.get("stroke-width", "1")
    out["stroke-width"] = width
    out["stroke-opacity"] = _num(stroke.get("stroke-opacity"), "1")
    out["stroke-linecap"] = stroke.get("stroke-linecap", "butt")
    out["stroke-linejoin"] = stroke.get("stroke-linejoin", "miter")
    if stroke.get("stroke-dasharray"):
        out["stroke-dasharray"] = stroke["stroke-dasharray"].split()


def _jfill(out: dict[str, Any], fill: dict[str, str] | None) -> None:
    if fill is None:
        return
    out["fill"] = _color(fill.get("fill"), "#808080")
    out["fill-opacity"] = _num(fill.get("fill-opacity"), "1.0")


def _jsymbolizer(s: Symbolizer) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if s.name:
        out["name"] = s.name
    if s.uom:
        out["uom"] = s.uom
    if s.geometry:
        out["geometry"] = s.geometry
    if s.kind == "Point" and s.graphic is not None:
        g = s.graphic
        out["size"] = _num(g.get("size"), "6")
        out["opacity"] = _num(g.get("opacity"), "1.0")
        out["rotation"] = _num(g.get("rotation"), "0.0")
        graphic: dict[str, Any] = {}
        if "mark" in g:
            graphic["mark"] = g["mark"]
            _jfill(graphic, g.get("fill"))
            _jstroke(graphic, g.get("stroke"))
        if g.get("external"):
            graphic["external-graphic-url"] = g["external"]
            graphic["external-graphic-type"] = g.get("format")
        out["graphics"] = [graphic]
    elif s.kind in ("Line", "Polygon"):
        _jstroke(out, s.stroke)
        if s.kind == "Polygon":
            _jfill(out, s.fill)
    elif s.kind == "Raster":
        if s.colormap:
            entries = []
            for quantity, color, opacity, label in s.colormap:
                e: dict[str, Any] = {
                    "label": label,
                    "quantity": _num(quantity, "0"),
                    "color": _color(color, "#000000"),
                }
                if opacity is not None:
                    e["opacity"] = _num(opacity, "1.0")
                entries.append(e)
            out["colormap"] = {"entries": entries, "type": s.colormap_type}
        if s.opacity is not None:
            out["opacity"] = _num(s.opacity, "1.0")
    elif s.kind == "Text":
        out["label"] = s.label
        font = s.font or {}
        out["fonts"] = [
            {
                "font-family": [font.get("font-family", "Serif")],
                "font-style": font.get("font-style", "normal"),
                "font-weight": font.get("font-weight", "normal"),
                "font-size": _num(font.get("font-size"), "10"),
            }
        ]
        out["label-placement"] = {}
        if s.halo is not None:
            halo: dict[str, Any] = {"radius": _num(s.halo.get("radius"), "1")}
            _jfill(halo, s.halo.get("fill") or {"fill": "#FFFFFF"})
            out["halo"] = halo
    return out
