"""Drawing a map: the features the emulator holds, styled by the rules of the layer's
style (rule filters, ElseFilter, scale ranges, ``inclusion``), onto a ``paint.Canvas``.

What is drawn: polygons (fill, graphic fill, stroke), lines (strokes with widths, dashes,
caps and joins), points (well-known marks, hatches, external PNG/JPEG/GIF graphics) and
labels (``labels.py``: placed over every layer at ``finish()``, without overlaps);
parameters computed per feature (``expressions.py``: ``Recode``, ``if_then_else``…);
raster layers through their colour maps (``rasters.py``). Features of a CRS the emulator
cannot transform into the request's (``crs.py``) are not drawn.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from ...core.budget import Budget
from ...core.errors import EmulatorError
from ...core.record import replace
from ..ows import crs
from . import expressions, glyphs, paint, rasters
from .labels import LabelCache
from .symbolizers import Rule, Symbolizer

if TYPE_CHECKING:
    from ...features.grids import Grid
    from .map_formats import SvgCanvas

Graphics = Callable[[str], Any]
"""an external graphic's image by its URL (None when it cannot be read)"""

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
    """Projects data coordinates to pixels of one map request and draws features; labels
    wait in ``labels`` until ``finish()``."""

    def __init__(
        self,
        canvas: paint.Canvas | SvgCanvas,
        bbox: tuple[float, float, float, float],
        srs: str,
        env: dict[str, Any] | None = None,
        graphics: Graphics | None = None,
    ) -> None:
        self.canvas = canvas
        self.bbox = bbox
        self.srs = srs
        self.env = env or {}
        self.graphics = graphics or (lambda url: None)
        minx, miny, maxx, maxy = bbox
        self.sx = canvas.width / (maxx - minx)
        self.sy = canvas.height / (maxy - miny)
        self._paints: dict[int, tuple[Any, Any, float]] = {}
        self.labels = LabelCache(canvas.width, canvas.height)

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

        active = [r for r in rules if _in_scale(r, scale) and r.inclusion != "legendOnly"]
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
        drawn = 0
        for (_, props, matched), geom, box in zip(chosen, projected, boxes, strict=True):
            if box[2] < -64 or box[3] < -64 or box[0] > w + 64 or box[1] > h + 64:
                continue  # wholly outside the image (a margin for strokes and marks)
            for rule in matched:
                for sym in rule.symbolizers:
                    if sym.option("inclusion") == "legendOnly":
                        continue
                    if sym.kind == "Text":
                        self._label(self._resolved(sym, props), geom, props)
                    else:
                        self._draw(self._resolved(sym, props), geom, cache=not sym.dynamic)
            drawn += 1
        return drawn

    def draw_grid(self, grid: Grid, rules: tuple[Rule, ...], scale: float) -> bool:
        """Draw a coverage's pixels through the first raster symbolizer of the rules in
        scale (the plain look without one); whether anything was drawn."""
        active = [r for r in rules if _in_scale(r, scale) and r.inclusion != "legendOnly"]
        syms = [s for r in active for s in r.symbolizers if s.kind == "Raster"]
        if rules and not syms or not grid.has_data:
            return False
        size = (self.canvas.width, self.canvas.height)
        layer = rasters.image(grid, self.bbox, self.srs, size, syms[0] if syms else None)
        if layer is None:
            return False
        self.canvas.cover(layer)
        return True

    def finish(self) -> int:
        """Place and draw the labels collected (over every layer); how many were drawn."""
        return self.labels.place(self.canvas.paste)

    def _resolved(self, sym: Symbolizer, props: dict[str, Any]) -> Symbolizer:
        """The symbolizer with its per-feature parameters computed for ``props``."""
        if not sym.dynamic:
            return sym
        parts: dict[str, dict[str, Any]] = {
            "fill": dict(sym.fill or {}),
            "stroke": dict(sym.stroke or {}),
            "font": dict(sym.font or {}),
            "graphic": dict(sym.graphic or {}),
        }
        graphic = parts["graphic"]
        for key in ("fill", "stroke"):
            if isinstance(graphic.get(key), dict):
                parts[f"graphic.{key}"] = graphic[key] = dict(graphic[key])
        halo = dict(sym.halo) if sym.halo is not None else None
        if halo is not None:
            parts["halo"] = halo["fill"] = dict(halo.get("fill") or {})
        for part, name, expr in sym.dynamic:
            value = expressions.evaluate(expr, props, self.env)
            if part in parts and value is not None:
                parts[part][name] = value if isinstance(value, str) else _number_text(value)
        return replace(
            sym,
            fill=parts["fill"] if sym.fill is not None else None,
            stroke=parts["stroke"] if sym.stroke is not None else None,
            font=parts["font"],
            graphic=graphic if sym.graphic is not None else None,
            halo=halo,
            dynamic=(),
        )

    def _paint(self, sym: Symbolizer, cache: bool = True) -> tuple[Any, Any, float]:
        """(fill, stroke, mark size) of a symbolizer, worked out once per request (per
        feature for computed parameters: ``cache`` False)."""
        found = self._paints.get(id(sym)) if cache else None
        if found is None:
            if sym.kind == "Point" and sym.graphic is not None:
                found = _graphic_paint(sym.graphic)
            elif sym.kind == "Line":
                found = (None, paint.stroke_of(sym.stroke or {}), 0.0)
            else:
                found = (paint.fill_of(sym.fill), paint.stroke_of(sym.stroke), 0.0)
            if cache:
                self._paints[id(sym)] = found
        return found

    def _draw(self, sym: Symbolizer, geom: Any, cache: bool = True) -> None:
        import shapely

        kind = geom.geom_type
        parts = (
            list(geom.geoms) if kind.startswith("Multi") or kind == "GeometryCollection" else [geom]
        )
        fill, stroke, size = self._paint(sym, cache)
        if sym.kind == "Polygon" and sym.graphic_fill is not None:
            fill = None
        for part in parts:
            pk = part.geom_type
            if sym.kind == "Polygon" and pk == "Polygon":
                rings = [_flat(shapely, part.exterior)] + [
                    _flat(shapely, r) for r in part.interiors
                ]
                if sym.graphic_fill is not None:
                    self._pattern(sym.graphic_fill, rings)
                self.canvas.polygon(rings, fill, stroke)
            elif sym.kind in ("Line", "Polygon") and pk in ("LineString", "LinearRing"):
                if stroke is not None:
                    self.canvas.line(_flat(shapely, part), stroke)
            elif sym.kind == "Line" and pk == "Polygon":
                if stroke is not None:
                    for ring in [part.exterior, *part.interiors]:
                        self.canvas.line(_flat(shapely, ring), stroke)
            elif sym.kind == "Point" and sym.graphic is not None:
                point = part if pk == "Point" else part.representative_point()
                self._graphic(sym.graphic, point.x, point.y, fill, stroke, size)

    def _graphic(
        self, graphic: dict[str, Any], x: float, y: float, fill: Any, stroke: Any, size: float
    ) -> None:
        if "mark" in graphic:
            self.canvas.mark(graphic["mark"], x, y, size, fill, stroke)
            return
        image = self._external(graphic, size)
        if image is not None and isinstance(self.canvas, paint.Canvas):
            self.canvas.paste(image, x - image.width / 2, y - image.height / 2)
        else:  # a graphic that cannot be read: a grey square stands for it
            self.canvas.mark("square", x, y, size, (128, 128, 128, 255), None)

    def _external(self, graphic: dict[str, Any], size: float | None) -> Any:
        """An external graphic's image, scaled to ``size`` pixels high (None: its own)."""
        url = graphic.get("external")
        image = self.graphics(url) if url else None
        if image is None:
            return None
        if size and "size" in graphic and image.height:
            width = max(1, round(image.width * size / image.height))
            image = image.resize((width, max(1, round(size))), resample=3)
        return image

    def _pattern(self, graphic: dict[str, Any], rings: list[Any]) -> None:
        """A graphic fill: the graphic (a mark drawn on a tile of its size, or an external
        image) repeated over the polygon."""
        if not isinstance(self.canvas, paint.Canvas):
            return
        fill, stroke, size = _graphic_paint(graphic)
        if "mark" in graphic:
            side = max(2, round(size))
            tile_canvas = paint.Canvas(side, side, (0, 0, 0, 0))
            tile_canvas.mark(graphic["mark"], side / 2, side / 2, side, fill, stroke)
            tile = tile_canvas.final()
        else:
            tile = self._external(graphic, size if "size" in graphic else None)
        if tile is not None:
            self.canvas.pattern(rings, tile)

    def _label(self, sym: Symbolizer, geom: Any, props: dict[str, Any]) -> None:
        if sym.label_expr is not None:
            value = expressions.evaluate(sym.label_expr, props, self.env)
            text = "" if value is None else _number_text(value).strip()
        else:
            text = label_text(sym.label, props)
        if not text:
            return
        font = sym.font or {}
        size = glyphs.font_size(font.get("font-size", "10"))
        fill = paint.fill_of(sym.fill) or (0, 0, 0, 255)
        halo = None
        if sym.halo is not None:
            halo_fill = paint.colour((sym.halo.get("fill") or {}).get("fill"),
                                     (sym.halo.get("fill") or {}).get("fill-opacity"),
                                     "#FFFFFF")  # fmt: skip
            halo = (halo_fill, paint.number(sym.halo.get("radius"), 1.0))
        wrap = paint.number(sym.option("autoWrap"), 0.0)
        lines = glyphs.wrap(text, size, wrap or None)
        image: Any
        if isinstance(self.canvas, paint.Canvas):
            image = glyphs.label_image(lines, size, fill, halo)
        else:
            image = _SvgLabel(lines, size, fill)
        placement = sym.placement
        rotation = 0.0
        if placement is not None and placement.rotation is not None:
            found = expressions.number(expressions.evaluate(placement.rotation, props, self.env))
            rotation = found or 0.0
        priority = 1000.0
        if sym.priority is not None:
            found = expressions.number(expressions.evaluate(sym.priority, props, self.env))
            priority = found if found is not None else priority
        follow = (sym.option("followLine") or "").lower() == "true"
        space = paint.number(sym.option("spaceAround"), 0.0)
        self.labels.add(geom, image, placement, rotation, follow, priority, space)


class _SvgLabel:
    """A label for the SVG canvas: its lines and size stand in for an image."""

    def __init__(self, lines: list[str], size: int, fill: paint.RGBA) -> None:
        self.lines, self.size, self.fill = lines, size, fill
        self.width = max(glyphs.measure(line, size)[0] for line in lines)
        self.height = size * len(lines)

    def crop(self, box: tuple[int, int, int, int]) -> _SvgLabel:
        return self


def _graphic_paint(g: dict[str, Any]) -> tuple[Any, Any, float]:
    fill = paint.fill_of(g.get("fill")) if g.get("fill") is not None else None
    stroke = paint.stroke_of(g.get("stroke")) if g.get("stroke") is not None else None
    if "mark" in g and g.get("fill") is None and g.get("stroke") is None:
        fill = paint.colour(paint.GEOTOOLS_DEFAULT_FILL)  # a mark with neither: grey fill
        stroke = paint.Stroke(paint.colour(paint.GEOTOOLS_DEFAULT_STROKE))
    if "mark" not in g:
        fill = (128, 128, 128, 255)
    return fill, stroke, paint.number(g.get("size"), 16.0 if "external" in g else 6.0)


def _number_text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


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
