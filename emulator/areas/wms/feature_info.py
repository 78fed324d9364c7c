"""WMS GetFeatureInfo's answers (also WMTS GetFeatureInfo's): the features found at a pixel
in ``text/plain``, ``text/html``, GeoServer's GeoJSON, or GML 2 / GML 3.1 (the WFS feature
collection writer, ``ows/collections.py``)."""

from __future__ import annotations

from typing import Any

from ...crs import names
from ...wire.json import dumps
from ..catalog.entities import FeatureType
from ..ows import collections
from ..ows.kvp import Call
from ..ows.model import View
from ..ows.results import Document

Found = list[tuple[FeatureType, str | None, list[Any]]]
"""per layer queried: its feature type, geometry attribute and the features found"""


def encode(
    view: View, call: Call, found: Found, fmt: str, decimals: int, crs: names.Ref | None = None
) -> Document:
    """The answer in ``fmt`` (one of the GetFeatureInfo formats); ``crs``: the CRS the
    features were transformed into (the map's), None: each type's own."""
    if fmt == "application/json":
        return _info_json(call, found, decimals, crs)
    if fmt == "text/html":
        return Document(_info_html(found).encode("utf-8"), "text/html")
    if fmt == "text/plain":
        return Document(_info_text(view, found).encode("utf-8"), "text/plain")
    return _info_gml(view, call, found, fmt, decimals, crs)


def _rows(
    res: FeatureType, features: list[Any], view: View, crs: names.Ref | None
) -> collections.FeatureSet:
    attrs, geometry = collections.schema(view, res)
    rows = [collections.Row(f.fid, dict(f.properties)) for f in features]
    fields = [(n, b) for n, b, _ in attrs]
    return collections.FeatureSet(res, fields, geometry, rows, len(rows), crs)


def _info_json(call: Call, found: Found, decimals: int, crs: names.Ref | None) -> Document:
    from ..ows import gml

    features = []
    for _res, geometry, hits in found:
        for f in hits:
            geom = f.properties.get(geometry) if geometry else None
            features.append(
                {
                    "type": "Feature",
                    "id": f.fid,
                    "geometry": gml.geojson(geom, decimals) if geom is not None else None,
                    "geometry_name": geometry,
                    "properties": {
                        k: gml.json_value(v) for k, v in f.properties.items() if k != geometry
                    },
                }
            )
    doc: dict[str, Any] = {
        "type": "FeatureCollection",
        "features": features,
        "totalFeatures": "unknown",
        "numberReturned": len(features),
        "timeStamp": call.now,
        "crs": None,
    }
    if found and features:
        ref = crs or collections.declared(found[0][0], "1.1.0")
        name = collections.geojson_crs_name(ref)
        doc["crs"] = {"type": "name", "properties": {"name": name}}
    return Document(dumps(doc), "application/json")


def _info_text(view: View, found: Found) -> str:
    lines: list[str] = []
    if not any(hits for _, _, hits in found):
        return "no features were found\n"
    for res, geometry, hits in found:
        if not hits:
            continue
        uri = view.catalog.namespaces[res.workspace].uri
        lines.append(f"Results for FeatureType '{uri}:{res.name}':")
        for f in hits:
            lines.append("--------------------------------------------")
            for key, value in f.properties.items():
                if key == geometry and value is not None:
                    count = _points(value)
                    lines.append(f"{key} = [GEOMETRY ({value.geom_type}) with {count} points]")
                else:
                    lines.append(f"{key} = {value}")
        lines.append("--------------------------------------------")
    return "\n".join(lines) + "\n"


def _points(geom: Any) -> int:
    if hasattr(geom, "geoms"):
        return sum(_points(g) for g in geom.geoms)
    if geom.geom_type == "Polygon":
        return len(geom.exterior.coords) + sum(len(r.coords) for r in geom.interiors)
    return len(geom.coords)


def _info_html(found: Found) -> str:
    from html import escape

    parts = ["<html><head><title>Geoserver GetFeatureInfo output</title></head><body>"]
    for res, geometry, hits in found:
        if not hits:
            continue
        keys = [k for k in hits[0].properties if k != geometry]
        parts.append(
            f'<table class="featureInfo"><caption class="featureInfo">{escape(res.name)}</caption>'
        )
        parts.append("<tr><th>fid</th>" + "".join(f"<th>{escape(k)}</th>" for k in keys) + "</tr>")
        for f in hits:
            cells = "".join(f"<td>{escape(str(f.properties.get(k, '')))}</td>" for k in keys)
            parts.append(f"<tr><td>{escape(f.fid)}</td>{cells}</tr>")
        parts.append("</table><br/>")
    parts.append("</body></html>")
    return "".join(parts)


def _info_gml(
    view: View,
    call: Call,
    found: Found,
    fmt: str,
    decimals: int,
    crs: names.Ref | None,
) -> Document:
    sets = [_rows(res, hits, view, crs) for res, _, hits in found]
    gml3 = "3.1.1" in fmt
    version = "1.1.0" if gml3 else "1.0.0"
    encoding = "gml31" if gml3 else "gml2"
    fc = collections.collection(view, call, sets, encoding, version, decimals=decimals)
    return Document(collections.gml_collection(fc), fmt)
