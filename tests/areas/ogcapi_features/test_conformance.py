"""The conformance classes and the WFS settings that switch them: GeoServer's defaults, the
``ogcapiFeatures``/``cql2``/``ecql`` objects of the WFS metadata map kept across REST round
trips (XML and JSON, global and per workspace, the data directory, scenarios), and
``/conformance`` reflecting them."""

from __future__ import annotations

import pytest
from lxml import etree

from geoserver_emulator import Emulator

F = "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/"
P3 = "http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/"
C = "http://www.opengis.net/spec/cql2/1.0/conf/"
DEFAULT = [
    F + "core",
    F + "oas30",
    F + "html",
    F + "geojson",
    "http://www.opengis.net/spec/ogcapi-features-2/1.0/conf/crs",
    P3 + "features-filter",
    P3 + "filter",
    P3 + "queryables",
    "http://schemas.opengis.net/gml/3.2.1/gml.xsd",
    "http://geoserver.org/spec/ecql/1.0/conf/ecql-text",
    C + "cql2-text",
    C + "cql2-json",
    C + "basic-cql2",
    C + "advanced-comparison-operators",
    C + "arithmetic",
    C + "property-property",
    C + "basic-spatial-functions",
    C + "spatial-functions",
    C + "functions",
]
"""GeoServer's ``ConformanceTest``: what a fresh install declares"""
IDS = "http://www.opengis.net/spec/ogcapi-features-1/1.1/conf/ids"
SORTBY = "http://www.opengis.net/spec/ogcapi-records-1/1.0/conf/sorting"
PROPERTIES = "http://www.opengis.net/spec/ogcapi-features-6/1.0/conf/properties-features"


def classes(client, path: str = "/ogc/features/v1/conformance") -> list[str]:
    r = client.get(path)
    assert r.status_code == 200, r.text
    found: list[str] = r.json()["conformsTo"]
    return found


def test_default_classes(anon):
    assert classes(anon) == DEFAULT


def test_optional_classes_switched_on_through_rest_xml(anon, client, h):
    h.put_wfs_metadata(client, h.switch(ids=True, sortBy=True, propertySelection=True))
    assert sorted(classes(anon)) == sorted([*DEFAULT, IDS, SORTBY, PROPERTIES])
    xml = client.get("/rest/services/wfs/settings.xml").content
    root = etree.fromstring(xml)
    entry = root.find("metadata/entry[@key='ogcapiFeatures']/ogcapiFeatures")
    assert [(e.tag, e.text) for e in entry] == [
        ("ids", "true"),
        ("sortBy", "true"),
        ("propertySelection", "true"),
    ]
    assert root.findtext("metadata/entry[@key='SHAPE-ZIP_DEFAULT_PRJ_IS_ESRI']") is None  # replaced
    h.put_wfs_metadata(client, h.switch())
    assert classes(anon) == DEFAULT


def test_a_json_round_trip_keeps_the_objects(anon, client, h):
    entries = (
        h.switch(sortBy=True, queryables=False)
        + '<entry key="cql2"><cql2><json>false</json><spatial>false</spatial></cql2></entry>'
        + '<entry key="ecql"><ecql><text>false</text></ecql></entry>'
        + '<entry key="other">kept</entry>'
    )
    h.put_wfs_metadata(client, entries)
    before = classes(anon)
    got = client.get("/rest/services/wfs/settings.json").json()
    metadata = got["wfs"]["metadata"]["entry"]
    assert {"@key": "ogcapiFeatures", "ogcapiFeatures": {"queryables": False, "sortBy": True}} in [
        {k: (dict(sorted(v.items())) if isinstance(v, dict) else v) for k, v in e.items()}
        for e in metadata
    ]
    assert {"@key": "ecql", "ecql": {"text": False}} in metadata
    assert {"@key": "other", "$": "kept"} in metadata
    r = client.put("/rest/services/wfs/settings.json", json=got)
    assert r.status_code == 200, r.text
    assert client.get("/rest/services/wfs/settings.json").json() == got
    assert classes(anon) == before
    assert SORTBY in before and P3 + "queryables" not in before
    assert C + "cql2-json" not in before and C + "spatial-functions" not in before
    assert "http://geoserver.org/spec/ecql/1.0/conf/ecql-text" not in before


def test_core_off_declares_nothing(anon, client, h):
    h.put_wfs_metadata(client, h.switch(core=False))
    assert classes(anon) == []


def test_no_filter_language_turns_the_filter_classes_off(anon, client, h):
    h.put_wfs_metadata(
        client,
        '<entry key="cql2"><cql2><text>false</text><json>false</json></cql2></entry>'
        '<entry key="ecql"><ecql><text>false</text></ecql></entry>',
    )
    found = classes(anon)
    assert P3 + "filter" not in found and P3 + "features-filter" not in found
    assert not [c for c in found if c.startswith(C)]


def test_cite_compliance_keeps_only_endorsed_classes(anon, client):
    r = client.put("/rest/services/wfs/settings", json={"wfs": {"citeCompliant": True}})
    assert r.status_code == 200
    found = classes(anon)
    assert "http://geoserver.org/spec/ecql/1.0/conf/ecql-text" not in found
    assert C + "cql2-text" in found


def test_a_workspace_has_its_own_switches(anon, client, h):
    r = client.put("/rest/services/wfs/workspaces/sf/settings", json={"wfs": {"enabled": True}})
    assert r.status_code == 200, r.text
    h.put_wfs_metadata(client, h.switch(sortBy=True), "/workspaces/sf")
    assert SORTBY in classes(anon, "/sf/ogc/features/v1/conformance")
    assert SORTBY not in classes(anon)
    assert SORTBY not in classes(anon, "/topp/ogc/features/v1/conformance")


def test_the_data_directory_file_and_reload_keep_them(anon, client, h):
    h.put_wfs_metadata(client, h.switch(sortBy=True))
    text = client.get("/rest/resource/wfs.xml").text
    assert '<entry key="ogcapiFeatures">' in text and "<sortBy>true</sortBy>" in text
    assert client.post("/rest/reload").status_code == 200
    assert SORTBY in classes(anon)


def test_a_scenario_round_trip_keeps_them(anon, client, emu, h):
    h.put_wfs_metadata(client, h.switch(ids=True))
    again = Emulator(emu.dump_scenario(), extensions=["ogcapi-features"])
    assert again.state.settings.service("wfs")["metadata"]["ogcapiFeatures"] == {
        "ogcapiFeatures": {"ids": True}
    }


@pytest.mark.parametrize(
    "entry",
    [
        '<entry key="ogcapiFeatures"><ogcapiFeatures><sortBy>maybe</sortBy>'
        "</ogcapiFeatures></entry>",
        '<entry key="cql2"><cql2><text>1.5</text></cql2></entry>',
    ],
)
def test_a_bad_switch_is_400_and_nothing_changes(anon, client, entry):
    before = client.get("/rest/services/wfs/settings.json").json()
    body = f"<wfs><metadata>{entry}</metadata></wfs>"
    r = client.put(
        "/rest/services/wfs/settings",
        content=body.encode(),
        headers={"Content-Type": "application/xml"},
    )
    assert r.status_code == 400, r.text
    assert client.get("/rest/services/wfs/settings.json").json() == before
    assert classes(anon) == DEFAULT
