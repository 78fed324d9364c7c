"""Mosaic documents: the index schema (XML and JSON) and granule collections (WFS 1.0 GML
and GeoJSON), as ``StructuredCoverageController`` writes them.

- Schema: ``<Schema><attributes><Attribute>`` with name, minOccurs, maxOccurs, nillable,
  binding (a Java class) and length, then an Atom link to the granules; JSON
  ``{"Schema":{"attributes":{"Attribute":[…]},"href":…}}``.
- Granules, XML: ``wfs:FeatureCollection`` with the collection's ``gml:boundedBy`` box and
  one ``gml:featureMember`` per granule: ``gf:<coverage> fid="<coverage>.<id>"`` holding its
  own bounding box, then one ``gf:`` element per non-empty attribute in schema order
  (namespace ``gf`` = ``http://www.geoserver.org/rest/granules``). Footprint coordinates are
  written with at most six decimals.
- Granules, JSON: GeoJSON, with ``bbox`` and a ``crs`` name, coordinates with four decimals,
  dates as ``2008-11-01T00:00:00.000+0000``.
"""

from __future__ import annotations

from typing import Any

from ...core.lazy import LazyModule
from ...crs.envelope import Envelope, epsg_code, union
from ...wire import json as wjson
from ...wire import xml as wxml
from ...wire.geoserver.dates import geojson_instant
from ...wire.geoserver.java import double_text as java_double
from .bindings import IndexAttribute, format_value
from .model import Granule, Mosaic

etree: Any = LazyModule("lxml.etree")  # slow to import: on first use

GF = "http://www.geoserver.org/rest/granules"
WFS = "http://www.opengis.net/wfs"
GML = "http://www.opengis.net/gml"
OGC = "http://www.opengis.net/ogc"
XS = "http://www.w3.org/2001/XMLSchema"
NSMAP = {"wfs": WFS, "gf": GF, "gml": GML, "ogc": OGC, "xs": XS}


# -- the index schema -----------------------------------------------------------------------


def dump_schema_xml(attributes: list[IndexAttribute], granules_href: str) -> bytes:
    root = wxml.element("Schema")
    holder = wxml.sub(root, "attributes")
    for attr in attributes:
        wxml.fields(wxml.sub(holder, "Attribute"), _attribute_fields(attr))
    wxml.atom_link(root, granules_href)
    return wxml.dump(root)


def dump_schema_json(attributes: list[IndexAttribute], granules_href: str) -> bytes:
    items = [dict(_attribute_fields(a, json=True)) for a in attributes]
    return wjson.dumps({"Schema": {"attributes": {"Attribute": items}, "href": granules_href}})


def _attribute_fields(attr: IndexAttribute, json: bool = False) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = [
        ("name", attr.name),
        ("minOccurs", 0),
        ("maxOccurs", 1),
        ("nillable", True),
        ("binding", attr.binding),
    ]
    if attr.length is not None:
        out.append(("length", attr.length))
    return [(k, v) for k, v in out if v is not None]


# -- granules: GML --------------------------------------------------------------------------


def dump_granules_xml(mosaic: Mosaic, coverage: str, granules: list[Granule]) -> bytes:
    srs = _srs_name(mosaic.crs)
    root = etree.Element(f"{{{WFS}}}FeatureCollection", nsmap=NSMAP)
    bounded = etree.SubElement(root, f"{{{GML}}}boundedBy")
    envelope = union(g.envelope for g in granules)
    if envelope is None:
        etree.SubElement(bounded, f"{{{GML}}}null").text = "unknown"
    else:
        box = etree.SubElement(bounded, f"{{{GML}}}Box", _srs_attr(srs))
        for x, y in ((envelope.minx, envelope.miny), (envelope.maxx, envelope.maxy)):
            coord = etree.SubElement(box, f"{{{GML}}}coord")
            etree.SubElement(coord, f"{{{GML}}}X").text = java_double(x)
            etree.SubElement(coord, f"{{{GML}}}Y").text = java_double(y)
    schema = mosaic.schema(coverage)
    for granule in granules:
        member = etree.SubElement(root, f"{{{GML}}}featureMember")
        _feature_xml(member, mosaic, schema, granule, coverage, srs)
    return bytes(etree.tostring(root, encoding="UTF-8", xml_declaration=True))


def _feature_xml(
    parent: etree._Element,
    mosaic: Mosaic,
    schema: list[IndexAttribute],
    granule: Granule,
    type_name: str,
    srs: str | None,
) -> None:
    feature = etree.SubElement(parent, f"{{{GF}}}{type_name}", {"fid": granule.fid})
    box = etree.SubElement(
        etree.SubElement(feature, f"{{{GML}}}boundedBy"), f"{{{GML}}}Box", _srs_attr(srs)
    )
    env = granule.envelope
    etree.SubElement(
        box, f"{{{GML}}}coordinates"
    ).text = f"{_coord(env.minx, env.miny)} {_coord(env.maxx, env.maxy)}"
    values = mosaic.feature(granule)
    for attr in schema:
        value = values.get(attr.name)
        if value is None:
            continue
        el = etree.SubElement(feature, f"{{{GF}}}{attr.name}")
        if attr.is_geometry:
            _geometry_xml(el, env, attr.binding.endswith("MultiPolygon"), srs)
        else:
            el.text = format_value(value)


def _geometry_xml(parent: etree._Element, env: Envelope, multi: bool, srs: str | None) -> None:
    if multi:
        holder = etree.SubElement(parent, f"{{{GML}}}MultiPolygon", _srs_attr(srs))
        polygon = etree.SubElement(
            etree.SubElement(holder, f"{{{GML}}}polygonMember"), f"{{{GML}}}Polygon"
        )
    else:
        polygon = etree.SubElement(parent, f"{{{GML}}}Polygon", _srs_attr(srs))
    ring = etree.SubElement(
        etree.SubElement(polygon, f"{{{GML}}}outerBoundaryIs"), f"{{{GML}}}LinearRing"
    )
    etree.SubElement(ring, f"{{{GML}}}coordinates").text = " ".join(
        _coord(x, y) for x, y in env.ring()
    )


def _coord(x: float, y: float) -> str:
    return f"{java_double(round(x, 6))},{java_double(round(y, 6))}"


def _srs_name(crs: str | None) -> str | None:
    code = epsg_code(crs)
    return None if code is None else f"http://www.opengis.net/gml/srs/epsg.xml#{code}"


def _srs_attr(srs: str | None) -> dict[str, str]:
    return {} if srs is None else {"srsName": srs}


# -- granules: GeoJSON ----------------------------------------------------------------------


def dump_granules_json(mosaic: Mosaic, coverage: str, granules: list[Granule]) -> bytes:
    schema = mosaic.schema(coverage)
    geometry = next((a for a in schema if a.is_geometry), None)
    multi = geometry is not None and geometry.binding.endswith("MultiPolygon")
    doc: dict[str, Any] = {"type": "FeatureCollection"}
    envelope = union(g.envelope for g in granules)
    if envelope is not None:
        doc["bbox"] = [envelope.minx, envelope.miny, envelope.maxx, envelope.maxy]
    if mosaic.crs:
        doc["crs"] = {"type": "name", "properties": {"name": mosaic.crs}}
    doc["features"] = [_feature_json(mosaic, schema, g, multi) for g in granules]
    return wjson.dumps(doc)


def _feature_json(
    mosaic: Mosaic, schema: list[IndexAttribute], granule: Granule, multi: bool
) -> dict[str, Any]:
    ring = [[round(x, 4), round(y, 4)] for x, y in granule.envelope.ring()]
    geometry = (
        {"type": "MultiPolygon", "coordinates": [[ring]]}
        if multi
        else {"type": "Polygon", "coordinates": [ring]}
    )
    values = mosaic.feature(granule)
    properties: dict[str, Any] = {}
    for attr in schema:
        if attr.is_geometry:
            continue
        value = values.get(attr.name)
        properties[attr.name] = (
            geojson_instant(value) if attr.kind == "time" and value is not None else value
        )
    return {"type": "Feature", "geometry": geometry, "properties": properties, "id": granule.fid}
