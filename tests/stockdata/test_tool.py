"""The conversion tool's own logic (``docs/tools/stockdata.py``, ``stocklayers.py``), on small
made-up inputs: the real sources are downloaded only when the data is rebuilt."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import shapely

TOOLS = Path(__file__).resolve().parents[2] / "docs" / "tools"
sys.path.insert(0, str(TOOLS))
stocklayers = importlib.import_module("stocklayers")
stocktool = importlib.import_module("stockdata")  # the tool, not geoserver_emulator.stockdata
sys.path.remove(str(TOOLS))

STRING, INTEGER, DOUBLE = "java.lang.String", "java.lang.Integer", "java.lang.Double"


def test_topojson_arcs_decode_into_polygons(tmp_path: Path) -> None:
    # a unit square from one quantised, delta-encoded arc; a second member uses it reversed
    topo = {
        "type": "Topology",
        "transform": {"scale": [0.5, 0.25], "translate": [10.0, 20.0]},
        "arcs": [[[0, 0], [2, 0], [0, 4], [-2, 0], [0, -4]]],
        "objects": {
            "shapes": {
                "type": "GeometryCollection",
                "geometries": [
                    {"type": "Polygon", "id": "01", "properties": {"name": "a"}, "arcs": [[0]]},
                    {"type": "MultiPolygon", "id": "02", "arcs": [[[~0]]]},
                ],
            }
        },
    }
    path = tmp_path / "t.json"
    path.write_text(json.dumps(topo))
    (fid1, props, one), (fid2, _, two) = stocklayers._topojson(path, "shapes")
    assert (fid1, props, fid2) == ("01", {"name": "a"}, "02")
    assert one.geom_type == two.geom_type == "MultiPolygon"
    assert one.bounds == two.bounds == (10.0, 20.0, 11.0, 21.0)
    assert one.area == two.area == 1.0


def test_an_invalid_polygon_loses_its_artefacts_not_its_area() -> None:
    square = shapely.box(0, 0, 1, 1)
    sliver = shapely.Polygon([(5, 5), (5, 6), (5, 5), (5, 5)])
    spike = shapely.Polygon([(0, 0), (1, 0), (1, 1), (1, 2), (1, 1), (0, 1)])
    broken = shapely.MultiPolygon([spike, sliver])
    assert not broken.is_valid
    fixed = stocklayers._repaired(broken)
    assert fixed.is_valid and fixed.geom_type == "MultiPolygon"
    assert fixed.area == pytest.approx(1.0)
    assert stocklayers._repaired(shapely.MultiPolygon([square])).equals(square)


@pytest.mark.parametrize(
    ("kind", "size", "decimal", "values", "binding", "length"),
    [
        ("C", 15, 0, ["x"], STRING, 15),
        ("N", 3, 0, [1, None], INTEGER, None),
        ("N", 12, 0, [2**40], "java.lang.Long", None),
        ("N", 12, 1, [1.5], DOUBLE, None),
        ("F", 10, 4, [1.5], DOUBLE, None),
    ],
)
def test_dbf_columns_take_the_geopackage_bindings(
    kind: str, size: int, decimal: int, values: list[Any], binding: str, length: int | None
) -> None:
    field = SimpleNamespace(name="c", field_type=kind, size=size, decimal=decimal)
    attribute = stocklayers._dbf_attribute(field, values)
    assert (attribute.binding, attribute.length) == (binding, length)


def test_dbf_values_blank_numbers_are_null_text_stays() -> None:
    text = stocklayers.StockAttribute("t", STRING, True, 4)
    number = stocklayers.StockAttribute("n", INTEGER)
    assert stocklayers._dbf_value("", text) == ""
    assert stocklayers._dbf_value(None, number) is None
    assert stocklayers._dbf_value("*****", number) is None
    assert stocklayers._dbf_value(7, number) == 7


def _ft(box: dict[str, float], attributes: list[str]) -> dict[str, Any]:
    return {
        "name": "t",
        "srs": "EPSG:4326",
        "nativeBoundingBox": dict(box),
        "latLonBoundingBox": dict(box),
        "attributes": attributes,
    }


def _table(ft: dict[str, Any], geom: Any, sourced: bool = True) -> Any:
    attrs = [stocklayers.StockAttribute("g", "org.locationtech.jts.geom.MultiPolygon")]
    source = (stocklayers.Source("npm:x@1", "public domain", "test"),) if sourced else ()
    return stocklayers._table(ft, "ws", attrs, [[geom]], source)


def test_the_catalog_keeps_geoservers_bounds_where_the_data_agrees() -> None:
    box = {"minx": 0.0, "miny": 0.0, "maxx": 1.0000000000001, "maxy": 1.0}
    ft = _ft(box, ["g:MultiPolygon"])
    assert not stocktool._update_catalog(
        ft, _table(ft, shapely.MultiPolygon([shapely.box(0, 0, 1, 1)]))
    )
    assert ft["nativeBoundingBox"] == box


def test_the_catalog_takes_the_datas_bounds_where_it_differs() -> None:
    ft = _ft({"minx": 0.0, "miny": 0.0, "maxx": 1.0, "maxy": 1.0}, ["g:MultiPolygon"])
    table = _table(ft, shapely.MultiPolygon([shapely.box(0, 0, 2, 1)]))
    assert stocktool._update_catalog(ft, table)
    assert ft["nativeBoundingBox"] == ft["latLonBoundingBox"]
    assert ft["nativeBoundingBox"] == {"minx": 0.0, "maxx": 2.0, "miny": 0.0, "maxy": 1.0}


def test_a_layer_without_source_keeps_its_bounds_and_schema() -> None:
    ft = _ft({"minx": 0.0, "miny": 0.0, "maxx": 1.0, "maxy": 1.0}, ["g:MultiPolygon", "a:Long"])
    table = stocklayers.empty_table("ws", ft)
    assert not table.features and not stocktool._update_catalog(ft, table)
    assert [a.binding for a in table.attributes][1] == "java.lang.Long"


def test_a_group_takes_the_union_of_its_changed_members() -> None:
    catalog = {
        "dataStores": [
            {
                "workspace": "w",
                "featureTypes": [
                    {"name": "a", "srs": "EPSG:4326",
                     "nativeBoundingBox": {"minx": 0, "maxx": 2, "miny": 0, "maxy": 1}},
                    {"name": "b", "srs": "EPSG:4326",
                     "nativeBoundingBox": {"minx": -1, "maxx": 1, "miny": 0, "maxy": 3}},
                ],
            }
        ],
        "coverageStores": [],
        "layerGroups": [
            {"name": "g", "layers": ["w:a", "w:b"], "bounds": {"minx": 9, "crs": "EPSG:4326"}},
            {"name": "h", "layers": ["w:b"], "bounds": {"minx": 9, "crs": "EPSG:4326"}},
        ],
    }  # fmt: skip
    stocktool._update_groups(catalog, {"w:a"})
    g, h = catalog["layerGroups"]
    assert g["bounds"] == {"minx": -1, "maxx": 2, "miny": 0, "maxy": 3, "crs": "EPSG:4326"}
    assert h["bounds"] == {"minx": 9, "crs": "EPSG:4326"}  # no member changed


def test_every_source_is_pinned_to_a_version() -> None:
    for spec in stocklayers.PACKAGES:
        kind, name = spec.split(":", 1)
        assert kind in ("pypi", "npm")
        assert ("==" if kind == "pypi" else "@") in name.lstrip("@"), spec
