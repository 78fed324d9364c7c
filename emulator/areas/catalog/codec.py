"""Catalog documents as GeoServer writes them (XML, JSON and a plain HTML page).

Each ``*_node`` builds one ``tree.Node`` for an object; ``render`` writes it in the asked
format. Links are absolute (``Links``): ``<base>/rest/<path>.<ext>``, names URL-encoded as
Java's ``URLEncoder`` does. Parsing lives in ``parse.py``.

JSON collections follow GeoServer's two writers. A list endpoint (``list_node``) is an array
even with one item (``XStreamCatalogListConverter`` writes a one-item list specially) and
``""`` when empty. A collection inside one object (keywords, attributes, styles, members,
map entries) goes through ``XStreamPersister`` and Jettison's mapped convention: a lone item
is a plain value or object, repeats make an array, and an empty collection or map is left
out (its reflection provider skips them); ``attributes``, which ``FeatureTypeController``
writes itself, is always there.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from urllib.parse import quote_plus

from ...wire import json as wjson
from ...wire.geoserver.xstream import names_json
from . import fields
from .entities import (
    COVERAGE_STORE,
    DATA_STORE,
    WMS_STORE,
    BBox,
    Coverage,
    CoverageStore,
    FeatureType,
    Layer,
    LayerGroup,
    Namespace,
    PublishedRef,
    Resource,
    Store,
    StyleRef,
    WMSStore,
    WMTSStore,
    Workspace,
    is_projected,
    special,
)
from .generic import write_extras
from .tree import Node, dump_json_doc, dump_xml, entries_node, to_html

LIST_LINK_TYPE = "application/atom+xml"
STORE_PATHS = {
    DATA_STORE: "datastores",
    COVERAGE_STORE: "coveragestores",
    WMS_STORE: "wmsstores",
    "wmtsStore": "wmtsstores",
}
CHILD_PATHS = {
    DATA_STORE: ("featureTypes", "featuretypes"),
    COVERAGE_STORE: ("coverages", "coverages"),
    WMS_STORE: ("wmslayers", "wmslayers"),
    "wmtsStore": ("layers", "layers"),
}

RESOURCE_PATHS = {
    "featureType": ("datastores", "featuretypes"),
    "wmsLayer": ("wmsstores", "wmslayers"),
    "wmtsLayer": ("wmtsstores", "layers"),
}
"""store and child path segments of a resource's own link, by kind (else a coverage's)"""


_PLAIN = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-*")
"""what ``URLEncoder`` leaves as it is"""


_ASCII = {c: ("+" if c == 32 else f"%{c:02X}") for c in range(128) if chr(c) not in _PLAIN}
"""how ``URLEncoder`` writes each ASCII character it encodes (``str.translate`` table)"""


def encode(name: str) -> str:
    """A path segment as ``java.net.URLEncoder`` writes it (space ``+``, ``:`` ``%3A``)."""
    if _PLAIN.issuperset(name):  # most names: nothing to encode
        return name
    if _PLAIN.issuperset(name.replace(":", "")):  # ``ws:name``
        return name.replace(":", "%3A")
    if name.isascii():  # one table pass, no bytes round trip
        return name.translate(_ASCII)
    return quote_plus(name, safe="*").replace("~", "%7E")


def list_json_bytes(alias: str, items: list[tuple[str, str]]) -> bytes:
    """``wjson.dumps(list_json(alias, items))``: the shared XStream list writer's bytes."""
    return names_json(alias + "s", alias, items)


def list_json(alias: str, items: Iterable[tuple[str, str]]) -> dict[str, Any]:
    """``list_node``'s JSON document as a dict (``list_json_bytes`` writes its bytes)."""
    entries = [{"name": name, "href": href} for name, href in items]
    return {alias + "s": {alias: entries} if entries else ""}


class Links:
    """Absolute links under ``root`` (``http://host/geoserver/rest``) in one format."""

    def __init__(self, root: str, fmt: str, vendor: str = "org.geoserver") -> None:
        self.root = root.rstrip("/")
        self.ext = fmt
        self.vendor = vendor
        """the vendor prefix of Java class names written as element names"""

    def href(self, *segments: str) -> str:
        return f"{self.root}/{'/'.join(segments)}.{self.ext}"

    def workspace(self, ws: str) -> str:
        return self.href("workspaces", encode(ws))

    def store(self, store: Store) -> str:
        return self.href(
            "workspaces", encode(store.workspace), STORE_PATHS[store.kind], encode(store.name)
        )

    def resource(self, res: Resource) -> str:
        kind, child = RESOURCE_PATHS.get(res.kind, ("coveragestores", "coverages"))
        return self.href(
            "workspaces", encode(res.workspace), kind, encode(res.store), child, encode(res.name)
        )

    def style(self, ref: StyleRef) -> str:
        if ref.workspace is None:
            return self.href("styles", encode(ref.name))
        return self.href("workspaces", encode(ref.workspace), "styles", encode(ref.name))


def render(node: Node, fmt: str, title: str = "") -> bytes:
    if fmt == "xml":
        return dump_xml(node)
    if fmt == "json":
        return wjson.dumps(dump_json_doc(node))
    return to_html(node, title or node.tag).encode("utf-8")


def list_node(
    alias: str, items: Iterable[tuple[str, str]], link_type: str = LIST_LINK_TYPE
) -> Node:
    """``<aliass><alias><name/><atom:link/></alias>…`` / ``{"aliass":{"alias":[…]}}``."""
    node = Node(alias + "s", arrays=frozenset({alias}))
    for name, href in items:
        node.children.append(
            Node(alias, children=[Node("name", name)], link=href, link_type=link_type)
        )
    return node


def strings_node(tag: str, values: Iterable[str], item: str = "string") -> Node:
    """A nested collection of strings: ``{"string": "a"}`` for one, a list for more."""
    return Node(tag, children=[Node(item, v) for v in values])


def crs_node(tag: str, crs: str | None) -> Node | None:
    if crs is None:
        return None
    return Node(tag, crs, attrs={"class": "projected"} if is_projected(crs) else {})


def bbox_node(tag: str, box: BBox | None) -> Node | None:
    if box is None:
        return None
    node = (
        Node(tag)
        .add("minx", box.minx)
        .add("maxx", box.maxx)
        .add("miny", box.miny)
        .add("maxy", box.maxy)
    )
    return node.child(crs_node("crs", box.crs))


def collection_link(tag: str, href: str) -> Node:
    return Node(tag, link=href, collection_link=True)


WORKSPACE_CHILDREN = (
    ("dataStores", "datastores", DATA_STORE),
    ("coverageStores", "coveragestores", COVERAGE_STORE),
    ("wmsStores", "wmsstores", WMS_STORE),
    ("wmtsStores", "wmtsstores", "wmtsStore"),
)


def workspace_node(ws: Workspace, links: Links, stores: dict[str, list[str]] | None = None) -> Node:
    """A workspace; with ``stores`` (names by store kind, for the HTML page) each store
    collection lists its stores, linked, in place of the bare collection link."""
    node = Node("workspace").add("name", ws.name).add("isolated", ws.isolated)
    node.add("dateCreated", ws.date_created).add("dateModified", ws.date_modified)
    write_extras(node, fields.WORKSPACE, ws.extras, links.vendor)
    base = ("workspaces", encode(ws.name))
    for tag, path, kind in WORKSPACE_CHILDREN:
        if stores is None:
            node.children.append(collection_link(tag, links.href(*base, path)))
            continue
        listed = Node(tag, link=links.href(*base, path))
        for name in stores.get(kind, []):
            href = links.href(*base, path, encode(name))
            listed.children.append(Node(kind, children=[Node("name", name)], link=href))
        node.children.append(listed)
    return node


def namespace_node(ns: Namespace, links: Links) -> Node:
    node = (
        Node("namespace").add("prefix", ns.prefix).add("uri", ns.uri).add("isolated", ns.isolated)
    )
    return write_extras(node, fields.NAMESPACE, ns.extras, links.vendor)


def _ref(tag: str, name: str, href: str, attrs: dict[str, str] | None = None) -> Node:
    return Node(tag, children=[Node("name", name)], link=href, attrs=attrs or {})


def store_node(store: Store, links: Links, fmt: str, children: list[str] | None = None) -> Node:
    """A store; ``children`` (resource names) lists them in place of the collection link."""
    node = Node(store.kind).add("name", store.name).add("description", store.description)
    node.add("type", store.type).add("enabled", store.enabled)
    node.children.append(_ref("workspace", store.workspace, links.workspace(store.workspace)))
    if store.connection_parameters:
        node.child(entries_node("connectionParameters", store.connection_parameters))
    node.add("__default" if fmt == "xml" else "_default", store.default)
    if isinstance(store, CoverageStore):
        node.add("url", store.url)
    if isinstance(store, WMSStore | WMTSStore):
        node.add("capabilitiesURL", store.capabilities_url)
    if isinstance(store, WMSStore):
        node.add("maxConnections", store.max_connections).add("readTimeout", store.read_timeout)
        node.add("connectTimeout", store.connect_timeout)
    node.add("dateCreated", store.date_created).add("dateModified", store.date_modified)
    node.add("disableOnConnFailure", store.disable_on_conn_failure)
    if store.metadata:
        node.child(entries_node("metadata", store.metadata))
    tag, path = CHILD_PATHS[store.kind]
    base = links.store(store).rsplit(".", 1)[0] + f"/{path}"
    if children is None:
        node.children.append(collection_link(tag, f"{base}.{links.ext}"))
        return node
    item = tag[:-1]
    listed = Node(tag)
    for name in children:
        href = f"{base}/{encode(name)}.{links.ext}"
        listed.children.append(Node(item, children=[Node("name", name)], link=href))
    node.children.append(listed)
    return node


def _resource_head(res: Resource, links: Links) -> Node:
    node = Node(res.kind).add("name", res.name).add("nativeName", res.native_name)
    node.children.append(
        _ref("namespace", res.workspace, links.href("namespaces", encode(res.workspace)))
    )
    node.add("title", res.title)
    node.add("description", res.description).add("abstract", res.abstract)
    if res.keywords:
        node.child(strings_node("keywords", res.keywords))
    node.child(crs_node("nativeCRS", res.native_crs or res.srs)).add("srs", res.srs)
    node.child(bbox_node("nativeBoundingBox", res.native_bbox))
    node.child(bbox_node("latLonBoundingBox", res.latlon_bbox))
    node.add("projectionPolicy", res.projection_policy).add("enabled", res.enabled)
    if not res.advertised:
        node.add("advertised", False)
    if res.metadata:
        node.child(entries_node("metadata", res.metadata))
    store_kind = "dataStore" if res.kind == "featureType" else "coverageStore"
    store_href = links.href(
        "workspaces", encode(res.workspace), STORE_PATHS[store_kind], encode(res.store)
    )
    node.children.append(
        _ref("store", f"{res.workspace}:{res.store}", store_href, {"class": store_kind})
    )
    return node


def feature_type_node(ft: FeatureType, links: Links) -> Node:
    node = _resource_head(ft, links)
    node.add("maxFeatures", ft.max_features).add("numDecimals", ft.num_decimals)
    attrs = Node("attributes")
    for a in ft.attributes:
        item = Node("attribute").add("name", a.name).add("minOccurs", a.min_occurs)
        item.add("maxOccurs", a.max_occurs).add("nillable", a.nillable).add("binding", a.binding)
        attrs.children.append(item.add("length", a.length))
    node.children.append(attrs)
    node.add("dateCreated", ft.date_created).add("dateModified", ft.date_modified)
    return write_extras(node, fields.FEATURE_TYPE, ft.extras, links.vendor)


def coverage_node(cov: Coverage, links: Links) -> Node:
    node = _resource_head(cov, links).add("nativeFormat", cov.native_format)
    if cov.supported_formats:
        node.child(strings_node("supportedFormats", cov.supported_formats))
    if cov.interpolation_methods:
        node.child(strings_node("interpolationMethods", cov.interpolation_methods))
    node.add("defaultInterpolationMethod", cov.default_interpolation_method)
    dims = Node("dimensions")
    for d in cov.dimensions:
        item = Node("coverageDimension").add("name", d.name).add("description", d.description)
        if d.range_min is not None or d.range_max is not None:
            rng = Node("range").add("min", special(d.range_min)).add("max", special(d.range_max))
            item.child(rng)
        if d.null_values:
            nulls = [Node("double", special(v)) for v in d.null_values]
            item.child(Node("nullValues", children=nulls))
        item.add("unit", d.unit)
        if d.dimension_type is not None:
            item.child(Node("dimensionType").add("name", d.dimension_type))
        dims.children.append(item)
    if cov.dimensions:
        node.children.append(dims)
    for tag, values in (("requestSRS", cov.request_srs), ("responseSRS", cov.response_srs)):
        if values:
            node.child(strings_node(tag, values))
    if cov.parameters:
        params = Node("parameters")
        for k, v in cov.parameters.items():
            params.children.append(Node("entry", children=[Node("string", k), Node("string", v)]))
        node.children.append(params)
    node.add("nativeCoverageName", cov.native_coverage_name)
    node.add("dateCreated", cov.date_created).add("dateModified", cov.date_modified)
    extras = cov.extras if "grid" in cov.extras else {**cov.extras, "grid": default_grid(cov)}
    return write_extras(node, fields.COVERAGE, extras, links.vendor)


DEFAULT_GRID_SIZE = 256
"""the raster size assumed for a coverage whose grid nobody gave (the emulator reads no
pixels): GeoServer always writes a grid, built from the reader"""


def default_grid(cov: Coverage) -> dict[str, Any] | None:
    """A ``<grid>`` spanning the native bounds with ``DEFAULT_GRID_SIZE`` cells a side, as
    GeoServer's ``GridGeometry2D`` converter writes it (the transform maps cell centres)."""
    box = cov.native_bbox
    if box is None:
        return None
    n = DEFAULT_GRID_SIZE
    sx, sy = (box.maxx - box.minx) / n, (box.maxy - box.miny) / n
    grid: dict[str, Any] = {
        "@dimension": "2",
        "range": {"low": "0 0", "high": f"{n} {n}"},
        "transform": {
            "scaleX": sx,
            "scaleY": -sy,
            "shearX": 0.0,
            "shearY": 0.0,
            "translateX": box.minx + sx / 2,
            "translateY": box.maxy - sy / 2,
        },
    }
    crs = box.crs or cov.srs
    if crs is not None:
        grid["crs"] = crs
    return grid


def resource_node(res: Resource, links: Links) -> Node:
    if isinstance(res, FeatureType):
        return feature_type_node(res, links)
    assert isinstance(res, Coverage)
    return coverage_node(res, links)


def style_ref_node(tag: str, ref: StyleRef, links: Links) -> Node:
    node = Node(tag, children=[Node("name", ref.prefixed)], link=links.style(ref))
    return node.add("workspace", ref.workspace)


def layer_node(layer: Layer, res: Resource, links: Links) -> Node:
    node = Node("layer").add("name", layer.name).add("path", layer.path).add("type", layer.type)
    if layer.default_style is not None:
        node.children.append(style_ref_node("defaultStyle", layer.default_style, links))
    if layer.styles:
        styles = Node("styles", attrs={"class": "linked-hash-set"})
        styles.children.extend(style_ref_node("style", s, links) for s in layer.styles)
        node.children.append(styles)
    node.children.append(_ref("resource", layer.prefixed, links.resource(res), {"class": res.kind}))
    node.add("enabled", layer.enabled)
    if not layer.queryable:
        node.add("queryable", False)
    if layer.opaque:
        node.add("opaque", True)
    if not layer.advertised:
        node.add("advertised", False)
    node.add("dateCreated", layer.date_created).add("dateModified", layer.date_modified)
    return write_extras(node, fields.LAYER, layer.extras, links.vendor)


def layer_group_node(group: LayerGroup, links: Links) -> Node:
    node = Node("layerGroup").add("name", group.name).add("mode", group.mode)
    node.add("title", group.title).add("abstractTxt", group.abstract)
    if group.workspace is not None:
        node.child(Node("workspace").add("name", group.workspace))
    if group.root_layer is not None:
        node.children.append(
            _ref("rootLayer", group.root_layer.prefixed, published_href(group.root_layer, links))
        )
    if group.root_layer_style is not None:
        node.children.append(style_ref_node("rootLayerStyle", group.root_layer_style, links))
    pubs = Node("publishables")
    for ref in group.publishables:
        pubs.children.append(
            _ref("published", ref.prefixed, published_href(ref, links), {"type": ref.kind})
        )
    node.children.append(pubs)
    styles = Node("styles")
    for style in group.styles:
        styles.children.append(
            Node("style") if style is None else style_ref_node("style", style, links)
        )
    node.children.append(styles)
    node.child(bbox_node("bounds", group.bounds))
    if group.keywords:
        node.child(strings_node("keywords", group.keywords))
    if not group.enabled:
        node.add("enabled", False)
    if not group.advertised:
        node.add("advertised", False)
    node.add("dateCreated", group.date_created).add("dateModified", group.date_modified)
    return write_extras(node, fields.LAYER_GROUP, group.extras, links.vendor)


def published_href(ref: PublishedRef, links: Links) -> str:
    if ref.kind == "layer":
        return links.href("workspaces", encode(ref.workspace or ""), "layers", encode(ref.name))
    if ref.workspace is not None:
        return links.href("workspaces", encode(ref.workspace), "layergroups", encode(ref.name))
    return links.href("layergroups", encode(ref.name))
