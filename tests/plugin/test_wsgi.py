"""The WSGI callable over the ASGI app, through the clients downstream users pair it with."""

from __future__ import annotations

import asyncio
import io
import threading

import httpx
import pytest
import requests
from werkzeug.test import Client as WerkzeugClient

from geoserver_emulator import Emulator
from geoserver_emulator.http.wsgi import WSGIApp
from geoserver_emulator_pytest.requests_adapter import BaseURLSession, WSGIAdapter

AUTH = ("admin", "geoserver")


@pytest.fixture
def emu() -> Emulator:
    return Emulator("empty")


def test_httpx_wsgi_transport(emu):
    with httpx.Client(
        transport=httpx.WSGITransport(app=emu.wsgi_app), base_url="http://h/geoserver"
    ) as c:
        r = c.get("/__emulator/health", auth=AUTH)
        assert r.status_code == 200 and r.json()["status"] == "ok"
        r = c.post(
            "/rest/a?x=1", content=b"body", headers={"Content-Type": "text/plain"}, auth=AUTH
        )
    assert r.status_code == 404
    e = emu.journal.last
    assert (e.method, e.path, e.query, e.body, e.content_type) == (
        "POST",
        "/rest/a",
        "x=1",
        b"body",
        "text/plain",
    )


def test_werkzeug_test_client(emu):
    c = WerkzeugClient(emu.wsgi_app)
    r = c.get("/geoserver/rest/a")
    assert r.status_code == 401 and r.headers["WWW-Authenticate"] == 'Basic realm="GeoServer Realm"'
    r = c.get(
        "/geoserver/__emulator/health", headers={"Authorization": "Basic YWRtaW46Z2Vvc2VydmVy"}
    )
    assert r.status_code == 200 and r.json["profile"] == "spec"


def test_requests_through_the_wsgi_adapter(emu):
    s = requests.Session()
    s.mount("http://emulator/", WSGIAdapter(emu.wsgi_app))
    r = s.get("http://emulator/geoserver/__emulator/health", auth=AUTH)
    assert r.status_code == 200 and r.json()["clock"] == "manual" and r.reason == "OK"
    r = s.put("http://emulator/geoserver/rest/b", data="é", auth=AUTH)
    assert r.status_code == 404 and emu.journal.last.body == "é".encode()


def test_base_url_session_joins_relative_urls(emu):
    s = BaseURLSession("http://emulator/geoserver/")
    s.mount("http://emulator/", WSGIAdapter(emu.wsgi_app))
    s.get("/rest/x", auth=AUTH)
    s.get("rest/y", auth=AUTH)
    s.get("http://emulator/geoserver/rest/z", auth=AUTH)
    assert [e.path for e in emu.journal] == ["/rest/x", "/rest/y", "/rest/z"]


def test_raw_path_survives_when_the_server_passes_it(emu):
    seen = {}

    async def app(scope, receive, send):
        seen.update(path=scope["path"], raw=scope["raw_path"])
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    wsgi = WSGIApp(app)
    environ = {
        "REQUEST_METHOD": "DELETE",
        "PATH_INFO": "/r//**:GET",
        "RAW_URI": "/r/%2F**:GET",
        "wsgi.input": io.BytesIO(),
    }
    assert b"".join(wsgi(environ, lambda *a: None)) == b""
    assert seen == {"path": "/r//**:GET", "raw": b"/r/%2F**:GET"}
    wsgi(dict(environ, RAW_URI=None), lambda *a: None)
    assert seen["raw"] == b"/r//**:GET"  # re-quoted from PATH_INFO: the %2F is lost


def test_input_without_content_length_is_read_whole(emu):
    environ = {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": "/geoserver/rest/c",
        "wsgi.input": io.BytesIO(b"chunked body"),
        "HTTP_AUTHORIZATION": "Basic YWRtaW46Z2Vvc2VydmVy",
    }
    statuses = []
    emu.wsgi_app(environ, lambda status, headers: statuses.append(status))
    assert statuses == ["404 Not Found"] and emu.journal.last.body == b"chunked body"


def test_works_from_inside_a_running_event_loop(emu):
    async def main():
        with httpx.Client(transport=httpx.WSGITransport(app=emu.wsgi_app)) as c:
            return c.get("http://h/geoserver/__emulator/health", auth=AUTH).status_code

    assert asyncio.run(main()) == 200


def test_threads_are_served_one_at_a_time(emu):
    errors: list[BaseException] = []

    def hit():
        try:
            with httpx.Client(transport=httpx.WSGITransport(app=emu.wsgi_app), auth=AUTH) as c:
                for _ in range(20):
                    assert c.get("http://h/geoserver/rest/t").status_code == 404
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=hit) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(emu.journal) == 80


def test_app_that_never_answers_looks_like_a_reset_connection():
    async def silent(scope, receive, send):
        return None

    with pytest.raises(ConnectionResetError):
        WSGIApp(silent)({"REQUEST_METHOD": "GET", "PATH_INFO": "/"}, lambda *a: None)


def test_closed_adapter_refuses_calls(emu):
    wsgi = WSGIApp(emu.asgi_app)
    wsgi.close()
    with pytest.raises(RuntimeError, match="closed"):
        wsgi({"REQUEST_METHOD": "GET", "PATH_INFO": "/"}, lambda *a: None)
