"""Label text as images: Pillow's bundled scalable font at the style's size, the fill, the
halo (the text's outline of the halo's radius), wrapped at ``autoWrap`` pixels.

Every family draws with the one font Pillow bundles (GeoServer uses the JVM's fonts), and
bold or italic are not drawn; sizes, colours, halos and wrapping are the style's. One font
object per size for the process (``functools.cache``); the same text and settings give the
same pixels.
"""

from __future__ import annotations

import functools
import math
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from .paint import RGBA

MAX_SIZE = 200
"""the largest font size drawn (pixels); a larger one is drawn at this size"""
MAX_CHARS = 1000
"""the longest label drawn (characters); a longer one is cut"""


@functools.cache
def font(size: int) -> Any:
    """Pillow's bundled font at ``size`` pixels (its bitmap font where FreeType is missing)."""
    try:
        return ImageFont.load_default(size=size)
    except (TypeError, ImportError, OSError):
        return ImageFont.load_default()


def font_size(value: Any) -> int:
    try:
        size = float(value)
    except (TypeError, ValueError):
        return 10
    if not math.isfinite(size):
        return 10
    return max(1, min(MAX_SIZE, round(size)))


def wrap(text: str, size: int, width: float | None) -> list[str]:
    """The lines of ``text`` (its own line breaks kept), words wrapped at ``width`` pixels."""
    lines: list[str] = []
    for paragraph in text[:MAX_CHARS].split("\n"):
        if not width:
            lines.append(paragraph)
            continue
        current = ""
        for word in paragraph.split(" "):
            candidate = f"{current} {word}" if current else word
            if current and measure(candidate, size)[0] > width:
                lines.append(current)
                current = word
            else:
                current = candidate
        lines.append(current)
    return lines


def measure(text: str, size: int) -> tuple[int, int]:
    """Width and height of one line of text, in pixels."""
    if not text:
        return 0, 0
    left, top, right, bottom = font(size).getbbox(text)
    return int(math.ceil(right - min(left, 0))), int(math.ceil(bottom - min(top, 0)))


def label_image(
    lines: list[str], size: int, fill: RGBA, halo: tuple[RGBA, float] | None
) -> Image.Image:
    """The label drawn on a transparent image just large enough (centred lines)."""
    f = font(size)
    ascent, descent = f.getmetrics() if hasattr(f, "getmetrics") else (size, 0)
    line_height = ascent + descent
    radius = 0 if halo is None else max(0, round(halo[1]))
    width = max(measure(line, size)[0] for line in lines) + 2 * radius + 2
    height = line_height * len(lines) + 2 * radius + 2
    image = Image.new("RGBA", (max(1, width), max(1, height)), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    for i, line in enumerate(lines):
        x = (width - measure(line, size)[0]) / 2
        y = radius + 1 + i * line_height
        if halo is not None and radius:
            draw.text((x, y), line, font=f, fill=halo[0], stroke_width=radius, stroke_fill=halo[0])
        draw.text((x, y), line, font=f, fill=fill)
    return image


def rotated(image: Any, degrees: float) -> Any:
    """``image`` turned ``degrees`` clockwise about its centre (grown to hold it)."""
    if not degrees % 360 or not hasattr(image, "rotate"):
        return image
    return image.rotate(-degrees, resample=Image.Resampling.BICUBIC, expand=True)
