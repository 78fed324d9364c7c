"""Hostile and careless input (issue 18): text XML 1.0 cannot carry, exceptions that used to
reach the generic handler, XML limits and encodings, blank 4xx bodies, huge names.

Every refusal is a 4xx with a message and leaves the whole state as it was (``dump_scenario``
before and after); the ``client`` fixture fails a test on any unexpected 500.
"""

from __future__ import annotations

import io
import json
import zipfile
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from geoserver_emulator import Emulator
from geoserver_emulator.core.errors import ScenarioError
from geoserver_emulator.wire import text as wtext
from geoserver_emulator.wire import xml as wxml

JSON = {"Content-Type": "application/json"}
XML = {"Content-Type": "application/xml"}
FORM = {"Content-Type": "application/x-www-form-urlencoded"}
ZIP = {"Content-Type": "application/zip"}
LIMIT = wtext.NAME_LIMIT

FORBIDDEN = [chr(c) for c in range(0x20) if c not in (0x9, 0xA, 0xD)] + [
    "\ud800",
    "\udfff",
    "\ufffe",
    "\uffff",
]
CONTROLS = [c for c in FORBIDDEN if c < " "]
"""the forbidden characters a URL can carry (a lone surrogate has no UTF-8 form)"""

READS = [
    "/rest/workspaces.json",
    "/rest/workspaces.xml",
    "/rest/security/usergroup/groups.xml",
    "/rest/security/usergroup/users.json",
    "/rest/security/roles.xml",
    "/rest/security/acl/layers.json",
    "/rest/styles.xml",
    "/rest/urlchecks.json",
]


def refused(emu: Emulator, r, status: int = 400, says: str = "") -> None:
    assert r.status_code == status, (r.status_code, r.text)
    assert r.text.strip(), "a refusal says what was wrong"
    assert says in r.text, r.text
    assert "Traceback" not in r.text


def unchanged(emu: Emulator, client, before: dict) -> None:
    assert emu.dump_scenario() == before
    for path in READS:  # every list still answers
        assert client.get(path).status_code == 200, path


def bad_text(draw: st.DrawFn) -> str:
    prefix = draw(st.text(alphabet="abcxyz_", max_size=4))
    bad = draw(st.sampled_from(FORBIDDEN))
    return prefix + bad + draw(st.text(alphabet="abcxyz_", max_size=4))


bad_texts = st.composite(bad_text)()
bad_controls = st.builds(
    lambda a, c, b: a + c + b,
    st.text(alphabet="abc", max_size=3),
    st.sampled_from(CONTROLS),
    st.text(alphabet="abc", max_size=3),
)


# -- text XML 1.0 cannot carry ----------------------------------------------------------------


def _json_bodies(text: str) -> list[tuple[str, str, dict]]:
    return [
        ("POST", "/rest/workspaces", {"workspace": {"name": text}}),
        ("POST", "/rest/security/usergroup/users", {"user": {"userName": text, "password": "p"}}),
        ("POST", "/rest/security/acl/layers", {f"{text}.*.r": "ROLE_X"}),
        ("POST", "/rest/security/acl/layers", {"*.*.w": text}),
        ("POST", "/rest/urlchecks", {"regexUrlCheck": {"name": "u", "regex": text}}),
        ("PUT", "/rest/workspaces/topp", {"workspace": {"name": "topp", "x": [{"y": text}]}}),
        ("POST", "/gwc/rest/seed/topp:states.json", {"seedRequest": {"name": text}}),
    ]


@settings(max_examples=30, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=bad_texts, which=st.integers(0, 6))
def test_json_bodies_refuse_text_xml_cannot_carry(emu, client, text, which):
    method, path, doc = _json_bodies(text)[which]
    before = emu.dump_scenario()
    # ensure_ascii: a lone surrogate travels as its escape, as the probe sent it
    r = client.request(method, path, content=json.dumps(doc), headers=JSON)
    refused(emu, r, 400, wtext.describe(next(c for c in text if c in FORBIDDEN)))
    unchanged(emu, client, before)


def test_the_probes_examples(emu, client):
    before = emu.dump_scenario()
    for body in ('{"workspace":{"name":"a\\u0001b"}}', '{"workspace":{"name":"a\\ud800b"}}'):
        refused(emu, client.post("/rest/workspaces", content=body, headers=JSON), 400, "U+")
    refused(emu, client.post("/rest/security/usergroup/group/%00"), 400, "U+0000")
    refused(emu, client.post("/rest/security/roles/role/a%07b"), 400, "U+0007")
    unchanged(emu, client, before)


@pytest.mark.parametrize("ref", ["&#1;", "&#xFFFE;", "&#xD800;", "\x01"])
def test_xml_bodies_cannot_carry_it_either(emu, client, ref):
    before = emu.dump_scenario()
    body = f"<workspace><name>a{ref}b</name></workspace>"
    refused(emu, client.post("/rest/workspaces", content=body, headers=XML), 400, "Malformed")
    unchanged(emu, client, before)


@settings(max_examples=20, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=bad_controls)
def test_path_segments_refuse_it_percent_decoded(emu, client, text):
    before = emu.dump_scenario()
    seg = quote(text, safe="")
    for method, path in [
        ("POST", f"/rest/security/usergroup/group/{seg}"),
        ("POST", f"/rest/security/roles/role/{seg}"),
        ("PUT", f"/rest/workspaces/topp/datastores/{seg}/file.shp"),
        ("GET", f"/rest/workspaces/{seg}"),
        ("DELETE", f"/rest/layers/{seg}"),
        ("PUT", f"/gwc/rest/blobstores/{seg}"),
        ("POST", f"/gwc/rest/seed/{seg}"),
    ]:
        refused(emu, client.request(method, path, content=b"x"), 400, "request path")
    unchanged(emu, client, before)


@settings(max_examples=20, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=bad_controls)
def test_query_values_and_names_refuse_it(emu, client, text):
    before = emu.dump_scenario()
    sld = b'<StyledLayerDescriptor version="1.0.0"/>'
    sld_type = {"Content-Type": "application/vnd.ogc.sld+xml"}
    refused(emu, client.post("/rest/styles", params={"name": text}, content=sld, headers=sld_type))
    refused(emu, client.get("/rest/workspaces", params={"x": text}), 400, "query")
    refused(emu, client.get("/rest/workspaces", params={text: "1"}), 400, "query")
    refused(emu, client.delete("/rest/workspaces/topp", params={"recurse": text}), 400, "query")
    unchanged(emu, client, before)


def test_control_plane_refuses_it(emu, client):
    r = client.post("/__emulator/faults", content='{"path": "/rest/x\\u0001"}', headers=JSON)
    assert r.status_code == 400 and "U+0001" in r.json()["error"]
    assert emu.faults.to_json() == []
    r = client.post("/__emulator/clock/advance", params={"seconds": "1\x01"})
    assert r.status_code == 400 and r.json()["error"]


def test_ows_refuses_it_in_its_exception_report(emu, client):
    params = {"service": "WFS", "version": "2.0.0", "request": "GetFeature"}
    r = client.get("/wfs", params={**params, "typeNames": "topp:st\x01ates"})
    assert r.status_code == 400 and "InvalidParameterValue" in r.text and "U+0001" in r.text
    r = client.get("/wms", params={"service": "WMS", "version": "1.1.1", "request": "x\x02"})
    assert "ServiceException" in r.text and "U+0002" in r.text  # WMS answers 200, as GeoServer


@settings(max_examples=15, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=bad_controls)
def test_form_fields_refuse_it(emu, client, text):
    before = emu.dump_scenario()
    # the kill-all path reads its form undecoded (as GeoWebCache), a layer's decoded
    for path, value in [("/gwc/rest/seed", text), ("/gwc/rest/seed/topp:states", quote(text))]:
        r = client.post(path, content=f"kill_all={value}".encode(), headers=FORM)
        refused(emu, r, 400, "U+")
    unchanged(emu, client, before)


def _zip(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, body in files.items():
            archive.writestr(name, body)
    return buf.getvalue()


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("PUT", "/rest/workspaces/nurc/coveragestores/m2/file.imagemosaic"),
        ("POST", "/rest/workspaces/nurc/coveragestores/mosaic/file.imagemosaic"),
        ("PUT", "/rest/workspaces/topp/datastores/d2/file.shp"),
        ("PUT", "/rest/workspaces/topp/datastores/d3/file.appschema"),
        ("POST", "/rest/styles"),
    ],
)
@pytest.mark.parametrize("bad", ["\x01", "\x1f", "\ufffe"])
def test_zip_entry_names_refuse_it(emu, client, method, path, bad):
    before = emu.dump_scenario()
    body = _zip({f"a{bad}.sld": b"<x/>", "b.properties": b"k=v\n"})
    refused(emu, client.request(method, path, content=body, headers=ZIP), 400, "entry name")
    unchanged(emu, client, before)


@settings(max_examples=20)
@given(text=bad_texts, where=st.sampled_from(["value", "key"]))
def test_scenarios_refuse_it(text, where):
    doc: dict = {"workspaces": [{"name": text if where == "value" else "w"}]}
    if where == "key":
        doc = {"workspaces": [{"name": "w", text: 1}]}
    with pytest.raises(ScenarioError, match="XML cannot carry"):
        Emulator(doc)


def test_scenario_files_refuse_it(tmp_path):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"workspaces": [{"name": "a\u0001"}]}))
    with pytest.raises(ScenarioError, match=r"s\.json: .*U\+0001 in workspaces\[0\]\.name"):
        Emulator(str(path))


# -- exceptions that used to reach the generic handler ------------------------------------


BIG = "1" * 5000

JSON_WRITES = [
    ("POST", "/rest/workspaces", '{"workspace":{"name":"w","x":%s}}'),
    ("POST", "/rest/security/usergroup/users", '{"user":{"userName":"u","enabled":%s}}'),
    ("POST", "/rest/urlchecks", '{"regexUrlCheck":{"name":"u","priority":%s}}'),
    ("POST", "/gwc/rest/seed/topp:states.json", '{"seedRequest":{"zoomStart":%s}}'),
    ("PUT", "/rest/settings", '{"global":{"settings":{"numDecimals":%s}}}'),
    ("POST", "/rest/security/authproviders", '{"x":%s}'),
    ("POST", "/rest/security/acl/layers", '{"a.b.r":%s}'),
    ("POST", "/__emulator/faults", '{"status":%s}'),
]


@pytest.mark.parametrize(("method", "path", "template"), JSON_WRITES)
def test_a_5000_digit_integer_is_a_400(emu, client, method, path, template):
    before = emu.dump_scenario()
    r = client.request(method, path, content=template % BIG, headers=JSON)
    assert r.status_code == 400 and "digits" in r.text
    assert emu.dump_scenario() == before


@pytest.mark.parametrize("body", ["[" * 50_000, '{"a":' * 3000 + "1" + "}" * 3000])
def test_deeply_nested_json_is_a_400(emu, client, body):
    r = client.post("/__emulator/faults", content=body, headers=JSON)
    assert r.status_code == 400 and "nested too deeply" in r.json()["error"]
    r = client.post("/rest/workspaces", content=body, headers=JSON)
    assert r.status_code == 400 and "nested too deeply" in r.text


GRANULES = "/rest/workspaces/nurc/coveragestores/mosaic/coverages/mosaic/index/granules.json"


@pytest.mark.parametrize(
    "cql",
    [
        "NOT " * 3000 + "location = 'x'",
        " OR ".join(f"a={i}" for i in range(600)),
        "NOT " * 501 + "location = 'x'",
    ],
)
def test_deeply_nested_ecql_is_a_400(client, cql):
    r = client.get(GRANULES, params={"filter": cql})
    assert r.status_code == 400 and "more than 500 deep" in r.text
    params = {"service": "WFS", "version": "2.0.0", "request": "GetFeature"}
    r = client.get("/wfs", params={**params, "typeNames": "topp:states", "CQL_FILTER": cql})
    assert r.status_code == 400 and "more than 500 deep" in r.text


def test_ecql_nested_just_within_the_bound_answers(client):
    assert client.get(GRANULES, params={"filter": "NOT " * 498 + "location = 'x'"}).is_success


def _corrupt_zip() -> bytes:
    """A ZIP whose directory is sound and whose deflate stream is not."""
    data = bytearray(_zip({"a.properties": b"Levels=1\n" * 500}))
    start = 30 + len("a.properties")  # the local header, then the entry's data
    data[start : start + 8] = b"\xff" * 8
    return bytes(data)


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("PUT", "/rest/workspaces/nurc/coveragestores/m2/file.imagemosaic"),
        ("POST", "/rest/workspaces/nurc/coveragestores/mosaic/file.imagemosaic"),
        ("PUT", "/rest/workspaces/topp/datastores/d2/file.shp"),
        ("PUT", "/rest/workspaces/nurc/coveragestores/c2/file.geotiff"),
        ("PUT", "/rest/workspaces/topp/datastores/d3/file.appschema"),
    ],
)
def test_a_corrupt_deflate_stream_is_a_400(emu, client, method, path):
    before = emu.dump_scenario()
    r = client.request(method, path, content=_corrupt_zip(), headers=ZIP)
    refused(emu, r, 400, "a.properties")
    assert emu.dump_scenario() == before


def test_control_characters_in_a_seed_layer_name(emu, client):
    r = client.post("/gwc/rest/seed/topp:st%01ates.json", content="{}", headers=JSON)
    refused(emu, r, 400, "U+0001")
    r = client.post("/gwc/rest/seed/topp:st%01ates", content=b"kill_all=all", headers=FORM)
    refused(emu, r, 400, "U+0001")


# -- XML limits and encodings ----------------------------------------------------------------


def _attributes(n: int) -> bytes:
    attrs = " ".join(f'a{i}="1"' for i in range(n))
    return f"<workspace {attrs}><name>many</name></workspace>".encode()


def test_fifty_thousand_attributes_are_refused(emu, client):
    before = emu.dump_scenario()
    r = client.post("/rest/workspaces", content=_attributes(50_000), headers=XML)
    refused(emu, r, 400, f"at most {wxml.MAX_ATTRIBUTES}")
    assert emu.dump_scenario() == before


def test_attributes_up_to_the_limit_are_read(client):
    r = client.post("/rest/workspaces", content=_attributes(wxml.MAX_ATTRIBUTES), headers=XML)
    assert r.status_code == 201


def test_attribute_pre_scan_reads_wide_encodings():
    body = _attributes(wxml.MAX_ATTRIBUTES + 1).decode()
    for codec in ("utf-16", "utf-32", "utf-16-be"):
        with pytest.raises(wxml.Invalid, match="attributes"):
            wxml.parse(body.encode(codec))


def test_nesting_past_the_depth_limit_is_refused(emu, client):
    depth = wxml.MAX_DEPTH + 1
    body = "<workspace>" + "<a>" * depth + "</a>" * depth + "<name>d</name></workspace>"
    refused(emu, client.post("/rest/workspaces", content=body, headers=XML), 400, "depth")


def test_a_document_past_the_size_limit_is_a_413(monkeypatch):
    monkeypatch.setattr(wxml, "MAX_SIZE", 100)
    with pytest.raises(wxml.PayloadTooLarge, match="100 bytes"):
        wxml.parse(b"<a>" + b"x" * 200 + b"</a>")


EVIL = (
    '<!DOCTYPE workspace [<!ENTITY x "evil">]>'
    "<workspace><name>&x;</name><description>&x;</description></workspace>"
)
ENCODINGS = ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be", "utf-8-sig"]


def _encoded(codec: str, declared: bool, doc: str = EVIL) -> bytes:
    name = codec.replace("-sig", "").upper()
    prefix = f'<?xml version="1.0" encoding="{name}"?>' if declared else ""
    return (prefix + doc).encode(codec)


XML_WRITES = [
    ("POST", "/rest/workspaces"),
    ("PUT", "/rest/workspaces/topp"),
    ("POST", "/rest/workspaces/topp/datastores"),
    ("POST", "/rest/security/usergroup/users"),
    ("POST", "/rest/security/acl/layers"),
    ("PUT", "/rest/security/acl/catalog"),
    ("POST", "/rest/security/authproviders"),
    ("POST", "/rest/security/authfilters"),
    ("POST", "/rest/urlchecks"),
    ("PUT", "/rest/settings"),
    ("PUT", "/rest/layers/topp:states"),
    ("POST", "/rest/layergroups"),
    ("POST", "/gwc/rest/seed/topp:states.xml"),
    ("PUT", "/gwc/rest/layers/topp:states"),
    ("PUT", "/gwc/rest/gridsets/g"),
    ("PUT", "/gwc/rest/blobstores/b"),
    ("POST", "/gwc/rest/masstruncate"),
]


@pytest.mark.parametrize(("method", "path"), XML_WRITES)
@pytest.mark.parametrize("codec", ENCODINGS)
@pytest.mark.parametrize("declared", [True, False])
def test_doctype_is_refused_in_every_encoding(emu, client, method, path, codec, declared):
    before = emu.dump_scenario()
    r = client.request(method, path, content=_encoded(codec, declared), headers=XML)
    assert 400 <= r.status_code < 500 and r.text.strip(), (r.status_code, r.text)
    assert emu.dump_scenario() == before


@pytest.mark.parametrize("codec", ENCODINGS)
def test_doctype_in_a_wide_encoding_names_the_doctype(emu, client, codec):
    r = client.post("/rest/workspaces", content=_encoded(codec, True), headers=XML)
    refused(emu, r, 400, "DOCTYPE")


@pytest.mark.parametrize("codec", ["utf-16", "utf-32", "utf-8-sig"])
def test_a_plain_document_in_a_wide_encoding_is_read(client, codec):
    body = _encoded(codec, True, "<workspace><name>wide</name></workspace>")
    assert client.post("/rest/workspaces", content=body, headers=XML).status_code == 201
    assert client.get("/rest/workspaces/wide.json").status_code == 200


def test_ows_post_refuses_doctype_in_utf16(emu, client):
    doc = (
        '<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE x [<!ENTITY e "v">]>'
        '<wfs:GetFeature xmlns:wfs="http://www.opengis.net/wfs/2.0" service="WFS"'
        ' version="2.0.0"><wfs:Query typeNames="topp:states"/></wfs:GetFeature>'
    )
    r = client.post("/wfs", content=doc.encode("utf-16"), headers=XML)
    # the service is in the refused document: the OWS 1.0 report, 200 as GeoServer answers it
    assert "ExceptionReport" in r.text and "DOCTYPE" in r.text


# -- every 4xx says what was wrong -----------------------------------------------------------

FOUR_XX = [
    ("DELETE", "/rest/layers/%20", None, {}),
    ("GET", "/rest/layers/%20", None, {}),
    ("DELETE", "/rest/workspaces/%20", None, {}),
    ("DELETE", "/rest/styles/%20", None, {}),
    ("DELETE", "/rest/security/usergroup/user/%20", None, {}),
    ("DELETE", "/rest/security/usergroup/group/%20", None, {}),
    ("DELETE", "/rest/security/roles/role/%20", None, {}),
    ("GET", "/rest/security/authproviders/%20", None, {}),
    ("DELETE", "/rest/security/authfilters/%20", None, {}),
    ("DELETE", "/rest/urlchecks/%20", None, {}),
    ("DELETE", "/gwc/rest/layers/%20", None, {}),
    ("DELETE", "/gwc/rest/gridsets/%20", None, {}),
    ("DELETE", "/gwc/rest/blobstores/%20", None, {}),
    ("GET", "/rest/workspaces/topp/datastores/%20", None, {}),
    ("GET", "/rest/workspaces/topp/featuretypes/%20", None, {}),
    ("DELETE", "/rest/layergroups/%20", None, {}),
    ("POST", "/gwc/rest/seed", b"", FORM),
    ("POST", "/gwc/rest/seed", b"kill_all=", FORM),
    ("POST", "/gwc/rest/seed/topp:states", b"", FORM),
    ("POST", "/gwc/rest/seed/topp:states", b"kill_all=", FORM),
    ("POST", "/gwc/rest/seed/topp:states.json", b"", JSON),
    ("POST", "/gwc/rest/masstruncate", b"", XML),
    ("POST", "/rest/workspaces", b"", JSON),
    ("POST", "/rest/workspaces", b" ", XML),
    ("POST", "/rest/workspaces", b"{}", JSON),
    ("POST", "/rest/workspaces", b'{"workspace":{"name":" "}}', JSON),
    ("POST", "/rest/security/usergroup/users", b"{}", JSON),
    ("POST", "/rest/security/acl/layers", b'{"a.b.r": 1}', JSON),
    ("POST", "/rest/urlchecks", b"{}", JSON),
    ("POST", "/rest/styles", b"", XML),
    ("PUT", "/rest/settings", b"{}", JSON),
    ("GET", "/rest/nothing", None, {}),
    ("PATCH", "/rest/workspaces", None, {}),
    ("GET", "/rest/workspaces.yaml", None, {}),
    ("POST", "/__emulator/faults", b"", JSON),
    ("POST", "/__emulator/clock/advance", None, {}),
]


@pytest.mark.parametrize(("method", "path", "body", "headers"), FOUR_XX)
def test_every_4xx_says_what_was_wrong(emu, client, method, path, body, headers):
    before = emu.dump_scenario()
    r = client.request(method, path, content=body, headers=headers)
    assert 400 <= r.status_code < 500, (r.status_code, r.text)
    assert r.text.strip(), f"{method} {path} answered {r.status_code} with a blank body"
    if r.status_code == 404 and "%20" in path:
        assert r.text.strip() not in ("", "' '")
    assert emu.dump_scenario() == before


def test_no_route_answers_a_blank_4xx(client):
    """Every route of the table, its parameters blank (a space) or a plain name, every method,
    with no body, an empty JSON object and an empty XML element: each 4xx has a message."""
    import re

    from geoserver_emulator.http.app import all_routes

    blank = []
    count = 0
    for route in all_routes():
        path = getattr(route, "path", None)
        if path is None or path.startswith("/__emulator/reset"):
            continue
        for fill in ("%20", "x"):
            url = re.sub(r"\{[^}]+\}", fill, path)
            for method in [m for m in (route.methods or ["GET"]) if m != "HEAD"]:
                for body, ctype in (
                    (b"", None),
                    (b"{}", "application/json"),
                    (b"<x/>", "text/xml"),
                ):
                    headers = {"Content-Type": ctype} if ctype else {}
                    r = client.request(method, url, content=body, headers=headers)
                    count += 1
                    if 400 <= r.status_code < 500 and not r.text.strip():
                        blank.append((method, url, ctype, r.status_code))
    assert count > 1000
    assert blank == []


def test_no_write_route_fails_on_hostile_json(emu, client):
    """Every write route of the table, sent a 5,000-digit integer, JSON nested 5,000 deep and a
    lone surrogate: no unexpected 500."""
    import re

    from geoserver_emulator.http.app import all_routes

    bodies = [
        f'{{"a": {BIG}}}',
        "[" * 5000 + "]" * 5000,
        '{"a": "\\ud800"}',
    ]
    count = 0
    for route in all_routes():
        path = getattr(route, "path", None)
        if path is None or path.startswith("/__emulator/reset"):
            continue
        url = re.sub(r"\{[^}]+\}", "x", path)
        for method in [m for m in (route.methods or []) if m in ("POST", "PUT", "PATCH")]:
            for body in bodies:
                r = client.request(method, url, content=body, headers=JSON)
                count += 1
                assert not emu.internal_errors, (method, url, r.status_code)
    assert count > 300
    assert emu.internal_errors == []


def test_quiet_on_not_found_stays_quiet(client):
    """GeoServer's ``quietOnNotFound`` asks for an empty 404: kept, as the client asked."""
    r = client.get("/rest/workspaces/nope", params={"quietOnNotFound": "true"})
    assert r.status_code == 404 and r.text == ""


# -- name lengths ----------------------------------------------------------------------------


def _long(n: int) -> str:
    return "n" * n


def _name_writes(name: str) -> list[tuple[str, str, bytes | None, dict]]:
    j = lambda doc: json.dumps(doc).encode()  # noqa: E731
    return [
        ("POST", "/rest/workspaces", j({"workspace": {"name": name}}), JSON),
        ("POST", "/rest/workspaces", f"<workspace><name>{name}</name></workspace>".encode(), XML),
        ("POST", "/rest/namespaces", j({"namespace": {"prefix": name, "uri": "urn:x"}}), JSON),
        ("POST", "/rest/workspaces/topp/datastores", j({"dataStore": {"name": name}}), JSON),
        (
            "POST",
            "/rest/workspaces/topp/datastores",
            f"<dataStore><name>{name}</name></dataStore>".encode(),
            XML,
        ),
        ("PUT", f"/rest/workspaces/topp/datastores/{name}/file.shp", b"x", ZIP),
        (
            "POST",
            "/rest/workspaces/topp/datastores/taz_shapes/featuretypes",
            j({"featureType": {"name": name}}),
            JSON,
        ),
        ("POST", "/rest/styles", j({"style": {"name": name, "filename": "a.sld"}}), JSON),
        ("POST", "/rest/layergroups", j({"layerGroup": {"name": name}}), JSON),
        (
            "POST",
            "/rest/security/usergroup/users",
            j({"user": {"userName": name, "password": "p"}}),
            JSON,
        ),
        (
            "POST",
            "/rest/security/usergroup/users",
            f"<user><userName>{name}</userName><password>p</password></user>".encode(),
            XML,
        ),
        ("POST", f"/rest/security/usergroup/group/{name}", None, {}),
        ("POST", f"/rest/security/roles/role/{name}", None, {}),
        ("POST", "/rest/security/acl/layers", j({f"{name}.*.r": "ROLE_X"}), JSON),
        (
            "POST",
            "/rest/security/acl/layers",
            f'<rules><rule resource="{name}.*.r">ROLE_X</rule></rules>'.encode(),
            XML,
        ),
        ("POST", "/rest/security/authproviders", j({"name": name}), JSON),
        ("POST", "/rest/security/authfilters", j({"name": name}), JSON),
        ("POST", "/rest/urlchecks", j({"regexUrlCheck": {"name": name, "regex": ".*"}}), JSON),
        ("PUT", f"/gwc/rest/layers/{name}", b"<GeoServerLayer/>", XML),
        ("PUT", f"/gwc/rest/gridsets/{name}", b"<gridSet/>", XML),
        ("PUT", f"/gwc/rest/blobstores/{name}", b"<FileBlobStore/>", XML),
        ("PUT", "/rest/workspaces/topp", j({"workspace": {"name": name}}), JSON),
    ]


@pytest.mark.parametrize("which", range(len(_name_writes("x"))))
def test_names_past_the_limit_are_refused(emu, client, which):
    method, path, body, headers = _name_writes(_long(LIMIT + 1))[which]
    before = emu.dump_scenario()
    r = client.request(method, path, content=body, headers=headers)
    refused(emu, r, 400, f"limited to {LIMIT} characters")
    unchanged(emu, client, before)


def test_a_200000_character_name_is_refused(emu, client):
    before = emu.dump_scenario()
    doc = json.dumps({"workspace": {"name": _long(200_000)}})
    refused(emu, client.post("/rest/workspaces", content=doc, headers=JSON), 400, "200000")
    assert emu.dump_scenario() == before


def test_a_name_at_the_limit_is_accepted(client):
    name = _long(LIMIT)
    r = client.post("/rest/workspaces", json={"workspace": {"name": name}})
    assert r.status_code == 201 and r.headers["location"].endswith(name)
    assert client.post(f"/rest/security/usergroup/group/{name}").status_code == 201


def test_long_names_still_read_as_not_found(client):
    """The limit guards writes; a read of a long name is just not found."""
    assert client.get(f"/rest/workspaces/{_long(LIMIT + 1)}").status_code == 404


def test_the_asgi_app_refuses_it_too(emu):
    """The live server speaks ASGI: its decoded path and query are checked the same way."""
    import asyncio

    import httpx

    async def run() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=emu.asgi_app)
        async with httpx.AsyncClient(
            transport=transport, base_url="http://h/geoserver", auth=("admin", "geoserver")
        ) as c:
            return [
                await c.post("/rest/security/usergroup/group/a%01b"),
                await c.get("/rest/workspaces", params={"x": "\x02"}),
                await c.post("/rest/workspaces", json={"workspace": {"name": "a\ufffeb"}}),
            ]

    before = emu.dump_scenario()
    answers = asyncio.run(run())
    assert [r.status_code for r in answers] == [400, 400, 400]
    assert all("U+" in r.text for r in answers)
    assert emu.dump_scenario() == before
