"""The catalog codec: the XStream/Jettison writing rules, body reading, and round trips."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from geoserver_emulator.areas.catalog import codec, parse
from geoserver_emulator.areas.catalog.entities import (
    Attribute,
    BBox,
    DataStore,
    FeatureType,
    Layer,
    LayerGroup,
    StyleRef,
)
from geoserver_emulator.areas.catalog.tree import (
    Node,
    dump_json_doc,
    dump_xml,
    java_number,
    read_body,
)
from geoserver_emulator.core.errors import Invalid

LINKS = codec.Links("http://h/geoserver/rest", "xml")


@pytest.mark.parametrize(
    "value,text",
    [
        (589980.0, "589980.0"),
        (-124.731422, "-124.731422"),
        (1e7, "1.0E7"),
        (20037508.34, "2.003750834E7"),
        (-9.999999933815813e36, "-9.999999933815813E36"),
        (0.0, "0.0"),
        (0.0005, "5.0E-4"),
        (5, "5"),
    ],
)
def test_numbers_as_java_writes_them(value, text):
    assert java_number(value) == text


def test_json_writing_rules():
    node = Node("root", arrays=frozenset({"item"}))
    node.add("flag", True).add("count", 3).add("text", "x")
    node.children.append(Node("item", children=[Node("name", "one")], link="http://h/one.json"))
    node.children.append(Node("crs", "EPSG:26713", attrs={"class": "projected"}))
    node.children.append(Node("empty"))
    node.children.append(Node("rel", link="http://h/rel.json", collection_link=True))
    assert dump_json_doc(node) == {
        "root": {
            "flag": True,
            "count": 3,
            "text": "x",
            "item": [{"name": "one", "href": "http://h/one.json"}],
            "crs": {"@class": "projected", "$": "EPSG:26713"},
            "empty": "",
            "rel": "http://h/rel.json",
        }
    }


def test_xml_writing_rules():
    node = Node("root").add("flag", False)
    node.children.append(Node("rel", link="http://h/rel.xml", collection_link=True))
    assert dump_xml(node) == (
        b'<root><flag>false</flag><rel><atom:link xmlns:atom="http://www.w3.org/2005/Atom"'
        b' rel="alternate" href="http://h/rel.xml" type="application/xml"/></rel></root>'
    )


def test_list_encoding():
    empty = codec.list_node("dataStore", [])
    assert dump_json_doc(empty) == {"dataStores": ""}
    assert dump_xml(empty) == b"<dataStores/>"
    one = codec.list_node("dataStore", [("sf", "http://h/sf.json")])
    assert dump_json_doc(one) == {
        "dataStores": {"dataStore": [{"name": "sf", "href": "http://h/sf.json"}]}
    }


def test_nested_collections_follow_jettison():
    """Inside one object a lone item is not wrapped in a list; empty collections vanish."""
    links = codec.Links("http://h/rest", "json")
    one = FeatureType("f", "w", "s", keywords=["k"], attributes=[Attribute("a")])
    doc = dump_json_doc(codec.feature_type_node(one, links))["featureType"]
    assert doc["keywords"] == {"string": "k"}
    assert doc["attributes"]["attribute"]["name"] == "a"
    two = FeatureType("f", "w", "s", keywords=["k", "l"], attributes=[])
    doc = dump_json_doc(codec.feature_type_node(two, links))["featureType"]
    assert doc["keywords"] == {"string": ["k", "l"]} and doc["attributes"] == ""
    assert "metadata" not in doc
    layer = Layer("f", "w", default_style=StyleRef(None, "p"), styles=[StyleRef(None, "q")])
    doc = dump_json_doc(codec.layer_node(layer, one, links))["layer"]
    assert doc["styles"]["style"]["name"] == "q" and doc["styles"]["@class"] == "linked-hash-set"
    group = LayerGroup("g", publishables=[layer.ref], styles=[None], keywords=["k"])
    doc = dump_json_doc(codec.layer_group_node(group, links))["layerGroup"]
    assert doc["publishables"]["published"]["@type"] == "layer"
    assert doc["styles"] == {"style": ""} and doc["keywords"] == {"string": "k"}
    bare = dump_json_doc(codec.store_node(DataStore("s", "w"), links, "json"))["dataStore"]
    assert "connectionParameters" not in bare
    xml = dump_xml(codec.store_node(DataStore("s", "w"), LINKS, "xml"))
    assert b"connectionParameters" not in xml
    single = DataStore("s", "w", connection_parameters={"url": "file:x"})
    doc = dump_json_doc(codec.store_node(single, links, "json"))["dataStore"]
    assert doc["connectionParameters"] == {"entry": {"@key": "url", "$": "file:x"}}


def test_url_encoding_as_java():
    assert codec.encode("topp:states") == "topp%3Astates"
    assert codec.encode("a b~*") == "a+b%7E*"


@given(st.text(max_size=12))
def test_url_encoding_matches_the_general_encoder(name):
    """The table fast path for ASCII names writes what ``quote_plus`` does for every text."""
    from urllib.parse import quote_plus

    assert codec.encode(name) == quote_plus(name, safe="*").replace("~", "%7E")


@pytest.mark.parametrize(
    "body,fmt",
    [
        (
            "<dataStore><name>s</name><enabled>false</enabled><workspace><name>w</name></workspace>"
            '<connectionParameters><entry key="a">1</entry><b><string>2</string></b>'
            "<entry><string>c</string><string>3</string></entry></connectionParameters></dataStore>",
            "xml",
        ),
        (
            json.dumps(
                {
                    "dataStore": {
                        "name": "s",
                        "enabled": False,
                        "workspace": "w",
                        "connectionParameters": {
                            "entry": [{"@key": "a", "$": "1"}, {"@key": "c", "$": "3"}],
                            "b": "2",
                        },
                    }
                }
            ),
            "json",
        ),
    ],
)
def test_store_bodies_read_alike(body, fmt):
    root, data = read_body(body.encode(), fmt, "dataStore")
    fields = parse.parse_store(data)
    assert fields == {
        "name": "s",
        "enabled": False,
        "workspace": "w",
        "connection_parameters": {"a": "1", "b": "2", "c": "3"},
    }


def test_bad_bodies():
    with pytest.raises(Invalid):
        read_body(b"<other/>", "xml", "dataStore")
    with pytest.raises(Invalid):
        read_body(b'{"other": {}}', "json", "dataStore")
    with pytest.raises(Invalid):
        parse.parse_store({"enabled": "perhaps"})
    with pytest.raises(Invalid):
        parse.parse_resource({"nativeBoundingBox": {"minx": 1}})


def test_layer_style_references_read_both_ways():
    assert parse.parse_layer({"defaultStyle": {"name": "ne:x"}})["default_style"] == StyleRef(
        "ne", "x"
    )
    assert parse.parse_layer({"defaultStyle": {"name": "x", "workspace": "ne"}})[
        "default_style"
    ] == StyleRef("ne", "x")
    assert parse.parse_layer({"styles": {"style": {"name": "y"}}})["styles"] == [
        StyleRef(None, "y")
    ]


def test_store_node_uses_double_underscore_only_in_xml():
    store = DataStore("s", "w", connection_parameters={"k": "v"})
    assert b"<__default>false</__default>" in dump_xml(codec.store_node(store, LINKS, "xml"))
    assert "_default" in dump_json_doc(codec.store_node(store, LINKS, "json"))["dataStore"]


TEXT = st.text(
    st.characters(whitelist_categories=("L", "N"), whitelist_characters=" _-.:/"),
    min_size=1,
    max_size=12,
)
NAME = st.text("abcdefghij_", min_size=1, max_size=8)
COORD = st.floats(allow_nan=False, allow_infinity=False, width=64, min_value=-1e9, max_value=1e9)
BOXES = st.builds(BBox, COORD, COORD, COORD, COORD, st.just("EPSG:4326"))
ATTRS = st.builds(
    Attribute,
    NAME,
    st.integers(0, 1),
    st.integers(1, 3),
    st.booleans(),
    st.sampled_from(["java.lang.String", "org.locationtech.jts.geom.Point"]),
    st.none(),
)
FEATURE_TYPES = st.builds(
    FeatureType,
    NAME,
    st.just("w"),
    st.just("s"),
    native_name=NAME,
    title=TEXT,
    abstract=st.none() | TEXT,
    keywords=st.lists(TEXT, max_size=3),
    srs=st.just("EPSG:4326"),
    native_bbox=st.none() | BOXES,
    latlon_bbox=st.none() | BOXES,
    projection_policy=st.sampled_from(["FORCE_DECLARED", "REPROJECT_TO_DECLARED"]),
    enabled=st.booleans(),
    metadata=st.dictionaries(NAME, TEXT, max_size=3),
    attributes=st.lists(ATTRS, max_size=3),
    max_features=st.integers(0, 100),
)


@settings(max_examples=60, deadline=None)
@given(ft=FEATURE_TYPES, fmt=st.sampled_from(["xml", "json"]))
def test_feature_type_round_trip(ft, fmt):
    node = codec.feature_type_node(ft, codec.Links("http://h/rest", fmt))
    body = dump_xml(node) if fmt == "xml" else json.dumps(dump_json_doc(node)).encode()
    _, data = read_body(body, fmt, "featureType")
    fields = parse.parse_resource(data, "featureType")
    back = FeatureType(fields.pop("name"), "w", "s")
    assert fields.pop("store") == "w:s" and fields.pop("namespace") == "w"
    parse.apply_fields(back, fields, "featureType")
    back.native_crs = ft.native_crs
    assert back == ft


def test_layer_node_round_trip():
    layer = Layer(
        "l", "w", default_style=StyleRef("w", "s"), styles=[StyleRef(None, "p")], enabled=False
    )
    res = FeatureType("l", "w", "s")
    for fmt in ("xml", "json"):
        node = codec.layer_node(layer, res, codec.Links("http://h/rest", fmt))
        body = dump_xml(node) if fmt == "xml" else json.dumps(dump_json_doc(node)).encode()
        fields = parse.parse_layer(read_body(body, fmt, "layer")[1])
        assert fields["default_style"] == layer.default_style
        assert fields["styles"] == layer.styles and fields["enabled"] is False


@given(
    st.sampled_from(["layer", "featureType", "coverageStore"]),
    st.lists(st.tuples(st.text(max_size=8), st.text(max_size=8)), max_size=4),
)
def test_list_json_written_directly_is_the_generic_writers_bytes(alias, items):
    from geoserver_emulator.wire import json as wjson

    assert codec.list_json_bytes(alias, items) == wjson.dumps(codec.list_json(alias, items))
