"""Cascaded stores and layers as GeoServer writes and reads them (XML, JSON, HTML).

Documents are built as the catalog's ``tree.Node`` and written by its ``render``, so they
follow the same XStream/Jettison conventions as every catalog object. Bodies are read with
the catalog's readers into field changes (``parse_store``, ``parse_layer``: only what the
client sent). A field sent as ``null`` (JSON) or ``xsi:nil="true"`` (XML; the prefix need
not be declared, as GeoServer's tests send it) is unset; an empty element is ``""``.
"""

from __future__ import annotations

import re
from typing import Any

from ...core.errors import Invalid
from ...wire import json as wjson
from ...wire import xml as wxml
from ..catalog import fields as tables
from ..catalog.codec import (
    Links,
    bbox_node,
    collection_link,
    crs_node,
    encode,
    strings_node,
)
from ..catalog.entities import PROJECTION_POLICIES
from ..catalog.generic import read_extras, write_extras
from ..catalog.readers import (
    bbox,
    entries,
    enum,
    flag,
    integer,
    items,
    keywords,
    number,
    ref_name,
    strings,
    text,
)
from ..catalog.tree import Node, entries_node, xml_to_dict
from .entities import HTTPStore, RemoteStyle, WMSLayer, WMSStore, WMTSLayer, WMTSStore

XSI = "http://www.w3.org/2001/XMLSchema-instance"
NIL = f"{{{XSI}}}nil"
CHILDREN = {"wmsStore": "wmslayers", "wmtsStore": "layers"}
"""the path segment of a store's layers (also the tag of its collection link)"""

STORE_TEXT = (
    ("name", "name"),
    ("description", "description"),
    ("type", "type"),
    ("capabilitiesURL", "capabilities_url"),
    ("capabilitiesUrl", "capabilities_url"),
    ("user", "user"),
    ("password", "password"),
    ("headerName", "header_name"),
    ("headerValue", "header_value"),
)
STORE_INTS = (
    ("maxConnections", "max_connections"),
    ("readTimeout", "read_timeout"),
    ("connectTimeout", "connect_timeout"),
)
LAYER_TEXT = (
    ("name", "name"),
    ("nativeName", "native_name"),
    ("title", "title"),
    ("abstract", "abstract"),
    ("description", "description"),
    ("srs", "srs"),
    ("nativeCRS", "native_crs"),
    ("forcedRemoteStyle", "forced_remote_style"),
    ("preferredFormat", "preferred_format"),
)


# -- reading ----------------------------------------------------------------------------------


def read_body(body: bytes, fmt: str, root: str) -> dict[str, Any]:
    """A store or layer body as the JSON shape, with unset fields (``null``, ``xsi:nil``)
    as None."""
    if fmt == "xml":
        el = wxml.parse(_declare_xsi(body))
        tag = wxml.local(getattr(el, "tag", ""))
        if tag != root:
            raise Invalid(f"Expected a <{root}> document, got <{tag}>")
        value = xml_to_dict(el)
        out = value if isinstance(value, dict) else {}
        for child in el:
            if isinstance(child.tag, str) and child.get(NIL, "").strip() == "true":
                out[wxml.local(child.tag)] = None
        return out
    data = wjson.as_object(wjson.loads(body), root)
    if root not in data:
        raise Invalid(f"Expected a JSON object with the key {root}")
    inner = data[root]
    return inner if isinstance(inner, dict) else {}


_ROOT_TAG = re.compile(rb"<([A-Za-z_][\w.-]*)(?=[\s/>])")


def _declare_xsi(body: bytes) -> bytes:
    """Declare the ``xsi`` prefix on the root element when the body uses it undeclared."""
    if b"xsi:" not in body or b"xmlns:xsi" in body:
        return body
    found = _ROOT_TAG.search(body)
    if found is None:
        return body
    at = found.end()
    return body[:at] + f' xmlns:xsi="{XSI}"'.encode() + body[at:]


def _put(out: dict[str, Any], d: dict[str, Any], key: str, attr: str, value: Any) -> None:
    """``value`` for ``attr`` when given; None when the body unsets ``key``."""
    if key in d and d[key] is None:
        out[attr] = None
    elif value is not None:
        out[attr] = value


def parse_store(d: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, attr in STORE_TEXT:
        _put(out, d, key, attr, text(d, key))
    for key, attr in STORE_INTS:  # primitives in GeoServer: null leaves them as they are
        _put(out, {}, key, attr, integer(d, key))
    _put(out, {}, "enabled", "enabled", flag(d, "enabled"))
    default_key = "__default" if "__default" in d else "_default"
    _put(out, {}, default_key, "default", flag(d, default_key))
    _put(out, d, "disableOnConnFailure", "disable_on_conn_failure", flag(d, "disableOnConnFailure"))
    _put(out, d, "workspace", "workspace", ref_name(d, "workspace"))
    _put(out, d, "metadata", "metadata", entries(d, "metadata", structured=True))
    params = entries(d, "connectionParameters")
    _put(out, d, "connectionParameters", "connection_parameters", params)
    for key in ("metadata", "connection_parameters"):
        if key in out and out[key] is None:
            out[key] = {}
    return out


def parse_layer(d: dict[str, Any], kind: str) -> dict[str, Any]:
    """The field changes a ``wmsLayer``/``wmtsLayer`` body carries; the generic resource
    fields (metadata and data links, i18n title…) under ``extras``."""
    out: dict[str, Any] = {}
    changes = read_extras(d, tables.TABLES[kind])
    if changes:
        out["extras"] = changes
    for key, attr in LAYER_TEXT:
        _put(out, d, key, attr, text(d, key))
    policy = enum(d, "projectionPolicy", PROJECTION_POLICIES, "projection policy")
    _put(out, d, "projectionPolicy", "projection_policy", policy)
    for key, attr in (
        ("enabled", "enabled"),
        ("advertised", "advertised"),
        ("metadataBBoxRespected", "metadata_bbox_respected"),
    ):
        _put(out, d, key, attr, flag(d, key))
    for key, attr in (("minScale", "min_scale"), ("maxScale", "max_scale")):
        _put(out, d, key, attr, number(d, key))
    _put(out, d, "keywords", "keywords", keywords(d))
    for key, attr in (
        ("selectedRemoteFormats", "selected_remote_formats"),
        ("selectedRemoteStyles", "selected_remote_styles"),
    ):
        _put(out, d, key, attr, strings(d, key))
    srs = out.get("srs")
    _put(out, d, "nativeBoundingBox", "native_bbox", bbox(d, "nativeBoundingBox", srs))
    _put(out, d, "latLonBoundingBox", "latlon_bbox", bbox(d, "latLonBoundingBox", "EPSG:4326"))
    _put(out, d, "metadata", "metadata", entries(d, "metadata", structured=True))
    _put(out, d, "store", "store", ref_name(d, "store"))
    _put(out, d, "namespace", "namespace", ref_name(d, "namespace"))
    if "allAvailableRemoteStyles" in d:
        styles = items(d, "allAvailableRemoteStyles", "style")
        out["remote_styles"] = [_remote_style(s) for s in styles if isinstance(s, dict)]
    for key in ("remote_styles", "selected_remote_formats", "selected_remote_styles", "keywords"):
        if key in out and out[key] is None:
            out[key] = []
    if "metadata" in out and out["metadata"] is None:
        out["metadata"] = {}
    for key in ("enabled", "advertised", "metadata_bbox_respected"):
        if key in out and out[key] is None:
            del out[key]
    return out


def _remote_style(d: dict[str, Any]) -> RemoteStyle:
    raw = d.get("legend")
    legend: dict[str, Any] = raw if isinstance(raw, dict) else {}
    return RemoteStyle(
        text(d, "name") or "",
        text(legend, "onlineResource"),
        text(legend, "format"),
        integer(legend, "width"),
        integer(legend, "height"),
    )


# -- writing ----------------------------------------------------------------------------------


def _ref(tag: str, name: str, href: str, attrs: dict[str, str] | None = None) -> Node:
    return Node(tag, children=[Node("name", name)], link=href, attrs=attrs or {})


def store_href(links: Links, store: HTTPStore) -> str:
    segment = "wmsstores" if isinstance(store, WMSStore) else "wmtsstores"
    return links.href("workspaces", encode(store.workspace), segment, encode(store.name))


def store_node(store: HTTPStore, links: Links, fmt: str, layers: list[str]) -> Node:
    """A store; in HTML its layers are listed (each a link), elsewhere one collection link."""
    node = Node(store.kind).add("name", store.name).add("description", store.description)
    node.add("type", store.type).add("enabled", store.enabled)
    if fmt != "html":  # GeoServer's page links only the layers
        node.children.append(_ref("workspace", store.workspace, links.workspace(store.workspace)))
    if store.connection_parameters:
        node.child(entries_node("connectionParameters", store.connection_parameters))
    if store.metadata:
        node.child(entries_node("metadata", store.metadata))
    node.add("__default" if fmt == "xml" else "_default", store.default)
    node.add("dateCreated", store.date_created).add("dateModified", store.date_modified)
    node.add("disableOnConnFailure", store.disable_on_conn_failure)
    node.add("capabilitiesURL", store.capabilities_url)
    node.add("user", store.user).add("password", store.password)
    node.add("maxConnections", store.max_connections).add("readTimeout", store.read_timeout)
    node.add("connectTimeout", store.connect_timeout)
    if isinstance(store, WMTSStore):
        node.add("headerName", store.header_name).add("headerValue", store.header_value)
    child = CHILDREN[store.kind]
    base = store_href(links, store).rsplit(".", 1)[0] + f"/{child}"
    if fmt != "html":
        return node.child(collection_link(child, f"{base}.{links.ext}"))
    listed = Node(child)
    for name in layers:
        href = f"{base}/{encode(name)}.{links.ext}"
        listed.children.append(Node("layer", children=[Node("name", name)], link=href))
    return node.child(listed)


def layer_node(layer: WMSLayer | WMTSLayer, store: HTTPStore, links: Links) -> Node:
    node = Node(layer.kind).add("name", layer.name).add("nativeName", layer.native_name)
    ns_href = links.href("namespaces", encode(layer.workspace))
    node.children.append(_ref("namespace", layer.workspace, ns_href))
    node.add("title", layer.title).add("description", layer.description)
    node.add("abstract", layer.abstract)
    if layer.keywords:
        node.child(strings_node("keywords", layer.keywords))
    node.child(crs_node("nativeCRS", layer.native_crs or layer.srs)).add("srs", layer.srs)
    node.child(bbox_node("nativeBoundingBox", layer.native_bbox))
    node.child(bbox_node("latLonBoundingBox", layer.latlon_bbox))
    node.add("projectionPolicy", layer.projection_policy).add("enabled", layer.enabled)
    if not layer.advertised:
        node.add("advertised", False)
    if layer.metadata:
        node.child(entries_node("metadata", layer.metadata))
    node.children.append(
        _ref(
            "store",
            f"{store.workspace}:{store.name}",
            store_href(links, store),
            {"class": store.kind},
        )
    )
    if isinstance(layer, WMSLayer):
        _wms_fields(node, layer)
    node.add("dateCreated", layer.date_created).add("dateModified", layer.date_modified)
    return write_extras(node, tables.TABLES[layer.kind], layer.extras, links.vendor)


def _wms_fields(node: Node, layer: WMSLayer) -> None:
    node.add("forcedRemoteStyle", layer.forced_remote_style)
    node.add("preferredFormat", layer.preferred_format)
    if layer.selected_remote_formats:
        node.child(strings_node("selectedRemoteFormats", layer.selected_remote_formats))
    if layer.selected_remote_styles:
        node.child(strings_node("selectedRemoteStyles", layer.selected_remote_styles))
    node.add("minScale", layer.min_scale).add("maxScale", layer.max_scale)
    node.add("metadataBBoxRespected", layer.metadata_bbox_respected)
    if layer.remote_styles:
        styles = Node("allAvailableRemoteStyles")
        styles.children.extend(_style_node(s) for s in layer.remote_styles)
        node.child(styles)


def _style_node(style: RemoteStyle) -> Node:
    node = Node("style").add("name", style.name).add("format", "sld")
    node.child(Node("languageVersion").add("version", "1.0.0"))
    if style.legend_url is not None:
        legend = Node("legend").add("width", style.legend_width)
        legend.add("height", style.legend_height).add("format", style.legend_format)
        node.child(legend.add("onlineResource", style.legend_url))
    return node.child(entries_node("metadata", {"isRemote": "true"}))


def names_node(item: str, names: list[str]) -> Node:
    """``<list><item>a</item>…</list>`` (``list=available``)."""
    return Node("list", children=[Node(item, n) for n in names], arrays=frozenset({item}))
