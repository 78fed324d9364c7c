"""Gridsets as GeoWebCache builds them (``GridSetFactory``), the defaults GeoServer ships,
SRS equality with its web-mercator aliases, and a layer's extent in a gridset's CRS.

A gridset is a list of levels, each with a resolution and a number of tiles wide and high.
Everything here uses IEEE doubles in the same order of operations as GWC, so the tile
counts computed from it are GWC's to the tile.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache

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

MAX_LEVELS = 256
"""the most levels (resolutions or scale denominators) a gridset may have; GWC sets none (a
gridset of 2,500,000 levels took seconds to store and its XML never came back)"""
TILE_SIZES = (16, 2048)
"""the tile widths and heights a gridset may have: GeoServer's gridset editor's range (GWC's
REST sets none)"""
MAX_TILES_PER_SIDE = 2**32
"""the most tiles a level may be wide or high: a level of 2^32 × 2^32 tiles of 256 pixels
has a resolution of about a centimetre on the whole earth in web mercator (the finest
built-in level is 2^30 wide); a finer one (resolutions [1.0, 1e-300]) only makes tile
arithmetic overflow"""

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
    scale_denominators: tuple[float, ...] | None = None
    """the scale denominators it was defined by (None: defined by resolutions)"""
    scale_names: tuple[str, ...] = ()
    """one name per level (empty: GWC's ``<name>:<level>``)"""
    description: str | None = None
    y_coordinate_first: bool = False
    original_extent: Box | None = None
    """the extent as given, before ``create_by_levels`` grew it to whole tiles"""

    def level_names(self) -> tuple[str, ...]:
        if self.scale_names:
            return self.scale_names
        return tuple(f"{self.name}:{z}" for z in range(self.levels))

    def scale_denominator(self, z: int) -> float:
        """``Grid.getScaleDenominator``: resolution × metersPerUnit / pixelSize."""
        return self.resolutions[z] * self.meters_per_unit / self.pixel_size

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
    *,
    scale_names: Sequence[str] = (),
    description: str | None = None,
    y_coordinate_first: bool = False,
    original_extent: Box | None = None,
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
    _check_size(name, len(values), tile_width, tile_height)
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
        wide.append(_ceil_long((width - unit_w * 0.01) / unit_w))
        high.append(_ceil_long((height - unit_h * 0.01) / unit_h))
        if max(wide[-1], high[-1]) > MAX_TILES_PER_SIDE:
            raise Invalid(
                f"GridSet {name}: level {len(res) - 1} would be {wide[-1]} × {high[-1]} tiles;"
                f" at most {MAX_TILES_PER_SIDE} tiles wide or high are accepted"
            )
    if scale_names and len(scale_names) != len(values):
        raise Invalid("The gridset must have one scale name per level")
    return GridSet(
        name, srs, extent, align_top_left, tuple(res), tuple(wide), tuple(high),
        tile_width, tile_height, meters_per_unit, pixel_size, definition,
        tuple(values) if scales is not None else None, tuple(scale_names), description,
        y_coordinate_first, original_extent or extent,
    )  # fmt: skip


def _ceil_long(value: float) -> int:
    """``(long) Math.ceil(value)``: NaN is 0 and past the range it saturates, as in Java."""
    return double_to_long(math.ceil(value) if math.isfinite(value) else value)


def _check_size(name: str, levels: int, tile_width: int, tile_height: int) -> None:
    """Refuse a gridset of more than ``MAX_LEVELS`` levels, or tiles outside ``TILE_SIZES``,
    before any level is computed."""
    if levels > MAX_LEVELS:
        raise Invalid(f"GridSet {name}: {levels} levels; at most {MAX_LEVELS} levels are accepted")
    low, high = TILE_SIZES
    if not (low <= tile_width <= high and low <= tile_height <= high):
        raise Invalid(
            f"GridSet {name}: tiles of {tile_width} × {tile_height} pixels; tile width and"
            f" height must be between {low} and {high}"
        )


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
    *,
    description: str | None = None,
    y_coordinate_first: bool = False,
) -> GridSet:
    """``GridSetFactory.createGridSet`` from a number of levels: level 0 is one tile on the
    short side, the extent grows to whole tiles, each level halves the resolution."""
    if levels < 1:
        raise Invalid("A gridset needs at least one level")
    _check_size(name, levels, tile_width, tile_height)
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
        tile_width, tile_height, definition, description=description,
        y_coordinate_first=y_coordinate_first, original_extent=extent,
    )  # fmt: skip


def _mercator_resolutions() -> list[float]:
    # "commonPractice900913Resolutions": 156543.03390625 halved 30 times (exact in binary)
    return [156543.03390625 / (1 << z) for z in range(31)]


def default_gridsets() -> dict[str, GridSet]:
    """The built-in gridsets of a GeoServer install that layers use by default."""
    mercator = _mercator_resolutions()
    half = [r / 2 for r in mercator]
    return {
        "EPSG:4326": create_by_levels(
            "EPSG:4326", 4326, WORLD4326, False, 22, y_coordinate_first=True
        ),
        "EPSG:4326x2": create_by_levels(
            "EPSG:4326x2", 4326, WORLD4326, False, 22, tile_width=512, tile_height=512,
            y_coordinate_first=True,
        ),
        "EPSG:900913": create("EPSG:900913", 900913, WORLD3857, False, mercator, None, 1.0),
        "EPSG:900913x2": create(
            "EPSG:900913x2", 900913, WORLD3857, False, half,
            meters_per_unit=1.0, tile_width=512, tile_height=512,
        ),
    }  # fmt: skip


DEFAULT_GRIDSETS = default_gridsets()


def _crs84_pixel_resolutions() -> list[float]:
    r = [2.0, 1.0, 0.5]
    r.append(r[2] * (2.0 / 3.0))
    r.append(r[2] / 3.0)
    r.append(r[4] / 2.0)
    r.append(r[4] / 5.0)
    r.append(r[4] / 10.0)
    r.append((5.0 / 6.0) * 1e-2)
    r.append(r[8] / 2.0)
    r.append(r[9] / 3.0)
    r.append(r[9] / 5.0)
    r.append(r[11] / 3.0)
    r.append(r[12] / 2.0)
    r.append(r[13] * (3.0 / 5.0))
    r.append(r[14] / 3.0)
    r.append(r[15] * (3.0 / 10.0))
    r.append(r[16] / 3.0)
    return r


CRS84_SCALES = (
    500e6, 250e6, 100e6, 50e6, 25e6, 10e6, 5e6, 2.5e6, 1e6, 500e3, 250e3, 100e3, 50e3, 25e3,
    10e3, 5e3, 2.5e3, 1000, 500, 250, 100,
)  # fmt: skip
WEB_MERCATOR_QUAD_SCALES = (
    559082264.028717, 279541132.014358, 139770566.007179, 69885283.0035897, 34942641.5017948,
    17471320.7508974, 8735660.37544871, 4367830.18772435, 2183915.09386217, 1091957.54693108,
    545978.773465544, 272989.386732772, 136494.693366386, 68247.346683193, 34123.6733415964,
    17061.8366707982, 8530.91833539913, 4265.45916769956, 2132.72958384978, 1066.36479192489,
    533.182395962445, 266.591197981222, 133.295598990611, 66.6477994953056, 33.3238997476528,
)  # fmt: skip
WORLD_CRS84_QUAD_SCALES = (
    279541132.0143589, 139770566.0071794, 69885283.00358972, 34942641.50179486,
    17471320.75089743, 8735660.375448715, 4367830.187724357, 2183915.093862179,
    1091957.546931089, 545978.7734655447, 272989.3867327723, 136494.6933663862,
    68247.34668319309, 34123.67334159654, 17061.83667079827, 8530.918335399136,
    4265.459167699568, 2132.729583849784,
)  # fmt: skip
CRS84_QUAD_SCALES = (559082264.0287178, *WORLD_CRS84_QUAD_SCALES)
WORLD3395: Box = (-20037508.3427892, -20037508.3427892, 20037508.3427892, 20037508.3427892)


def _x2(base: GridSet) -> GridSet:
    """GWC's ``addx2Gridset``: 512-pixel tiles at half each scale denominator."""
    return create(
        base.name + "x2", base.srs, base.original_extent or base.extent, base.align_top_left,
        None, [base.scale_denominator(z) / 2 for z in range(base.levels)],
        base.meters_per_unit, base.pixel_size, 512, 512,
        scale_names=base.level_names(), y_coordinate_first=base.y_coordinate_first,
    )  # fmt: skip


@cache
def builtin_gridsets() -> dict[str, GridSet]:
    """Every gridset GWC defines itself (``DefaultGridsets`` with GeoServer's legacy names),
    built on first use."""
    out = dict(DEFAULT_GRIDSETS)
    numbered = [str(z) for z in range(25)]
    out["GlobalCRS84Pixel"] = create(
        "GlobalCRS84Pixel", 4326, WORLD4326, True, _crs84_pixel_resolutions(),
        y_coordinate_first=True,
    )  # fmt: skip
    out["GlobalCRS84Scale"] = create(
        "GlobalCRS84Scale", 4326, WORLD4326, True, None, CRS84_SCALES, y_coordinate_first=True
    )
    out["GoogleCRS84Quad"] = create(
        "GoogleCRS84Quad", 4326, WORLD4326, True, None, CRS84_QUAD_SCALES,
        y_coordinate_first=True,
    )  # fmt: skip
    quads = [
        create("WebMercatorQuad", 3857, WORLD3857, True, None, WEB_MERCATOR_QUAD_SCALES, 1.0,
               scale_names=numbered, y_coordinate_first=True),
        create("WorldCRS84Quad", 4326, WORLD4326, True, None, WORLD_CRS84_QUAD_SCALES,
               scale_names=numbered[:18], y_coordinate_first=True),
        create("WorldMercatorWGS84Quad", 3395, WORLD3395, True, None, WEB_MERCATOR_QUAD_SCALES,
               1.0, scale_names=numbered, y_coordinate_first=True),
    ]  # fmt: skip
    for quad in quads:
        out[quad.name] = quad
        out[quad.name + "x2"] = _x2(quad)
    return out


def builtin_gridset(name: str) -> GridSet | None:
    if name in DEFAULT_GRIDSETS:
        return DEFAULT_GRIDSETS[name]
    return builtin_gridsets().get(name)


def builtin_names() -> list[str]:
    return list(builtin_gridsets())


def _mercator_y(lat: float) -> float:
    lat = max(-MAX_MERCATOR_LATITUDE, min(MAX_MERCATOR_LATITUDE, lat))
    return EARTH_RADIUS * math.log(math.tan(math.pi / 4 + math.radians(lat) / 2))


def project(bounds: Box, srs: int) -> Box | None:
    """A lon/lat box in the gridset CRS ``srs`` (its outline densified and transformed;
    spherical web mercator by formula); None when the CRS is unknown or nothing of the box
    has an image there (the layer then covers the whole gridset)."""
    minx, miny, maxx, maxy = bounds
    if srs_equal(srs, 4326):
        return bounds
    if srs_equal(srs, 3857):
        return (
            EARTH_RADIUS * math.radians(minx), _mercator_y(miny),
            EARTH_RADIUS * math.radians(maxx), _mercator_y(maxy),
        )  # fmt: skip
    from ...core.errors import EmulatorError
    from ...crs.transform import between

    try:
        return between("EPSG:4326", f"EPSG:{srs}").bounds(bounds)
    except EmulatorError:
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
