"""The services follow the settings written through REST (the settings area's store)."""

from __future__ import annotations

from lxml import etree

NS = {"wms": "http://www.opengis.net/wms"}
CAPS = {"service": "WMS", "request": "GetCapabilities", "version": "1.3.0"}


def test_wms_settings_put_through_rest_change_the_capabilities(client, anon):
    r = client.put(
        "/rest/services/wms/settings",
        json={"wms": {"title": "Published maps", "abstrct": "What we publish"}},
    )
    assert r.status_code == 200, r.text
    root = etree.fromstring(anon.get("/wms", params=CAPS).content)
    assert root.findtext("wms:Service/wms:Title", namespaces=NS) == "Published maps"
    assert root.findtext("wms:Service/wms:Abstract", namespaces=NS) == "What we publish"


def test_contact_put_through_rest_changes_the_capabilities(client, anon):
    r = client.put("/rest/settings/contact", json={"contact": {"contactPerson": "Ada"}})
    assert r.status_code == 200, r.text
    root = etree.fromstring(anon.get("/wms", params=CAPS).content)
    assert root.findtext(".//wms:ContactPerson", namespaces=NS) == "Ada"


def test_a_disabled_wms_answers_service_unavailable(client, anon, h):
    r = client.put("/rest/services/wms/settings", json={"wms": {"enabled": False}})
    assert r.status_code == 200, r.text
    code, _, text = h.exception(anon.get("/wms", params=CAPS))
    assert (code, text) == ("ServiceUnavailable", "Service WMS is disabled")


def test_a_workspace_service_configuration(client, anon):
    r = client.put(
        "/rest/services/wms/workspaces/topp/settings", json={"wms": {"title": "Topp maps"}}
    )
    assert r.status_code == 200, r.text
    topp = etree.fromstring(anon.get("/topp/wms", params=CAPS).content)
    assert topp.findtext("wms:Service/wms:Title", namespaces=NS) == "Topp maps"
    root = etree.fromstring(anon.get("/wms", params=CAPS).content)
    assert root.findtext("wms:Service/wms:Title", namespaces=NS) != "Topp maps"
