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

from ...core.errors import EmulatorError
from ...core.record import field, record
from ...crs import axes, names, syntax
from ...features import resolver
from ...wire.json import dumps
from ..catalog.entities import FeatureType
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
    output: names.Ref | None = None
    """the CRS the geometries are in, as the client named it (``srsName``); None: the
    type's declared CRS"""


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
    srs_style: str | None = None
    """the WFS ``srsNameStyle`` of ``version`` (None: the version's stock style)"""
    bounding: bool = False
    """the WFS ``featureBounding`` setting: each feature's ``boundedBy`` written"""

    @property
    def media_type(self) -> str:
        return CONTENT_TYPES[self.encoding]

    @property
    def filename(self) -> str:
        """GeoServer's name for it: the types' local names joined by ``_`` (``features``
        when there are none), ``.xml`` for GML, ``.json`` for GeoJSON."""
        names = "_".join(s.type.name for s in self.sets) or "features"
        return f"{names}.{'json' if self.encoding == 'geojson' else 'xml'}"


def schema(view: View, ft: FeatureType) -> tuple[list[tuple[str, str, bool]], str | None]:
    """(name, binding, nillable) per attribute, and the geometry attribute's name: the
    catalog's attribute list, else the feature data's."""
    _, found = resolver.schema(view.state, ft)
    return [(a.name, a.binding, a.nillable) for a in found.attributes], found.geometry


def declared(ft: FeatureType, version: str) -> names.Ref:
    """The CRS WFS ``version`` writes a type's features in when no ``srsName`` is asked for:
    its SRS, in the database's axis order (1.1.0 and 2.0.0: GeoServer's declared CRS is the
    URN of the native one), x/y in 1.0.0."""
    code = ft.srs or "EPSG:4326"
    try:
        return names.read(code, epsg_xy=version == V100)
    except EmulatorError:
        return names.Ref("EPSG", "4326", version == V100)


def flips(ft: FeatureType, version: str) -> bool:
    """Whether WFS ``version`` writes this type's coordinates northing (latitude) first."""
    return version != V100 and axes.north_first(declared(ft, version))


def namespaces(view: View, sets: list[FeatureSet]) -> dict[str, str]:
    """prefix → namespace URI of the sets' types."""
    return {p: view.catalog.namespaces[p].uri for p in sorted({s.type.workspace for s in sets})}


def describe_url(service_base: str, version: str, typenames: list[str]) -> str:
    """The WFS DescribeFeatureType of the types ``typenames`` (``prefix:name``)."""
    return url(
        service_base,
        "wfs",
        [
            ("service", "WFS"),
            ("version", version),
            ("request", "DescribeFeatureType"),
            ("typeName", ",".join(typenames)),
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
    srs_style: str | None = None,
    bounding: bool = False,
) -> FeatureCollection:
    """The ``FeatureCollection`` of ``sets`` answering ``call`` (namespaces, the schema
    location of the types and the time stamp filled in)."""
    typenames = [f"{s.type.workspace}:{s.type.name}" for s in sets]
    return FeatureCollection(
        sets,
        encoding,
        version,
        hits,
        decimals,
        namespaces(view, sets),
        describe_url(call.service_base, version, typenames),
        call.base,
        call.now,
        srs_style,
        bounding,
    )


def encode(fc: FeatureCollection) -> bytes:
    if fc.encoding == "geojson":
        return geojson_collection(fc)
    return gml_collection(fc)


# -- GML ------------------------------------------------------------------------------------


def gml_collection(fc: FeatureCollection) -> bytes:
    """The WFS ``FeatureCollection`` of ``fc.version`` with the features in ``fc.encoding``."""
    version = fc.version
    returned = sum(len(s.rows) for s in fc.sets)
    parts = [_gml_head(fc, returned)]
    if fc.hits:
        parts.append("</wfs:FeatureCollection>")
        return "".join(parts).encode("utf-8")
    if version == V100:
        parts.append(
            _collection_bounds(fc) or "<gml:boundedBy><gml:null>unknown</gml:null></gml:boundedBy>"
        )
    elif version == V110 and returned:
        parts.append("<gml:featureMembers>")
    for s in fc.sets:
        _gml_members(parts, s, fc)
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


def _gml_writer(s: FeatureSet, fc: FeatureCollection) -> gml.GeometryWriter:
    """The geometry writer of a set: its ``srsName`` and axis order (``crs.syntax``)."""
    ref = s.output or declared(s.type, fc.version)
    style = fc.srs_style or syntax.VERSION_STYLES.get(fc.version, "URN2")
    srs, flip = syntax.srs_name(ref, "XML" if fc.encoding == "gml2" else style)
    return gml.GeometryWriter(fc.encoding, srs, fc.decimals, flip and fc.encoding != "gml2")


def _gml_members(parts: list[str], s: FeatureSet, fc: FeatureCollection) -> None:
    ft, version, dialect = s.type, fc.version, fc.encoding
    prefix = ft.workspace
    geo = _gml_writer(s, fc)
    id_attr = "fid" if dialect == "gml2" else "gml:id"
    member = {V200: "wfs:member", V100: "gml:featureMember"}.get(version)
    for row in s.rows:
        if member:
            parts.append(f"<{member}>")
        parts.append(f'<{prefix}:{ft.name} {id_attr}="{attr(row.fid)}">')
        if fc.bounding and s.geometry:
            parts.append(gml.bounded_by(geo, row.properties.get(s.geometry)))
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


def _collection_bounds(fc: FeatureCollection) -> str | None:
    """WFS 1.0's ``boundedBy`` of the whole collection (with ``featureBounding``), in the
    first set's CRS."""
    if not fc.bounding or fc.hits or not fc.sets:
        return None
    first = fc.sets[0]
    found = [r.properties.get(s.geometry) for s in fc.sets if s.geometry for r in s.rows]
    present = [g for g in found if g is not None and not g.is_empty]
    if not present:
        return None
    import shapely

    return gml.bounded_by(_gml_writer(first, fc), shapely.GeometryCollection(present))


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
        first = fc.sets[0]
        ref = first.output or declared(first.type, fc.version)
        doc["crs"] = {"type": "name", "properties": {"name": geojson_crs_name(ref)}}
    return dumps(doc)


def geojson_crs_name(ref: names.Ref) -> str | None:
    """The ``crs`` name GeoServer's GeoJSON writes (``urn:ogc:def:crs:EPSG::4326``); the
    coordinates themselves are always east/north."""
    if ref.authority == "WKT":
        return None
    return f"urn:ogc:def:crs:{ref.authority}::{ref.code}"


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
