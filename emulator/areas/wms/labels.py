"""The label cache of one map: labels are collected while the layers are drawn and placed
over all of them at the end, as GeoServer's label cache does.

Placement: a point's label at the point; a polygon's at its largest part's centroid (a
point inside it when the centroid falls outside); a line's at the middle of its longest
part, turned along it (kept upright), or each character along the line with
``followLine``; a line label longer than its line is not drawn. Anchor, displacement and
rotation as the style's ``PointPlacement`` says; ``PerpendicularOffset`` moves a line's
label off the line.

Conflicts: labels are placed by priority (highest first; equal priorities in the order
they were collected: layer order, then feature order), and a label whose box (grown by
``spaceAround``) meets a placed one, or does not lie wholly inside the image, is dropped.
GeoServer also tries other positions within ``maxDisplacement``; this cache does not.
"""

from __future__ import annotations

import math
from typing import Any

from PIL import Image

from ...core.record import record
from . import glyphs
from .symbolizers import Placement

Box = tuple[float, float, float, float]
MAX_LABELS = 20_000
"""the most labels one map collects (the rest are dropped, lowest priority first)"""


@record
class Candidate:
    pieces: list[tuple[Image.Image, float, float]]
    """images and the map pixel of their top left corners"""
    boxes: list[Box]
    priority: float
    order: int
    space: float


class LabelCache:
    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.candidates: list[Candidate] = []

    def add(
        self,
        geom: Any,
        image: Image.Image,
        placement: Placement | None,
        rotation: float,
        follow: bool,
        priority: float,
        space: float,
    ) -> None:
        """Queue a label drawn as ``image`` for ``geom`` (in map pixels)."""
        if len(self.candidates) >= MAX_LABELS:
            return
        kind = geom.geom_type
        if "LineString" in kind or "LinearRing" in kind:
            pieces = _on_line(geom, image, placement, follow)
        else:
            pieces = _at_point(_anchor_point(geom), image, placement, rotation)
        if not pieces:
            return
        boxes = [(x, y, x + im.width, y + im.height) for im, x, y in pieces]
        self.candidates.append(Candidate(pieces, boxes, priority, len(self.candidates), space))

    def place(self, paste: Any) -> int:
        """Draw the labels that fit (``paste(image, x, y)``); how many were drawn."""
        placed: list[Box] = []
        drawn = 0
        for c in sorted(self.candidates, key=lambda c: (-c.priority, c.order)):
            if not all(_inside(b, self.width, self.height) for b in c.boxes):
                continue
            grown = [
                (b[0] - c.space, b[1] - c.space, b[2] + c.space, b[3] + c.space) for b in c.boxes
            ]
            if any(_meets(g, p) for g in grown for p in placed):
                continue
            for image, x, y in c.pieces:
                paste(image, x, y)
            placed.extend(c.boxes)
            drawn += 1
        return drawn


def _inside(b: Box, width: int, height: int) -> bool:
    return b[0] >= 0 and b[1] >= 0 and b[2] <= width and b[3] <= height


def _meets(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _largest(geom: Any) -> Any:
    parts = list(geom.geoms) if hasattr(geom, "geoms") else [geom]
    parts = [p for p in parts if not p.is_empty]
    if not parts:
        return geom
    if parts[0].geom_type == "Polygon":
        return max(parts, key=lambda p: p.area)
    if "LineString" in parts[0].geom_type:
        return max(parts, key=lambda p: p.length)
    return parts[0]


def _anchor_point(geom: Any) -> tuple[float, float]:
    part = _largest(geom)
    if part.geom_type == "Point":
        return part.x, part.y
    centre = part.centroid
    if part.geom_type == "Polygon" and not part.contains(centre):
        centre = part.representative_point()
    return centre.x, centre.y


def _at_point(
    at: tuple[float, float], image: Image.Image, placement: Placement | None, rotation: float
) -> list[tuple[Image.Image, float, float]]:
    ax, ay = placement.anchor if placement is not None else (0.5, 0.5)
    dx, dy = placement.displacement if placement is not None else (0.0, 0.0)
    w, h = image.width, image.height
    # the anchor point of the box sits on the point, then the displacement moves it (y up)
    cx = at[0] + dx + (0.5 - ax) * w
    cy = at[1] - dy + (ay - 0.5) * h
    if rotation:
        image = glyphs.rotated(image, rotation)
    return [(image, cx - image.width / 2, cy - image.height / 2)]


def _on_line(
    geom: Any, image: Image.Image, placement: Placement | None, follow: bool
) -> list[tuple[Image.Image, float, float]]:
    line = _largest(geom)
    if line.length < image.width:
        return []
    coords = list(line.coords)
    if coords[0][0] > coords[-1][0]:  # read left to right
        coords.reverse()
    from shapely.geometry import LineString

    line = LineString(coords)
    offset = placement.offset if placement is not None else 0.0
    if follow:
        return _along(line, image, offset)
    middle = line.interpolate(0.5, normalized=True)
    angle = _angle_at(line, line.length / 2)
    nx, ny = math.sin(math.radians(angle)), -math.cos(math.radians(angle))
    turned = glyphs.rotated(image, angle)
    cx, cy = middle.x + nx * offset, middle.y + ny * offset
    return [(turned, cx - turned.width / 2, cy - turned.height / 2)]


def _angle_at(line: Any, distance: float) -> float:
    """The line's direction at ``distance`` along it, in degrees clockwise from east (as
    the image's y axis points down), kept between -90 and 90 (upright text)."""
    step = max(1.0, min(line.length / 4, 8.0))
    a = line.interpolate(max(0.0, distance - step))
    b = line.interpolate(min(line.length, distance + step))
    angle = math.degrees(math.atan2(b.y - a.y, b.x - a.x))
    if angle > 90:
        angle -= 180
    elif angle < -90:
        angle += 180
    return angle


def _along(line: Any, image: Image.Image, offset: float) -> list[tuple[Image.Image, float, float]]:
    """The label cut into columns of about a character's width, each turned along the line
    where it falls (the text follows the line's bends)."""
    step = max(4, image.height // 2)
    start = (line.length - image.width) / 2
    pieces = []
    for x in range(0, image.width, step):
        column = image.crop((x, 0, min(image.width, x + step), image.height))
        at = start + x + column.width / 2
        point = line.interpolate(at)
        angle = _angle_at(line, at)
        nx, ny = math.sin(math.radians(angle)), -math.cos(math.radians(angle))
        turned = glyphs.rotated(column, angle)
        cx, cy = point.x + nx * offset, point.y + ny * offset
        pieces.append((turned, cx - turned.width / 2, cy - turned.height / 2))
    return pieces
