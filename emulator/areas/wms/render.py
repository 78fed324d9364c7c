"""Drawing a map: the features the emulator holds, styled by the rules of the layer's
style (rule filters, ElseFilter, scale ranges), onto a ``paint.Canvas``.

What is drawn: polygons (fill, stroke), lines (stroke), points (well-known marks) and
text labels at a geometry's representative point in Pillow's built-in font. Features of
a CRS without a transformation into the request's (``crs.py``) are not drawn.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from ...core.budget import Budget
from ...core.errors import EmulatorError
from ..ows import crs
from . import paint
from .symbolizers import Rule, Symbolizer

if TYPE_CHECKING:
    from .map_formats import SvgCanvas

OGC_PIXEL = 0.00028
"""metres per pixel of the OGC standard rendering pixel (0.28 mm)"""
METRES_PER_DEGREE = 6378137.0 * 2 * 3.141592653589793 / 360


def scale_denominator(bbox: tuple[float, float, float, float], width: int, srs: str) -> float:
    span = bbox[2] - bbox[0]
    unit = crs.metres_per_unit(srs)  # None: degrees
    metres = span * (METRES_PER_DEGREE if unit is None else unit)
    return metres / (width * OGC_PIXEL) if width else 0.0


def _flat(shapely: Any, ring: Any) -> list[float]:
    """A ring's or line's pixel coordinates as Pillow takes them: x0, y0, x1, y1, ..."""
    out: list[float] = shapely.get_coordinates(ring).ravel().tolist()
    return out


@functools.lru_cache(maxsize=256)
def _rule_predicate(cql: str | None) -> Callable[[dict[str, Any]], bool]:
    """A rule filter's test (compiled once per filter text)."""
    if not cql:
        return lambda props: True
    from ...filters import predicates

    try:
        test = predicates.compile_filter(cql)
    except EmulatorError:
        return lambda props: False
    if test is None:
        return lambda props: True

    def run(props: dict[str, Any]) -> bool:
        try:
            return bool(test(props))
        except (TypeError, ValueError):
            return False

    return run


class MapPainter:
    """Projects data coordinates to pixels of one map request and draws features."""

    def __init__(
        self,
        canvas: paint.Canvas | SvgCanvas,
        bbox: tuple[float, float, float, float],
        srs: str,
    ) -> None:
        self.canvas = canvas
        self.bbox = bbox
        self.srs = srs
        minx, miny, maxx, maxy = bbox
        self.sx = canvas.width / (maxx - minx)
        self.sy = canvas.height / (maxy - miny)
        self._paints: dict[int, tuple[Any, Any, float]] = {}

    def pixel(self, x: float, y: float) -> tuple[float, float]:
        minx, _, _, maxy = self.bbox
        return (x - minx) * self.sx, (maxy - y) * self.sy

    def draw_layer(
        self,
        features: Iterable[Any],
        geometry: str,
        data_srs: str,
        rules: tuple[Rule, ...],
        scale: float,
    ) -> int:
        """Draw ``features`` (objects with ``.properties``); returns how many were drawn."""
        to_map = crs.transform_array(data_srs, self.srs)
        if to_map is None:
            return 0
        minx, _, _, maxy = self.bbox
        sx, sy = self.sx, self.sy

        def to_pixels(xy: Any) -> Any:
            xy = to_map(xy).copy()
            xy[:, 0] = (xy[:, 0] - minx) * sx
            xy[:, 1] = (maxy - xy[:, 1]) * sy
            return xy

        active = [r for r in rules if _in_scale(r, scale)]
        budget = Budget("style rule filters")
        plain = [(r, budget.guard(_rule_predicate(r.filter))) for r in active if not r.else_filter]
        fallback = [r for r in active if r.else_filter]
        import numpy as np
        import shapely

        chosen: list[tuple[Any, dict[str, Any], list[Rule]]] = []
        for feature in features:
            props = feature.properties
            geom = props.get(geometry)
            if geom is None or geom.is_empty:
                continue
            matched = [r for r, test in plain if test(props)] or fallback
            if matched:
                chosen.append((geom, props, matched))
        if not chosen:
            return 0
        geoms = np.empty(len(chosen), dtype=object)
        geoms[:] = [c[0] for c in chosen]
        projected = shapely.transform(geoms, to_pixels)
        boxes = shapely.bounds(projected)
        w, h = self.canvas.width, self.canvas.height
        labels: list[tuple[Symbolizer, Any, dict[str, Any]]] = []
        drawn = 0
        for (_, props, matched), geom, box in zip(chosen, projected, boxes, strict=True):
            if box[2] < -64 or box[3] < -64 or box[0] > w + 64 or box[1] > h + 64:
                continue  # wholly outside the image (a margin for strokes and marks)
            for rule in matched:
                for sym in rule.symbolizers:
                    if sym.kind == "Text":
                        labels.append((sym, geom, props))
                    else:
                        self._draw(sym, geom)
            drawn += 1
        for sym, geom, props in labels:
            self._label(sym, geom, props)
        return drawn

    def _paint(self, sym: Symbolizer) -> tuple[Any, Any, float]:
        """(fill, stroke, mark size) of a symbolizer, worked out once per request."""
        found = self._paints.get(id(sym))
        if found is None:
            if sym.kind == "Point" and sym.graphic is not None:
                g = sym.graphic
                fill = paint.fill_of(g.get("fill")) if g.get("fill") is not None else None
                stroke = paint.stroke_of(g.get("stroke")) if g.get("stroke") is not None else None
                if "mark" not in g:
                    fill = (128, 128, 128, 255)
                found = (fill, stroke, paint.number(g.get("size"), 6.0))
            elif sym.kind == "Line":
                found = (None, paint.stroke_of(sym.stroke or {}), 0.0)
            else:
                found = (paint.fill_of(sym.fill), paint.stroke_of(sym.stroke), 0.0)
            self._paints[id(sym)] = found
        return found

    def _draw(self, sym: Symbolizer, geom: Any) -> None:
        import shapely

        kind = geom.geom_type
        parts = (
            list(geom.geoms) if kind.startswith("Multi") or kind == "GeometryCollection" else [geom]
        )
        fill, stroke, size = self._paint(sym)
        for part in parts:
            pk = part.geom_type
            if sym.kind == "Polygon" and pk == "Polygon":
                rings = [_flat(shapely, part.exterior)] + [
                    _flat(shapely, r) for r in part.interiors
                ]
                self.canvas.polygon(rings, fill, stroke)
            elif sym.kind in ("Line", "Polygon") and pk in ("LineString", "LinearRing"):
                if stroke is not None:
                    self.canvas.line(_flat(shapely, part), stroke)
            elif sym.kind == "Line" and pk == "Polygon":
                if stroke is not None:
                    self.canvas.line(_flat(shapely, part.exterior), stroke)
            elif sym.kind == "Point" and sym.graphic is not None:
                point = part if pk == "Point" else part.representative_point()
                mark = sym.graphic.get("mark", "square")
                self.canvas.mark(mark, point.x, point.y, size, fill, stroke)

    def _label(self, sym: Symbolizer, geom: Any, props: dict[str, Any]) -> None:
        text = label_text(sym.label, props)
        if not text:
            return
        point = geom.representative_point() if geom.geom_type != "Point" else geom
        fill = paint.fill_of(sym.fill) or (0, 0, 0, 255)
        w, h = paint.text_size(text)
        self.canvas.text((point.x - w / 2, point.y - h / 2), text, fill)


def label_text(template: str | None, props: dict[str, Any]) -> str:
    """A label's text: ``[attr]`` references replaced by the feature's values."""
    if not template:
        return ""
    out, i = [], 0
    while i < len(template):
        if template[i] == "[":
            end = template.find("]", i)
            if end > i:
                value = props.get(template[i + 1 : end])
                out.append("" if value is None else str(value))
                i = end + 1
                continue
        out.append(template[i])
        i += 1
    return "".join(out).strip()


def _in_scale(rule: Rule, scale: float) -> bool:
    if rule.min_scale is not None and scale < rule.min_scale:
        return False
    return not (rule.max_scale is not None and scale >= rule.max_scale)
