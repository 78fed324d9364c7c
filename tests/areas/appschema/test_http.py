"""``PUT …/file.appschema`` over HTTP: single files and ZIPs, configure modes, statuses in
both profiles, the store view, the type-set-change rule, and every refusal."""

from __future__ import annotations

import io
import zipfile

import pytest
from lxml import etree

from geoserver_emulator import Emulator

from .conftest import (
    XML,
    ZIP,
    feature_types,
    geosciml_zip,
    layers,
    make_zip,
    mapping_xml,
    payload,
    short_id,
)

BASE = "http://localhost:8080/geoserver/rest"
ATOM = "{http://www.w3.org/2005/Atom}link"
GSML_URI = "urn:cgi:xmlns:CGI:GeoSciML:2.0"
MF = "/rest/workspaces/gsml/datastores/mf"
GEO = "/rest/workspaces/gsml/datastores/geosciml"


def put_file(client, store: str, body: bytes, configure: str | None = "all", ws: str = "gsml"):
    query = f"?configure={configure}" if configure is not None else ""
    url = f"/rest/workspaces/{ws}/datastores/{store}/file.appschema{query}"
    return client.put(url, content=body, headers=XML)


def put_zip(client, store: str, body: bytes, configure: str | None = "all", ws: str = "gsml"):
    query = f"?configure={configure}" if configure is not None else ""
    url = f"/rest/workspaces/{ws}/datastores/{store}/file.appschema{query}"
    return client.put(url, content=body, headers=ZIP)


# -- the spec's three flows -----------------------------------------------------------------


def test_single_file_create_with_configure_all_is_201_and_publishes_every_type(gsml):
    r = put_file(gsml, "mf", payload("mappedfeature.xml"))
    assert r.status_code == 201 and r.content == b""
    assert feature_types(gsml, "gsml", "mf") == ["GeologicUnit", "MappedFeature"]
    assert layers(gsml, "gsml") == ["GeologicUnit", "MappedFeature"]


def test_store_view_after_a_single_file_upload_xml(gsml):
    put_file(gsml, "mf", payload("mappedfeature.xml"))
    root = etree.fromstring(gsml.get(MF + ".xml").content)
    assert root.tag == "dataStore"
    assert root.findtext("name") == "mf"
    assert root.findtext("type") == "Application Schema DataAccess"
    assert root.findtext("enabled") == "true"
    assert root.find("workspace").findtext("name") == "gsml"
    assert root.find("workspace").find(ATOM).get("href") == f"{BASE}/workspaces/gsml.xml"
    params = {e.get("key"): e.text for e in root.find("connectionParameters")}
    assert params == {
        "dbtype": "app-schema",
        "namespace": GSML_URI,
        "url": "file:data/gsml/mf/mf.appschema",
    }
    assert root.findtext("__default") == "false"
    link = root.find("featureTypes").find(ATOM).get("href")
    assert link == f"{BASE}/workspaces/gsml/datastores/mf/featuretypes.xml"


def test_store_view_after_a_single_file_upload_json(gsml):
    put_file(gsml, "mf", payload("mappedfeature.xml"))
    ds = gsml.get(MF + ".json").json()["dataStore"]
    assert ds["type"] == "Application Schema DataAccess" and ds["_default"] is False
    assert {"@key": "dbtype", "$": "app-schema"} in ds["connectionParameters"]["entry"]
    assert ds["featureTypes"] == f"{BASE}/workspaces/gsml/datastores/mf/featuretypes.json"


def test_the_mapping_file_is_in_the_data_directory(gsml):
    put_file(gsml, "mf", payload("mappedfeature.xml"))
    r = gsml.get("/rest/resource/data/gsml/mf/mf.appschema")
    assert r.status_code == 200 and r.content == payload("mappedfeature.xml")


def test_replace_with_configure_none_is_200_and_only_swaps_the_mapping(gsml):
    put_file(gsml, "mf", payload("mappedfeature.xml"))
    r = put_file(gsml, "mf", payload("mappedfeature_alternative.xml"), "none")
    assert r.status_code == 200 and r.content == b""
    assert feature_types(gsml, "gsml", "mf") == ["GeologicUnit", "MappedFeature"]
    stored = gsml.get("/rest/resource/data/gsml/mf/mf.appschema").content
    assert stored == payload("mappedfeature_alternative.xml")


def test_zip_create_with_configure_all_is_200_and_skips_included_types(gsml):
    r = put_zip(gsml, "geosciml", geosciml_zip())
    assert r.status_code == 200 and r.content == b""
    assert feature_types(gsml, "gsml", "geosciml") == [
        "GeologicEvent",
        "GeologicUnit",
        "MappedFeature",
    ]
    assert "CGI_TermValue" not in layers(gsml, "gsml")


def test_store_view_after_a_zip_lists_the_feature_types_xml(gsml):
    put_zip(gsml, "geosciml", geosciml_zip())
    root = etree.fromstring(gsml.get(GEO + ".xml").content)
    params = {e.get("key"): e.text for e in root.find("connectionParameters")}
    assert params["url"] == "file:data/gsml/geosciml/geosciml.appschema"
    items = root.find("featureTypes").findall("featureType")
    assert [i.findtext("name") for i in items] == ["GeologicEvent", "GeologicUnit", "MappedFeature"]
    href = items[2].find(ATOM).get("href")
    assert href == f"{BASE}/workspaces/gsml/datastores/geosciml/featuretypes/MappedFeature.xml"
    assert items[2].find(ATOM).get("type") == "application/xml"


def test_store_view_after_a_zip_lists_the_feature_types_json(gsml):
    put_zip(gsml, "geosciml", geosciml_zip())
    fts = gsml.get(GEO + ".json").json()["dataStore"]["featureTypes"]["featureType"]
    assert fts[0] == {
        "name": "GeologicEvent",
        "href": f"{BASE}/workspaces/gsml/datastores/geosciml/featuretypes/GeologicEvent.json",
    }


def test_zip_files_land_in_the_store_folder(gsml):
    put_zip(gsml, "geosciml", geosciml_zip())
    listing = gsml.get("/rest/resource/data/gsml/geosciml?format=json").json()
    names = [c["name"] for c in listing["ResourceDirectory"]["children"]["child"]]
    assert names == sorted(
        [
            "cgi_termvalue.xml",
            "geologicFeature.xsd",
            "geologicUnit.xsd",
            "geosciml.appschema",
            "geosciml.xsd",
            "value.xsd",
        ]
    )


# -- other configure combinations -----------------------------------------------------------


def test_configure_absent_publishes_only_the_first_type(gsml):
    r = put_file(gsml, "mf", payload("mappedfeature.xml"), None)
    assert r.status_code == 201
    assert feature_types(gsml, "gsml", "mf") == ["MappedFeature"]
    available = gsml.get(MF + "/featuretypes.json?list=available").json()
    assert available == {"list": {"string": ["GeologicUnit"]}}


def test_configure_other_value_is_like_absent_and_all_is_case_insensitive(gsml):
    assert put_file(gsml, "mf", payload("mappedfeature.xml"), "first").status_code == 201
    assert feature_types(gsml, "gsml", "mf") == ["MappedFeature"]
    assert put_file(gsml, "mf", payload("mappedfeature.xml"), "ALL").status_code == 201
    assert feature_types(gsml, "gsml", "mf") == ["GeologicUnit", "MappedFeature"]


def test_create_with_configure_none_makes_an_empty_store(gsml):
    r = put_file(gsml, "mf", payload("mappedfeature.xml"), "none")
    assert r.status_code == 201
    assert gsml.get(MF + ".json").status_code == 200
    assert feature_types(gsml, "gsml", "mf") == []


def test_zip_with_configure_absent_is_201_first_type_only(gsml):
    assert put_zip(gsml, "geosciml", geosciml_zip(), None).status_code == 201
    assert feature_types(gsml, "gsml", "geosciml") == ["MappedFeature"]


def test_zip_replace_with_configure_none_is_200(gsml):
    put_zip(gsml, "geosciml", geosciml_zip())
    assert put_zip(gsml, "geosciml", geosciml_zip(), "none").status_code == 200


def test_reupload_with_configure_all_refreshes_existing_types(gsml):
    put_file(gsml, "mf", payload("mappedfeature.xml"))
    assert put_file(gsml, "mf", payload("mappedfeature.xml")).status_code == 201
    assert feature_types(gsml, "gsml", "mf") == ["GeologicUnit", "MappedFeature"]
    ft = gsml.get(MF + "/featuretypes/MappedFeature.json").json()["featureType"]
    assert ft["nativeName"] == "MappedFeature" and "dateModified" in ft


def test_mapping_without_type_mappings_is_202(gsml):
    assert put_file(gsml, "empty", mapping_xml([])).status_code == 202
    assert feature_types(gsml, "gsml", "empty") == []


def test_a_taken_name_is_renamed_with_a_number(gsml):
    put_file(gsml, "mf", payload("mappedfeature.xml"))
    assert put_zip(gsml, "geosciml", geosciml_zip()).status_code == 200
    assert feature_types(gsml, "gsml", "geosciml") == [
        "GeologicEvent",
        "GeologicUnit1",
        "MappedFeature1",
    ]
    ft = gsml.get(GEO + "/featuretypes/MappedFeature1.json").json()["featureType"]
    assert ft["nativeName"] == "MappedFeature"


def test_filename_parameter_names_the_stored_file(gsml):
    url = "/rest/workspaces/gsml/datastores/mf/file.appschema?configure=all&filename=lcv.xml"
    assert gsml.put(url, content=payload("mappedfeature.xml"), headers=XML).status_code == 201
    params = gsml.get(MF + ".json").json()["dataStore"]["connectionParameters"]["entry"]
    assert {"@key": "url", "$": "file:data/gsml/mf/lcv.xml"} in params


def test_default_workspace_alias(gsml):
    r = put_file(gsml, "mf", payload("mappedfeature.xml"), ws="default")
    assert r.status_code == 201
    assert feature_types(gsml, "ne", "mf") == ["GeologicUnit", "MappedFeature"]


@pytest.mark.parametrize(
    ("flow", "spec", "geoserver"),
    [("file-all", 201, 201), ("replace-none", 200, 201), ("zip-all", 200, 201)],
)
def test_statuses_per_profile(client_for, flow, spec, geoserver):
    for profile, expected in (("spec", spec), ("geoserver", geoserver)):
        c = client_for(emulator=Emulator("stock", profile=profile))
        c.post("/rest/workspaces", json={"workspace": {"name": "gsml"}})
        if flow == "file-all":
            r = put_file(c, "mf", payload("mappedfeature.xml"))
        elif flow == "replace-none":
            put_file(c, "mf", payload("mappedfeature.xml"))
            r = put_file(c, "mf", payload("mappedfeature_alternative.xml"), "none")
        else:
            r = put_zip(c, "geosciml", geosciml_zip())
        assert r.status_code == expected, (profile, flow)


# -- the type-set-change rule -------------------------------------------------------------


def test_a_put_never_removes_feature_types_and_recursive_delete_then_put_gives_the_new_set(gsml):
    put_file(gsml, "mf", payload("mappedfeature.xml"))
    alternative = payload("mappedfeature_alternative.xml")
    assert put_file(gsml, "mf", alternative).status_code == 201
    assert feature_types(gsml, "gsml", "mf") == [
        "GeologicUnit",
        "MappedFeature",
        "ShearDisplacementStructure",
    ]
    assert put_file(gsml, "mf", alternative, "none").status_code == 200
    assert len(feature_types(gsml, "gsml", "mf")) == 3
    assert gsml.delete(MF).status_code == 403
    assert gsml.delete(MF + "?recurse=true").status_code == 200
    assert put_file(gsml, "mf", alternative).status_code == 201
    assert feature_types(gsml, "gsml", "mf") == ["GeologicUnit", "ShearDisplacementStructure"]
    assert layers(gsml, "gsml") == ["GeologicUnit", "ShearDisplacementStructure"]


# -- refusals: 400 with a message, nothing stored ----------------------------------------


def _nothing_stored(emu, client, store: str = "mf") -> None:
    assert client.get(f"/rest/workspaces/gsml/datastores/{store}.json").status_code == 404
    assert not [p for p in emu.state.datadir.files if p.startswith(f"data/gsml/{store}")]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b"this is not xml", "Malformed XML"),
        (b"<dataStore><name>x</name></dataStore>", "expected <as:AppSchemaDataAccess>"),
        (b"", "Empty XML body"),
        (
            b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>'
            b'<as:AppSchemaDataAccess xmlns:as="http://www.geotools.org/app-schema">&e;'
            b"</as:AppSchemaDataAccess>",
            "DOCTYPE",
        ),
        (mapping_xml(["A"]).replace(b"<sourceType>A</sourceType>", b""), "has no sourceType"),
        (mapping_xml(["A"], prefix="gsml").replace(b"gsml:A", b"zz:A"), "undeclared namespace"),
        (mapping_xml(["A"]).replace(b"<sourceDataStore>ds", b"<sourceDataStore>nope"), "nope"),
        (mapping_xml(["A", "A"]), "duplicate mapping of gsml:A"),
        (payload("geosciml.appschema"), "cgi_termvalue.xml"),
    ],
    ids=short_id,
)
def test_bad_mapping_file_is_400_and_nothing_is_stored(emu, gsml, body, words):
    r = put_file(gsml, "mf", body)
    assert r.status_code == 400 and words in r.text
    assert r.headers["content-type"].startswith("text/plain")
    _nothing_stored(emu, gsml)


@pytest.mark.parametrize(
    ("archive", "words"),
    [
        (
            make_zip({"readme.txt": b"hello", "x.xml": mapping_xml(["A"])}),
            "Could not find appropriate appschema file in archive",
        ),
        (geosciml_zip(cgi_termvalue__xml=None), "cgi_termvalue.xml"),
        (geosciml_zip(geosciml__xsd=None), "Schema geosciml.xsd"),
        (geosciml_zip(value__xsd=None), "Schema value.xsd"),
        (geosciml_zip(geologicUnit__xsd=b"<schema"), "Invalid schema geologicUnit.xsd"),
        (
            geosciml_zip(cgi_termvalue__xml=b"<nope/>"),
            "Invalid app-schema mapping cgi_termvalue.xml",
        ),
        (b"PK\x03\x04 this is not really a zip", "Error occured unzipping file"),
        (geosciml_zip()[:200], "Error occured unzipping file"),
        (
            make_zip({"geosciml.appschema": mapping_xml(["A"]), "../evil.xsd": b"<x/>"}),
            "escapes the store directory",
        ),
        (
            make_zip({"/etc/cron.d/evil": b"x", "m.appschema": mapping_xml(["A"])}),
            "escapes the store directory",
        ),
        (
            make_zip({"..\\..\\evil.xml": b"x", "m.appschema": mapping_xml(["A"])}),
            "escapes the store directory",
        ),
    ],
    ids=short_id,
)
def test_bad_archive_is_400_and_nothing_is_stored(emu, gsml, archive, words):
    r = put_zip(gsml, "geosciml", archive)
    assert r.status_code == 400 and words in r.text, r.text
    _nothing_stored(emu, gsml, "geosciml")
    assert not [p for p in emu.state.datadir.files if "evil" in p]


def test_corrupt_entry_inside_a_valid_directory_is_400(emu, gsml):
    data = bytearray(make_zip({"m.appschema": mapping_xml(["A"]) * 20}))
    start = data.index(b"m.appschema") + len(b"m.appschema")
    data[start + 10 : start + 20] = b"\x00" * 10
    r = put_zip(gsml, "geosciml", bytes(data))
    assert r.status_code == 400 and "Error occured unzipping file" in r.text
    _nothing_stored(emu, gsml, "geosciml")


def test_failed_replace_keeps_the_old_mapping_and_types(emu, gsml):
    put_zip(gsml, "geosciml", geosciml_zip())
    before = dict(emu.state.datadir.files)
    r = put_zip(gsml, "geosciml", geosciml_zip(value__xsd=None))
    assert r.status_code == 400
    assert emu.state.datadir.files == before
    assert len(feature_types(gsml, "gsml", "geosciml")) == 3


def test_missing_workspace_is_404(client):
    r = put_file(client, "mf", payload("mappedfeature.xml"), ws="nope")
    assert r.status_code == 404 and r.text == "No such workspace: nope"


def test_existing_store_of_another_kind(client):
    url = "/rest/workspaces/topp/datastores/states_shapefile"
    before = client.get(url + ".json").json()
    r = put_file(client, "states_shapefile", payload("mappedfeature.xml"), "none", ws="topp")
    assert r.status_code == 201
    r = put_file(client, "states_shapefile", payload("mappedfeature.xml"), "all", ws="topp")
    assert r.status_code == 500 and "MappedFeature" in r.text
    assert client.get(url + ".json").json() == before


def test_methods_other_than_get_and_put_are_405(gsml):
    r = gsml.post("/rest/workspaces/gsml/datastores/mf/file.appschema", content=b"x")
    assert r.status_code == 405
    assert set(r.headers["allow"].replace(" ", "").split(",")) >= {"GET", "PUT"}
    assert gsml.delete("/rest/workspaces/gsml/datastores/mf/file.appschema").status_code == 405


def test_anonymous_is_401(anon):
    r = put_file(anon, "mf", payload("mappedfeature.xml"), ws="topp")
    assert r.status_code == 401


# -- GET file.appschema ---------------------------------------------------------------------


def test_get_answers_the_store_folder_as_a_zip(gsml):
    put_zip(gsml, "geosciml", geosciml_zip())
    r = gsml.get(GEO + "/file.appschema")
    assert r.status_code == 200 and r.headers["content-type"] == "application/zip"
    assert r.headers["content-disposition"] == "attachment; filename=geosciml.zip"
    with zipfile.ZipFile(io.BytesIO(r.content)) as z:
        assert z.read("geosciml.appschema") == payload("geosciml.appschema")
        assert len(z.namelist()) == 6


def test_get_of_missing_store_or_store_without_files_is_404(client):
    r = client.get("/rest/workspaces/topp/datastores/nope/file.appschema")
    assert r.status_code == 404 and r.text == "No such datastore nope"
    r = client.get("/rest/workspaces/topp/datastores/states_shapefile/file.appschema")
    assert r.status_code == 404 and r.text == "No files for datastore states_shapefile"
