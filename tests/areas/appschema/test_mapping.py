"""Parsing mapping files and schemas (``mapping.py``)."""

from __future__ import annotations

import pytest

from geoserver_emulator.areas.appschema.mapping import (
    is_local,
    parse_mapping,
    resolve,
    schema_locations,
)
from geoserver_emulator.core.errors import Invalid

from .conftest import mapping_xml, payload, short_id


def test_main_geosciml_mapping():
    doc = parse_mapping(payload("geosciml.appschema"), "geosciml.appschema")
    assert doc.names == ["MappedFeature", "GeologicEvent", "GeologicUnit"]
    assert doc.includes == ("cgi_termvalue.xml",)
    assert doc.schema_uris == ("geosciml.xsd",)
    assert dict(doc.namespaces)["gsml"] == "urn:cgi:xmlns:CGI:GeoSciML:2.0"
    source = doc.source("datastore")
    assert source is not None and source.params == {"directory": "file:./"}
    assert not source.is_document_database
    tm = doc.type_mappings[0]
    assert (tm.source_data_store, tm.source_type, tm.target_element) == (
        "datastore",
        "MAPPEDFEATURE",
        "gsml:MappedFeature",
    )


def test_included_mapping():
    doc = parse_mapping(payload("cgi_termvalue.xml"), "cgi_termvalue.xml")
    assert doc.names == ["CGI_TermValue"] and doc.includes == ()


def test_document_database_sources():
    doc = parse_mapping(payload("stations.appschema"), "stations.appschema")
    mongo, lookup = doc.source_data_stores
    assert mongo.is_document_database and mongo.database_url.startswith("mongodb://")
    assert not lookup.is_document_database
    assert doc.names == ["StationFeature", "Measurement", "StationKind"]


def test_mapping_name_names_the_type():
    body = mapping_xml(["A"]).replace(
        b"<FeatureTypeMapping>", b"<FeatureTypeMapping><mappingName>Alias</mappingName>"
    )
    assert parse_mapping(body, "m.xml").names == ["Alias"]


def test_two_mappings_of_one_element_need_distinct_names():
    body = mapping_xml(["A", "A"])
    with pytest.raises(Invalid, match="duplicate mapping"):
        parse_mapping(body, "m.xml")
    named = body.replace(
        b"<FeatureTypeMapping>", b"<FeatureTypeMapping><mappingName>n</mappingName>", 1
    )
    assert parse_mapping(named, "m.xml").names == ["n", "A"]


def test_qualified_children_are_read_too():
    body = (
        b'<as:AppSchemaDataAccess xmlns:as="http://www.geotools.org/app-schema">'
        b"<as:namespaces><as:Namespace><as:prefix>p</as:prefix><as:uri>u</as:uri></as:Namespace>"
        b"</as:namespaces><as:sourceDataStores><as:DataStore><as:id>d</as:id></as:DataStore>"
        b"</as:sourceDataStores><as:typeMappings><as:FeatureTypeMapping>"
        b"<as:sourceDataStore>d</as:sourceDataStore><as:sourceType>T</as:sourceType>"
        b"<as:targetElement>p:X</as:targetElement></as:FeatureTypeMapping></as:typeMappings>"
        b"</as:AppSchemaDataAccess>"
    )
    assert parse_mapping(body, "m.xml").names == ["X"]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b"not xml", "Malformed XML"),
        (b"<other/>", "the root element is <other>"),
        (mapping_xml(["A"]).replace(b"<id>ds</id>", b""), "has no id"),
        (
            mapping_xml(["A"]).replace(b"<targetElement>gsml:A</targetElement>", b""),
            "has no targetElement",
        ),
        (mapping_xml(["A"]).replace(b"gsml:A", b"gsml:"), "undeclared namespace"),
        (mapping_xml(["A"]).replace(b"<uri>urn:x:gsml</uri>", b""), "Namespace gsml has no uri"),
        (
            mapping_xml(["A"]).replace(
                b"</sourceDataStores>", b"<DataStore><id>ds</id></DataStore></sourceDataStores>"
            ),
            "declared twice",
        ),
        (
            mapping_xml(["A"]).replace(
                b"<schemaUri>http://example.org/x.xsd</schemaUri>", b"<schemaUri/>"
            ),
            "an empty targetTypes/FeatureType",
        ),
    ],
    ids=short_id,
)
def test_invalid_mappings(body, words):
    with pytest.raises(Invalid) as info:
        parse_mapping(body, "m.xml")
    assert words in info.value.message and "m.xml" in info.value.message


def test_schema_locations_of_an_xsd():
    assert schema_locations(payload("geosciml.xsd"), "geosciml.xsd") == [
        "http://schemas.opengis.net/gml/3.1.1/base/gml.xsd",
        "geologicFeature.xsd",
        "geologicUnit.xsd",
        "value.xsd",
    ]
    with pytest.raises(Invalid, match="expected <xs:schema>"):
        schema_locations(b"<x/>", "x.xsd")


@pytest.mark.parametrize(
    ("uri", "local"),
    [
        ("geosciml.xsd", True),
        ("sub/dir/a.xsd", True),
        ("../a.xsd", True),
        ("http://x/a.xsd", False),
        ("file:/tmp/a.xsd", False),
        ("/abs/a.xsd", False),
        ("urn:x", False),
    ],
)
def test_is_local(uri, local):
    assert is_local(uri) is local


def test_resolve_is_relative_to_the_referring_file_and_stays_inside():
    assert resolve("main.appschema", "a.xsd") == "a.xsd"
    assert resolve("sub/main.appschema", "../a.xsd") == "a.xsd"
    assert resolve("sub/main.appschema", "b/./c.xsd") == "sub/b/c.xsd"
    assert resolve("main.appschema", "../a.xsd") is None
