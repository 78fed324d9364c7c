"""Drawing with Pillow: colours and opacities from symbolizer parameters, marks, and the
encoding of an image in a requested format. Shared by legends, maps and tiles.

What is drawn: solid fills, solid strokes (width rounded to whole pixels, no dashes or
caps), well-known marks (square, circle, triangle, star, cross, x) and simple text with
Pillow's built-in font. Graphic fills, external graphics, hatches and halos are not drawn.
"""

from __future__ import annotations

import io
import math
from typing import Any

from PIL import Image, ImageDraw, ImageFont

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


def stroke_of(params: dict[str, str] | None) -> tuple[RGBA, int] | None:
    if params is None:
        return None
    try:
        width = float(params.get("stroke-width", "1"))
    except ValueError:
        width = 1.0
    rgba = colour(params.get("stroke"), params.get("stroke-opacity"), GEOTOOLS_DEFAULT_STROKE)
    return rgba, max(1, round(width))


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


class Canvas:
    """An RGBA image with compositing draws (each draw blends with what is below)."""

    def __init__(self, width: int, height: int, background: RGBA) -> None:
        self.image = Image.new("RGBA", (width, height), background)
        self.width, self.height = width, height
        self.draw = ImageDraw.Draw(self.image)

    def _layer(self, rgba: RGBA) -> tuple[Image.Image, ImageDraw.ImageDraw, bool]:
        if rgba[3] == 255:
            return self.image, self.draw, False
        layer = Image.new("RGBA", self.image.size, (0, 0, 0, 0))
        return layer, ImageDraw.Draw(layer), True

    def _done(self, layer: Image.Image, blend: bool) -> None:
        if blend:
            self.image.alpha_composite(layer)

    def polygon(
        self,
        rings: list[Any],
        fill: RGBA | None,
        stroke: tuple[RGBA, int] | None,
    ) -> None:
        """Fill and outline a polygon; rings are (x, y) pairs or flat x0, y0, x1, y1, ..."""
        rings = [_closed(_flat(r)) for r in rings]
        if fill is not None and rings and len(rings[0]) >= 6:
            if len(rings) == 1:
                layer, draw, blend = self._layer(fill)
                draw.polygon(rings[0], fill=fill)
                self._done(layer, blend)
            else:  # holes: draw the shell on a mask, cut the holes out
                mask = Image.new("L", self.image.size, 0)
                md = ImageDraw.Draw(mask)
                md.polygon(rings[0], fill=255)
                for hole in rings[1:]:
                    if len(hole) >= 6:
                        md.polygon(hole, fill=0)
                solid = Image.new("RGBA", self.image.size, fill[:3] + (0,))
                alpha = mask.point(lambda v: v * fill[3] // 255)
                solid.putalpha(alpha)
                self.image.alpha_composite(solid)
        if stroke is not None:
            for ring in rings:
                if len(ring) >= 4:
                    self.line(ring, stroke)

    def line(self, points: list[Any], stroke: tuple[RGBA, int]) -> None:
        """A polyline through ``points``: (x, y) pairs, or flat x0, y0, x1, y1, ..."""
        points = _flat(points)
        if len(points) < 4:
            return
        rgba, width = stroke
        layer, draw, blend = self._layer(rgba)
        draw.line(points, fill=rgba, width=width, joint="curve" if width > 2 else None)
        self._done(layer, blend)

    def mark(
        self,
        name: str,
        cx: float,
        cy: float,
        size: float,
        fill: RGBA | None,
        stroke: tuple[RGBA, int] | None,
    ) -> None:
        pts = mark_points(name, cx, cy, size)
        r = size / 2
        for rgba, is_fill in ((fill, True), (stroke[0] if stroke else None, False)):
            if rgba is None:
                continue
            layer, draw, blend = self._layer(rgba)
            width = stroke[1] if stroke and not is_fill else 1
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

    def text(self, xy: tuple[float, float], value: str, rgba: RGBA = (0, 0, 0, 255)) -> None:
        ImageDraw.Draw(self.image).text(xy, value, fill=rgba, font=font())

    def encode(self, fmt: str, transparent: bool) -> bytes:
        return encode(self.image, fmt, transparent)


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
