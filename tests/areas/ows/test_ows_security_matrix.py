"""Security on every operation of every OGC service, table-driven over (catalog mode ×
caller × operation), as GeoServer's secure catalog and resource access manager decide:

- HIDE: a layer the caller may not read is absent from the capabilities and naming it is
  "not found"; a layer they may read but not write is read-only (a transaction on it fails);
- MIXED: absent from the capabilities; naming it for anything (data or metadata) is an
  authentication challenge (401 anonymous, 403 authenticated);
- CHALLENGE: listed in the capabilities; metadata (DescribeLayer, GetLegendGraphic,
  DescribeFeatureType, DescribeCoverage) is served; data (GetMap, GetFeatureInfo,
  GetFeature, GetCoverage, WMTS GetTile/GetFeatureInfo) and writes are a challenge.

Then service rules per service and operation, and disabled services (global and per
workspace). Rules and modes are set over REST, and each request goes over HTTP.
"""

from __future__ import annotations

import pytest
from lxml import etree

ACL = "/rest/security/acl"
USERS = {
    "reader": ("readerpw1", ["ROLE_READER"]),
    "writer": ("writerpw1", ["ROLE_READER", "ROLE_WRITER"]),
    "other": ("otherpw12", []),
}
DELETE = (
    '<wfs:Transaction service="WFS" version="1.1.0" xmlns:wfs="http://www.opengis.net/wfs" '
    'xmlns:ogc="http://www.opengis.net/ogc" xmlns:topp="http://www.openplans.org/topp">'
    '<wfs:Delete typeName="topp:states"><ogc:Filter><ogc:FeatureId fid="states.999999"/>'
    "</ogc:Filter></wfs:Delete></wfs:Transaction>"
)
MAP = {"bbox": "-125,24,-66,50", "width": "64", "height": "32", "srs": "EPSG:4326"}

# operation → (path, params, kind): kind "data", "meta" or "write"
OPERATIONS = {
    "WMS GetMap": (
        "/wms",
        {"service": "WMS", "version": "1.1.1", "request": "GetMap", "layers": "topp:states",
         "styles": "", "format": "image/png", **MAP},
        "data",
    ),
    "WMS GetFeatureInfo": (
        "/wms",
        {"service": "WMS", "version": "1.1.1", "request": "GetFeatureInfo",
         "layers": "topp:states", "query_layers": "topp:states", "styles": "",
         "format": "image/png", "info_format": "text/plain", "x": "10", "y": "10", **MAP},
        "data",
    ),
    "WMS GetLegendGraphic": (
        "/wms",
        {"service": "WMS", "version": "1.1.1", "request": "GetLegendGraphic",
         "layer": "topp:states", "format": "image/png"},
        "meta",
    ),
    "WMS DescribeLayer": (
        "/wms",
        {"service": "WMS", "version": "1.1.1", "request": "DescribeLayer",
         "layers": "topp:states"},
        "meta",
    ),
    "WFS DescribeFeatureType": (
        "/wfs",
        {"service": "WFS", "version": "1.1.0", "request": "DescribeFeatureType",
         "typeName": "topp:states"},
        "meta",
    ),
    "WFS GetFeature": (
        "/wfs",
        {"service": "WFS", "version": "1.1.0", "request": "GetFeature", "typeName": "topp:states",
         "maxFeatures": "1"},
        "data",
    ),
    "WFS Transaction": ("/wfs", None, "write"),
    "WCS DescribeCoverage": (
        "/wcs",
        {"service": "WCS", "version": "1.0.0", "request": "DescribeCoverage",
         "coverage": "nurc:Arc_Sample"},
        "meta",
    ),
    "WCS GetCoverage": (
        "/wcs",
        {"service": "WCS", "version": "1.0.0", "request": "GetCoverage",
         "coverage": "nurc:Arc_Sample", "crs": "EPSG:4326", "bbox": "-180,-90,180,90",
         "width": "10", "height": "10", "format": "GeoTIFF"},
        "data",
    ),
    "WMTS GetTile": (
        "/gwc/service/wmts",
        {"service": "WMTS", "version": "1.0.0", "request": "GetTile", "layer": "topp:states",
         "style": "", "tilematrixset": "EPSG:4326", "tilematrix": "EPSG:4326:0",
         "tilerow": "0", "tilecol": "0", "format": "image/png"},
        "data",
    ),
    "WMTS GetFeatureInfo": (
        "/gwc/service/wmts",
        {"service": "WMTS", "version": "1.0.0", "request": "GetFeatureInfo",
         "layer": "topp:states", "style": "", "tilematrixset": "EPSG:4326",
         "tilematrix": "EPSG:4326:0", "tilerow": "0", "tilecol": "0", "format": "image/png",
         "infoformat": "text/plain", "i": "10", "j": "10"},
        "data",
    ),
}  # fmt: skip

WMTS = "/gwc/service/wmts"
CAPS = {"request": "GetCapabilities"}
CAPABILITIES = {
    "WMS": ("/wms", {**CAPS, "service": "WMS"}, "topp:states"),
    "WFS": ("/wfs", {**CAPS, "service": "WFS", "version": "1.1.0"}, "topp:states"),
    "WCS": ("/wcs", {**CAPS, "service": "WCS", "version": "1.0.0"}, "nurc:Arc_Sample"),
    "WMTS": (WMTS, {**CAPS, "service": "WMTS"}, "topp:states"),
}

CALLERS = ("anonymous", "other", "reader", "writer", "admin")
MODES = ("HIDE", "MIXED", "CHALLENGE")


def expected(mode: str, caller: str, kind: str, op: str) -> str:
    """What GeoServer answers: ok, hidden (not found), challenge (401), denied (403) or
    readonly (the transaction refused as on a read-only layer)."""
    reads = caller in ("reader", "writer", "admin")
    writes = caller in ("writer", "admin")
    refusal = "challenge" if caller == "anonymous" else "denied"
    if kind == "write":
        if writes:
            return "ok"
        if reads:
            return "readonly" if mode == "HIDE" else refusal
        return "hidden" if mode == "HIDE" else refusal
    if reads:
        return "ok"
    if mode == "HIDE":
        return "hidden"
    if mode == "CHALLENGE" and kind == "meta":
        return "ok"
    return refusal


def outcome(r) -> str:
    if r.status_code == 401:
        assert r.headers["www-authenticate"] == 'Basic realm="GeoServer Realm"'
        return "challenge"
    if r.status_code == 403:
        return "denied"
    kind = r.headers.get("content-type", "")
    if kind.startswith("image/"):
        return "ok"
    if "xml" not in kind and "text/plain" in kind:
        return "ok"
    root = etree.fromstring(r.content)
    local = etree.QName(root).localname
    if local in ("ServiceExceptionReport", "ExceptionReport"):
        text = " ".join(root.itertext())
        if "is read only" in text:
            return "readonly"
        return "hidden"
    if local in ("WFS_TransactionResponse", "TransactionResponse"):
        return "ok"
    return "ok"


@pytest.fixture
def secured(emu, client):
    users = emu.state.users
    for role in ("ROLE_READER", "ROLE_WRITER"):
        users.create_role(None, role)
    for name, (password, roles) in USERS.items():
        users.create_user(None, name, password, True)
        for role in roles:
            users.assign_user_role(None, role, name, True)
    rules = {
        "topp.*.r": "ROLE_READER",
        "nurc.*.r": "ROLE_READER",
        "topp.*.w": "ROLE_WRITER",
    }
    assert client.post(f"{ACL}/layers.json", json=rules).status_code in (200, 201)
    return emu


def _client(client_for, caller):
    if caller == "anonymous":
        return client_for(auth=None)
    if caller == "admin":
        return client_for()
    return client_for(auth=(caller, USERS[caller][0]))


def _set_mode(client, mode):
    assert client.put(f"{ACL}/catalog.json", json={"mode": mode}).status_code == 200


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("op", list(OPERATIONS))
def test_every_operation_for_every_caller(secured, client, client_for, mode, op):
    _set_mode(client, mode)
    path, params, kind = OPERATIONS[op]
    for caller in CALLERS:
        c = _client(client_for, caller)
        if kind == "write":
            r = c.post(path, content=DELETE, headers={"Content-Type": "application/xml"})
        else:
            r = c.get(path, params=params)
        assert r.status_code != 500, r.text
        assert outcome(r) == expected(mode, caller, kind, op), (caller, r.status_code, r.text[:300])
    assert not secured.internal_errors


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("service", list(CAPABILITIES))
def test_capabilities_list_what_the_mode_shows(secured, client, client_for, mode, service):
    _set_mode(client, mode)
    path, params, name = CAPABILITIES[service]
    local = name.split(":")[1]
    for caller in CALLERS:
        r = _client(client_for, caller).get(path, params=params)
        assert r.status_code == 200
        listed = f">{name}<".encode() in r.content or f">{local}<".encode() in r.content
        reads = caller in ("reader", "writer", "admin")
        assert listed == (reads or mode == "CHALLENGE"), (caller, service)


# -- service rules and disabled services ----------------------------------------------------

SERVICE_OPS = [
    ("wms", "GetCapabilities", "/wms", {"service": "WMS", "request": "GetCapabilities"}),
    ("wms", "GetMap", "/wms", OPERATIONS["WMS GetMap"][1]),
    ("wms", "GetFeatureInfo", "/wms", OPERATIONS["WMS GetFeatureInfo"][1]),
    ("wms", "GetLegendGraphic", "/wms", OPERATIONS["WMS GetLegendGraphic"][1]),
    ("wms", "DescribeLayer", "/wms", OPERATIONS["WMS DescribeLayer"][1]),
    ("wfs", "GetCapabilities", "/wfs", {"service": "WFS", "request": "GetCapabilities"}),
    ("wfs", "DescribeFeatureType", "/wfs", OPERATIONS["WFS DescribeFeatureType"][1]),
    ("wfs", "GetFeature", "/wfs", OPERATIONS["WFS GetFeature"][1]),
    ("wcs", "GetCapabilities", "/wcs", {"service": "WCS", "request": "GetCapabilities"}),
    ("wcs", "DescribeCoverage", "/wcs", OPERATIONS["WCS DescribeCoverage"][1]),
    ("wmts", "GetCapabilities", WMTS, {**CAPS, "service": "WMTS"}),
    ("wmts", "GetTile", "/gwc/service/wmts", OPERATIONS["WMTS GetTile"][1]),
]  # fmt: skip


OTHER_OP = {"wms": "GetMap", "wfs": "GetFeature", "wcs": "GetCoverage", "wmts": "GetTile"}


@pytest.mark.parametrize("rule", ["op", "star"])
@pytest.mark.parametrize(("service", "request_name", "path", "params"), SERVICE_OPS)
def test_service_rules_per_service_and_operation(
    secured, client, client_for, rule, service, request_name, path, params
):
    key = f"{service}.{request_name}" if rule == "op" else f"{service}.*"
    assert client.post(f"{ACL}/services.json", json={key: "ROLE_READER"}).status_code in (200, 201)
    assert _client(client_for, "anonymous").get(path, params=params).status_code == 401
    assert _client(client_for, "other").get(path, params=params).status_code == 403
    for caller in ("reader", "admin"):
        r = _client(client_for, caller).get(path, params=params)
        assert r.status_code == 200 and outcome(r) == "ok", (caller, r.text[:300])
    # a rule on another operation of the service leaves this one alone
    assert client.delete(f"{ACL}/services/{key}").status_code == 200
    other = "GetCapabilities" if request_name != "GetCapabilities" else OTHER_OP[service]
    r = client.post(f"{ACL}/services.json", json={f"{service}.{other}": "ROLE_READER"})
    assert r.status_code in (200, 201)
    r = _client(client_for, "anonymous").get(path, params=params)
    assert r.status_code not in (401, 403), r.text[:300]


@pytest.mark.parametrize(("service", "request_name", "path", "params"), SERVICE_OPS)
def test_a_disabled_service_answers_service_unavailable(
    secured, client, client_for, service, request_name, path, params
):
    r = client.put(f"/rest/services/{service}/settings", json={service: {"enabled": False}})
    assert r.status_code == 200
    for caller in ("anonymous", "admin"):
        r = _client(client_for, caller).get(path, params=params)
        assert b"ServiceUnavailable" in r.content or b"disabled" in r.content, r.text[:300]
    r = client.put(f"/rest/services/{service}/settings", json={service: {"enabled": True}})
    assert client.get(path, params=params).status_code == 200


@pytest.mark.parametrize("service", ["wms", "wfs", "wcs"])
def test_a_service_disabled_in_one_workspace(secured, client, service):
    body = {service: {"enabled": False, "name": service.upper(), "workspace": {"name": "topp"}}}
    r = client.put(f"/rest/services/{service}/workspaces/topp/settings", json=body)
    assert r.status_code in (200, 201), r.text
    params = {"service": service.upper(), "request": "GetCapabilities"}
    assert b"ServiceUnavailable" in client.get(f"/topp/{service}", params=params).content
    assert b"ServiceUnavailable" not in client.get(f"/sf/{service}", params=params).content
    assert b"ServiceUnavailable" not in client.get(f"/{service}", params=params).content


def test_a_resource_disabling_a_service_for_itself(client):
    body = {"featureType": {"serviceConfiguration": True, "disabledServices": {"string": ["WFS"]}}}
    url = "/rest/workspaces/topp/datastores/states_shapefile/featuretypes/states"
    assert client.put(url, json=body).status_code == 200
    wfs_caps = client.get("/wfs", params={**CAPS, "service": "WFS", "version": "1.1.0"})
    assert b"topp:states" not in wfs_caps.content and b"topp:tasmania_roads" in wfs_caps.content
    r = client.get("/wfs", params=OPERATIONS["WFS GetFeature"][1])
    assert outcome(r) == "hidden"
    r = client.post("/wfs", content=DELETE, headers={"Content-Type": "application/xml"})
    assert outcome(r) == "hidden"
    # the other services still serve it
    assert (
        b"<Name>topp:states</Name>" in client.get("/wms", params={**CAPS, "service": "WMS"}).content
    )
    assert outcome(client.get("/wms", params=OPERATIONS["WMS GetMap"][1])) == "ok"
    # without its own service configuration the list is not applied
    body = {"featureType": {"serviceConfiguration": False}}
    assert client.put(url, json=body).status_code == 200
    assert outcome(client.get("/wfs", params=OPERATIONS["WFS GetFeature"][1])) == "ok"
