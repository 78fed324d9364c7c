"""The about, module-status and metrics bodies, as GeoServer's XStream/Jettison write them."""

from __future__ import annotations

import json

from lxml import etree

from geoserver_emulator.areas.about import codec
from geoserver_emulator.areas.about.metrics import MetricSample, assemble
from geoserver_emulator.areas.about.model import ModuleStatus, Resource

GS = Resource(
    "GeoServer",
    {"Build-Timestamp": "20-May-2025 10:37", "Git-Revision": "abc", "Version": "2.27.1"},
)
GT = Resource("GeoTools", {"Version": "33.1"})
MAIN = Resource(
    "gs-main-2.27.1",
    {"GeoServerModule": "core", "Manifest-Version": "1.0", "Multi-Release": "true"},
)


def test_about_xml():
    body = codec.dump_about_xml([GS], "org.geoserver")
    assert body == (
        b'<about><resource name="GeoServer"><Build-Timestamp>20-May-2025 10:37</Build-Timestamp>'
        b"<Git-Revision>abc</Git-Revision><Version>2.27.1</Version></resource></about>"
    )


def test_about_json_array_typed_leaves_and_vendor_spelling():
    doc = json.loads(codec.dump_about_json([GT, MAIN], "org.service"))
    assert doc == {
        "about": {
            "resource": [
                {"@name": "GeoTools", "Version": 33.1},
                {
                    "@name": "gs-main-2.27.1",
                    "ServiceModule": "core",
                    "Manifest-Version": 1,
                    "Multi-Release": True,
                },
            ]
        }
    }


def test_about_json_one_resource_is_an_object_and_none_is_an_empty_string():
    assert (
        json.loads(codec.dump_about_json([GS], "org.geoserver"))["about"]["resource"]["@name"]
        == "GeoServer"
    )
    assert json.loads(codec.dump_about_json([], "org.geoserver")) == {"about": ""}


def test_about_html():
    page = codec.dump_about_html([GS], "org.geoserver")
    assert "<h2>About:</h2>" in page
    assert "<h3>Resource name: GeoServer</h3>" in page
    assert "<li><b>Version</b> : 2.27.1</li>" in page
    assert "<h2>About:</h2>" in codec.dump_about_html([], "org.geoserver")


MODULES = [
    ModuleStatus("gs-main", "GeoServer Main", version="2.27.1"),
    ModuleStatus("jvm", "Rendering Engine", component="java2d", message="line1 <x>\nline2\x1b"),
]


def test_status_list_xml_and_json_are_catalog_lists():
    page = "http://h/geoserver/rest/about/status"
    root = etree.fromstring(codec.dump_status_xml(MODULES, page))
    assert root.tag == "statuss" and [s.findtext("name") for s in root.findall("status")] == [
        "GeoServer Main",
        "Rendering Engine",
    ]
    link = root.find("status").find("{http://www.w3.org/2005/Atom}link")
    assert link.get("href") == f"{page}/GeoServer+Main.xml"
    doc = json.loads(codec.dump_status_json(MODULES[:1], page))
    assert doc == {
        "statuss": {"status": [{"name": "GeoServer Main", "href": f"{page}/GeoServer+Main.json"}]}
    }


def test_status_html():
    page = codec.dump_status_html(MODULES)
    assert "<b>Module</b> : gs-main" in page
    assert "<b>Enabled</b> : true" in page and "<b>Available</b> : true" in page
    assert "<b>Component</b> : java2d" in page
    assert "line1 &lt;x&gt;<br/>line2ESC" in page


def rows():
    return assemble(
        [
            MetricSample("OPERATING_SYSTEM", "Linux 6.1"),
            MetricSample("LOGICAL_CPUS", 4),
            MetricSample("CPU_LOAD", 6.25, description="CPU load average"),
            MetricSample("NETWORK_INTERFACES_SEND", 52428800.0),
        ]
    )


def test_metrics_xml_field_order_and_values():
    root = etree.fromstring(codec.dump_metrics_xml(rows()))
    assert root.tag == "metrics" and len(root) == 31
    first = root[0]
    assert [c.tag for c in first] == [
        "available",
        "description",
        "name",
        "unit",
        "category",
        "identifier",
        "priority",
        "value",
    ]
    assert [c.text or "" for c in first] == [
        "true",
        "Operating system",
        "OPERATING_SYSTEM",
        "",
        "SYSTEM",
        "OPERATING_SYSTEM",
        "1",
        "Linux 6.1",
    ]
    values = {m.findtext("name"): m.findtext("value") for m in root}
    assert values["NETWORK_INTERFACES_SEND"] == "5.24288E7"
    assert values["TEMPERATURE"] == "NOT AVAILABLE"
    assert all(m.findtext("value") for m in root)


def test_metrics_json_types():
    metric = json.loads(codec.dump_metrics_json(rows()))["metrics"]["metric"]
    assert isinstance(metric, list) and len(metric) == 31
    cpus = next(m for m in metric if m["name"] == "LOGICAL_CPUS")
    assert cpus == {
        "available": True,
        "description": "Number of logical CPUs",
        "name": "LOGICAL_CPUS",
        "unit": "",
        "category": "CPU",
        "identifier": "LOGICAL_CPUS",
        "priority": 101,
        "value": 4,
    }
    temp = next(m for m in metric if m["name"] == "TEMPERATURE")
    assert temp["available"] is False and temp["value"] == "NOT AVAILABLE" and temp["unit"] == "°C"


def test_metrics_html_is_a_table_with_one_row_per_metric():
    page = codec.dump_metrics_html(rows())
    doc = etree.fromstring(page.encode())
    assert len(doc.xpath("/html/body/table/tr")) == 31
    assert doc.xpath("/html/body/table/tr[td='CPU load average']/td[2]/text()") == ["6.25 %"]
    assert doc.xpath("/html/body/table/tr[td='CPU temperature']/td[2]/text()") == ["NOT AVAILABLE"]
