"""Gridsets as GeoWebCache builds them (``GridSetFactory``), the defaults GeoServer ships,
SRS equality with its web-mercator aliases, and a layer's extent in a gridset's CRS.

A gridset is a list of levels, each with a resolution and a number of tiles wide and high.
Everything here uses IEEE doubles in the same order of operations as GWC, so the tile
counts computed from it are GWC's to the tile.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ...core.errors import Invalid
from ...core.record import record
from .java import double_to_long, math_round

Box = tuple[float, float, float, float]
"""minx, miny, maxx, maxy"""

DEFAULT_PIXEL_SIZE = 0.00028
EPSG4326_TO_METERS = 6378137.0 * 2.0 * math.pi / 360.0
WORLD4326: Box = (-180.0, -90.0, 180.0, 90.0)
WORLD3857: Box = (-20037508.34, -20037508.34, 20037508.34, 20037508.34)
MERCATOR_ALIASES = {3857: (900913, 102113, 102100), 900913: (3857, 102113, 102100)}
"""the only SRS objects GWC registers with aliases"""

EARTH_RADIUS = 6378137.0
MAX_MERCATOR_LATITUDE = 85.0511287798066


def srs_equal(a: int, b: int) -> bool:
    """GWC's ``SRS.equals``: the same code, or one lists the other as an alias."""
    return a == b or b in MERCATOR_ALIASES.get(a, ()) or a in MERCATOR_ALIASES.get(b, ())


@record(frozen=True)
class GridSet:
    """One gridset: its levels, computed once as GWC computes them."""

    name: str
    srs: int
    extent: Box
    """the (adjusted) extent tiles are counted from"""
    align_top_left: bool
    resolutions: tuple[float, ...]
    tiles_wide: tuple[int, ...]
    tiles_high: tuple[int, ...]
    tile_width: int = 256
    tile_height: int = 256
    meters_per_unit: float = 1.0
    pixel_size: float = DEFAULT_PIXEL_SIZE
    definition: tuple[tuple[str, object], ...] = ()
    """how a scenario defined it (kept for dumping the scenario back)"""

    @property
    def levels(self) -> int:
        return len(self.resolutions)

    def origin(self) -> tuple[float, float]:
        minx, miny, _, maxy = self.extent
        return minx, maxy if self.align_top_left else miny


def create(
    name: str,
    srs: int,
    extent: Box,
    align_top_left: bool,
    resolutions: Sequence[float] | None = None,
    scales: Sequence[float] | None = None,
    meters_per_unit: float | None = None,
    pixel_size: float = DEFAULT_PIXEL_SIZE,
    tile_width: int = 256,
    tile_height: int = 256,
    definition: tuple[tuple[str, object], ...] = (),
) -> GridSet:
    """``GridSetFactory.createGridSet`` from resolutions or scale denominators."""
    minx, miny, maxx, maxy = extent
    if not (maxx > minx and maxy > miny):
        raise Invalid(f"Extent is invalid: {extent}")
    if (resolutions is None) == (scales is None):
        raise Invalid("The gridset definition must have either resolutions or scale denominators")
    values = list(resolutions if resolutions is not None else scales)  # type: ignore[arg-type]
    if not values:
        raise Invalid("A gridset needs at least one level")
    for i in range(1, len(values)):
        if values[i] >= values[i - 1]:
            what = "resolution" if resolutions is not None else "scale denominator"
            raise Invalid(f"Each {what} should be lower than it's prior one ({name})")
    if meters_per_unit is None:
        if srs_equal(srs, 4326):
            meters_per_unit = EPSG4326_TO_METERS
        else:
            meters_per_unit = 1.0
    res: list[float] = []
    wide: list[int] = []
    high: list[int] = []
    width, height = maxx - minx, maxy - miny
    for v in values:
        r = pixel_size * (v / meters_per_unit) if scales is not None else v
        unit_w, unit_h = tile_width * r, tile_height * r
        res.append(r)
        wide.append(double_to_long(math.ceil((width - unit_w * 0.01) / unit_w)))
        high.append(double_to_long(math.ceil((height - unit_h * 0.01) / unit_h)))
    return GridSet(
        name, srs, extent, align_top_left, tuple(res), tuple(wide), tuple(high),
        tile_width, tile_height, meters_per_unit, pixel_size, definition,
    )  # fmt: skip


def create_by_levels(
    name: str,
    srs: int,
    extent: Box,
    align_top_left: bool,
    levels: int,
    meters_per_unit: float | None = None,
    pixel_size: float = DEFAULT_PIXEL_SIZE,
    tile_width: int = 256,
    tile_height: int = 256,
    definition: tuple[tuple[str, object], ...] = (),
) -> GridSet:
    """``GridSetFactory.createGridSet`` from a number of levels: level 0 is one tile on the
    short side, the extent grows to whole tiles, each level halves the resolution."""
    if levels < 1:
        raise Invalid("A gridset needs at least one level")
    minx, miny, maxx, maxy = extent
    res_x = (maxx - minx) / tile_width
    res_y = (maxy - miny) / tile_height
    if res_x <= res_y:
        tiles_wide, tiles_high = 1, math_round(res_y / res_x)
        res_y = res_y / tiles_high
    else:
        tiles_wide, tiles_high = math_round(res_x / res_y), 1
        res_x = res_x / tiles_wide
    res = max(res_x, res_y)
    adj_w, adj_h = tiles_wide * tile_width * res, tiles_high * tile_height * res
    if align_top_left:
        adjusted = (minx, maxy - adj_h, minx + adj_w, maxy)
    else:
        adjusted = (minx, miny, minx + adj_w, miny + adj_h)
    resolutions = [res]
    for _ in range(1, levels):
        resolutions.append(resolutions[-1] / 2)
    return create(
        name, srs, adjusted, align_top_left, resolutions, None, meters_per_unit, pixel_size,
        tile_width, tile_height, definition,
    )  # fmt: skip


def _mercator_resolutions() -> list[float]:
    # "commonPractice900913Resolutions": 156543.03390625 halved 30 times (exact in binary)
    return [156543.03390625 / (1 << z) for z in range(31)]


def default_gridsets() -> dict[str, GridSet]:
    """The built-in gridsets of a GeoServer install that layers use by default."""
    mercator = _mercator_resolutions()
    half = [r / 2 for r in mercator]
    return {
        "EPSG:4326": create_by_levels("EPSG:4326", 4326, WORLD4326, False, 22),
        "EPSG:4326x2": create_by_levels(
            "EPSG:4326x2", 4326, WORLD4326, False, 22, tile_width=512, tile_height=512
        ),
        "EPSG:900913": create("EPSG:900913", 900913, WORLD3857, False, mercator, None, 1.0),
        "EPSG:900913x2": create(
            "EPSG:900913x2", 900913, WORLD3857, False, half,
            meters_per_unit=1.0, tile_width=512, tile_height=512,
        ),
    }  # fmt: skip


DEFAULT_GRIDSETS = default_gridsets()


def _mercator_y(lat: float) -> float:
    lat = max(-MAX_MERCATOR_LATITUDE, min(MAX_MERCATOR_LATITUDE, lat))
    return EARTH_RADIUS * math.log(math.tan(math.pi / 4 + math.radians(lat) / 2))


def project(bounds: Box, srs: int) -> Box | None:
    """A lon/lat box in ``srs`` (EPSG:4326 itself or spherical web mercator); None when the
    emulator cannot project to that CRS (the layer then covers the whole gridset)."""
    minx, miny, maxx, maxy = bounds
    if srs_equal(srs, 4326):
        return bounds
    if srs_equal(srs, 3857):
        return (
            EARTH_RADIUS * math.radians(minx), _mercator_y(miny),
            EARTH_RADIUS * math.radians(maxx), _mercator_y(maxy),
        )  # fmt: skip
    return None


def _is_null(b: Box) -> bool:
    return b[0] > b[2] or b[1] > b[3]


def intersection(a: Box, b: Box) -> Box:
    """``BoundingBox.intersection``: the overlap, or the null box (0, 0, -1, -1)."""
    if _is_null(a) or _is_null(b) or b[0] > a[2] or b[2] < a[0] or b[1] > a[3] or b[3] < a[1]:
        return (0.0, 0.0, -1.0, -1.0)
    return (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))


def grid_bounds(gridset: GridSet) -> Box:
    """``GridSet.getBounds``: the area the level-0 tiles cover."""
    width = gridset.resolutions[0] * gridset.tile_width
    height = gridset.resolutions[0] * gridset.tile_height
    ox, oy = gridset.origin()
    top = gridset.tiles_high[0] - 1
    bottom = 0
    if gridset.align_top_left:
        bottom -= gridset.tiles_high[0]
        top -= gridset.tiles_high[0]
    return (ox, oy + height * bottom, ox + width * gridset.tiles_wide[0], oy + height * (top + 1))


def layer_extent(gridset: GridSet, latlon: Box | None) -> Box | None:
    """GeoServer's dynamic grid subset extent: the layer bounds in the gridset's CRS,
    intersected with the gridset bounds; None (whole grid) without bounds."""
    if latlon is None:
        return None
    projected = project(latlon, gridset.srs)
    if projected is None:
        return grid_bounds(gridset)
    return intersection(grid_bounds(gridset), projected)
