"""An SLD declaring an external entity: GeoServer's entity resolver refuses it and the REST
call answers 500 ``Entity resolution disallowed for <uri>`` (a deliberate 500, in both
profiles); nothing is resolved, nothing stored."""

from __future__ import annotations

import pytest

from geoserver_emulator import Emulator

SLD = "application/vnd.ogc.sld+xml"


def sld(decl: bytes) -> bytes:
    return (
        b'<?xml version="1.0"?><!DOCTYPE x [' + decl + b"]>"
        b'<StyledLayerDescriptor version="1.0.0" xmlns="http://www.opengis.net/sld">'
        b"<NamedLayer><Name>&e;</Name><UserStyle><Name>s</Name></UserStyle></NamedLayer>"
        b"</StyledLayerDescriptor>"
    )


@pytest.mark.parametrize("profile", ["spec", "geoserver"])
@pytest.mark.parametrize(
    ("decl", "uri"),
    [
        (b'<!ENTITY e SYSTEM "file:///etc/passwd">', "file:///etc/passwd"),
        (b"<!ENTITY e SYSTEM 'http://example.com/x'>", "http://example.com/x"),
        (b'<!ENTITY e PUBLIC "-//X//EN" "http://example.com/y.dtd">', "http://example.com/y.dtd"),
    ],
)
@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", "/rest/styles"),
        ("POST", "/rest/workspaces/topp/styles"),
        ("PUT", "/rest/styles/point"),
    ],
)
def test_external_entity_is_geoservers_500(client_for, profile, decl, uri, method, path):
    emu = Emulator("stock", profile=profile)
    client = client_for(emulator=emu)
    before = client.get("/rest/styles.json").json(), client.get("/rest/styles/point.sld").text
    r = client.request(method, path, content=sld(decl), headers={"Content-Type": SLD})
    assert (r.status_code, r.text) == (500, f"Entity resolution disallowed for {uri}")
    assert "root:" not in r.text
    assert (
        client.get("/rest/styles.json").json(),
        client.get("/rest/styles/point.sld").text,
    ) == before
    assert emu.internal_errors == []


def test_an_internal_entity_is_still_refused_with_400(client):
    r = client.post(
        "/rest/styles", content=sld(b'<!ENTITY e "inline">'), headers={"Content-Type": SLD}
    )
    assert r.status_code == 400 and "DOCTYPE" in r.text
