"""Feature collections: the features a query selected (``FeatureSet`` per feature type), as
a ``FeatureCollection`` result, and their encoders (GML 2, GML 3.1, GML 3.2 in the WFS
``FeatureCollection`` of a version; GeoServer's GeoJSON).

WFS GetFeature answers one; WMS and WMTS GetFeatureInfo write their GML formats with
``gml_collection``; an OGC API Features collection is one more ``FeatureCollection``
written as GeoJSON. No HTTP here: ``routes.py`` answers a ``FeatureCollection`` with
``encode`` and ``media_type``.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, NamedTuple

from ...core.record import field, record
from ...features import resolver
from ...wire.json import dumps
from ..catalog.entities import FeatureType, is_projected
from . import gml
from .kvp import Call, url
from .model import View
from .writer import attr

V100, V110, V200 = "1.0.0", "1.1.0", "2.0.0"

WFS_NS = {
    V100: "http://www.opengis.net/wfs",
    V110: "http://www.opengis.net/wfs",
    V200: "http://www.opengis.net/wfs/2.0",
}
CONTENT_TYPES = {
    "gml2": "text/xml; subtype=gml/2.1.2",
    "gml31": "text/xml; subtype=gml/3.1.1",
    "gml32": "application/gml+xml; version=3.2",
    "geojson": "application/json;charset=UTF-8",
}
_WFS_XSD = {V100: "wfs/1.0.0/WFS-basic.xsd", V110: "wfs/1.1.0/wfs.xsd", V200: "wfs/2.0/wfs.xsd"}


@record
class Row:
    fid: str
    properties: dict[str, Any]


@record
class FeatureSet:
    """The features of one feature type a query selected."""

    type: FeatureType
    attributes: list[tuple[str, str]]
    """(name, binding) in schema order, after ``propertyName``"""
    geometry: str | None
    rows: list[Row] = field(default_factory=list)
    matched: int = 0


class FeatureCollection(NamedTuple):
    """A query's answer: its feature sets and how they are written."""

    sets: list[FeatureSet]
    encoding: str
    """``gml2``, ``gml31``, ``gml32`` or ``geojson``"""
    version: str
    """the WFS version whose collection is written (GML)"""
    hits: bool
    """``resultType=hits``: the counts only"""
    decimals: int
    namespaces: Mapping[str, str]
    """prefix → URI of each type's namespace"""
    describe_url: str
    """the DescribeFeatureType of the types (the GML schema location)"""
    base: str
    """``scheme://host[:port]/context`` (schema locations)"""
    timestamp: str

    @property
    def media_type(self) -> str:
        return CONTENT_TYPES[self.encoding]


def schema(view: View, ft: FeatureType) -> tuple[list[tuple[str, str, bool]], str | None]:
    """(name, binding, nillable) per attribute, and the geometry attribute's name: the
    catalog's attribute list, else the feature data's."""
    _, found = resolver.schema(view.state, ft)
    return [(a.name, a.binding, a.nillable) for a in found.attributes], found.geometry


def flips(ft: FeatureType, version: str) -> bool:
    """Whether WFS ``version`` writes this type's coordinates latitude first."""
    return version != "1.0.0" and not is_projected(ft.srs) and (ft.srs or "").upper() != "CRS:84"


def namespaces(view: View, sets: list[FeatureSet]) -> dict[str, str]:
    """prefix → namespace URI of the sets' types."""
    return {p: view.catalog.namespaces[p].uri for p in sorted({s.type.workspace for s in sets})}


def describe_url(service_base: str, version: str, names: list[str]) -> str:
    """The WFS DescribeFeatureType of the types ``names`` (``prefix:name``)."""
    return url(
        service_base,
        "wfs",
        [
            ("service", "WFS"),
            ("version", version),
            ("request", "DescribeFeatureType"),
            ("typeName", ",".join(names)),
        ],
    )


def collection(
    view: View,
    call: Call,
    sets: list[FeatureSet],
    encoding: str,
    version: str,
    hits: bool = False,
    decimals: int = 8,
) -> FeatureCollection:
    """The ``FeatureCollection`` of ``sets`` answering ``call`` (namespaces, the schema
    location of the types and the time stamp filled in)."""
    names = [f"{s.type.workspace}:{s.type.name}" for s in sets]
    return FeatureCollection(
        sets,
        encoding,
        version,
        hits,
        decimals,
        namespaces(view, sets),
        describe_url(call.service_base, version, names),
        call.base,
        call.now,
    )


def encode(fc: FeatureCollection) -> bytes:
    if fc.encoding == "geojson":
        return geojson_collection(fc)
    return gml_collection(fc)


# -- GML ------------------------------------------------------------------------------------


def gml_collection(fc: FeatureCollection) -> bytes:
    """The WFS ``FeatureCollection`` of ``fc.version`` with the features in ``fc.encoding``."""
    version, dialect = fc.version, fc.encoding
    returned = sum(len(s.rows) for s in fc.sets)
    parts = [_gml_head(fc, returned)]
    if fc.hits:
        parts.append("</wfs:FeatureCollection>")
        return "".join(parts).encode("utf-8")
    if version == V100:
        parts.append("<gml:boundedBy><gml:null>unknown</gml:null></gml:boundedBy>")
    elif version == V110 and returned:
        parts.append("<gml:featureMembers>")
    for s in fc.sets:
        _gml_members(parts, s, version, dialect, fc.decimals)
    if version == V110 and returned:
        parts.append("</gml:featureMembers>")
    parts.append("</wfs:FeatureCollection>")
    return "".join(parts).encode("utf-8")


def _gml_head(fc: FeatureCollection, returned: int) -> str:
    version, dialect = fc.version, fc.encoding
    matched = sum(s.matched for s in fc.sets)
    wfs_ns = WFS_NS[version]
    gml_ns = (
        "http://www.opengis.net/gml/3.2" if dialect == "gml32" else "http://www.opengis.net/gml"
    )
    ns_attrs = "".join(f' xmlns:{p}="{attr(uri)}"' for p, uri in fc.namespaces.items())
    locations = f"{wfs_ns} {fc.base}/schemas/{_WFS_XSD[version]}"
    if version == V200:
        locations += f" {gml_ns} {fc.base}/schemas/gml/3.2.1/gml.xsd"
    for uri in fc.namespaces.values():
        locations += f" {uri} {fc.describe_url}"
    if version == V200:
        shown = 0 if fc.hits else returned
        counts = f' numberMatched="{matched}" numberReturned="{shown}" timeStamp="{fc.timestamp}"'
    elif version == V110:
        number = matched if fc.hits else returned
        counts = f' numberOfFeatures="{number}" timeStamp="{fc.timestamp}"'
    else:
        counts = ""
    return (
        '<?xml version="1.0" encoding="UTF-8"?>'
        f'<wfs:FeatureCollection xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:wfs="{wfs_ns}"'
        f' xmlns:gml="{gml_ns}"{ns_attrs} xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"'
        f'{counts} xsi:schemaLocation="{attr(locations)}">'
    )


def _gml_members(
    parts: list[str], s: FeatureSet, version: str, dialect: str, decimals: int
) -> None:
    ft = s.type
    prefix = ft.workspace
    code = (ft.srs or "EPSG:4326").partition(":")[2]
    srs = {
        "gml2": f"http://www.opengis.net/gml/srs/epsg.xml#{code}",
        "gml31": f"urn:x-ogc:def:crs:EPSG:{code}",
        "gml32": f"urn:ogc:def:crs:EPSG::{code}",
    }[dialect]
    flip = dialect != "gml2" and flips(ft, version)
    geo = gml.GeometryWriter(dialect, srs, decimals, flip)
    id_attr = "fid" if dialect == "gml2" else "gml:id"
    member = {V200: "wfs:member", V100: "gml:featureMember"}.get(version)
    for row in s.rows:
        if member:
            parts.append(f"<{member}>")
        parts.append(f'<{prefix}:{ft.name} {id_attr}="{attr(row.fid)}">')
        for name, _binding in s.attributes:
            value = row.properties.get(name)
            if value is None:
                continue
            if name == s.geometry or hasattr(value, "geom_type"):
                body = geo.write(value, f"{row.fid}.{name}")
            else:
                body = gml.value_text(value)
            parts.append(f"<{prefix}:{name}>{body}</{prefix}:{name}>")
        parts.append(f"</{prefix}:{ft.name}>")
        if member:
            parts.append(f"</{member}>")


# -- GeoJSON --------------------------------------------------------------------------------


def geojson_collection(fc: FeatureCollection) -> bytes:
    """GeoServer's GeoJSON ``FeatureCollection`` (WFS ``application/json``)."""
    matched = sum(s.matched for s in fc.sets)
    features = [] if fc.hits else [f for s in fc.sets for f in _geojson_features(s, fc.decimals)]
    doc: dict[str, Any] = {
        "type": "FeatureCollection",
        "features": features,
        "totalFeatures": matched,
        "numberMatched": matched,
        "numberReturned": len(features),
        "timeStamp": fc.timestamp,
    }
    if fc.sets:
        code = (fc.sets[0].type.srs or "EPSG:4326").partition(":")[2]
        doc["crs"] = {"type": "name", "properties": {"name": f"urn:ogc:def:crs:EPSG::{code}"}}
    return dumps(doc)


def _geojson_features(s: FeatureSet, decimals: int) -> list[dict[str, Any]]:
    """The set's GeoJSON features, built column by column (a column of plain values is
    taken as it is; one holding dates is written as GeoServer writes them)."""
    from . import geojson

    rows = s.rows
    shapes = [row.properties.get(s.geometry) for row in rows] if s.geometry else []
    written = geojson.geometries(shapes, decimals) if shapes else [None] * len(rows)
    names = [n for n, _ in s.attributes if n != s.geometry]
    columns = []
    for name in names:
        values = [row.properties.get(name) for row in rows]
        if any(isinstance(v, datetime.date) for v in values):
            values = [gml.json_value(v) for v in values]
        columns.append(values)
    props = [dict(zip(names, vals, strict=True)) for vals in zip(*columns, strict=True)]
    if not names:
        props = [{} for _ in rows]
    out = []
    for row, geometry, properties in zip(rows, written, props, strict=True):
        feature: dict[str, Any] = {"type": "Feature", "id": row.fid, "geometry": geometry}
        if s.geometry:
            feature["geometry_name"] = s.geometry
        feature["properties"] = properties
        out.append(feature)
    return out
