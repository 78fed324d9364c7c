"""The undo log against an oracle: successful and refused writes of many kinds, interleaved at
random; before each write a deep copy of the whole state is taken, and after each write that
does not end in 2xx the state must equal it (every store, key order included).

Refusals come three ways: the write's own (a name taken, a missing object, a bad body), an
answer format refused after the work is done (``?format=abc``, 406), and sabotage: the
fully applied write fails as its 2xx answer starts (an exception in the app), so every
change each kind of write makes must be undone. A store, a model or a mutation path the
log misses shows up here as a difference. At the end the state must hold nothing the log
cannot see (``core.tracking.untracked``)."""

from __future__ import annotations

import asyncio
import io
import json
import pickle
import zipfile
from collections.abc import Callable
from typing import Any

import httpx
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, rule
from PIL import Image
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from geoserver_emulator import Emulator
from geoserver_emulator.core.state import STORES
from geoserver_emulator.core.tracking import untracked
from geoserver_emulator.http.rollback import RollbackMiddleware

BASE = "http://localhost:8080/geoserver"
ADMIN = ("admin", "geoserver")
NAMES = ["a", "b"]
"""a small pool: creations, updates and deletions of the same names meet"""


def _zip(files: dict[str, bytes | str]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    return buf.getvalue()


def _png() -> bytes:
    buf = io.BytesIO()
    Image.new("L", (4, 4)).save(buf, format="PNG")
    return buf.getvalue()


SLD = b"""<?xml version="1.0" encoding="UTF-8"?>
<StyledLayerDescriptor version="1.0.0" xmlns="http://www.opengis.net/sld"
  xmlns:ogc="http://www.opengis.net/ogc"><NamedLayer><Name>x</Name><UserStyle><Title>t</Title>
  <FeatureTypeStyle><Rule><PointSymbolizer/></Rule></FeatureTypeStyle></UserStyle></NamedLayer>
</StyledLayerDescriptor>"""
MOSAIC = _zip({"g.png": _png(), "g.pgw": "1.0\n0.0\n0.0\n-1.0\n0.5\n9.5\n"})
PROVIDER = "org.geoserver.security.auth.UsernamePasswordAuthenticationProvider"
INSERT = (
    '<Transaction xmlns="http://www.opengis.net/wfs" service="WFS" version="1.1.0">'
    '<Insert><roads xmlns="http://www.openplans.org/spearfish"><label>x</label></roads>'
    "</Insert></Transaction>"
)
Body = Callable[[str], Any]
WRITES: list[tuple[str, str, Body | None, str]] = [
    ("POST", "/rest/workspaces", lambda n: {"workspace": {"name": f"w{n}"}}, "json"),
    ("PUT", "/rest/workspaces/w{n}", lambda n: {"workspace": {"name": f"w{n}x"}}, "json"),
    ("DELETE", "/rest/workspaces/w{n}?recurse=true", None, ""),
    ("DELETE", "/rest/workspaces/tiger?recurse=true", None, ""),
    (
        "POST",
        "/rest/namespaces",
        lambda n: {"namespace": {"prefix": f"n{n}", "uri": f"u:{n}"}},
        "json",
    ),
    (
        "POST",
        "/rest/workspaces/sf/datastores",
        lambda n: {
            "dataStore": {
                "name": f"d{n}",
                "connectionParameters": {"entry": [{"@key": "dbtype", "$": "postgis"}]},
            }
        },
        "json",
    ),
    (
        "PUT",
        "/rest/workspaces/sf/datastores/sf",
        lambda n: {
            "dataStore": {
                "description": n,
                "connectionParameters": {"entry": [{"@key": "k", "$": n}]},
            }
        },
        "json",
    ),
    ("DELETE", "/rest/workspaces/sf/datastores/d{n}?recurse=true", None, ""),
    (
        "POST",
        "/rest/workspaces/sf/datastores/sf/featuretypes",
        lambda n: {"featureType": {"name": f"f{n}", "nativeName": "roads"}},
        "json",
    ),
    (
        "PUT",
        "/rest/workspaces/sf/datastores/sf/featuretypes/roads",
        lambda n: {
            "featureType": {
                "title": n,
                "keywords": {"string": [n, "k"]},
                "metadata": {"entry": [{"@key": "cachingEnabled", "$": "true"}]},
            }
        },
        "json",
    ),
    ("DELETE", "/rest/workspaces/sf/datastores/sf/featuretypes/f{n}?recurse=true", None, ""),
    (
        "PUT",
        "/rest/layers/sf:roads",
        lambda n: {
            "layer": {"defaultStyle": {"name": "line"}, "styles": {"style": [{"name": "polygon"}]}}
        },
        "json",
    ),
    ("PUT", "/rest/layers/sf:f{n}", lambda n: {"layer": {"enabled": False}}, "json"),
    ("DELETE", "/rest/layers/sf:f{n}", None, ""),
    ("DELETE", "/rest/layers/sf:roads?recurse=true", None, ""),
    (
        "POST",
        "/rest/layergroups",
        lambda n: {
            "layerGroup": {
                "name": f"g{n}",
                "layers": {"layer": [{"name": "sf:roads"}, {"name": "sf:streams"}]},
            }
        },
        "json",
    ),
    ("PUT", "/rest/layergroups/g{n}", lambda n: {"layerGroup": {"title": n}}, "json"),
    ("DELETE", "/rest/layergroups/g{n}", None, ""),
    (
        "POST",
        "/rest/styles",
        lambda n: {"style": {"name": f"s{n}", "filename": f"s{n}.sld"}},
        "json",
    ),
    ("PUT", "/rest/styles/s{n}", lambda n: SLD, "application/vnd.ogc.sld+xml"),
    ("PUT", "/rest/styles/line", lambda n: SLD, "application/vnd.ogc.sld+xml"),
    ("DELETE", "/rest/styles/s{n}?purge=true", None, ""),
    (
        "POST",
        "/rest/security/usergroup/users",
        lambda n: {"user": {"userName": f"u{n}", "password": "p", "enabled": True}},
        "json",
    ),
    ("DELETE", "/rest/security/usergroup/user/u{n}", None, ""),
    ("POST", "/rest/security/usergroup/group/G{n}", None, ""),
    ("POST", "/rest/security/roles/role/R{n}", None, ""),
    ("POST", "/rest/security/roles/role/R{n}/user/admin", None, ""),
    ("DELETE", "/rest/security/roles/role/R{n}", None, ""),
    ("POST", "/rest/security/acl/layers", lambda n: {f"w{n}.*.r": "ROLE_X"}, "json"),
    ("DELETE", "/rest/security/acl/layers/w{n}.*.r", None, ""),
    ("PUT", "/rest/security/acl/catalog", lambda n: {"mode": "MIXED"}, "json"),
    ("PUT", "/rest/settings", lambda n: {"global": {"settings": {"numDecimals": len(n)}}}, "json"),
    (
        "PUT",
        "/rest/services/wms/settings",
        lambda n: {"wms": {"enabled": True, "title": n}},
        "json",
    ),
    (
        "PUT",
        "/rest/services/wfs/workspaces/sf/settings",
        lambda n: {"wfs": {"enabled": True, "title": n}},
        "json",
    ),
    (
        "POST",
        "/rest/urlchecks",
        lambda n: {"regexUrlCheck": {"name": f"c{n}", "regex": "^x$", "enabled": True}},
        "json",
    ),
    ("DELETE", "/rest/urlchecks/c{n}", None, ""),
    (
        "POST",
        "/rest/security/authproviders",
        lambda n: {
            "authprovider": {
                "name": f"p{n}",
                "className": PROVIDER,
                "userGroupServiceName": "default",
            }
        },
        "json",
    ),
    ("DELETE", "/rest/security/authproviders/p{n}", None, ""),
    (
        "POST",
        "/gwc/rest/seed/topp:states.json",
        lambda n: {
            "seedRequest": {
                "name": "topp:states",
                "gridSetId": "EPSG:4326",
                "zoomStart": 0,
                "zoomStop": 3,
                "type": "seed",
                "threadCount": 2,
                "format": "image/png",
            }
        },
        "json",
    ),
    ("POST", "/gwc/rest/seed", lambda n: b"kill_all=all", "application/x-www-form-urlencoded"),
    (
        "PUT",
        "/gwc/rest/layers/topp:states",
        lambda n: {
            "GeoServerLayer": {"name": "topp:states", "enabled": True, "expireCache": len(n)}
        },
        "json",
    ),
    ("DELETE", "/gwc/rest/layers/sf:roads", None, ""),
    (
        "POST",
        "/gwc/rest/masstruncate",
        lambda n: {"truncateLayer": {"layerName": "topp:states"}},
        "json",
    ),
    (
        "PUT",
        "/rest/workspaces/sf/coveragestores/m{n}/file.imagemosaic",
        lambda n: MOSAIC,
        "application/zip",
    ),
    ("DELETE", "/rest/workspaces/sf/coveragestores/m{n}?recurse=true", None, ""),
    ("PUT", "/rest/resource/data/x{n}.txt", lambda n: n.encode() * 3, "text/plain"),
    ("DELETE", "/rest/resource/data/x{n}.txt", None, ""),
    ("POST", "/wfs", lambda n: INSERT, "application/xml"),
    ("POST", "/__emulator/clock/advance?seconds=2", None, ""),
    ("POST", "/__emulator/scheduler/drain", None, ""),
    ("PUT", "/__emulator/remote?url=http://r{n}.example.com/x", lambda n: n.encode(), "text/plain"),
]


class Sabotage:
    """Between the rollback and the app: when armed, the app's 2xx answer fails as it starts
    (after the whole write is done), so the rollback must undo all of it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.armed = False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not self.armed:
            await self.app(scope, receive, send)
            return

        async def failing(message: Message) -> None:
            if message["type"] == "http.response.start" and 200 <= message["status"] < 300:
                raise RuntimeError("sabotaged after the write was done")
            await send(message)

        await self.app(scope, receive, failing)


def _find_rollback(app: Any) -> RollbackMiddleware:
    while not isinstance(app, RollbackMiddleware):
        app = app.app
    return app


def oracle(emu: Emulator) -> list[bytes]:
    """A deep copy of every store (pickled, then pickled again from its unpickled copy, so
    that equal stores give equal bytes whatever strings they share; key order counts)."""
    return [pickle.dumps(pickle.loads(pickle.dumps(getattr(emu.state, n), 5)), 5) for n in STORES]


class UndoMachine(RuleBasedStateMachine):
    @initialize()
    def start(self) -> None:
        self.emu = Emulator("stock", clock="manual")
        self.refused = 0
        self.kept = 0
        app = self.emu.asgi_app
        self.send_sync("GET", "/rest/about/version.json", b"", "")  # builds the middleware stack
        rollback = _find_rollback(app.middleware_stack)
        self.sabotage = Sabotage(rollback.app)
        rollback.app = self.sabotage

    def send_sync(self, method: str, url: str, body: bytes, ctype: str) -> httpx.Response:
        async def run() -> httpx.Response:
            transport = httpx.ASGITransport(app=self.emu.asgi_app, raise_app_exceptions=False)
            async with httpx.AsyncClient(transport=transport, base_url=BASE, auth=ADMIN) as c:
                headers = {"Content-Type": ctype} if ctype else {}
                return await c.request(method, url, content=body, headers=headers)

        return asyncio.run(run())

    @rule(
        write=st.sampled_from(WRITES),
        name=st.sampled_from(NAMES),
        how=st.sampled_from(["keep", "keep", "keep", "sabotage", "format"]),
    )
    def write(self, write: tuple[str, str, Body | None, str], name: str, how: str) -> None:
        method, path, make, kind = write
        url = path.replace("{n}", name)
        if how == "format":
            url += ("&" if "?" in url else "?") + "format=abc"
        value = make(name) if make else None
        body = json.dumps(value).encode() if kind == "json" else value or b""
        body = body.encode() if isinstance(body, str) else body
        ctype = "application/json" if kind == "json" else kind
        before = oracle(self.emu)
        self.sabotage.armed = how == "sabotage"
        try:
            r = self.send_sync(method, url, body, ctype)
        finally:
            self.sabotage.armed = False
        if 200 <= r.status_code < 300:
            self.kept += 1
            return
        self.refused += 1
        assert oracle(self.emu) == before, f"{how} {method} {url} -> {r.status_code} changed it"

    @rule()
    def reset(self) -> None:
        """Back to the baseline: the stores wait to be unpickled, inside the next write."""
        self.emu.reset()

    def teardown(self) -> None:
        if hasattr(self, "emu"):
            from shapely.geometry.base import BaseGeometry

            stores = [getattr(self.emu.state, n) for n in STORES]
            assert not untracked(stores, (BaseGeometry,)), "objects the log cannot see"


UndoMachine.TestCase.settings = settings(
    max_examples=25,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_refused_writes_leave_the_state_as_the_oracle_copy = UndoMachine.TestCase


def test_a_deep_value_in_a_body_breaks_no_later_write(client):
    """A disk-quota PUT with a 900-deep unknown field once made every later write a 500 (the
    undo record pickled the stores): accepted or refused at parse time, writes after it,
    kept and refused, still work."""
    deep: object = "x"
    for _ in range(900):
        deep = {"k": deep}
    current = client.get("/gwc/rest/diskquota.json").json()
    ((_, fields),) = current.items()  # the one root, whatever GWC names it
    fields["unknownDeep"] = deep
    body = json.dumps(current).encode()
    headers = {"Content-Type": "application/json"}
    r = client.put("/gwc/rest/diskquota.json", content=body, headers=headers)
    assert r.status_code in (200, 400), r.text  # kept (the unknown field dropped), or refused
    for _ in range(2):
        r = client.post("/rest/workspaces", json={"workspace": {"name": "later"}})
        assert r.status_code in (201, 409), r.text  # the second: already there
        refused = client.put("/rest/styles/polygon", content=b"<nope", headers=headers)
        assert refused.status_code == 400
    assert client.get("/rest/workspaces/later.json").status_code == 200
