"""The stock data files: byte-identical round trips, determinism, read-only sharing, the size
budget, and corrupt files refused by name."""

from __future__ import annotations

import dataclasses
import lzma
from typing import Any

import pytest
import shapely
from hypothesis import given
from hypothesis import strategies as st

from geoserver_emulator import stockdata
from geoserver_emulator.core.record import replace
from geoserver_emulator.stockdata import codec
from geoserver_emulator.stockdata.model import (
    Source,
    StockAttribute,
    StockFeature,
    StockGrid,
    StockTable,
)

BUDGET = 3_000_000
"""bytes: every stock data file together (``docs/stock-data.md`` gives the figure)"""

TABLES = list(stockdata.layers())
GRIDS = list(stockdata.grids())


def _file(ws: str, name: str, suffix: str) -> bytes:
    data = stockdata.read_bytes(ws, name, suffix)
    assert data is not None
    return data


def test_the_files_fit_the_budget() -> None:
    total = sum(len(_file(ws, n, stockdata.TABLE_SUFFIX)) for ws, n in TABLES)
    total += sum(len(_file(ws, n, stockdata.GRID_SUFFIX)) for ws, n in GRIDS)
    assert 0 < total <= BUDGET


@pytest.mark.parametrize(("ws", "name"), TABLES)
def test_a_table_file_round_trips_byte_for_byte(ws: str, name: str) -> None:
    data = _file(ws, name, stockdata.TABLE_SUFFIX)
    assert codec.encode_table(codec.decode_table(data)) == data


@pytest.mark.parametrize(("ws", "name"), GRIDS)
def test_a_grid_file_round_trips_byte_for_byte(ws: str, name: str) -> None:
    data = _file(ws, name, stockdata.GRID_SUFFIX)
    grid = codec.decode_grid(data)
    assert codec.encode_grid(grid, grid.has_data) == data


@pytest.mark.parametrize(("ws", "name"), TABLES)
def test_decoding_is_deterministic(ws: str, name: str) -> None:
    data = _file(ws, name, stockdata.TABLE_SUFFIX)
    one, two = codec.decode_table(data), codec.decode_table(data)
    assert one.attributes == two.attributes
    for a, b in zip(one.features, two.features, strict=True):
        assert a.fid == b.fid
        assert [_plain(v) for v in a.values] == [_plain(v) for v in b.values]


def _plain(value: Any) -> Any:
    return shapely.to_wkb(value) if isinstance(value, shapely.Geometry) else value


def test_loads_are_decoded_once_and_shared() -> None:
    assert stockdata.load("topp", "states") is stockdata.load("topp", "states")
    assert stockdata.load_grid("nurc", "Arc_Sample") is stockdata.load_grid("nurc", "Arc_Sample")


def test_what_is_shared_cannot_be_changed() -> None:
    table = stockdata.load("topp", "states")
    assert table is not None
    feature = table.features[0]
    props = feature.properties
    props["STATE_NAME"] = "changed"
    assert feature.get("STATE_NAME") != "changed"
    assert isinstance(table.features, tuple) and isinstance(feature.values, tuple)
    with pytest.raises(dataclasses.FrozenInstanceError):
        feature.fid = "states.999"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        table.features = ()  # type: ignore[misc]
    grid = stockdata.load_grid("nurc", "Arc_Sample")
    assert grid is not None
    with pytest.raises(ValueError):
        grid.pixels[0, 0, 0] = 1.0


def test_a_file_of_another_kind_is_refused() -> None:
    table = _file("topp", "states", stockdata.TABLE_SUFFIX)
    with pytest.raises(codec.Corrupt, match="magic"):
        codec.decode_grid(table)
    with pytest.raises(codec.Corrupt, match="magic"):
        codec.decode_table(b"PK\x03\x04" + table[4:])


def test_a_truncated_file_is_refused() -> None:
    table = _file("topp", "states", stockdata.TABLE_SUFFIX)
    with pytest.raises(lzma.LZMAError):
        codec.decode_table(table[: len(table) // 2])


def test_a_file_of_a_later_format_is_refused() -> None:
    grid = stockdata.load_grid("sf", "sfdem")
    assert grid is not None
    payload = lzma.decompress(codec.encode_grid(grid, False)[4:])
    later = payload.replace(b'"format":1', b'"format":2')
    with pytest.raises(codec.Corrupt, match="format 2"):
        codec.decode_grid(codec.GRID_MAGIC + lzma.compress(later))


def test_a_grid_whose_pixels_do_not_fill_it_is_refused() -> None:
    grid = stockdata.load_grid("nurc", "Arc_Sample")
    assert grid is not None
    short = replace(grid, data=grid.data[:-4])
    with pytest.raises(codec.Corrupt, match="bytes of pixels"):
        codec.decode_grid(codec.encode_grid(short, True))


# --- any table: a property --------------------------------------------------------------

_VALUES = {
    "java.lang.String": st.text(max_size=12),
    "java.lang.Integer": st.integers(-(2**31), 2**31 - 1),
    "java.lang.Double": st.floats(allow_nan=False),
}
_COORD = st.floats(-1e6, 1e6, allow_nan=False)


@st.composite
def tables(draw: st.DrawFn) -> StockTable:
    bindings = draw(st.lists(st.sampled_from(sorted(_VALUES)), max_size=4))
    attrs = [StockAttribute("geom", "org.locationtech.jts.geom.MultiPoint")]
    attrs += [StockAttribute(f"a{i}", b, True, None) for i, b in enumerate(bindings)]
    names = tuple(a.name for a in attrs)
    rows = []
    for n in range(1, draw(st.integers(0, 6)) + 1):
        points = draw(st.lists(st.tuples(_COORD, _COORD), min_size=1, max_size=4))
        geom = draw(st.none() | st.just(shapely.MultiPoint(points)))
        values = [draw(st.none() | _VALUES[b]) for b in bindings]
        rows.append(StockFeature(f"t.{n}", names, (geom, *values)))
    source = (Source("npm:x@1", "public domain", "test"),)
    return StockTable("ws", "t", "t", "EPSG:4326", "geom", tuple(attrs), tuple(rows), source)


@given(tables())
def test_any_table_round_trips(table: StockTable) -> None:
    back = codec.decode_table(codec.encode_table(table))
    assert back.attributes == table.attributes and back.sources == table.sources
    assert [f.fid for f in back.features] == [f.fid for f in table.features]
    for a, b in zip(back.features, table.features, strict=True):
        assert [_plain(v) for v in a.values] == [_plain(v) for v in b.values]


def test_a_fid_not_of_the_tables_form_is_refused() -> None:
    attrs = (StockAttribute("geom", "org.locationtech.jts.geom.Point"),)
    row = StockFeature("other.1", ("geom",), (shapely.Point(0, 0),))
    table = StockTable("ws", "t", "t", "EPSG:4326", "geom", attrs, (row,))
    with pytest.raises(ValueError, match="other.1"):
        codec.encode_table(table)


def test_a_grid_without_pixels_is_no_data() -> None:
    grid = StockGrid("ws", "g", 3, 2, (0.0, 0.0, 3.0, 2.0), "EPSG:4326", (), "<f4", b"")
    assert not grid.has_data and grid.transform == (1.0, -1.0, 0.5, 1.5)
