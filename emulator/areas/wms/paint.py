"""Drawing with Pillow: colours and opacities from symbolizer parameters, marks, and the
encoding of an image in a requested format. Shared by legends, maps and tiles.

Maps are drawn on a canvas ``SUPERSAMPLE`` times larger and reduced when encoded (an
antialiased image, as GeoServer's, and fractional stroke widths). What is drawn: solid
fills, strokes (fractional widths, dashes, round and square caps, round joins), well-known
marks (square, circle, triangle, star, cross, x and the ``shape://`` hatches), images
(external graphics, graphic fills, raster layers) and text with Pillow's bundled font
(``glyphs.py``: sizes, halos, rotation).
"""

from __future__ import annotations

import io
import math
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from ...core.record import record

FORMATS = {
    "image/png": "PNG",
    "image/png8": "PNG",
    "image/png; mode=8bit": "PNG",
    "image/jpeg": "JPEG",
    "image/gif": "GIF",
}
"""the image formats drawn, by MIME type, and Pillow's name for each"""

GEOTOOLS_DEFAULT_FILL = "#808080"
GEOTOOLS_DEFAULT_STROKE = "#000000"

RGBA = tuple[int, int, int, int]


def colour(text: str | None, opacity: str | float | None = None, default: str = "#808080") -> RGBA:
    """``#RRGGBB`` (or ``#RGB``) and an opacity in 0..1 as an RGBA tuple."""
    value = (text or default).strip()
    if value.startswith("#"):
        value = value[1:]
    if len(value) == 3:
        value = "".join(c * 2 for c in value)
    try:
        r, g, b = int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)
    except ValueError:
        r, g, b = 128, 128, 128
    try:
        alpha = float(opacity) if opacity is not None else 1.0
    except ValueError:
        alpha = 1.0
    return (r, g, b, max(0, min(255, round(alpha * 255))))


def fill_of(params: dict[str, str] | None) -> RGBA | None:
    if params is None:
        return None
    return colour(params.get("fill"), params.get("fill-opacity"), GEOTOOLS_DEFAULT_FILL)


@record(frozen=True)
class Stroke:
    """A stroke in pixels: colour, width (fractional: drawn on the supersampled canvas),
    dash pattern (None: solid), line cap and join as SLD names them."""

    rgba: RGBA
    width: float = 1.0
    dash: tuple[float, ...] | None = None
    cap: str = "butt"
    join: str = "miter"


def stroke_of(params: dict[str, str] | None) -> Stroke | None:
    if params is None:
        return None
    width = max(number(params.get("stroke-width"), 1.0), 0.0)
    rgba = colour(params.get("stroke"), params.get("stroke-opacity"), GEOTOOLS_DEFAULT_STROKE)
    dash = None
    text = (params.get("stroke-dasharray") or "").replace(",", " ").split()
    lengths = [number(t, -1.0) for t in text]
    if lengths and all(v >= 0 for v in lengths) and sum(lengths) > 0:
        dash = tuple(lengths * (2 if len(lengths) % 2 else 1))
    cap = params.get("stroke-linecap") or "butt"
    join = params.get("stroke-linejoin") or "miter"
    return Stroke(rgba, width, dash, cap, join)


def number(text: Any, default: float) -> float:
    try:
        return float(text)
    except (TypeError, ValueError):
        return default


def mark_points(name: str, cx: float, cy: float, size: float) -> list[tuple[float, float]] | None:
    """The outline of a well-known mark of ``size`` pixels centred on (cx, cy); None for a
    circle (drawn as an ellipse)."""
    r = size / 2
    name = name.lower().removeprefix("shape://")
    if name == "circle":
        return None
    if name == "triangle":
        return [(cx, cy - r), (cx + r, cy + r), (cx - r, cy + r)]
    if name == "star":
        pts = []
        for i in range(10):
            radius = r if i % 2 == 0 else r * 0.4
            angle = math.pi / 2 + i * math.pi / 5
            pts.append((cx + radius * math.cos(angle), cy - radius * math.sin(angle)))
        return pts
    if name in ("cross", "x"):
        t = max(size / 6, 0.5)
        base = [
            (-t, -r),
            (t, -r),
            (t, -t),
            (r, -t),
            (r, t),
            (t, t),
            (t, r),
            (-t, r),
            (-t, t),
            (-r, t),
            (-r, -t),
            (-t, -t),
        ]
        if name == "x":
            c, s = math.cos(math.pi / 4), math.sin(math.pi / 4)
            base = [(x * c - y * s, x * s + y * c) for x, y in base]
        return [(cx + x, cy + y) for x, y in base]
    return [(cx - r, cy - r), (cx + r, cy - r), (cx + r, cy + r), (cx - r, cy + r)]


HATCHES = {
    "vertline": [((0.0, -1.0), (0.0, 1.0))],
    "horline": [((-1.0, 0.0), (1.0, 0.0))],
    "slash": [((-1.0, 1.0), (1.0, -1.0))],
    "backslash": [((-1.0, -1.0), (1.0, 1.0))],
    "plus": [((0.0, -1.0), (0.0, 1.0)), ((-1.0, 0.0), (1.0, 0.0))],
    "times": [((-1.0, 1.0), (1.0, -1.0)), ((-1.0, -1.0), (1.0, 1.0))],
}
"""GeoTools' ``shape://`` marks that are strokes only, as segments in a unit square"""


def hatch_lines(name: str, cx: float, cy: float, size: float) -> list[list[float]] | None:
    """The segments of a ``shape://`` hatch of ``size`` pixels centred on (cx, cy)."""
    found = HATCHES.get(name.lower().removeprefix("shape://"))
    if found is None:
        return None
    r = size / 2
    return [[cx + a[0] * r, cy + a[1] * r, cx + b[0] * r, cy + b[1] * r] for a, b in found]


SUPERSAMPLE = 2
"""how many canvas pixels a map pixel is wide (up to ``SUPERSAMPLE_LIMIT`` map pixels)"""
SUPERSAMPLE_LIMIT = 2_000_000


class Canvas:
    """An RGBA image with compositing draws (each draw blends with what is below), in map
    pixels; drawn ``scale`` times larger and reduced by ``final()``."""

    def __init__(self, width: int, height: int, background: RGBA, scale: int = 1) -> None:
        self.width, self.height, self.scale = width, height, scale
        self.image = Image.new("RGBA", (width * scale, height * scale), background)
        self.draw = ImageDraw.Draw(self.image)
        self._offset = (0, 0)

    @classmethod
    def for_map(cls, width: int, height: int, background: RGBA) -> Canvas:
        """A map's canvas: supersampled unless the map is large."""
        scale = SUPERSAMPLE if width * height <= SUPERSAMPLE_LIMIT else 1
        return cls(width, height, background, scale)

    def _layer(
        self, rgba: RGBA, flat: list[float] | None = None, pad: float = 0.0
    ) -> tuple[Image.Image, ImageDraw.ImageDraw, bool]:
        """Where a draw of ``rgba`` goes: the image itself when opaque, else a clear layer
        (over the box of ``flat``, grown by ``pad``, when given: ``_done`` blends it)."""
        self._offset = (0, 0)
        if rgba[3] == 255:
            return self.image, self.draw, False
        size = self.image.size
        if flat:
            xs, ys = flat[0::2], flat[1::2]
            x0, y0 = max(0, int(min(xs) - pad) - 1), max(0, int(min(ys) - pad) - 1)
            x1 = min(size[0], int(max(xs) + pad) + 2)
            y1 = min(size[1], int(max(ys) + pad) + 2)
            if x1 > x0 and y1 > y0:
                self._offset = (x0, y0)
                size = (x1 - x0, y1 - y0)
        layer = Image.new("RGBA", size, (0, 0, 0, 0))
        draw = ImageDraw.Draw(layer)
        if self._offset != (0, 0):
            draw = _Shifted(draw, self._offset)  # type: ignore[assignment]
        return layer, draw, True

    def _done(self, layer: Image.Image, blend: bool) -> None:
        if blend:
            self.image.alpha_composite(layer, self._offset)

    def _scaled(self, flat: list[float]) -> list[float]:
        k = self.scale
        return flat if k == 1 else [v * k for v in flat]

    def _mask(self, rings: list[list[float]]) -> Image.Image:
        mask = Image.new("L", self.image.size, 0)
        md = ImageDraw.Draw(mask)
        md.polygon(rings[0], fill=255)
        for hole in rings[1:]:
            if len(hole) >= 6:
                md.polygon(hole, fill=0)
        return mask

    def polygon(self, rings: list[Any], fill: RGBA | None, stroke: Stroke | None) -> None:
        """Fill and outline a polygon; rings are (x, y) pairs or flat x0, y0, x1, y1, ..."""
        scaled = [self._scaled(_closed(_flat(r))) for r in rings]
        if fill is not None and scaled and len(scaled[0]) >= 6:
            if len(scaled) == 1:
                layer, draw, blend = self._layer(fill, scaled[0])
                draw.polygon(scaled[0], fill=fill)
                self._done(layer, blend)
            else:  # holes: draw the shell on a mask, cut the holes out
                solid = Image.new("RGBA", self.image.size, fill[:3] + (0,))
                solid.putalpha(self._mask(scaled).point(lambda v: v * fill[3] // 255))
                self.image.alpha_composite(solid)
        if stroke is not None:
            for ring in rings:
                flat = _closed(_flat(ring))
                if len(flat) >= 4:
                    self.line(flat, stroke)

    def pattern(self, rings: list[Any], tile: Image.Image) -> None:
        """Fill a polygon with ``tile`` repeated from the image's origin (a graphic fill;
        ``tile`` in map pixels)."""
        scaled = [self._scaled(_closed(_flat(r))) for r in rings]
        if not scaled or len(scaled[0]) < 6:
            return
        if self.scale != 1:
            tile = tile.resize(
                (tile.width * self.scale, tile.height * self.scale), Image.Resampling.NEAREST
            )
        xs, ys = scaled[0][0::2], scaled[0][1::2]
        left, top = max(0, int(min(xs))), max(0, int(min(ys)))
        right, bottom = (
            min(self.image.width, int(max(xs)) + 1),
            min(self.image.height, int(max(ys)) + 1),
        )
        if right <= left or bottom <= top:
            return
        sheet = Image.new("RGBA", self.image.size, (0, 0, 0, 0))
        for y in range(top - top % tile.height, bottom, tile.height):
            for x in range(left - left % tile.width, right, tile.width):
                sheet.paste(tile, (x, y))
        alpha = Image.new("L", self.image.size, 0)
        alpha.paste(sheet.getchannel("A"), mask=self._mask(scaled))
        sheet.putalpha(alpha)
        self.image.alpha_composite(sheet)

    def line(self, points: list[Any], stroke: Stroke) -> None:
        """A polyline through ``points``: (x, y) pairs, or flat x0, y0, x1, y1, ..."""
        flat = _flat(points)
        if len(flat) < 4 or stroke.width <= 0:
            return
        k = self.scale
        pieces = dashed(flat, stroke.dash) if stroke.dash else [flat]
        width = max(1, round(stroke.width * k))
        layer, draw, blend = self._layer(stroke.rgba, self._scaled(flat), width * 2)
        joint = "curve" if stroke.join == "round" or width > 2 else None
        for piece in pieces:
            scaled = self._scaled(piece)
            if stroke.cap == "square":
                scaled = _extended(scaled, width / 2)
            draw.line(scaled, fill=stroke.rgba, width=width, joint=joint)
            if stroke.cap == "round" and width > 2:
                r = width / 2
                for x, y in ((scaled[0], scaled[1]), (scaled[-2], scaled[-1])):
                    draw.ellipse((x - r, y - r, x + r, y + r), fill=stroke.rgba)
        self._done(layer, blend)

    def mark(
        self,
        name: str,
        cx: float,
        cy: float,
        size: float,
        fill: RGBA | None,
        stroke: Stroke | None,
    ) -> None:
        k = self.scale
        cx, cy, size = cx * k, cy * k, size * k
        hatch = hatch_lines(name, cx, cy, size)
        if hatch is not None:
            if stroke is not None:
                layer, draw, blend = self._layer(stroke.rgba, [v for g in hatch for v in g], 2)
                for seg in hatch:
                    draw.line(seg, fill=stroke.rgba, width=max(1, round(stroke.width * k)))
                self._done(layer, blend)
            return
        pts = mark_points(name, cx, cy, size)
        r = size / 2
        for rgba, is_fill in ((fill, True), (stroke.rgba if stroke else None, False)):
            if rgba is None:
                continue
            width = max(1, round(stroke.width * k)) if stroke and not is_fill else 1
            layer, draw, blend = self._layer(rgba, [cx - r, cy - r, cx + r, cy + r], width)
            if pts is None:
                box = (cx - r, cy - r, cx + r, cy + r)
                if is_fill:
                    draw.ellipse(box, fill=rgba)
                else:
                    draw.ellipse(box, outline=rgba, width=width)
            elif is_fill:
                draw.polygon(pts, fill=rgba)
            else:
                draw.line([*pts, pts[0]], fill=rgba, width=width)
            self._done(layer, blend)

    def paste(self, image: Image.Image, x: float, y: float) -> None:
        """Composite ``image`` (in map pixels) with its top left corner at (x, y)."""
        k = self.scale
        if k != 1:
            image = image.resize((image.width * k, image.height * k), Image.Resampling.BILINEAR)
        self.image.alpha_composite(image, (round(x * k), round(y * k)))

    def cover(self, image: Image.Image) -> None:
        """Composite ``image``, of the map's size, over the whole canvas (a raster layer)."""
        if self.scale != 1:
            image = image.resize(self.image.size, Image.Resampling.NEAREST)
        self.image.alpha_composite(image)

    def text(self, xy: tuple[float, float], value: str, rgba: RGBA = (0, 0, 0, 255)) -> None:
        k = self.scale
        ImageDraw.Draw(self.image).text((xy[0] * k, xy[1] * k), value, fill=rgba, font=font())

    def final(self) -> Image.Image:
        """The image in map pixels."""
        return self.image if self.scale == 1 else self.image.reduce(self.scale)

    def encode(self, fmt: str, transparent: bool) -> bytes:
        return encode(self.final(), fmt, transparent)


class _Shifted:
    """An ``ImageDraw`` whose coordinates are moved by ``-offset`` (a layer over a box)."""

    def __init__(self, draw: ImageDraw.ImageDraw, offset: tuple[int, int]) -> None:
        self.draw, self.dx, self.dy = draw, offset[0], offset[1]

    def _moved(self, xy: Any) -> Any:
        if xy and isinstance(xy[0], (tuple, list)):
            return [(p[0] - self.dx, p[1] - self.dy) for p in xy]
        return [v - (self.dx if i % 2 == 0 else self.dy) for i, v in enumerate(xy)]

    def polygon(self, xy: Any, **kw: Any) -> None:
        self.draw.polygon(self._moved(xy), **kw)

    def line(self, xy: Any, **kw: Any) -> None:
        self.draw.line(self._moved(xy), **kw)

    def ellipse(self, xy: Any, **kw: Any) -> None:
        self.draw.ellipse(self._moved(list(xy)), **kw)


def dashed(flat: list[float], pattern: tuple[float, ...]) -> list[list[float]]:
    """The dashes of a polyline: the pieces the pattern (on, off, on, ... pixels) draws."""
    out: list[list[float]] = []
    index, left, on = 0, pattern[0], True
    current: list[float] = [flat[0], flat[1]]
    for i in range(0, len(flat) - 2, 2):
        x0, y0, x1, y1 = flat[i], flat[i + 1], flat[i + 2], flat[i + 3]
        length = math.hypot(x1 - x0, y1 - y0)
        at = 0.0
        while length - at > left:
            at += left
            t = at / length
            x, y = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
            if on:
                current += [x, y]
                out.append(current)
            current = [x, y]
            index = (index + 1) % len(pattern)
            left, on = pattern[index], not on
            if len(out) > 100_000:
                return out
        left -= length - at
        if on:
            current += [x1, y1]
        else:
            current = [x1, y1]
    if on and len(current) >= 4:
        out.append(current)
    return out


def _extended(flat: list[float], by: float) -> list[float]:
    """A polyline lengthened by ``by`` at both ends (a square cap)."""
    out = list(flat)
    for a, b in ((0, 2), (len(flat) - 2, len(flat) - 4)):
        dx, dy = flat[a] - flat[b], flat[a + 1] - flat[b + 1]
        length = math.hypot(dx, dy)
        if length:
            out[a] += dx / length * by
            out[a + 1] += dy / length * by
    return out


def _flat(points: list[Any]) -> list[float]:
    if points and isinstance(points[0], (tuple, list)):
        return [c for p in points for c in p[:2]]
    return points


def _closed(flat: list[float]) -> list[float]:
    if len(flat) >= 4 and (flat[0], flat[1]) != (flat[-2], flat[-1]):
        return [*flat, flat[0], flat[1]]
    return flat


_FONT: Any = None


def font() -> Any:
    global _FONT
    if _FONT is None:
        _FONT = ImageFont.load_default()
    return _FONT


def text_size(value: str) -> tuple[int, int]:
    if not value:
        return 0, 0
    left, top, right, bottom = font().getbbox(value)
    return int(right - min(left, 0)), int(bottom - min(top, 0))


def encode(image: Image.Image, fmt: str, transparent: bool) -> bytes:
    """The image in the MIME type ``fmt`` (JPEG has no alpha: flattened on white)."""
    kind = FORMATS[fmt]
    out = io.BytesIO()
    if kind == "JPEG" or (kind != "PNG" and not transparent):
        flat = Image.new("RGB", image.size, (255, 255, 255))
        flat.paste(image, mask=image.getchannel("A"))
        image = flat
    if kind == "PNG" and not transparent:
        image = image.convert("RGB")
    if kind == "GIF":
        image = image.convert("P") if image.mode != "P" else image
    if kind == "PNG" and fmt != "image/png":
        image = image.convert("P") if image.mode == "RGB" else image.quantize()
    image.save(out, kind, **({"quality": 90} if kind == "JPEG" else {}))
    return out.getvalue()
