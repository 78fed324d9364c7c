"""``/rest/about/*`` black-box: versions, manifests, module status, system status."""

from __future__ import annotations

import json

import pytest
from lxml import etree

from geoserver_emulator import Emulator
from geoserver_emulator.areas.about.model import Resource

ATOM = "{http://www.w3.org/2005/Atom}link"


# -- version ---------------------------------------------------------------------------------


def test_version_is_html_by_default(client):
    r = client.get("/rest/about/version")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert "<h2>About:</h2>" in r.text and "Resource name: GeoWebCache" in r.text


def test_version_xml(client):
    r = client.get("/rest/about/version.xml")
    assert r.headers["content-type"] == "application/xml"
    root = etree.fromstring(r.content)
    assert root.tag == "about"
    assert [res.get("name") for res in root] == ["GeoServer", "GeoTools", "GeoWebCache"]
    for res in root:
        assert [c.tag for c in res] == ["Build-Timestamp", "Git-Revision", "Version"]
        assert all(c.text for c in res)
    assert root[0].findtext("Version") == "2.27.1"


def test_version_json(client):
    doc = client.get("/rest/about/version.json").json()
    resources = doc["about"]["resource"]
    assert isinstance(resources, list) and [r["@name"] for r in resources] == [
        "GeoServer",
        "GeoTools",
        "GeoWebCache",
    ]
    assert resources[0]["Version"] == "2.27.1"
    assert resources[1]["Version"] == 33.1  # Jettison types "33.1" as a number, as GeoServer does


def test_version_by_accept_and_406(client):
    assert client.get("/rest/about/version", headers={"Accept": "application/json"}).json()["about"]
    assert client.get("/rest/about/version", headers={"Accept": "application/xml"}).text.startswith(
        "<about>"
    )
    assert client.get("/rest/about/version", headers={"Accept": "image/png"}).status_code == 406
    assert client.get("/rest/about/version.txt").status_code == 404


def test_version_accepts_the_filters_too(client):
    doc = client.get("/rest/about/version.json", params={"manifest": "GeoT.*"}).json()
    assert doc["about"]["resource"]["@name"] == "GeoTools"  # one resource: an object


def test_versions_are_configurable_per_scenario(tmp_path, client_for):
    path = tmp_path / "s.json"
    path.write_text(
        json.dumps(
            {
                "extends": "empty",
                "about": {
                    "versions": [
                        {
                            "name": "GeoServer",
                            "properties": {"Version": "2.25.0", "Git-Revision": None},
                        },
                    ]
                },
            }
        )
    )
    client = client_for(emulator=Emulator(str(path)))
    gs = etree.fromstring(client.get("/rest/about/version.xml").content)[0]
    assert [(c.tag, c.text) for c in gs] == [
        ("Build-Timestamp", "20-May-2025 10:37"),
        ("Version", "2.25.0"),
    ]


# -- manifest --------------------------------------------------------------------------------


def test_manifest_unfiltered_is_long_and_sorted(client):
    root = etree.fromstring(client.get("/rest/about/manifest.xml").content)
    names = [r.get("name") for r in root]
    assert len(names) > 50 and names == sorted(names) and names[0]
    assert "gs-main-2.27.1" in names and "gt-main-33.1" in names and "gwc-core-1.27.1" in names


def test_manifest_html_with_regex(client):
    r = client.get("/rest/about/manifest", params={"manifest": "gwc-.*"})
    assert r.headers["content-type"].startswith("text/html")
    assert "Resource name: gwc-core-1.27.1" in r.text and "gs-main" not in r.text


def test_manifest_module_filters(client):
    doc = client.get(
        "/rest/about/manifest.json", params={"key": "GeoServerModule", "value": "extension"}
    ).json()
    names = [r["@name"] for r in doc["about"]["resource"]]
    assert names and all(n.startswith("gs-") for n in names)
    assert all(r["GeoServerModule"] == "extension" for r in doc["about"]["resource"])
    spec = client.get(
        "/rest/about/manifest.json", params={"key": "ServiceModule", "value": "extension"}
    ).json()
    assert [r["@name"] for r in spec["about"]["resource"]] == names
    core = client.get(
        "/rest/about/manifest.xml", params={"key": "GeoServerModule", "value": "core"}
    ).content
    assert "gs-main-2.27.1" in [r.get("name") for r in etree.fromstring(core)]
    anything = client.get("/rest/about/manifest.xml", params={"key": "GeoServerModule"}).content
    assert len(etree.fromstring(anything)) > len(names)


def test_manifest_value_only_and_range(client):
    doc = client.get("/rest/about/manifest.json", params={"value": "community"}).json()
    assert doc["about"]["resource"]["@name"] == "gs-mongodb-schemaless-2.27.1"
    root = etree.fromstring(
        client.get("/rest/about/manifest.xml", params={"from": "gwc-a", "to": "gwc-f"}).content
    )
    assert [r.get("name") for r in root] == [
        "gwc-core-1.27.1",
        "gwc-diskquota-core-1.27.1",
        "gwc-diskquota-jdbc-1.27.1",
    ]


def test_manifest_empty_result_in_each_format(client):
    q = {"manifest": "NOTEXISTS.*"}
    assert client.get("/rest/about/manifest.json", params=q).json() == {"about": ""}
    assert client.get("/rest/about/manifest.xml", params=q).text == "<about/>"
    html = client.get("/rest/about/manifest.html", params=q)
    assert html.status_code == 200 and "<h2>About:</h2>" in html.text


@pytest.mark.parametrize("param", ["manifest", "key", "value"])
def test_manifest_bad_regex_is_400(client, param):
    r = client.get("/rest/about/manifest.xml", params={param: "(["})
    assert r.status_code == 400 and f"Invalid {param} regular expression" in r.text


def test_manifest_bad_range_is_400(client):
    assert (
        client.get("/rest/about/manifest.xml", params={"from": "z", "to": "a"}).status_code == 400
    )


def test_manifest_catastrophic_filter_is_400(emu, client):
    emu.state.about.manifests.append(Resource("slow", {"Note": "a" * 40 + "!"}))
    r = client.get("/rest/about/manifest.xml", params={"value": "(a|aa)+$"})
    assert r.status_code == 400 and "takes too long" in r.text


def test_module_property_under_the_org_service_vendor(client_for):
    client = client_for(emulator=Emulator("stock", vendor_prefix="org.service"))
    doc = client.get("/rest/about/manifest.json", params={"manifest": "gs-main.*"}).json()
    assert doc["about"]["resource"]["ServiceModule"] == "core"
    assert "GeoServerModule" not in doc["about"]["resource"]


# -- module status ---------------------------------------------------------------------------


def test_status_html_by_default(client):
    for path in ("/rest/about/status", "/rest/about/status.html"):
        r = client.get(path)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
        assert "Available" in r.text and "Enabled" in r.text


def test_status_single_module_ignores_case(client):
    r = client.get("/rest/about/status/GS-Main")
    assert "<b>Module</b> : gs-main" in r.text and "<b>Enabled</b> : true" in r.text
    doc = client.get("/rest/about/status/gs-main.json").json()
    assert doc == {
        "statuss": {
            "status": [
                {
                    "name": "GeoServer Main",
                    "href": "http://localhost:8080/geoserver/rest/about/status/gs-main/GeoServer+Main.json",
                }
            ]
        }
    }


def test_status_unknown_module_is_404(client):
    r = client.get("/rest/about/status/fake1_module")
    assert r.status_code == 404 and "No such module" in r.text


def test_status_xml_and_json_lists(client):
    root = etree.fromstring(client.get("/rest/about/status.xml").content)
    assert root.tag == "statuss"
    assert root.find("status").findtext("name") == "GeoServer Main"
    assert (
        root.find("status").find(ATOM).get("href").endswith("/rest/about/status/GeoServer+Main.xml")
    )
    items = client.get("/rest/about/status.json").json()["statuss"]["status"]
    assert "Rendering Engine" in [i["name"] for i in items]


# -- system status ---------------------------------------------------------------------------


def test_system_status_is_json_by_default(client):
    r = client.get("/rest/about/system-status")
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    metric = r.json()["metrics"]["metric"]
    assert len(metric) >= 31 and all("value" in m for m in metric)
    assert [m["priority"] for m in metric] == sorted(m["priority"] for m in metric)
    names = {m["name"] for m in metric}
    assert {"OPERATING_SYSTEM", "CPU_LOAD", "PER_CPU_LOAD", "GEOSERVER_JVM_MEMORY_USAGE"} <= names


def test_system_status_values_are_deterministic(client):
    metric = {
        (m["name"], m["identifier"]): m
        for m in client.get("/rest/about/system-status.json").json()["metrics"]["metric"]
    }
    assert metric[("LOGICAL_CPUS", "LOGICAL_CPUS")]["value"] == 4
    assert metric[("MEMORY_TOTAL", "MEMORY_TOTAL")]["value"] == 17179869184
    assert metric[("PER_CPU_LOAD", "CPU 2")] == {
        "available": True,
        "description": "CPU 2 load",
        "name": "PER_CPU_LOAD",
        "unit": "%",
        "category": "CPU",
        "identifier": "CPU 2",
        "priority": 106,
        "value": 5,
    }
    assert metric[("TEMPERATURE", "TEMPERATURE")]["available"] is False
    assert metric[("TEMPERATURE", "TEMPERATURE")]["value"] == "NOT AVAILABLE"


def test_uptime_follows_the_clock(emu, client):
    def uptime():
        return next(
            m["value"]
            for m in client.get("/rest/about/system-status").json()["metrics"]["metric"]
            if m["name"] == "SYSTEM_UPTIME"
        )

    before = uptime()
    emu.clock.advance(60)
    assert uptime() == before + 60


def test_system_status_xml(client):
    r = client.get("/rest/about/system-status.xml")
    assert r.headers["content-type"] == "application/xml"
    root = etree.fromstring(r.content)
    assert root.tag == "metrics" and len(root) >= 31
    assert all(m.findtext("value") for m in root)


def test_system_status_html_table(client):
    r = client.get("/rest/about/system-status.html")
    doc = etree.fromstring(r.content)
    assert len(doc.xpath("/html/body/table/tr")) >= 31
    assert doc.xpath("/html/body/table/tr[td='Total physical memory ']/td[2]/text()") == [
        "16.0 GiB"
    ]
    assert doc.xpath("/html/body/table/tr[td='Uptime']/td[2]/text()") == ["02:03:04"]


def test_system_status_from_the_host(tmp_path, client_for):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"extends": "empty", "about": {"systemStatus": {"source": "host"}}}))
    client = client_for(emulator=Emulator(str(path)))
    metric = client.get("/rest/about/system-status").json()["metrics"]["metric"]
    assert len(metric) >= 31
    assert [m["priority"] for m in metric] == sorted(m["priority"] for m in metric)
    assert all(isinstance(m["available"], bool) for m in metric)


# -- methods, security -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/rest/about/version",
        "/rest/about/manifest.xml",
        "/rest/about/status",
        "/rest/about/system-status",
    ],
)
@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE"])
def test_read_only(client, path, method):
    r = client.request(method, path)
    assert r.status_code == 405 and "GET" in r.headers["allow"]


def test_needs_an_administrator(emu, anon, client_for):
    assert anon.get("/rest/about/version.json").status_code == 401
    emu.state.users.create_user(None, "bob", "pw", True)
    assert client_for(auth=("bob", "pw")).get("/rest/about/system-status").status_code == 403
