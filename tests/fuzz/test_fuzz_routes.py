"""Fuzzing over the route table (issue 18): every write route, with XML, JSON and junk
bodies, hostile field values and types, query values and path values.

Properties, after every request:

- no unexpected exception: ``Emulator.internal_errors`` stays empty (a deliberate,
  GeoServer-faithful 500 is raised as ``ServerError`` and is not recorded there; each is
  listed in ``docs/fidelity.md``);
- a request that does not end in 2xx leaves the state exactly as it was (a digest of
  ``dump_scenario()`` before and after);
- every collection list still answers (an accepted write never poisons a later read).

The default run is a few seconds (small ``max_examples``). ``GEOSERVER_EMULATOR_FUZZ=long``
runs it for minutes (or ``=<number>`` examples per test).
"""

from __future__ import annotations

import copy
import hashlib
import io
import json
import os
import re
import zipfile
from functools import cache
from typing import Any
from urllib.parse import quote

import httpx
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from geoserver_emulator import Emulator
from geoserver_emulator.http.endpoints import endpoints

BASE = "http://localhost:8080/geoserver"
ADMIN = ("admin", "geoserver")
WRITES = ("POST", "PUT", "DELETE", "PATCH")
SKIPPED = ("/__emulator", "/rest/reset", "/rest/reload")
"""the control plane, and the two REST routes whose purpose is to change the whole state"""


def _examples() -> int:
    mode = os.environ.get("GEOSERVER_EMULATOR_FUZZ", "")
    if mode == "long":
        return 20_000
    return int(mode) if mode.isdigit() else 0


LONG = _examples()
"""examples per test asked for by ``GEOSERVER_EMULATOR_FUZZ`` (0: the default, quick run)"""


def fuzz(quick: int) -> settings:
    return settings(
        max_examples=LONG or quick,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=not LONG,  # the quick run sends the same requests every time
        database=None if not LONG else settings.default.database,
    )


LISTS = [
    "/rest/workspaces.json",
    "/rest/namespaces.json",
    "/rest/styles.json",
    "/rest/layers.json",
    "/rest/layergroups.json",
    "/rest/workspaces/topp/datastores.json",
    "/rest/workspaces/topp/featuretypes.json",
    "/rest/workspaces/nurc/coveragestores.json",
    "/rest/security/roles.json",
    "/rest/security/usergroup/users.json",
    "/rest/security/usergroup/groups.json",
    "/rest/security/acl/layers.json",
    "/rest/security/acl/rest.json",
    "/rest/security/authproviders.json",
    "/rest/security/authfilters.json",
    "/rest/security/filterchain.json",
    "/rest/security/usergroupservices.json",
    "/rest/urlchecks.json",
    "/rest/settings.json",
    "/gwc/rest/layers.json",
    "/gwc/rest/gridsets.json",
    "/gwc/rest/blobstores.json",
    "/gwc/rest/seed.json",
    "/rest/workspaces.xml",
    "/rest/styles.xml",
    "/rest/layers.xml",
    "/rest/layergroups.xml",
    "/rest/security/roles.xml",
    "/rest/security/usergroup/users.xml",
    "/rest/security/usergroup/groups.xml",
    "/rest/urlchecks.xml",
    "/rest/security/filterchain.xml",
    "/rest/security/usergroupservices.xml",
    "/gwc/rest/layers.xml",
]


@cache
def write_routes() -> list[tuple[str, str]]:
    """(method, path template without the context path) of every write route."""
    app = fuzzed().asgi_app
    table = endpoints(app.all_routes() if hasattr(app, "all_routes") else app.routes)
    out = []
    for method, path, _ in table:
        inner = path.removeprefix("/geoserver")
        if method in WRITES and not inner.startswith(SKIPPED):
            out.append((method, inner))
    return sorted(set(out))


# -- values ------------------------------------------------------------------------------------

HOSTILE = [
    "",
    " ",
    "a\u0001b",
    "\ud800",
    "x\ufffe",
    "%00",
    "..",
    "../../etc/passwd",
    "/etc",
    "file:///",
    "a" * 3000,
    "<x>&amp;</x>",
    "${jndi:ldap://x}",
    "1e400",
    "-1",
    "9" * 30,
    "NaN",
    "true",
    "null",
    "é中🙂",
    "a b",
    "a/b",
    "a:b",
    "a;b",
    "%",
    "*",
    "(a|aa)+$",
    "location LIKE '%%%%%%%%x'",
]
CONTEXTS = [
    {
        "workspace": "topp", "prefix": "topp", "store": "states_shapefile", "name": "states",
        "resource": "states", "layer": "topp:states", "style": "polygon", "group": "spearfish",
        "coverage": "states", "format": "shp", "method": "file", "ext": "xml",
    },
    {
        "workspace": "nurc", "prefix": "nurc", "store": "mosaic", "name": "mosaic",
        "resource": "mosaic", "coverage": "mosaic", "layer": "nurc:mosaic", "style": "raster",
        "group": "tasmania", "format": "imagemosaic", "method": "external", "ext": "json",
        "granule": "mosaic.1",
    },
    {
        "workspace": "sf", "prefix": "sf", "store": "sf", "name": "new_name", "layer": "new",
        "style": "new_style", "group": "new_group", "format": "properties", "method": "url",
        "ext": "json", "user": "new_user", "role": "NEW_ROLE",
    },
    {
        "user": "admin", "role": "ADMIN", "group": "GROUP_ADMIN", "serviceName": "default",
        "name": "default", "kind": "wms", "key": "*.*.r", "path": "styles/x.sld",
        "layer": "topp:states", "ext": "xml",
    },
    {
        "name": "basic", "kind": "wfs", "key": "%2F**:GET", "path": "workspaces/topp/x.txt",
        "layer": "EPSG:4326", "srs": "EPSG:4326", "type": "native", "ext": "json",
    },
    {"id": "0", "task": "0", "index": "0", "file": "lanes.shp", "workspace": "topp"},
]  # fmt: skip
"""coherent values for a route's placeholders (the path reaches an existing object)"""
OTHER_VALUES = {
    "ext": ["xml", "json", "html", "zip", "sld"],
    "format": ["shp", "imagemosaic", "geotiff", "properties", "appschema", "gpkg", "xml"],
    "method": ["file", "url", "external", "remote"],
    "kind": ["wms", "wfs", "wcs", "wmts", "nope"],
}
QUERY_KEYS = [
    "recurse", "purge", "filter", "updateBBox", "configure", "coverageName", "format",
    "calculate", "quietOnNotFound", "name", "rename", "raw", "target", "charset", "mode",
    "operation", "type", "cleanupMosaic", "max", "ids", "schema", "offset", "limit",
]  # fmt: skip
FIELDS = [
    "name", "title", "abstract", "enabled", "description", "regex", "userName", "password",
    "srs", "nativeName", "nativeCRS", "workspace", "dataStore", "coverageStore", "type",
    "connectionParameters", "entry", "keywords", "string", "prefix", "uri", "isolated",
    "filename", "format", "layer", "styles", "style", "defaultStyle", "publishables",
    "published", "nativeBoundingBox", "minx", "maxx", "miny", "maxy", "crs", "advertised",
    "metadata", "key", "value", "defaultValue", "gridSubsets", "gridSetName", "zoomStart",
    "zoomStop", "threadCount", "parameters", "oldPassword", "newPassword", "className",
    "order", "mode", "catalogMode", "url", "capabilitiesURL", "id", "groupName", "roleName",
    "@key", "$", "parameterFilters", "mimeFormats", "metaWidthHeight", "expireCache",
    "blobStoreId", "baseDirectory", "fileSystemBlockSize", "resolutions", "extent",
]  # fmt: skip
ROOTS = {
    "workspaces": "workspace", "namespaces": "namespace", "datastores": "dataStore",
    "coveragestores": "coverageStore", "featuretypes": "featureType", "coverages": "coverage",
    "layers": "layer", "layergroups": "layerGroup", "styles": "style", "users": "user",
    "urlchecks": "regexUrlCheck", "wmsstores": "wmsStore", "wmslayers": "wmsLayer",
    "wmtsstores": "wmtsStore", "wmtslayers": "wmtsLayer", "settings": "global",
    "contact": "contact", "logging": "logging", "authproviders": "authprovider",
    "authfilters": "authfilter", "masterpw": "masterPassword", "password": "userPassword",
    "seed": "seedRequest", "gridsets": "gridSet", "blobstores": "FileBlobStore",
    "masstruncate": "truncateLayer", "catalog": "catalog", "rest": "rules",
    "diskquota": "gwcQuotaConfiguration", "global": "global", "wms": "wms", "wfs": "wfs",
    "imports": "import", "tasks": "task", "target": "dataStore",
}  # fmt: skip

text = st.one_of(
    st.sampled_from(HOSTILE),
    st.text(max_size=12),
    st.text(st.characters(min_codepoint=0, max_codepoint=0x10FFFF), max_size=6),
)
scalar = st.one_of(
    text,
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.booleans(),
    st.none(),
)
value = st.recursive(
    scalar,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from(FIELDS), inner, max_size=4),
    ),
    max_leaves=10,
)


def root_for(template: str) -> str:
    literal = [s for s in template.split("/") if s and not s.startswith("{")]
    last = literal[-1].split(".")[0] if literal else ""
    return ROOTS.get(last, "x")


@st.composite
def requests(
    draw: st.DrawFn, route: tuple[str, str] | None = None
) -> tuple[str, str, dict[str, str], bytes, str]:
    """A write request: a route of the table (or ``route``), its path values (mostly ones
    that reach an existing object), query values, and a body."""
    method, template = route or draw(st.sampled_from(write_routes()))
    path = template

    context = draw(st.sampled_from(CONTEXTS))

    def fill(match: re.Match[str]) -> str:
        param = match.group(1).split(":")[0]
        known = [context[param]] if param in context else OTHER_VALUES.get(param, ["x"])
        roll = draw(st.integers(0, 9))  # mostly a value that reaches an existing object
        pool = st.sampled_from(known if roll < 7 else OTHER_VALUES.get(param, ["x"]))
        choice = draw(pool if roll < 9 else text)
        raw = choice.encode("utf-8", "surrogatepass")
        return quote(raw, safe="/" if match.group(1).endswith(":path") else "")

    path = re.sub(r"\{([^}]+)\}", fill, template)
    query = draw(st.dictionaries(st.sampled_from(QUERY_KEYS), text, max_size=3))
    kind = draw(st.sampled_from(["json", "json", "xml", "xml", "raw", "text", "zip", "empty"]))
    document = draw(st.one_of(mutated(body_template(method, path, template)), free_body(template)))
    if kind == "json":
        body = json.dumps(document).encode("utf-8", "surrogatepass")
        ctype = "application/json"
    elif kind == "xml":
        (root, fields), *_ = document.items() if document else (("x", None),)
        body = to_xml(root, fields).encode("utf-8", "surrogatepass")
        ctype = draw(st.sampled_from(["application/xml", "text/xml"]))
    elif kind == "text":  # a file name, URL or path, as upload and harvest bodies are
        body = draw(st.one_of(st.sampled_from(TEXT_BODIES), text)).encode("utf-8", "surrogatepass")
        ctype = draw(st.sampled_from(["text/plain", ""]))
    elif kind == "zip":
        body = draw(st.sampled_from(ZIPS))
        ctype = "application/zip"
    elif kind == "raw":
        body = draw(st.binary(max_size=64))
        ctype = draw(st.sampled_from(["application/zip", "text/plain", "application/json"]))
    else:
        body, ctype = b"", draw(st.sampled_from(["", "application/xml"]))
    return method, path, query, body, ctype


TEXT_BODIES = [
    "/etc", "file:///", "file:///etc/passwd", "data/x.shp", "coverages/arc_sample/precip30min.asc",
    "http://x.example.com/a.tif", "https://example.com/" + "a" * 200, "", "nurc/mosaic",
]  # fmt: skip


def _zip(entries: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        for name, data in entries.items():
            z.writestr(name, data)
    return buffer.getvalue()


ZIPS = [
    _zip({}),
    _zip({"x.txt": b"hello"}),
    _zip({"../escape.txt": b"x"}),
    _zip({"/abs.shp": b"x"}),
    _zip({"a.shp": b"\x00" * 10, "a.dbf": b"", "a.prj": b"GEOGCS[]"}),
    _zip({"indexer.properties": b"Schema=*the_geom:Polygon,location:String\n", "g.tif": b"II*"}),
    _zip({"style.sld": b"<StyledLayerDescriptor/>"}),
]


BODIES: dict[str, dict[str, Any]] = {
    "workspace": {"name": "fz"},
    "namespace": {"prefix": "fz", "uri": "http://fz.example.com"},
    "dataStore": {
        "name": "fz", "type": "Shapefile", "enabled": True,
        "connectionParameters": {"entry": [{"@key": "url", "$": "file:data/fz.shp"}]},
    },
    "featureType": {"name": "fz", "nativeName": "states", "srs": "EPSG:4326", "enabled": True},
    "coverageStore": {"name": "fz", "type": "GeoTIFF", "url": "file:fz.tif", "enabled": True},
    "coverage": {"name": "fz", "nativeName": "fz", "srs": "EPSG:4326"},
    "layer": {"name": "states", "defaultStyle": {"name": "polygon"}, "enabled": True},
    "layerGroup": {
        "name": "fz", "mode": "SINGLE",
        "publishables": {"published": [{"@type": "layer", "name": "topp:states"}]},
        "styles": {"style": [{"name": "polygon"}]},
    },
    "style": {"name": "fz", "filename": "fz.sld", "format": "sld"},
    "user": {"userName": "fz", "password": "pw", "enabled": True},
    "regexUrlCheck": {"name": "fz", "regex": "^https://x/.*$", "enabled": True},
    "wmsStore": {"name": "fz", "capabilitiesURL": "http://x.example.com/wms?", "enabled": True},
    "wmtsStore": {"name": "fz", "capabilitiesURL": "http://x.example.com/wmts?", "enabled": True},
    "seedRequest": {
        "name": "topp:states", "gridSetId": "EPSG:4326", "zoomStart": 0, "zoomStop": 1,
        "type": "seed", "threadCount": 1, "format": "image/png",
    },
    "GeoServerLayer": {
        "name": "topp:states", "enabled": True,
        "gridSubsets": {"gridSubset": [{"gridSetName": "EPSG:4326"}]},
    },
    "contact": {"contactPerson": "fz", "contactEmail": "fz@example.com"},
    "rules": {"rule": [{"@resource": "fz.*.r", "text": "ROLE_FZ"}]},
    "import": {"targetWorkspace": {"workspace": {"name": "topp"}},
               "data": {"type": "file", "file": "data/shapefiles/states.shp"}},
    "task": {"updateMode": "APPEND", "layer": {"name": "fz", "srs": "EPSG:4326"},
             "transformChain": {"type": "vector", "transforms": [
                 {"type": "DateFormatTransform", "field": "NAME"}]}},
}  # fmt: skip


@cache
def stock_client() -> httpx.Client:
    return client(fuzzed())


def fuzzed() -> Emulator:
    """The emulator a fuzz test writes to: stock, with the importer extension installed (its
    routes are write routes of the table too)."""
    return Emulator("stock", extensions=["importer"])


@cache
def _item_json(path: str) -> str | None:
    r = stock_client().get(re.sub(r"\.(xml|json|html|zip|sld)$", "", path) + ".json")
    ok = r.status_code == 200 and r.headers.get("content-type", "").startswith("application/json")
    return r.text if ok else None


def body_template(method: str, path: str, template: str) -> dict[str, Any]:
    """A body the route would accept: what a GET of the same object answers (PUT), else a
    known-good body for the collection's root element."""
    if method == "PUT":
        found = _item_json(path)
        if found is not None:
            document = json.loads(found)
            if isinstance(document, dict) and len(document) == 1:
                return document
    root = root_for(template)
    if root == "gridSet" or root not in BODIES:
        root = "workspace" if root not in BODIES else root
    return {root: BODIES.get(root, {"name": "fz"})}


def _leaves(obj: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [at] if at else []
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.extend(_leaves(v, (*at, k)))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out.extend(_leaves(v, (*at, i)))
    return out


@st.composite
def mutated(draw: st.DrawFn, template: dict[str, Any]) -> dict[str, Any]:
    """``template`` with one to three changes: a value replaced by a hostile value or
    another type, a field removed, an unknown field added."""
    document = copy.deepcopy(template)
    for _ in range(draw(st.integers(1, 3))):
        spots = [p for p in _leaves(document) if len(p) > 1]
        if not spots:
            break
        spot = draw(st.sampled_from(spots))
        parent = document
        for step in spot[:-1]:
            parent = parent[step]
        op = draw(st.sampled_from(["replace", "replace", "replace", "delete", "add"]))
        if op == "replace":
            parent[spot[-1]] = draw(value)
        elif op == "delete" and isinstance(parent, dict):
            del parent[spot[-1]]
        elif isinstance(parent, dict):
            parent[draw(st.sampled_from(FIELDS))] = draw(value)
    return document


@st.composite
def free_body(draw: st.DrawFn, template: str) -> dict[str, Any]:
    """A body of random fields under the route's root element, or another one."""
    root = draw(st.one_of(st.just(root_for(template)), st.sampled_from(sorted(ROOTS.values()))))
    return {root: draw(st.dictionaries(st.sampled_from(FIELDS), value, max_size=6))}


def to_xml(tag: str, v: Any) -> str:
    name = re.sub(r"[^A-Za-z0-9_.-]", "_", tag) or "x"
    if name[0].isdigit() or name[0] in ".-":
        name = "_" + name
    if isinstance(v, dict):
        inner = "".join(to_xml(k, x) for k, x in v.items())
    elif isinstance(v, list):
        inner = "".join(to_xml("string", x) for x in v)
    elif v is None:
        inner = ""
    else:
        s = str(v).lower() if isinstance(v, bool) else str(v)
        inner = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return f"<{name}>{inner}</{name}>"


# -- the properties ----------------------------------------------------------------------------


def digest(emu: Emulator) -> str:
    """The state: its scenario dump, and the importer's imports (not in a dump: GeoServer's
    import store is not part of the data directory)."""
    dumped = json.dumps(emu.dump_scenario(), sort_keys=True, default=str)
    imports = emu.state.importer
    dumped += repr((imports.imports, imports.next_id, imports.next_folder, imports.jobs))
    return hashlib.sha256(dumped.encode("utf-8", "surrogatepass")).hexdigest()


def send(c: httpx.Client, method: str, path: str, query: dict[str, str], body: bytes, ctype: str):
    qs = "&".join(
        f"{quote(k)}={quote(v.encode('utf-8', 'surrogatepass'), safe='')}" for k, v in query.items()
    )
    url = path + (f"?{qs}" if qs else "")
    headers = {"Content-Type": ctype} if ctype else {}
    return c.request(method, url, content=body or None, headers=headers)


def check_one(emu: Emulator, c: httpx.Client, request: tuple) -> None:
    method, path, query, body, ctype = request
    before = digest(emu)
    r = send(c, method, path, query, body, ctype)
    where = f"{method} {path} {query} {ctype} {body[:300]!r} -> {r.status_code} {r.text[:300]}"
    assert not emu.internal_errors, where + "\n" + "\n".join(emu.internal_errors)
    if not 200 <= r.status_code < 300:
        assert digest(emu) == before, "state changed on a refusal: " + where
        quiet = r.status_code == 404 and query.get("quietOnNotFound", "").lower() == "true"
        if 400 <= r.status_code < 500 and not quiet:  # quietOnNotFound: GeoServer's empty 404
            assert r.text.strip(), "a 4xx without a message: " + where
        return  # the state is as it was: the lists answer as before
    for listing in LISTS:
        answer = c.get(listing)
        assert answer.status_code != 500 and not emu.internal_errors, (
            f"{listing} answers {answer.status_code} after {where}\n"
            + "\n".join(emu.internal_errors)
        )


def client(emu: Emulator) -> httpx.Client:
    return httpx.Client(transport=httpx.WSGITransport(app=emu.wsgi_app), base_url=BASE, auth=ADMIN)


@fuzz(60)
@given(request=requests())
@example(  # what the fuzz found first: text XML cannot carry, written out as XML (500)
    request=(
        "PUT",
        "/gwc/rest/global",
        {},
        b'{"global": {"name": "a\\u0001b"}}',
        "application/json",
    )
)
@example(
    request=(
        "POST", "/rest/workspaces", {}, b'{"workspace": {"name": "a\\ud800b"}}',
        "application/json",
    )
)  # fmt: skip
@example(  # a refusal that kept the store it had begun (500)
    request=(
        "PUT", "/rest/workspaces/nurc/coveragestores/x/external.imagemosaic", {}, b"/etc",
        "text/plain",
    )
)  # fmt: skip
@example(
    request=(
        "PUT", "/rest/workspaces/nurc/coveragestores/x/file.imagemosaic", {"format": "abc"},
        ZIPS[5], "application/zip",
    )
)  # fmt: skip
def test_a_single_write_keeps_the_promises(request):
    emu = fuzzed()
    with client(emu) as c:
        check_one(emu, c, request)


@fuzz(20)
@given(sequence=st.lists(requests(), min_size=2, max_size=4))
def test_writes_in_sequence_keep_the_promises(sequence):
    emu = fuzzed()
    with client(emu) as c:
        for request in sequence:
            check_one(emu, c, request)


def lanes_zip() -> bytes:
    """A two-point shapefile ``lanes`` (WGS 84), zipped."""
    import shapefile

    shp, shx, dbf = io.BytesIO(), io.BytesIO(), io.BytesIO()
    w = shapefile.Writer(shp=shp, shx=shx, dbf=dbf, shapeType=1)
    w.field("NAME", "C", 10)
    for name, x in (("a", 1.0), ("b", 2.0)):
        w.point(x, x)
        w.record(name)
    w.close()
    prj = b'GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563]],'
    prj += b'PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433],AUTHORITY["EPSG","4326"]]'
    return _zip({"lanes.shp": shp.getvalue(), "lanes.shx": shx.getvalue(),
                 "lanes.dbf": dbf.getvalue(), "lanes.prj": prj})  # fmt: skip


@cache
def importer_routes() -> list[tuple[str, str]]:
    return [r for r in write_routes() if r[1].startswith("/rest/imports")]


def seeded(c: httpx.Client) -> None:
    """Import 0 (for ``topp``, its data a directory) with a ready task and a transform."""
    body = {"import": {"targetWorkspace": {"workspace": {"name": "topp"}},
                       "data": {"type": "directory"}}}  # fmt: skip
    assert c.post("/rest/imports", json=body).status_code == 201
    r = c.put("/rest/imports/0/tasks/lanes.zip", content=lanes_zip(),
              headers={"Content-Type": "application/zip"})  # fmt: skip
    assert r.status_code == 201, r.text
    transform = {"type": "DateFormatTransform", "field": "NAME"}
    assert c.post("/rest/imports/0/tasks/0/transforms", json=transform).status_code == 201


@fuzz(40)
@given(request=st.deferred(lambda: st.sampled_from(importer_routes())).flatmap(requests))
def test_importer_writes_keep_the_promises(request):
    """The importer's write routes, against an import that exists (with a task, its data,
    its transform): refusals change nothing, nothing fails unexpectedly."""
    emu = fuzzed()
    with client(emu) as c:
        seeded(c)
        check_one(emu, c, request)


def test_the_fuzz_covers_every_write_route():
    routes = write_routes()
    assert len(routes) > 250
    assert ("POST", "/rest/workspaces") in routes and ("PUT", "/gwc/rest/layers/{name}") in routes
    assert ("PUT", "/rest/imports/{id}/tasks/{task}") in importer_routes()
