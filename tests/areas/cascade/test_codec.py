"""Round trips of the cascade codec: what it writes, it reads back (XML and JSON)."""

from __future__ import annotations

import string

from hypothesis import given, settings
from hypothesis import strategies as st

from geoserver_emulator.areas.cascade.codec import (
    layer_node,
    parse_layer,
    parse_store,
    read_body,
    store_node,
)
from geoserver_emulator.areas.cascade.entities import (
    RemoteStyle,
    WMSLayer,
    WMSStore,
    WMTSLayer,
    WMTSStore,
)
from geoserver_emulator.areas.cascade.model import assign
from geoserver_emulator.areas.catalog.codec import Links, render
from geoserver_emulator.areas.catalog.entities import BBox

ROOT = "http://localhost:8080/geoserver/rest"
words = st.text(alphabet=string.ascii_letters + string.digits + " -_:/.?&=<>'\"é", min_size=1)
words = words.map(str.strip).filter(bool)
maybe = st.none() | words
numbers = st.integers(min_value=0, max_value=100_000)
coords = st.floats(min_value=-1e7, max_value=1e7, allow_nan=False, allow_infinity=False)
metadata = st.dictionaries(st.text(alphabet=string.ascii_letters, min_size=1), words, max_size=3)


@st.composite
def stores(draw: st.DrawFn) -> WMSStore | WMTSStore:
    cls = draw(st.sampled_from([WMSStore, WMTSStore]))
    store = cls(draw(words), "sf")
    for attr in ("description", "type", "capabilities_url", "user", "password"):
        setattr(store, attr, draw(maybe))
    store.enabled, store.default = draw(st.booleans()), draw(st.booleans())
    store.disable_on_conn_failure = draw(st.none() | st.booleans())
    store.metadata = draw(metadata)
    for attr in ("max_connections", "read_timeout", "connect_timeout"):
        setattr(store, attr, draw(numbers))
    if isinstance(store, WMTSStore):
        store.header_name, store.header_value = draw(maybe), draw(maybe)
    return store


@settings(max_examples=40, deadline=None)
@given(stores(), st.sampled_from(["xml", "json"]))
def test_store_round_trip(store, fmt):
    body = render(store_node(store, Links(ROOT, fmt), fmt, []), fmt)
    fields = parse_store(read_body(body, fmt, store.kind))
    back = type(store)(fields.pop("name"), fields.pop("workspace"))
    for key, value in fields.items():
        setattr(back, key, value)
    assert back == store


def _box(draw: st.DrawFn, crs: str) -> BBox:
    x0, x1, y0, y1 = (draw(coords) for _ in range(4))
    return BBox(min(x0, x1), max(x0, x1), min(y0, y1), max(y0, y1), crs)


@st.composite
def styles(draw: st.DrawFn) -> RemoteStyle:
    if not draw(st.booleans()):
        return RemoteStyle(draw(words))
    return RemoteStyle(
        draw(words), draw(words), draw(maybe), draw(st.none() | numbers), draw(st.none() | numbers)
    )


@st.composite
def layers(draw: st.DrawFn) -> WMSLayer | WMTSLayer:
    cls = draw(st.sampled_from([WMSLayer, WMTSLayer]))
    layer = cls(draw(words), "sf", "demo")
    for attr in ("native_name", "title", "abstract", "description"):
        setattr(layer, attr, draw(maybe))
    layer.keywords = draw(st.lists(words, max_size=3))
    layer.srs = layer.native_crs = draw(st.sampled_from(["EPSG:4326", "EPSG:3857", "EPSG:2154"]))
    layer.native_bbox = _box(draw, layer.srs) if draw(st.booleans()) else None
    layer.latlon_bbox = _box(draw, "EPSG:4326") if draw(st.booleans()) else None
    layer.projection_policy = draw(st.sampled_from([None, "FORCE_DECLARED", "NONE"]))
    layer.enabled, layer.advertised = draw(st.booleans()), draw(st.booleans())
    layer.metadata = draw(metadata)
    if isinstance(layer, WMSLayer):
        layer.forced_remote_style, layer.preferred_format = draw(maybe), draw(maybe)
        layer.selected_remote_formats = draw(st.lists(words, max_size=3))
        layer.selected_remote_styles = draw(st.lists(words, max_size=3))
        layer.remote_styles = draw(st.lists(styles(), max_size=3))
        layer.min_scale = draw(st.none() | coords)
        layer.max_scale = draw(st.none() | coords)
        layer.metadata_bbox_respected = draw(st.booleans())
    return layer


@settings(max_examples=40, deadline=None)
@given(layers(), st.sampled_from(["xml", "json"]))
def test_layer_round_trip(layer, fmt):
    store = (WMSStore if isinstance(layer, WMSLayer) else WMTSStore)("demo", "sf")
    body = render(layer_node(layer, store, Links(ROOT, fmt)), fmt)
    fields = parse_layer(read_body(body, fmt, layer.kind), layer.kind)
    assert fields.pop("store") == "sf:demo" and fields.pop("namespace") == "sf"
    back = type(layer)(fields.pop("name"), "sf", "demo")
    assign(back, fields)
    assert back == layer
