"""Bad input across the foundation: a clear 4xx with a message, state unchanged, no 500."""

from __future__ import annotations

import pytest

from geoserver_emulator import Emulator

USERS = "/rest/security/usergroup/users"
ADMIN = ("admin", "geoserver")


def _snapshot(emu: Emulator) -> dict:
    return emu.dump_scenario()


@pytest.mark.parametrize(
    ("content", "ctype", "status", "says"),
    [
        ("<user><userName>x</userName>", "application/xml", 400, "Malformed"),
        ("<user>&undefined;</user>", "application/xml", 400, "Malformed"),
        (
            '<!DOCTYPE user SYSTEM "http://example.com/user.dtd"><user/>',
            "application/xml",
            400,
            "DOCTYPE",
        ),
        (
            '<!DOCTYPE u [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><user>&b;</user>',
            "text/xml",
            400,
            "DOCTYPE",
        ),
        (
            '<?xml version="1.0"?><!DOCTYPE u [<!ENTITY x SYSTEM "file:///etc/passwd">]><user>&x;</user>',
            "text/xml",
            400,
            "DOCTYPE",
        ),
        ("\xff\xfe<user/>", "application/xml", 400, ""),
        ('{"user": {"userName": "x",}}', "application/json", 400, "Malformed"),
        ('{"user": NaN}', "application/json", 400, "Malformed"),
        ("[" * 100_000, "application/json", 400, "Malformed"),
        ("<user/>", "text/csv", 415, "text/csv"),
        ("<user/>", "multipart/form-data; boundary=x", 415, "multipart/form-data"),
        ("<user/>", "", 415, "(none)"),
    ],
)
def test_malformed_and_unsupported_bodies(emu, client, content, ctype, status, says):
    before = _snapshot(emu)
    headers = {"Content-Type": ctype} if ctype else {}
    r = client.post(
        USERS,
        content=content.encode("latin-1") if "\xff" in content else content.encode(),
        headers=headers,
    )
    assert r.status_code == status, r.text
    assert r.text and says in r.text
    assert r.headers["content-type"].startswith("text/plain")
    assert "Traceback" not in r.text
    assert _snapshot(emu) == before


def test_deeply_nested_xml_is_refused(emu, client):
    body = "<user>" + "<a>" * 5000 + "</a>" * 5000 + "</user>"
    r = client.post(USERS, content=body, headers={"Content-Type": "application/xml"})
    assert r.status_code == 400


@pytest.mark.parametrize(
    ("accept", "status"),
    [
        ("text/html", 406),
        ("image/png, text/plain;q=0.5", 406),
        ("application/xml;q=0", 406),
        ("application/json;q=0.5, application/xml;q=0.9", 200),
        ("text/*", 200),
        ("*/*;q=0.1, application/json", 200),
    ],
)
def test_accept(client, accept, status):
    r = client.get(USERS, headers={"Accept": accept})
    assert r.status_code == status
    if status == 406:
        assert r.text


def test_accept_picks_the_preferred_format(client):
    assert (
        client.get(
            USERS, headers={"Accept": "application/json;q=0.5, application/xml;q=0.9"}
        ).headers["content-type"]
        == "application/xml"
    )
    assert (
        client.get(USERS, headers={"Accept": "*/*;q=0.1, application/json"}).headers["content-type"]
        == "application/json"
    )


@pytest.mark.parametrize(
    ("value", "status", "ctype"),
    [
        ("json", 200, "application/json"),
        ("XML", 200, "application/xml"),
        ("yaml", 406, None),
        ("html", 406, None),
    ],
)
def test_format_query_parameter(client, value, status, ctype):
    r = client.get(USERS, params={"format": value})
    assert r.status_code == status
    if ctype:
        assert r.headers["content-type"] == ctype


def test_path_extension_beats_format_parameter_and_accept(client):
    r = client.get(f"{USERS}.json", params={"format": "xml"}, headers={"Accept": "application/xml"})
    assert r.headers["content-type"] == "application/json"


# -- the body cap --------------------------------------------------------------------------


@pytest.fixture
def small() -> Emulator:
    return Emulator("stock", max_body=256)


def _user_xml(padding: int) -> bytes:
    return (
        "<user><userName>big</userName><password>"
        + "p" * padding
        + "</password><enabled>true</enabled></user>"
    ).encode()


def test_body_over_the_cap_with_content_length(small, client_for):
    c = client_for(emulator=small)
    r = c.post(USERS, content=_user_xml(1000), headers={"Content-Type": "application/xml"})
    assert r.status_code == 413 and "256" in r.text
    assert "big" not in small.state.users.service().users
    assert (
        c.post(
            USERS, content=_user_xml(10), headers={"Content-Type": "application/xml"}
        ).status_code
        == 201
    )


def test_body_over_the_cap_streamed(small, client_for):
    c = client_for(emulator=small)

    def chunks():
        body = _user_xml(1000)
        for i in range(0, len(body), 100):
            yield body[i : i + 100]

    r = c.post(USERS, content=chunks(), headers={"Content-Type": "application/xml"})
    assert "content-length" not in {k.lower() for k in r.request.headers}
    assert r.status_code == 413
    assert "big" not in small.state.users.service().users


def test_body_cap_via_asgi():
    """The cap holds on the ASGI app itself, for a body that arrives in pieces."""
    import asyncio
    import base64

    emu = Emulator("stock", max_body=256)
    pieces = [b"<user>" + b" " * 100 for _ in range(20)]
    sent: list[dict] = []

    async def receive() -> dict:
        if pieces:
            return {"type": "http.request", "body": pieces.pop(0), "more_body": True}
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/geoserver" + USERS,
        "raw_path": b"",
        "root_path": "",
        "query_string": b"",
        "server": ("x", 80),
        "client": ("127.0.0.1", 1),
        "headers": [
            (b"authorization", b"Basic " + base64.b64encode(b"admin:geoserver")),
            (b"content-type", b"application/xml"),
        ],
    }
    asyncio.run(emu.asgi_app(scope, receive, send))
    assert sent[0]["status"] == 413
    assert len(pieces) > 15  # refused early, not after reading everything
    assert not emu.internal_errors


# -- paths, methods, query values ----------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/rest/nothing",
        "/rest/security/usergroup",
        "/rest/security/usergroup/user",
        "/gwc/rest/nothing",
        "/__emulator/nothing",
    ],
)
def test_unknown_paths_are_404_with_a_message(client, path):
    """(``/rest`` itself is GeoServer's REST index: ``tests/http/test_rest_index.py``.)"""
    r = client.get(path)
    assert r.status_code == 404 and r.text


def test_control_plane_bad_query_is_400_json(emu, client):
    r = client.post("/__emulator/clock/advance", params={"seconds": "soon"})
    assert r.status_code == 400 and "soon" in r.json()["error"]
    assert emu.clock.now() == 0.0


def test_unknown_query_parameters_are_ignored_as_geoserver_does(client):
    assert client.get(USERS, params={"whatever": "1"}).status_code == 200


def test_garbage_authorization_headers(anon):
    for header in [
        "Bearer abc",
        "Basic",
        "Basic " + "!" * 10,
        "Basic YWRtaW4=",
        "Basic " + "w" * 3,
    ]:
        r = anon.get(USERS, headers={"Authorization": header})
        assert r.status_code == 401, header
