"""The hypothesis strategies draw payloads that the spec (and GeoServer's validation) accept."""

from __future__ import annotations

import json
import re

from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from geoserver_emulator_pytest import strategies as gs

NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
# GeoServer's rule-key checks (reference security.md section 5.3)
LAYER_KEY = re.compile(r"(?P<ws>[^.]+)\.(?P<layer>[^.]+)\.(?P<mode>[rwa])")
SERVICE_KEY = re.compile(r"(?P<svc>[^.]+)\.(?P<method>[^.]+)")
REST_KEY = re.compile(r"\S+:(GET|POST|PUT|DELETE|HEAD)(,(GET|POST|PUT|DELETE|HEAD))*")
SLD = "{http://www.opengis.net/sld}"
FAST = settings(max_examples=40, deadline=None)


def parse(text: str) -> etree._Element:
    return etree.fromstring(text.encode("utf-8"))


@FAST
@given(gs.names())
def test_names(name):
    assert NAME.fullmatch(name) and len(name) <= 16


@FAST
@given(gs.seed_requests())
def test_seed_requests(request):
    (body,) = request.values()
    assert set(request) == {"seedRequest"} and ":" in body["name"]
    assert ("srs" in body) != ("gridSetId" in body)
    grid = body.get("gridSetId") or next(
        g for g, v in gs.GRID_SETS.items() if v[0] == body["srs"]["number"]
    )
    _, (minx, miny, maxx, maxy), levels = gs.GRID_SETS[grid]
    assert 0 <= body["zoomStart"] <= body["zoomStop"] < levels
    assert (
        body["type"] in gs.SEED_TYPES and body["format"] in gs.FORMATS and body["threadCount"] >= 1
    )
    if "bounds" in body:
        x0, y0, x1, y1 = map(float, body["bounds"]["coords"]["double"])
        assert minx <= x0 < x1 <= maxx and miny <= y0 < y1 <= maxy
    json.dumps(request)
    root = parse(gs.seed_request_xml(request))
    assert root.tag == "seedRequest" and root.findtext("type") == body["type"]
    assert int(root.findtext("zoomStop")) == body["zoomStop"]
    if "bounds" in body:
        assert len(root.findall("bounds/coords/double")) == 4
    for entry, expected in zip(
        root.findall("parameters/entry"), body.get("parameters", {}).get("entry", []), strict=True
    ):
        assert [s.text for s in entry.findall("string")] == expected["string"]


@FAST
@given(gs.auth_provider_configs())
def test_auth_provider_configs(config):
    body = config.get("authprovider", config)
    assert set(body) == {"name", "className", "userGroupServiceName"}
    assert body["name"].lower() != "order" and body["className"].startswith(
        "org.geoserver.security."
    )
    root = parse(gs.auth_provider_xml(config))
    assert (
        root.tag.endswith("UsernamePasswordAuthenticationProviderConfig")
        and root.findtext("name") == body["name"]
    )


@FAST
@given(gs.auth_provider_configs(prefix="org.service", envelope=True))
def test_auth_provider_prefix_and_envelope(config):
    assert set(config) == {"authprovider"} and config["authprovider"]["className"].startswith(
        "org.service."
    )


@FAST
@given(gs.auth_filter_configs())
def test_auth_filter_configs(config):
    ((cls, body),) = config.items()
    assert cls.startswith("org.geoserver.security.") and cls.endswith("Config")
    assert NAME.fullmatch(body["name"]) and body["className"].startswith("org.geoserver.security.")
    if cls.endswith("SecurityInterceptorFilterConfig"):
        assert isinstance(body["allowIfAllAbstainDecisions"], bool)
    if cls.endswith("OpenIdConnectFilterConfig"):
        assert body["roleSource"]["$"] == "RoleService" and body["scopes"]
    root = parse(gs.auth_filter_xml(config))
    assert root.tag == cls and root.findtext("name") == body["name"]
    if "roleSource" in body:
        assert root.find("roleSource").get("class") == body["roleSource"]["@class"]


@FAST
@given(gs.access_rules("layers", min_size=1))
def test_layer_rules_pass_geoserver_validation(rules):
    for key, roles in rules.items():
        m = LAYER_KEY.fullmatch(key)
        assert m, key
        if m["ws"] == "*" or m["mode"] == "a":
            assert m["layer"] == "*"
        assert roles == "*" or all(r in gs.RULE_ROLES for r in roles.split(","))
    root = parse(gs.access_rules_xml(rules))
    assert {r.get("resource"): r.text for r in root.findall("rule")} == rules


@FAST
@given(gs.access_rule_keys("services"))
def test_service_rule_keys(key):
    m = SERVICE_KEY.fullmatch(key)
    assert m and (m["svc"] != "*" or m["method"] == "*")


@FAST
@given(gs.access_rule_keys("rest"))
def test_rest_rule_keys(key):
    assert REST_KEY.fullmatch(key) and key.startswith("/")


def test_unknown_rule_kind():
    try:
        gs.access_rule_keys("wms")
    except ValueError as exc:
        assert "layers, services or rest" in str(exc)
    else:  # pragma: no cover
        raise AssertionError("no error")


@FAST
@given(gs.sld_styles())
def test_sld_styles(sld):
    root = parse(sld)
    assert root.tag == f"{SLD}StyledLayerDescriptor" and root.get("version") == "1.0.0"
    layer_name = root.findtext(f"{SLD}NamedLayer/{SLD}Name")
    assert root.findtext(f"{SLD}NamedLayer/{SLD}UserStyle/{SLD}Name") == layer_name
    rules = root.findall(f".//{SLD}Rule")
    assert 1 <= len(rules) <= 3
    for rule in rules:
        symbolizers = [c for c in rule if c.tag.endswith("Symbolizer")]
        assert len(symbolizers) == 1
        for css in rule.iter(f"{SLD}CssParameter"):
            if css.get("name") in ("fill", "stroke"):
                assert re.fullmatch(r"#[0-9A-F]{6}", css.text)


@FAST
@given(gs.sld_styles(st.just("roads")))
def test_sld_style_name_can_be_chosen(sld):
    assert parse(sld).findtext(f"{SLD}NamedLayer/{SLD}UserStyle/{SLD}Name") == "roads"


@FAST
@given(gs.style_entries())
def test_style_entries(entry):
    assert entry["style"]["filename"] == entry["style"]["name"] + ".sld"
    assert parse(gs.style_entry_xml(entry)).findtext("filename") == entry["style"]["filename"]
