"""Shapefiles read with pyshp: schema, features, CRS, as GeoTools' shapefile store reads them.

A shapefile is the ``.shp`` with its ``.shx``, ``.dbf``, ``.prj`` and ``.cpg`` side files
(``.shx`` and ``.dbf`` may be missing: the geometries alone are then read). The geometry
attribute is ``the_geom``; polygons read as ``MultiPolygon``, lines as ``MultiLineString``
(GeoTools' bindings); DBF fields bind as GeoTools' ``DbaseFileHeader`` binds them. The
sizes the headers declare are checked against the bytes present before anything is read,
so a truncated file is refused by name.
"""

from __future__ import annotations

import io
import struct
from datetime import date
from typing import Any

from ...features.model import Attribute, Feature, FeatureTable
from .crs import declared, srs_of_prj
from .readers import MAX_FEATURES, OverBudget, TypeRead, Unreadable

JTS = "org.locationtech.jts.geom."
GEOMETRY = "the_geom"
DEFAULT_CHARSET = "ISO-8859-1"

_SHAPE_BINDINGS = {
    0: "Geometry",
    1: "Point", 11: "Point", 21: "Point",
    3: "MultiLineString", 13: "MultiLineString", 23: "MultiLineString",
    5: "MultiPolygon", 15: "MultiPolygon", 25: "MultiPolygon",
    8: "MultiPoint", 18: "MultiPoint", 28: "MultiPoint",
    31: "MultiPolygon",
}  # fmt: skip


def type_names(files: dict[str, bytes]) -> list[str]:
    """The shapefiles at the top of a folder (a directory store is not recursive), sorted."""
    return sorted(p[:-4] for p in files if "/" not in p and p.lower().endswith(".shp"))


def _side(files: dict[str, bytes], stem: str, ext: str) -> bytes | None:
    for name in (f"{stem}.{ext}", f"{stem}.{ext.upper()}"):
        if name in files:
            return files[name]
    return None


def read(
    files: dict[str, bytes], name: str, charset: str | None = None, limit: int = MAX_FEATURES
) -> TypeRead:
    """Read the shapefile ``name`` (its stem) from a folder's files; more than ``limit``
    features (as its index or table declares them) is refused before any is read."""
    shp = _side(files, name, "shp")
    if shp is None:
        raise Unreadable(f"Shapefile {name}.shp is missing")
    shx, dbf = _side(files, name, "shx"), _side(files, name, "dbf")
    _check_shp(name, shp)
    if shx is not None:
        _check_shp(name, shx, "shx")
    if dbf is not None:
        _check_dbf(name, dbf)
    cpg = _side(files, name, "cpg")
    encoding = charset or (cpg.decode("ascii", "replace").strip() if cpg else "") or DEFAULT_CHARSET
    try:
        "".encode(encoding)
    except LookupError:
        raise Unreadable(f"Unknown charset {encoding}") from None
    srs, wkt = srs_of_prj(_side(files, name, "prj"))
    import shapefile  # pyshp: imported on first use

    try:
        reader = shapefile.Reader(
            shp=io.BytesIO(shp),
            shx=io.BytesIO(shx) if shx is not None else None,
            dbf=io.BytesIO(dbf) if dbf is not None else None,
            encoding=encoding,
            encodingErrors="replace",
        )
        with reader:
            table = _table(reader, name, dbf is not None, declared(srs, wkt), limit, shp)
    except Unreadable:
        raise
    except Exception as exc:  # pyshp raises many kinds for a broken file
        raise Unreadable(f"Shapefile {name}.shp cannot be read: {_detail(exc)}") from None
    used = [f"{name}.{e}" for e in ("shp", "shx", "dbf", "prj", "cpg", "qix", "fix")]
    return TypeRead(table, wkt or srs, [p for p in used if p in files])


def _table(reader: Any, name: str, has_dbf: bool, srs: str, limit: int, shp: bytes) -> FeatureTable:
    binding = _SHAPE_BINDINGS.get(reader.shapeType)
    if binding is None:
        raise Unreadable(f"Shapefile {name}.shp has an unknown shape type {reader.shapeType}")
    fields = [f for f in reader.fields[1:]] if has_dbf else []
    attributes = [Attribute(GEOMETRY, JTS + binding)]
    attributes += [_attribute(f) for f in fields]
    count = len(reader)
    if count > limit:
        raise OverBudget(
            f"Shapefile {name}.shp holds {count} features; at most {MAX_FEATURES} are accepted"
            " in one upload"
        )
    features = []
    from shapely.geometry import shape as to_shape

    points = _points(shp) if reader.shapeType == 1 else None
    shapes = iter(points) if points is not None else reader.iterShapes()
    records = reader.iterRecords() if has_dbf else iter(lambda: None, 0)
    for n, geom in enumerate(shapes, start=1):
        record = next(records, None) if has_dbf else None
        shape = geom if points is not None else _geometry(geom, binding, to_shape)
        props: dict[str, Any] = {GEOMETRY: shape}
        if record is not None:
            for attr, value in zip(attributes[1:], list(record), strict=False):
                props[attr.name] = _value(value, attr.binding)
        features.append(Feature(f"{name}.{n}", props))
    return FeatureTable(name, attributes, GEOMETRY, srs, features)


_POINT = [("number", ">i4"), ("words", ">i4"), ("kind", "<i4"), ("x", "<f8"), ("y", "<f8")]
"""a point shapefile's record: its header (number, content length in 16-bit words), then
shape type 1 and the coordinates"""


def _points(shp: bytes) -> list[Any] | None:
    """The geometries of a point shapefile, read in one pass (numpy) and made in one call
    (shapely), when every record holds one finite point; else None (the reader reads the
    records one by one: null shapes, other record sizes). Thirty times faster than a
    record at a time, which the largest upload accepted needs."""
    import numpy
    import shapely

    kind = numpy.dtype(_POINT)
    (words,) = struct.unpack(">i", shp[24:28])
    end = min(words * 2, len(shp))
    if end <= 100 or (end - 100) % kind.itemsize:
        return None
    rec = numpy.frombuffer(shp, kind, (end - 100) // kind.itemsize, 100)
    xy = numpy.stack([rec["x"], rec["y"]], axis=1)
    if (rec["words"] != 10).any() or (rec["kind"] != 1).any() or not numpy.isfinite(xy).all():
        return None
    return list(shapely.points(xy))


def _attribute(field: Any) -> Attribute:
    fname, kind, size, decimals = field[0], str(field[1]), int(field[2]), int(field[3])
    if kind in ("C", "M"):
        return Attribute(fname, "java.lang.String", length=size)
    if kind == "N" and decimals == 0:
        binding = (
            "java.lang.Integer"
            if size < 10
            else "java.lang.Long"
            if size < 19
            else "java.math.BigInteger"
        )
        return Attribute(fname, binding, length=size)
    if kind in ("N", "F", "O"):
        return Attribute(fname, "java.lang.Double", length=size)
    if kind == "L":
        return Attribute(fname, "java.lang.Boolean", length=size)
    if kind == "D":
        return Attribute(fname, "java.util.Date", length=size)
    if kind == "@":
        return Attribute(fname, "java.sql.Timestamp", length=size)
    return Attribute(fname, "java.lang.String", length=size)


def _value(value: Any, binding: str) -> Any:
    if value is None or isinstance(value, bytes):
        return None if value is None else value.decode("latin-1", "replace")
    if binding == "java.util.Date":
        return value if isinstance(value, date) else None
    if binding in ("java.lang.Integer", "java.lang.Long", "java.math.BigInteger"):
        try:
            return int(value)
        except (TypeError, ValueError):
            return None
    if binding == "java.lang.Double":
        try:
            return float(value)
        except (TypeError, ValueError):
            return None
    if binding == "java.lang.String" and isinstance(value, str):
        return value.rstrip()
    return value


def _geometry(geom: Any, binding: str, to_shape: Any) -> Any:
    if geom is None or geom.shapeType == 0 or not geom.points:
        return None
    made = to_shape(geom.__geo_interface__)
    if binding == "MultiPolygon" and made.geom_type == "Polygon":
        from shapely.geometry import MultiPolygon

        return MultiPolygon([made])
    if binding == "MultiLineString" and made.geom_type == "LineString":
        from shapely.geometry import MultiLineString

        return MultiLineString([made])
    return made


def _check_shp(name: str, data: bytes, ext: str = "shp") -> None:
    """The main or index file's header: its magic number, and a declared length that the
    bytes present cover (a truncated upload is refused here)."""
    if len(data) < 100:
        raise Unreadable(f"Shapefile {name}.{ext} is truncated (no complete header)")
    (code,) = struct.unpack(">i", data[:4])
    if code != 9994:
        raise Unreadable(f"Shapefile {name}.{ext} is not a shapefile (bad file code {code})")
    (words,) = struct.unpack(">i", data[24:28])
    if words * 2 > len(data):
        raise Unreadable(
            f"Shapefile {name}.{ext} is truncated: its header declares {words * 2} bytes, "
            f"{len(data)} are present"
        )


def _check_dbf(name: str, data: bytes) -> None:
    if len(data) < 32:
        raise Unreadable(f"Shapefile {name}.dbf is truncated (no complete header)")
    records, header, record = struct.unpack("<IHH", data[4:12])
    if header < 33 or header > len(data) or record <= 0:
        raise Unreadable(f"Shapefile {name}.dbf has a corrupt header")
    if header + records * record > len(data):
        raise Unreadable(
            f"Shapefile {name}.dbf is truncated: {records} records of {record} bytes "
            f"declared, {len(data) - header} bytes present"
        )


def _detail(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__
