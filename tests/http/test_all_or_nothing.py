"""All-or-nothing writes: a request that does not end in 2xx leaves the whole state as it was
(``http/rollback.py``). The state is compared whole: every store, pickled."""

from __future__ import annotations

import asyncio
import io
import json
import pickle
import zipfile
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from geoserver_emulator import Emulator
from geoserver_emulator.core.state import STORES, State

BASE = "http://localhost:8080/geoserver"
ADMIN = ("admin", "geoserver")

TEMPLATES: list[tuple[str, str, Any]] = [
    ("POST", "/rest/workspaces", {"workspace": {"name": "w1"}}),
    ("PUT", "/rest/workspaces/sf", {"workspace": {"name": "sf2"}}),
    ("DELETE", "/rest/workspaces/sf", None),
    (
        "POST",
        "/rest/workspaces/sf/datastores",
        {"dataStore": {"name": "d1", "connectionParameters": {"entry": []}}},
    ),
    ("PUT", "/rest/workspaces/sf/datastores/sf", {"dataStore": {"enabled": False}}),
    ("POST", "/rest/workspaces/sf/datastores/sf/featuretypes", {"featureType": {"name": "x"}}),
    ("PUT", "/rest/layers/sf:roads", {"layer": {"defaultStyle": {"name": "line"}}}),
    ("DELETE", "/rest/layers/sf:roads", None),
    ("POST", "/rest/layergroups", {"layerGroup": {"name": "g1", "layers": {"layer": []}}}),
    ("POST", "/rest/styles", {"style": {"name": "s1", "filename": "s1.sld"}}),
    ("PUT", "/rest/styles/polygon", {"style": {"name": "polygon"}}),
    ("DELETE", "/rest/styles/polygon", None),
    ("POST", "/rest/security/usergroup/users", {"user": {"userName": "u", "password": "p"}}),
    ("POST", "/rest/security/roles/role/R1", None),
    ("POST", "/rest/security/acl/layers", {"*.*.r": "ROLE_X"}),
    ("PUT", "/rest/settings", {"global": {"settings": {"numDecimals": 4}}}),
    ("PUT", "/rest/services/wms/settings", {"wms": {"enabled": True}}),
    ("POST", "/rest/urlchecks", {"regexUrlCheck": {"name": "c", "regex": "x"}}),
    ("POST", "/rest/security/authproviders", {"authprovider": {"name": "p"}}),
    ("DELETE", "/rest/security/authproviders/default", None),
    ("POST", "/gwc/rest/seed/topp:states.json", {"seedRequest": {"name": "topp:states"}}),
    ("PUT", "/gwc/rest/layers/topp:states", {"GeoServerLayer": {"name": "topp:states"}}),
    ("POST", "/rest/workspaces/sf/coveragestores", {"coverageStore": {"name": "c1"}}),
    ("POST", "/wfs", None),  # a WFS Transaction, or whatever the body is
    ("POST", "/gwc/rest/masstruncate", None),
    ("PUT", "/rest/resource/data/x.txt", None),
]
WORLD = "1.0\n0.0\n0.0\n-1.0\n0.5\n9.5\n"
INDEXER = "Schema=*the_geom:Polygon,location:String\n"
QUERIES = ["", "?format=abc", "?recurse=true", "?recurse=maybe", "?configure=bogus", "?x=%00"]
LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.text(max_size=12),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=4), st.text(max_size=4), max_size=2),
)


def _mutate(value: Any, path: list[int], leaf: Any) -> Any:
    """``value`` with the node found by walking ``path`` (indexes into keys) replaced."""
    if not path or not isinstance(value, dict) or not value:
        return leaf
    keys = sorted(value)
    key = keys[path[0] % len(keys)]
    return {**value, key: _mutate(value[key], path[1:], leaf)}


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


MOSAIC = "/rest/workspaces/sf/coveragestores/m/"
UPLOADS: list[tuple[str, bytes, str]] = [
    # a granule with its world file; an index with no granule (500 in GeoServer); a host path
    (f"{MOSAIC}file.imagemosaic", _zip({"g.png": _png(), "g.pgw": WORLD}), "application/zip"),
    (f"{MOSAIC}file.imagemosaic", _zip({"indexer.properties": INDEXER}), "application/zip"),
    (f"{MOSAIC}external.imagemosaic", b"/etc", "text/plain"),
    (f"{MOSAIC}file.worldimage", _zip({"g.png": _png(), "g.pgw": WORLD}), "application/zip"),
]


@st.composite
def bad_requests(draw: st.DrawFn) -> tuple[str, str, bytes, str]:
    if draw(st.integers(0, 4)) == 0:  # an upload: valid or not, with a query to refuse
        path, body, ctype = draw(st.sampled_from(UPLOADS))
        return "PUT", path + draw(st.sampled_from(QUERIES)), body, ctype
    method, path, template = draw(st.sampled_from(TEMPLATES))
    query = draw(st.sampled_from(QUERIES))
    kind = draw(st.sampled_from(["mutated", "raw", "xml"]))
    if kind == "mutated" and template is not None:
        walk = draw(st.lists(st.integers(0, 5), max_size=3))
        body = json.dumps(_mutate(template, walk, draw(LEAVES))).encode()
        return method, path + query, body, "application/json"
    if kind == "xml":
        inner = draw(st.text(max_size=20)).replace("<", "&lt;").replace("&", "&amp;")
        return method, path + query, f"<x><name>{inner}</name>".encode(), "application/xml"
    return method, path + query, draw(st.binary(max_size=40)), "application/json"


def _client(emu: Emulator) -> httpx.Client:
    transport = httpx.WSGITransport(app=emu.wsgi_app)
    return httpx.Client(transport=transport, base_url=BASE, auth=ADMIN)


def _copy(emu: Emulator) -> list[bytes]:
    """A digest of the whole state: each store pickled on its own (a store's own ``==`` may
    be identity; a pickle of all of them together would also record which equal strings
    two stores happen to share). Each is pickled once more from its own unpickled copy: an
    unpickled store shares strings differently (attribute names are interned, other strings
    are not), so only that second pickle is the same for equal stores."""
    return [_canonical(getattr(emu.state, name)) for name in STORES]


def _canonical(value: object) -> bytes:
    return pickle.dumps(pickle.loads(pickle.dumps(value, 5)), 5)


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(requests=st.lists(bad_requests(), min_size=1, max_size=4))
def test_a_refused_write_changes_nothing(requests: list[tuple[str, str, bytes, str]]) -> None:
    """Whatever the answer, unexpected 500s included (other tests hunt those)."""
    emu = Emulator("stock")

    async def run() -> None:
        transport = httpx.ASGITransport(app=emu.asgi_app, raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url=BASE, auth=ADMIN) as client:
            for method, url, body, ctype in requests:
                before = _copy(emu)
                r = await client.request(method, url, content=body, headers={"Content-Type": ctype})
                if not 200 <= r.status_code < 300:
                    assert _copy(emu) == before, f"{method} {url} -> {r.status_code} changed it"

    asyncio.run(run())


def test_a_406_after_the_store_was_made_keeps_no_store(emu, client):
    """The answer's format is checked after the upload: the refusal still leaves nothing."""
    archive = _zip({"g.png": _png(), "g.pgw": WORLD})
    before = _copy(emu)
    r = client.put(
        "/rest/workspaces/sf/coveragestores/x/file.imagemosaic?format=abc",
        content=archive,
        headers={"Content-Type": "application/zip"},
    )
    assert r.status_code == 406, r.text
    assert _copy(emu) == before
    assert client.get("/rest/workspaces/sf/coveragestores/x.json").status_code == 404
    r = client.put(
        "/rest/workspaces/sf/coveragestores/x/file.imagemosaic",
        content=archive,
        headers={"Content-Type": "application/zip"},
    )
    assert r.status_code == 200, r.text  # the same upload, answered in a known format, stays
    assert client.get("/rest/workspaces/sf/coveragestores/x.json").status_code == 200


def test_an_exception_midway_keeps_nothing(emu, monkeypatch):
    """A 500 from an exception after part of the change was made: the part is undone."""
    from geoserver_emulator.areas.catalog import routes_workspaces

    def boom(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(routes_workspaces, "apply_fields", boom)
    before = _copy(emu)

    async def post() -> httpx.Response:
        transport = httpx.ASGITransport(app=emu.asgi_app, raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url=BASE, auth=ADMIN) as c:
            await c.post("/rest/workspaces", json={"workspace": {"name": "half"}})
            return await c.get("/rest/workspaces/half.json")

    assert asyncio.run(post()).status_code == 404
    assert emu.internal_errors and "boom" in emu.internal_errors[-1]
    assert _copy(emu) == before


def test_a_write_after_a_refusal_is_kept_and_reads_see_it(emu, client):
    assert (
        client.post(
            "/rest/workspaces", content=b"{", headers={"Content-Type": "application/json"}
        ).status_code
        == 400
    )
    assert client.post("/rest/workspaces", json={"workspace": {"name": "kept"}}).status_code == 201
    assert client.get("/rest/workspaces/kept.json").status_code == 200


def test_a_refusal_on_a_freshly_reset_state_leaves_it_lazy_and_equal(emu, client):
    """Stores not yet unpickled when the write began are unpickled again on first use."""
    before = _copy(emu)
    emu.reset()
    r = client.put(
        "/rest/styles/polygon", content=b"<nope", headers={"Content-Type": "application/xml"}
    )
    assert r.status_code == 400
    assert _copy(emu) == before
    assert client.get("/rest/styles/polygon.json").status_code == 200


@pytest.mark.parametrize("method", ["GET", "HEAD"])
def test_reads_are_not_guarded(emu, client, method, monkeypatch):
    from geoserver_emulator.core import state as state_module

    def fail(self: State) -> None:
        raise AssertionError("a read began a rollback")

    monkeypatch.setattr(state_module.State, "begin", fail)
    assert client.request(method, "/rest/workspaces.json").status_code == 200


def test_concurrent_writes_keep_every_success_and_no_failure(emu, monkeypatch):
    """Writes run one at a time: undoing a refused one never undoes another's success. The
    endpoint is made to yield to the event loop after its change, before its answer, so
    that the writes would interleave there."""
    from geoserver_emulator.areas.catalog import routes_workspaces

    post = routes_workspaces._post_workspace

    async def yielding(request: Any) -> Any:
        try:
            return await post(request)
        finally:
            await asyncio.sleep(0.001)

    monkeypatch.setattr(routes_workspaces, "_post_workspace", yielding)

    async def run() -> list[int]:
        transport = httpx.ASGITransport(app=emu.asgi_app, raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url=BASE, auth=ADMIN) as c:
            sends = []
            for i in range(20):
                if i % 2:
                    sends.append(c.post("/rest/workspaces", json={"workspace": {"name": f"w{i}"}}))
                else:  # created, then refused by the answer's format: undone
                    body = {"workspace": {"name": f"w{i}"}}
                    sends.append(c.post("/rest/workspaces?format=abc", json=body))
            return [r.status_code for r in await asyncio.gather(*sends)]

    statuses = asyncio.run(run())
    names = {w.name for w in emu.state.catalog.list_workspaces()}
    for i, status in enumerate(statuses):
        assert (f"w{i}" in names) == (200 <= status < 300), (i, status)
    assert {s for i, s in enumerate(statuses) if i % 2} == {201}


def test_the_linked_groups_the_rollback_uses_stay_true_after_writes(emu, client):
    """The rollback pickles stores in the groups found when the state was made; writes must
    not link stores across groups (``State.snapshot`` would then group them otherwise)."""
    from geoserver_emulator.core.state import _linked_groups

    for method, path, template in TEMPLATES:
        client.request(method, path, json=template)
    for path, body, ctype in UPLOADS:
        client.put(path, content=body, headers={"Content-Type": ctype})
    known = {name: set(group) for group in emu.state.__dict__["_linked_groups"] for name in group}
    stores = {name: getattr(emu.state, name) for name in STORES}
    for group in _linked_groups(stores):
        assert set(group) <= known[group[0]], group
