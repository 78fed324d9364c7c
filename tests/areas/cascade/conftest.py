"""Fixtures of the cascade tests: the stock emulator with remote servers registered."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

PAYLOADS = Path(__file__).resolve().parents[2] / "payloads" / "cascade"
WMS_URL = "http://maps.example.com/geoserver/wms?REQUEST=GetCapabilities&VERSION=1.3.0&SERVICE=WMS"
WMTS_URL = "http://tiles.example.com/gwc?REQUEST=GetCapabilities&VERSION=1.0.0&SERVICE=WMTS"


def payload(name: str) -> bytes:
    return (PAYLOADS / name).read_bytes()


def register(client: httpx.Client, url: str, name: str) -> None:
    r = client.put("/__emulator/remote", params={"url": url}, content=payload(name))
    assert r.status_code == 204, r.text


@pytest.fixture
def remote(client: httpx.Client) -> httpx.Client:
    """An administrator's client, with a WMS store ``sf:demo`` over a registered WMS 1.3.0
    server, holding the layer ``states`` (native name ``topp:states``), and a WMTS store
    ``sf:tiles`` over a registered WMTS server."""
    register(client, WMS_URL, "wms130.xml")
    register(client, WMTS_URL, "wmts100.xml")
    xml = {"Content-Type": "application/xml"}
    url = WMS_URL.replace("&", "&amp;")
    body = f"<wmsStore><name>demo</name><capabilitiesURL>{url}</capabilitiesURL></wmsStore>"
    assert (
        client.post("/rest/workspaces/sf/wmsstores", content=body, headers=xml).status_code == 201
    )
    body = "<wmsLayer><name>states</name><nativeName>topp:states</nativeName></wmsLayer>"
    r = client.post("/rest/workspaces/sf/wmsstores/demo/wmslayers", content=body, headers=xml)
    assert r.status_code == 201, r.text
    url = WMTS_URL.replace("&", "&amp;")
    body = f"<wmtsStore><name>tiles</name><capabilitiesURL>{url}</capabilitiesURL></wmtsStore>"
    assert (
        client.post("/rest/workspaces/sf/wmtsstores", content=body, headers=xml).status_code == 201
    )
    return client
