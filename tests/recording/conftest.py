"""Fixtures for the recording tests: an upstream emulator on a live server (standing in for a
real GeoServer), a recording proxy in front of it, and a run of requests to record."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from geoserver_emulator import Emulator
from geoserver_emulator.http.server import LiveServer
from geoserver_emulator.recording.recorder import RecordingProxy

ADMIN = ("admin", "geoserver")
USER_PASSWORD = "Tr0ub4dor&3-bob"
MASTER_PASSWORD = "N3w-Master!pw"
CLIENT_SECRET = "s3cr3t-client-value"
SECRETS = (USER_PASSWORD, MASTER_PASSWORD, CLIENT_SECRET)
"""distinctive credentials the run uses; none may appear in a cassette"""

SLD = b"""<?xml version="1.0" encoding="UTF-8"?>
<StyledLayerDescriptor version="1.0.0" xmlns="http://www.opengis.net/sld"
    xmlns:ogc="http://www.opengis.net/ogc">
  <NamedLayer><Name>recorded</Name><UserStyle><Title>Recorded</Title><FeatureTypeStyle><Rule>
    <PointSymbolizer><Graphic><Mark><WellKnownName>circle</WellKnownName></Mark><Size>6</Size>
    </Graphic></PointSymbolizer></Rule></FeatureTypeStyle></UserStyle></NamedLayer>
</StyledLayerDescriptor>
"""

OAUTH_FILTER = {
    "org.geoserver.security.oauth2.GeoServerOAuth2FilterConfig": {
        "name": "oauth",
        "className": "org.geoserver.security.oauth2.GeoServerOAuth2AuthenticationFilter",
        "clientId": "my-client",
        "clientSecret": CLIENT_SECRET,
        "accessTokenUri": "https://auth.example.com/token",
        "userAuthorizationUri": "https://auth.example.com/authorize",
        "redirectUri": "https://app.example.com/callback",
    }
}


@pytest.fixture
def upstream() -> Iterator[tuple[Emulator, str]]:
    """A second emulator on a live server: the "real" GeoServer being recorded."""
    emu = Emulator("stock")
    server = LiveServer(emu.asgi_app).start()
    try:
        yield emu, server.url(emu.context_path)
    finally:
        server.stop()


@pytest.fixture
def proxy(upstream: tuple[Emulator, str], tmp_path: Path) -> Iterator[tuple[RecordingProxy, str]]:
    """A recording proxy in front of ``upstream``, writing ``tmp_path/run.jsonl``."""
    rec = RecordingProxy(upstream[1], tmp_path / "run.jsonl")
    server = LiveServer(rec.app).start()
    try:
        yield rec, server.url(rec.context_path)
    finally:
        server.stop()
        rec.close()


def run_requests(base_url: str) -> list[httpx.Response]:
    """A client's run against a server: styles, seeding, security, URL checks, users.

    Areas the emulator does not serve yet answer 404; they are recorded all the same.
    """
    answers = []
    with httpx.Client(base_url=base_url, auth=ADMIN, timeout=30) as c:
        answers += [
            c.post(
                "/rest/styles",
                content=SLD,
                params={"name": "recorded"},
                headers={"Content-Type": "application/vnd.ogc.sld+xml"},
            ),
            c.get("/rest/styles.json"),
            c.put("/rest/security/acl/catalog.json", json={"mode": "MIXED"}),
            c.post("/rest/security/acl/layers.json", json={"topp.*.r": "ROLE_AUTHOR"}),
            c.get("/rest/security/acl/layers.xml"),
            c.post(
                "/rest/urlchecks",
                json={
                    "regexUrlCheck": {
                        "name": "icons",
                        "description": "icons",
                        "enabled": True,
                        "regex": "^https://icons\\.example\\.com/.*$",
                    }
                },
            ),
            c.get("/rest/urlchecks.xml"),
            c.get("/rest/urlchecks/icons.json"),
            c.get("/rest/urlchecks/missing.json"),
            c.post(
                "/rest/security/usergroup/users",
                json={"user": {"userName": "bob", "password": USER_PASSWORD, "enabled": True}},
            ),
            c.post("/rest/security/authfilters.json", json=OAUTH_FILTER),
            c.get("/rest/security/authfilters/oauth.json"),
            c.post(
                "/gwc/rest/seed/ne:coastlines.json",
                json={
                    "seedRequest": {
                        "name": "ne:coastlines",
                        "gridSetId": "EPSG:4326",
                        "zoomStart": 0,
                        "zoomStop": 2,
                        "format": "image/png",
                        "type": "seed",
                        "threadCount": 1,
                    }
                },
            ),
            c.get("/gwc/rest/seed/ne:coastlines.json"),
            c.get("/gwc/rest/layers/ne:coastlines.xml"),
            c.put(
                "/rest/security/masterpw.json",
                json={"oldMasterPassword": "geoserver", "newMasterPassword": MASTER_PASSWORD},
            ),
            c.get("/rest/security/masterpw.json"),
        ]
    return answers


def cassette_text(path: Path) -> str:
    """Everything a cassette wrote: the file and its side files, as text."""
    parts = [path.read_bytes()]
    side = path.with_name(path.stem + ".files")
    if side.is_dir():
        parts += [f.read_bytes() for f in sorted(side.iterdir())]
    return b"\n".join(parts).decode("utf-8", "replace")
