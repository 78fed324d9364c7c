"""Small files the upload tests make themselves: shapefiles (pyshp), GeoPackages (sqlite3),
property files, GeoTIFFs and world images (Pillow), ArcGrid text, and ZIPs of them."""

from __future__ import annotations

import io
import sqlite3
import struct
import zipfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import shapefile

WGS84_PRJ = (
    'GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],'
    'PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]'
)
ZIP = {"Content-Type": "application/zip"}
TEXT = {"Content-Type": "text/plain"}
WS = "/rest/workspaces"


def make_zip(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            z.writestr(zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0)), data)
    return buf.getvalue()


def shapefile_files(
    name: str = "lanes",
    kind: str = "point",
    records: Iterable[tuple[Any, ...]] | None = None,
    prj: str | None = WGS84_PRJ,
) -> dict[str, bytes]:
    """A shapefile's files: points (``kind`` point), lines or polygons, with fields
    ``NAME`` (C 20), ``LANES`` (N 5), ``WIDTH`` (N 8.2), ``OPENED`` (D)."""
    shp, shx, dbf = io.BytesIO(), io.BytesIO(), io.BytesIO()
    w = shapefile.Writer(
        shp=shp,
        shx=shx,
        dbf=dbf,
        shapeType={"point": 1, "line": 3, "polygon": 5}[kind],
    )
    w.field("NAME", "C", 20)
    w.field("LANES", "N", 5, 0)
    w.field("WIDTH", "N", 8, 2)
    w.field("OPENED", "D")
    rows = (
        list(records)
        if records is not None
        else [
            ("Main", 2, 7.5, "20200101", (1.0, 2.0)),
            ("High", 4, 12.25, "20210615", (3.0, 5.0)),
        ]
    )
    for row in rows:
        *values, coords = row
        if kind == "point":
            w.point(*coords)
        elif kind == "line":
            w.line([[coords, (coords[0] + 1, coords[1] + 1)]])
        else:
            x, y = coords
            w.poly([[(x, y), (x, y + 1), (x + 1, y + 1), (x + 1, y), (x, y)]])
        w.record(*values)
    w.close()
    files = {f"{name}.shp": shp.getvalue(), f"{name}.shx": shx.getvalue(),
             f"{name}.dbf": dbf.getvalue()}  # fmt: skip
    if prj is not None:
        files[f"{name}.prj"] = prj.encode()
    return files


def shapefile_zip(*names: str, **kw: Any) -> bytes:
    files: dict[str, bytes] = {}
    for name in names or ("lanes",):
        files.update(shapefile_files(name, **kw))
    return make_zip(files)


PROPERTIES = (
    b"_=name:String,pointProperty:Point:srid=4326\npds.0=zero|POINT(0 0)\npds.1=one|POINT(1 1)\n"
)


def gp_blob(wkb: bytes, srs_id: int = 4326) -> bytes:
    return b"GP" + bytes([0, 0]) + struct.pack("<i", srs_id) + wkb


def point_wkb(x: float, y: float) -> bytes:
    return struct.pack("<BIdd", 1, 1, x, y)


def geopackage(
    tables: dict[str, list[tuple[str, float, float]]] | None = None,
    path: Path | None = None,
    srs_id: int = 4326,
) -> bytes:
    """A GeoPackage with point tables: ``name → [(label, x, y)]``."""
    tables = (
        tables if tables is not None else {"cities": [("Rome", 12.5, 41.9), ("Oslo", 10.7, 59.9)]}
    )
    conn = sqlite3.connect(":memory:")
    conn.executescript(
        """
        CREATE TABLE gpkg_spatial_ref_sys (srs_name TEXT, srs_id INTEGER PRIMARY KEY,
          organization TEXT, organization_coordsys_id INTEGER, definition TEXT,
          description TEXT);
        CREATE TABLE gpkg_contents (table_name TEXT PRIMARY KEY, data_type TEXT,
          identifier TEXT, description TEXT, last_change TEXT, min_x REAL, min_y REAL,
          max_x REAL, max_y REAL, srs_id INTEGER);
        CREATE TABLE gpkg_geometry_columns (table_name TEXT, column_name TEXT,
          geometry_type_name TEXT, srs_id INTEGER, z INTEGER, m INTEGER);
        """
    )
    conn.execute(
        "INSERT INTO gpkg_spatial_ref_sys VALUES ('WGS 84', 4326, 'EPSG', 4326, 'GEOGCS[]', '')"
    )
    conn.execute(
        "INSERT INTO gpkg_spatial_ref_sys VALUES ('Mercator', 3857, 'EPSG', 3857, 'PROJCS[]', '')"
    )
    for name, rows in tables.items():
        conn.execute(
            f'CREATE TABLE "{name}" (fid INTEGER PRIMARY KEY AUTOINCREMENT, geom POINT, '
            "label TEXT(30), population INTEGER, founded DATE)"
        )
        conn.execute(
            "INSERT INTO gpkg_contents VALUES (?, 'features', ?, '', '', 0, 0, 0, 0, ?)",
            (name, name, srs_id),
        )
        conn.execute(
            "INSERT INTO gpkg_geometry_columns VALUES (?, 'geom', 'POINT', ?, 0, 0)",
            (name, srs_id),
        )
        for label, x, y in rows:
            conn.execute(
                f'INSERT INTO "{name}" (geom, label, population, founded) VALUES (?, ?, ?, ?)',
                (gp_blob(point_wkb(x, y), srs_id), label, len(label) * 1000, "2000-01-02"),
            )
    conn.commit()
    data = conn.serialize()
    conn.close()
    return bytes(data)


def geotiff(
    width: int = 4,
    height: int = 3,
    mode: str = "L",
    origin: tuple[float, float] = (10.0, 50.0),
    pixel: float = 0.5,
    epsg: int | None = 4326,
    nodata: str | None = None,
) -> bytes:
    """A GeoTIFF made with Pillow: tie point at ``origin`` (upper left), square pixels."""
    from PIL import Image, TiffImagePlugin

    image = Image.new(mode, (width, height))
    info = TiffImagePlugin.ImageFileDirectory_v2()
    info[33550] = (pixel, pixel, 0.0)
    info[33922] = (0.0, 0.0, 0.0, origin[0], origin[1], 0.0)
    if epsg is not None:
        info[34735] = (1, 1, 0, 3, 1024, 0, 1, 2, 1025, 0, 1, 1, 2048, 0, 1, epsg)
    if nodata is not None:
        info[42113] = nodata
    buf = io.BytesIO()
    image.save(buf, "TIFF", tiffinfo=info)
    return buf.getvalue()


def png(width: int = 4, height: int = 2) -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (width, height)).save(buf, "PNG")
    return buf.getvalue()


def arcgrid(ncols: int = 3, nrows: int = 2, cells: int | None = None) -> bytes:
    n = ncols * nrows if cells is None else cells
    values = " ".join(str(i) for i in range(n))
    return (
        f"ncols {ncols}\nnrows {nrows}\nxllcorner 100.0\nyllcorner 200.0\n"
        f"cellsize 10.0\nNODATA_value -9999\n{values}\n"
    ).encode()
