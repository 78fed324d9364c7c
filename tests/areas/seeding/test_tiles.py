"""Tile arithmetic: the reference's worked examples, and the O(levels) formulas against a
brute-force walk of GWC's metatile iterator."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from geoserver_emulator.areas.seeding import gridsets, tiles
from geoserver_emulator.areas.seeding.gridsets import DEFAULT_GRIDSETS

STATES = (-124.73142200000001, 24.955967, -66.969849, 49.371735)


def _range(name, z0, z1, meta, bounds=None, extent=None):
    gs = DEFAULT_GRIDSETS[name]
    return tiles.tile_range(gs, tiles.subset_coverages(gs, extent), bounds, z0, z1, meta)


@pytest.mark.parametrize(
    ("gridset", "zooms", "bounds", "one", "four"),
    [
        ("EPSG:4326", (0, 3), None, 170, 178),
        ("EPSG:4326", (0, 12), None, 44_739_242, 44_739_250),
        ("EPSG:900913", (0, 5), (-2000000, -1000000, 2000000, 1000000), 25, 221),
        ("EPSG:900913", (0, 5), None, 1365, 1373),
        ("EPSG:900913", (0, 5), (0, 0, 1000000, 1000000), 6, 77),
    ],
)
def test_worked_examples(gridset, zooms, bounds, one, four):
    assert tiles.tile_count(_range(gridset, *zooms, (1, 1), bounds)) == one
    assert tiles.tile_count(_range(gridset, *zooms, (4, 4), bounds)) == four


def test_worked_example_levels_and_metatiles():
    tr = _range("EPSG:4326", 0, 3, (4, 4))
    assert [tr.level(z) for z in range(4)] == [
        (0, 0, 2, 1),
        (0, 0, 3, 2),
        (0, 0, 7, 3),
        (0, 0, 15, 7),
    ]
    # 1 + 1 + 2 + 8 metatiles: z0 and z1 are one (capped, off-by-one) metatile each
    assert tiles.metatile_count(tr) == 12
    tr = _range("EPSG:900913", 0, 5, (4, 4), (-2000000, -1000000, 2000000, 1000000))
    assert tr.level(5) == (12, 12, 19, 19)
    assert tiles.metatile_count(tr) == 1 + 1 + 1 + 4 + 4 + 4


def test_default_gridsets_match_gwc():
    wgs = DEFAULT_GRIDSETS["EPSG:4326"]
    assert wgs.levels == 22 and wgs.resolutions[0] == 0.703125
    assert wgs.tiles_wide[:4] == (2, 4, 8, 16) and wgs.tiles_high[:4] == (1, 2, 4, 8)
    merc = DEFAULT_GRIDSETS["EPSG:900913"]
    assert merc.levels == 31 and merc.resolutions[0] == 156543.03390625
    assert merc.tiles_wide[30] == 2**30 and merc.tiles_high[30] == 2**30


def test_whole_world_to_zoom_30_is_instant_and_exact():
    tr = _range("EPSG:900913", 0, 30, (4, 4))
    exact = sum(max(4, 4**z) for z in range(31)) + (9 - 4)  # z0 is 2x2, z1 is 3x3
    assert tiles.tile_count(tr) == exact
    assert tiles.metatile_count(tr) == 2 + sum(4 ** (z - 2) for z in range(2, 31))


def test_too_many_tiles_is_minus_one():
    """A level of 2^31 × 2^31 tiles (within ``MAX_TILES_PER_SIDE``) before the last one is
    more than ``Long.MAX_VALUE / 4``."""
    gs = gridsets.create(
        "huge", 3857, (0.0, 0.0, 1e12, 1e12), False, [1e12 / 256 / 2**z for z in range(33)]
    )
    assert gs.tiles_wide[31] == 2**31 and gs.tiles_wide[32] == gridsets.MAX_TILES_PER_SIDE
    tr = tiles.tile_range(gs, tiles.subset_coverages(gs, None), None, 0, 32, (1, 1))
    assert tiles.tile_count(tr) == -1


def test_layer_bounds_give_the_layer_coverage():
    wgs = DEFAULT_GRIDSETS["EPSG:4326"]
    assert tiles.subset_coverages(wgs, STATES)[5] == (9, 20, 20, 24)
    merc = DEFAULT_GRIDSETS["EPSG:900913"]
    extent = gridsets.layer_extent(merc, STATES)
    assert extent is not None and extent[0] == pytest.approx(-13885038.38, abs=0.01)
    assert tiles.subset_coverages(merc, extent)[5] == (4, 18, 10, 21)


def test_bounds_outside_the_coverage_still_give_an_edge_tile():
    wgs = DEFAULT_GRIDSETS["EPSG:4326"]
    cov = tiles.subset_coverages(wgs, STATES)
    tr = tiles.tile_range(wgs, cov, (100.0, -80.0, 120.0, -70.0), 5, 5, (1, 1))
    assert tiles.tile_count(tr) == 1


def test_zoom_outside_the_subset_cannot_be_iterated():
    tr = _range("EPSG:4326", 0, 25, (4, 4))
    with pytest.raises(tiles.RangeError):
        tiles.tile_count(tr)
    tr = _range("EPSG:4326", 5, 3, (4, 4))
    assert tiles.tile_count(tr) == 0
    with pytest.raises(tiles.RangeError):
        tiles.metatile_count(tr)


def test_top_left_gridset_counts_from_the_bottom():
    gs = gridsets.create_by_levels("tl", 3857, (0.0, 0.0, 1000.0, 1000.0), True, 4)
    assert tiles.closest_rectangle(gs, 2, (0.0, 0.0, 250.0, 250.0)) == (0, 0, 0, 0)
    assert tiles.closest_rectangle(gs, 2, (0.0, 750.0, 250.0, 1000.0)) == (0, 3, 0, 3)


# -- brute force ---------------------------------------------------------------------------


def _brute_expand(rect, meta, w, h):
    """Every whole metatile touching the rectangle, then GWC's cap at W/H."""
    mx, my = meta
    xs = [x - x % mx for x in range(rect[0], rect[2] + 1)]
    ys = [y - y % my for y in range(rect[1], rect[3] + 1)]
    return (min(xs), min(ys), min(max(xs) + mx - 1, w), min(max(ys) + my - 1, h))


def _brute_iterate(tr):
    """``TileRangeIterator.nextMetaGridLocation``, loop by loop."""
    out = []
    for z in range(tr.zoom_start, tr.zoom_stop + 1):
        minx, miny, maxx, maxy = tr.level(z)
        y = miny
        while y <= maxy:
            x = minx
            while x <= maxx:
                out.append((x, y, z))
                x += tr.meta[0]
            y += tr.meta[1]
    return out


def _brute_stored(tr, locations):
    """Tiles each metatile stores, clipped on the high side to the coverage (``MetaTile``)."""
    stored = set()
    for x0, y0, z in locations:
        cov = tr.coverage[z]
        for x in range(x0, min(x0 + tr.meta[0] - 1, cov[2]) + 1):
            for y in range(y0, min(y0 + tr.meta[1] - 1, cov[3]) + 1):
                stored.add((x, y, z))
    return stored


requests = st.fixed_dictionaries(
    {
        "gridset": st.sampled_from(["EPSG:4326", "EPSG:900913"]),
        "z0": st.integers(0, 4),
        "span": st.integers(0, 2),
        "meta": st.tuples(st.integers(1, 5), st.integers(1, 5)),
        "box": st.one_of(
            st.none(),
            st.tuples(st.floats(-1, 1), st.floats(-1, 1), st.floats(0.01, 1), st.floats(0.01, 1)),
        ),
        "layer": st.one_of(st.none(), st.just(STATES), st.just((-10.0, -10.0, 30.0, 5.0))),
    }
)


def _build(r):
    gs = DEFAULT_GRIDSETS[r["gridset"]]
    x0, y0, x1, y1 = gs.extent
    bounds = None
    if r["box"] is not None:
        a, b, wa, hb = r["box"]
        cx, cy = x0 + (a + 1) / 2 * (x1 - x0), y0 + (b + 1) / 2 * (y1 - y0)
        bounds = (cx, cy, cx + wa * (x1 - x0) / 3, cy + hb * (y1 - y0) / 3)
    cov = tiles.subset_coverages(gs, gridsets.layer_extent(gs, r["layer"]))
    return gs, bounds, tiles.tile_range(gs, cov, bounds, r["z0"], r["z0"] + r["span"], r["meta"])


@settings(max_examples=150, deadline=None)
@given(requests)
def test_counts_equal_a_brute_force_walk_of_the_iterator(r):
    _, _, tr = _build(r)
    locations = _brute_iterate(tr)
    assert tiles.metatile_count(tr) == len(locations)
    # tilesTotal is the area of the expanded rectangles: the metatiles tile them exactly
    area = 0
    for x, y, z in locations:
        maxx, maxy = tr.level(z)[2], tr.level(z)[3]
        area += min(tr.meta[0], maxx - x + 1) * min(tr.meta[1], maxy - y + 1)
    assert tiles.tile_count(tr) == area


@settings(max_examples=150, deadline=None)
@given(requests, st.data())
def test_expansion_equals_brute_force(r, data):
    gs, bounds, tr = _build(r)
    z = data.draw(st.integers(tr.zoom_start, tr.zoom_stop))
    rect = tr.coverage[z]
    if bounds is not None:
        rect = tiles.clamp(rect, tiles.closest_rectangle(gs, z, bounds))
    expected = _brute_expand(rect, tr.meta, gs.tiles_wide[z], gs.tiles_high[z])
    assert tiles.expand(gs, z, rect, tr.meta) == expected == tr.level(z)


@settings(max_examples=150, deadline=None)
@given(requests, st.data())
def test_stored_tiles_of_any_slice_equal_brute_force(r, data):
    _, _, tr = _build(r)
    locations = _brute_iterate(tr)
    a = data.draw(st.integers(0, len(locations)))
    b = data.draw(st.integers(a, len(locations)))
    rects = tiles.stored_between(tr, a, b)
    got = {
        (x, y, z)
        for z, (x0, y0, x1, y1) in rects
        for x in range(x0, x1 + 1)
        for y in range(y0, y1 + 1)
    }
    assert got == _brute_stored(tr, locations[a:b])
    assert sum(tiles.area(rect) for _, rect in rects) == len(got)  # disjoint
