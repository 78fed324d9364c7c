"""A page of features written in the formats of ``/items``: RFC 7946 GeoJSON as GeoServer's
``RFCGeoJSONFeatureWriter`` writes it (``numberMatched``, ``numberReturned``, ``timeStamp``,
``links``; one feature alone, with its links, for ``/items/{featureId}``), and the WFS output
formats through the OGC services' own encoders (``ows/collections.py``): GeoServer's WFS
GeoJSON (``application/json``) and GML 3.2, 3.1.1 and 2.
"""

from __future__ import annotations

from typing import Any

from ...core.record import replace
from ...wire.json import dumps
from ..ows import collections as wfs_collections
from ..ows import gml
from . import crs as crsmod
from . import links as ln
from . import media
from .model import Api
from .query import Page

GML_ENCODINGS = {media.GML32: "gml32", media.GML31: "gml31", media.GML2: "gml2"}


def _feature(page: Page, index: int, decimals: int) -> dict[str, Any]:
    row = page.rows[index]
    geometry = row.properties.get(page.geometry) if page.geometry else None
    if geometry is not None and page.crs.lat_first:
        geometry = crsmod.geometry(geometry, None, flip=True)
    out: dict[str, Any] = {
        "type": "Feature",
        "id": row.fid,
        "geometry": gml.geojson(geometry, decimals) if geometry is not None else None,
    }
    if page.geometry:
        out["geometry_name"] = page.geometry
    out["properties"] = {
        name: gml.json_value(row.properties.get(name))
        for name, _ in page.attributes
        if name != page.geometry
    }
    return out


def geojson(page: Page, api: Api, links: list[ln.Link]) -> bytes:
    """The page as an RFC 7946 ``FeatureCollection``."""
    features = [_feature(page, i, api.decimals) for i in range(len(page.rows))]
    return dumps(
        {
            "type": "FeatureCollection",
            "features": features,
            "numberMatched": page.matched,
            "numberReturned": len(features),
            "timeStamp": api.now,
            "links": links,
        }
    )


def geojson_feature(page: Page, api: Api, links: list[ln.Link]) -> bytes:
    """The one feature of ``/items/{featureId}``, with its links."""
    out = _feature(page, 0, api.decimals)
    out["links"] = links
    return dumps(out)


def wfs(page: Page, api: Api, media_type: str) -> bytes:
    """The page in a WFS 2.0 output format (GeoServer's GeoJSON, or GML)."""
    encoding = GML_ENCODINGS.get(media_type, "geojson")
    srs = "EPSG:4326" if page.crs.code == "CRS:84" else page.crs.code
    ft = replace(page.type, srs=srs)
    rows = [wfs_collections.Row(f.fid, f.properties) for f in page.rows]
    found = wfs_collections.FeatureSet(ft, page.attributes, page.geometry, rows, page.matched)
    prefix = ft.workspace
    namespace = api.state.catalog.namespaces.get(prefix)
    namespaces = {prefix: namespace.uri} if namespace is not None else {}
    describe = wfs_collections.describe_url(api.base, "2.0.0", [f"{prefix}:{ft.name}"])
    collection = wfs_collections.FeatureCollection(
        [found], encoding, "2.0.0", False, api.decimals, namespaces, describe, api.site, api.now
    )
    return wfs_collections.encode(collection)
