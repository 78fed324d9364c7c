"""Geometries (shapely) and attribute values as GML 2, GML 3.1 and GML 3.2 write them, and
as GeoJSON. Coordinates are written with at most ``decimals`` fraction digits (GeoServer's
``numDecimals``), trailing zeros dropped; ``flip`` writes y before x (EPSG geographic CRSs
in WFS 1.1 and 2.0)."""

from __future__ import annotations

import datetime
from typing import Any

from ...wire.geoserver.java import number_text as java_number
from .writer import attr, text

GML2, GML31, GML32 = "gml2", "gml31", "gml32"


def number(value: float, decimals: int) -> str:
    rounded = round(float(value), decimals)
    if rounded == int(rounded) and abs(rounded) < 1e15:
        return str(int(rounded))
    out = f"{rounded:.{decimals}f}".rstrip("0").rstrip(".")
    return "0" if out in ("-0", "") else out


def _coords(coords: Any, decimals: int, flip: bool, pair_sep: str, xy_sep: str) -> str:
    out = []
    for c in coords:
        x, y = number(c[0], decimals), number(c[1], decimals)
        out.append(f"{y}{xy_sep}{x}" if flip else f"{x}{xy_sep}{y}")
    return pair_sep.join(out)


class GeometryWriter:
    def __init__(self, dialect: str, srs_name: str | None, decimals: int, flip: bool) -> None:
        self.dialect, self.srs, self.decimals, self.flip = dialect, srs_name, decimals, flip
        self.counter = 0

    def write(self, geom: Any, gid: str | None = None) -> str:
        srs = f' srsName="{attr(self.srs)}"' if self.srs else ""
        if self.dialect == GML32 and gid:
            srs += f' gml:id="{attr(gid)}"'
        if self.dialect == GML31:
            srs += ' srsDimension="2"' if geom.geom_type != "Point" else ""
        return self._geom(geom, srs)

    def _pts(self, coords: Any) -> str:
        if self.dialect == GML2:
            body = _coords(coords, self.decimals, self.flip, " ", ",")
            return (
                '<gml:coordinates xmlns:gml="http://www.opengis.net/gml" decimal="." cs="," '
                f'ts=" ">{body}</gml:coordinates>'
            )
        return f"<gml:posList>{_coords(coords, self.decimals, self.flip, ' ', ' ')}</gml:posList>"

    def _point(self, coords: Any) -> str:
        if self.dialect == GML2:
            return self._pts(coords)
        return f"<gml:pos>{_coords(coords, self.decimals, self.flip, ' ', ' ')}</gml:pos>"

    def _ring(self, ring: Any) -> str:
        return f"<gml:LinearRing>{self._pts(list(ring.coords))}</gml:LinearRing>"

    def _polygon(self, poly: Any, attrs: str = "") -> str:
        if self.dialect == GML2:
            inner = "".join(
                f"<gml:innerBoundaryIs>{self._ring(r)}</gml:innerBoundaryIs>"
                for r in poly.interiors
            )
            return (
                f"<gml:Polygon{attrs}><gml:outerBoundaryIs>{self._ring(poly.exterior)}"
                f"</gml:outerBoundaryIs>{inner}</gml:Polygon>"
            )
        inner = "".join(f"<gml:interior>{self._ring(r)}</gml:interior>" for r in poly.interiors)
        return (
            f"<gml:Polygon{attrs}><gml:exterior>{self._ring(poly.exterior)}</gml:exterior>"
            f"{inner}</gml:Polygon>"
        )

    def _geom(self, g: Any, attrs: str = "") -> str:
        kind = g.geom_type
        if kind == "Point":
            return f"<gml:Point{attrs}>{self._point(list(g.coords))}</gml:Point>"
        if kind == "LineString":
            return f"<gml:LineString{attrs}>{self._pts(list(g.coords))}</gml:LineString>"
        if kind == "LinearRing":
            return self._ring(g)
        if kind == "Polygon":
            return self._polygon(g, attrs)
        parts = list(g.geoms)
        if self.dialect == GML2:
            tag, member = {
                "MultiPoint": ("MultiPoint", "pointMember"),
                "MultiLineString": ("MultiLineString", "lineStringMember"),
                "MultiPolygon": ("MultiPolygon", "polygonMember"),
            }.get(kind, ("MultiGeometry", "geometryMember"))
        else:
            tag, member = {
                "MultiPoint": ("MultiPoint", "pointMember"),
                "MultiLineString": ("MultiCurve", "curveMember"),
                "MultiPolygon": ("MultiSurface", "surfaceMember"),
            }.get(kind, ("MultiGeometry", "geometryMember"))
        body = "".join(f"<gml:{member}>{self._geom(p)}</gml:{member}>" for p in parts)
        return f"<gml:{tag}{attrs}>{body}</gml:{tag}>"


def bounded_by(writer: GeometryWriter, geom: Any) -> str:
    """A feature's (or collection's) ``gml:boundedBy``: the geometry's extent as a GML 2
    ``Box`` or a GML 3 ``Envelope``, in the writer's CRS and axis order; empty without a
    geometry."""
    if geom is None or geom.is_empty:
        return ""
    minx, miny, maxx, maxy = geom.bounds
    d = writer.decimals
    lower = _coords([(minx, miny)], d, writer.flip, " ", ",")
    upper = _coords([(maxx, maxy)], d, writer.flip, " ", ",")
    srs = f' srsName="{attr(writer.srs)}"' if writer.srs else ""
    if writer.dialect == GML2:
        return (
            f'<gml:boundedBy><gml:Box{srs}><gml:coordinates xmlns:gml="http://www.opengis.net/gml"'
            f' decimal="." cs="," ts=" ">{lower} {upper}</gml:coordinates></gml:Box>'
            "</gml:boundedBy>"
        )
    lower, upper = lower.replace(",", " "), upper.replace(",", " ")
    return (
        f'<gml:boundedBy><gml:Envelope srsDimension="2"{srs}><gml:lowerCorner>{lower}'
        f"</gml:lowerCorner><gml:upperCorner>{upper}</gml:upperCorner></gml:Envelope>"
        "</gml:boundedBy>"
    )


def value_text(value: Any) -> str:
    """An attribute value as GeoServer's encoders write it (Java's number formatting)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return java_number(value)
    if isinstance(value, datetime.datetime):
        return _instant(value)
    if isinstance(value, datetime.date):
        return value.isoformat()
    return text(str(value))


def _instant(value: datetime.datetime) -> str:
    """A timestamp as GeoServer writes it: UTC, milliseconds, ``Z``."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=datetime.UTC)
    utc = value.astimezone(datetime.UTC)
    return utc.strftime("%Y-%m-%dT%H:%M:%S.") + f"{utc.microsecond // 1000:03d}Z"


def json_value(value: Any) -> Any:
    if hasattr(value, "geom_type"):  # a geometry beside the default one: a GeoJSON object
        return geojson(value, 15)
    if isinstance(value, datetime.datetime):
        return _instant(value)
    if isinstance(value, datetime.date):
        return value.isoformat() + "Z"
    return value


def geojson(geom: Any, decimals: int) -> Any:
    """A GeoJSON geometry with rounded coordinates."""
    import shapely.geometry

    def fix(c: Any) -> Any:
        if isinstance(c, (list, tuple)) and c and isinstance(c[0], (int, float)):
            return [_json_number(v, decimals) for v in c]
        return [fix(x) for x in c]

    mapping = shapely.geometry.mapping(geom)
    if "coordinates" in mapping:
        return {"type": mapping["type"], "coordinates": fix(mapping["coordinates"])}
    return {
        "type": "GeometryCollection",
        "geometries": [geojson(g, decimals) for g in geom.geoms],
    }


def _json_number(value: float, decimals: int) -> float | int:
    rounded = round(float(value), decimals)
    return int(rounded) if rounded == int(rounded) and abs(rounded) < 1e15 else rounded


# -- reading ------------------------------------------------------------------------------

GEOMETRY_TAGS = frozenset(
    {
        "Point",
        "LineString",
        "Curve",
        "Polygon",
        "Surface",
        "MultiPoint",
        "MultiLineString",
        "MultiCurve",
        "MultiPolygon",
        "MultiSurface",
        "MultiGeometry",
        "Envelope",
    }
)


class GeometryError(ValueError):
    """A GML geometry the reader cannot make sense of."""


def _local(tag: Any) -> str:
    return str(tag).rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def flips_srs(srs_name: str | None, default_flip: bool) -> bool:
    """Whether coordinates under ``srs_name`` come northing (latitude) first: a URN or an
    ``opengis.net/def`` URL of a CRS whose EPSG axis order is northing first does;
    ``EPSG:n`` and the ``epsg.xml#n`` URL do not (``crs.axes``)."""
    if not srs_name:
        return default_flip
    from ...core.errors import EmulatorError
    from ...crs import axes, names

    try:
        return axes.north_first(names.read(srs_name))
    except EmulatorError:
        return False


def _pairs(text: str, cs: str = " ", ts: str | None = None) -> list[tuple[float, float]]:
    if ts is not None:  # GML 2 coordinates: "x,y x,y"
        out = []
        for tup in text.split():
            parts = tup.split(cs)
            out.append((float(parts[0]), float(parts[1])))
        return out
    numbers = [float(v) for v in text.split()]
    if len(numbers) % 2:
        raise GeometryError("odd number of ordinates")
    return list(zip(numbers[::2], numbers[1::2], strict=True))


def _read_coords(el: Any, flip: bool) -> list[tuple[float, float]]:
    pts: list[tuple[float, float]] = []
    for c in el:
        name = _local(c.tag)
        if name in ("posList", "pos"):
            pts.extend(_pairs(c.text or ""))
        elif name == "coordinates":
            pts.extend(_pairs(c.text or "", c.get("cs", ","), c.get("ts", " ")))
        elif name == "coord":
            x = float(c.findtext("{*}X") or "0")
            y = float(c.findtext("{*}Y") or "0")
            pts.append((x, y))
        elif name in ("Point", "pointProperty", "pointMember"):
            pts.extend(_read_coords(c, flip=False))
    if flip:
        pts = [(y, x) for x, y in pts]
    return pts


def _ring(el: Any, flip: bool) -> list[tuple[float, float]]:
    for c in el.iter():
        if _local(c.tag) == "LinearRing":
            return _read_coords(c, flip)
    raise GeometryError("a polygon boundary without a LinearRing")


def read_geometry(el: Any, default_flip: bool = False, inherited: str | None = None) -> Any:
    """A shapely geometry from a GML 2/3 geometry element."""
    import shapely.geometry as sg

    srs = el.get("srsName") or inherited
    flip = flips_srs(srs, default_flip)
    kind = _local(el.tag)
    try:
        if kind == "Point":
            pts = _read_coords(el, flip)
            if len(pts) != 1:
                raise GeometryError("a Point needs one position")
            return sg.Point(pts[0])
        if kind in ("LineString", "Curve"):
            return sg.LineString(_read_coords(el, flip) or _segments(el, flip))
        if kind in ("Polygon", "Surface"):
            shell: list[tuple[float, float]] = []
            holes = []
            for c in el.iter():
                name = _local(c.tag)
                if name in ("exterior", "outerBoundaryIs"):
                    shell = _ring(c, flip)
                elif name in ("interior", "innerBoundaryIs"):
                    holes.append(_ring(c, flip))
            return sg.Polygon(shell, holes)
        if kind == "Envelope":
            lower = _pairs(el.findtext("{*}lowerCorner") or "")
            upper = _pairs(el.findtext("{*}upperCorner") or "")
            (x0, y0), (x1, y1) = lower[0], upper[0]
            if flip:
                x0, y0, x1, y1 = y0, x0, y1, x1
            return sg.box(x0, y0, x1, y1)
        if kind.startswith("Multi"):
            parts = [
                read_geometry(g, default_flip, srs)
                for m in el
                for g in (m if _local(m.tag).endswith(("Member", "Members")) else [m])
                if _local(g.tag) in GEOMETRY_TAGS
            ]
            if kind == "MultiPoint":
                return sg.MultiPoint(parts)
            if kind in ("MultiLineString", "MultiCurve"):
                return sg.MultiLineString(parts)
            if kind in ("MultiPolygon", "MultiSurface"):
                return sg.MultiPolygon(parts)
            return sg.GeometryCollection(parts)
    except (ValueError, TypeError, IndexError) as exc:
        raise GeometryError(str(exc)) from None
    raise GeometryError(f"unsupported geometry {kind}")


def _segments(el: Any, flip: bool) -> list[tuple[float, float]]:
    pts: list[tuple[float, float]] = []
    for c in el.iter():
        if _local(c.tag) == "LineStringSegment":
            pts.extend(_read_coords(c, flip))
    return pts
