"""The OGC dispatcher as data: the services' tables, the rows GeoServer has and the emulator
does not, the coverage page made from them, and the access-rule hook every service asks."""

from __future__ import annotations

import pytest
from lxml import etree

from geoserver_emulator.areas.ows import access, dispatch
from geoserver_emulator.areas.ows.routes import SERVICES, service
from geoserver_emulator_pytest.coverage import markdown

OWS11 = "{http://www.opengis.net/ows/1.1}"


@pytest.mark.parametrize("name", sorted(SERVICES))
def test_every_service_has_a_table_with_one_row_per_operation(name):
    found = service(name)
    assert found is not None and found.name == name
    names = [op.name.lower() for op in found.operations]
    assert len(names) == len(set(names))
    for op in found.operations:
        assert (op.handler is None) == (op.support == dispatch.NOT_EMULATED) or (
            op.name == "GetCoverage"  # looked up and checked, then refused: no pixels
        )
        assert set(op.versions) <= set(found.versions)
        assert found.operation(op.name.upper()) is (op if op.handler else None)


def test_an_unknown_service_name_has_no_table():
    assert service("csw") is None


@pytest.mark.parametrize(
    ("query", "locator"),
    [
        ({"service": "WMS", "version": "1.1.1", "request": "GetStyles"}, "GetStyles"),
        ({"service": "WFS", "version": "2.0.0", "request": "LockFeature"}, "LockFeature"),
        ({"service": "WFS", "version": "2.0.0", "request": "getpropertyvalue"}, "getpropertyvalue"),
    ],
)
def test_a_row_without_a_handler_answers_as_an_unknown_operation(client, query, locator):
    r = client.get("/ows", params=query)
    root = etree.fromstring(r.content)
    found = [
        e for e in root.iter() if etree.QName(e).localname in ("ServiceException", "Exception")
    ]
    assert found, r.text
    code = found[0].get("code") or found[0].get("exceptionCode")
    assert (code, found[0].get("locator")) == ("OperationNotSupported", locator)


def test_an_operation_that_needs_a_document_refuses_key_value_pairs(client):
    r = client.get("/wfs", params={"service": "WFS", "version": "2.0.0", "request": "Transaction"})
    assert r.status_code == 400
    exc = etree.fromstring(r.content).find(f"{OWS11}Exception")
    assert exc is not None and exc.get("exceptionCode") == "OperationNotSupported"
    assert "must be POSTed as XML" in r.text


def test_gettile_parameters_are_checked_in_geowebcaches_order(client):
    query = {"service": "WMTS", "request": "GetTile", "layer": "topp:states"}
    r = client.get("/gwc/service/wmts", params=query)
    exc = etree.fromstring(r.content).find(f"{OWS11}Exception")
    assert exc is not None
    assert (exc.get("exceptionCode"), exc.get("locator")) == ("MissingParameterValue", "FORMAT")
    assert exc.findtext(f"{OWS11}ExceptionText") == "Unable to determine requested FORMAT, null"


def test_the_coverage_page_lists_every_operation_of_every_table():
    page = markdown()
    assert "## OGC operations" in page
    for name in SERVICES:
        found = service(name)
        assert found is not None
        for op in found.operations:
            versions = ", ".join(op.versions or found.versions)
            assert f"| {name.upper()} | {versions} | {op.name} | {op.support}" in page
    assert "| WFS | 2.0.0 | DescribeStoredQueries | canned" in page
    assert "| WMS | 1.1.1 | GetStyles | not emulated |" in page


def test_the_coverage_page_marks_no_op_routes():
    assert "| `/rest/reset` | POST, PUT (no-op:" in markdown()


# -- the access rules and their extension hook -------------------------------------------------


def _refuse(service_name: str, operation: str, name: str | None, intent: str):
    """An access-rule extension refusing one question, with no opinion on the others."""

    def rule(state, question: access.Access) -> bool | None:
        asked = (question.service, question.operation, question.name, question.intent)
        return False if asked == (service_name, operation, name, intent) else None

    return rule


def test_an_extension_rule_refusing_an_operation_challenges_the_caller(monkeypatch, anon, client):
    extension = _refuse("WFS", "GetFeature", None, "call")
    monkeypatch.setattr(access, "RULES", (extension, *access.RULES))
    query = {"service": "WFS", "version": "2.0.0", "request": "GetFeature", "typeNames": "x"}
    r = anon.get("/wfs", params=query)
    assert r.status_code == 401 and r.headers["www-authenticate"].startswith("Basic")
    assert client.get("/wfs", params=query).status_code == 403
    caps = {"service": "WFS", "version": "2.0.0", "request": "GetCapabilities"}
    assert anon.get("/wfs", params=caps).status_code == 200  # the other operations as before


def test_an_extension_rule_refusing_a_layers_data_for_one_operation(monkeypatch, emu, anon, h):
    extension = _refuse("WMS", "GetMap", "states", "read")
    monkeypatch.setattr(access, "RULES", (extension, *access.RULES))
    query = {
        "service": "WMS",
        "version": "1.1.1",
        "request": "GetMap",
        "layers": "topp:states",
        "styles": "",
        "srs": "EPSG:4326",
        "bbox": "-130,20,-60,55",
        "width": "64",
        "height": "32",
        "format": "image/png",
    }
    code, locator, _ = h.exception(anon.get("/wms", params=query))
    assert (code, locator) == ("LayerNotDefined", "layers")  # HIDE: as if absent
    assert "topp:states" in h.layer_names(h.caps(anon))  # listed: the rule is about GetMap
    emu.state.security.catalog_mode = "CHALLENGE"
    assert anon.get("/wms", params=query).status_code == 401


def test_the_stock_rules_decide_when_no_extension_has_an_opinion(emu):
    from geoserver_emulator.areas.access import ANONYMOUS

    question = access.Access(ANONYMOUS, "WMS", "GetMap", "topp", "states", "read")
    assert access.allowed(emu.state, question)
    emu.state.security.replace_rules("layers", {"topp.*.r": "ROLE_READER"})
    assert not access.allowed(emu.state, question)
    assert access.allowed(emu.state, question, rules=(lambda state, q: True,))
    assert access.allowed(emu.state, question, rules=())  # nobody has an opinion: yes


@pytest.mark.parametrize(
    ("mode", "intent", "seen"),
    [
        ("HIDE", "list", "hidden"),
        ("HIDE", "read", "hidden"),
        ("MIXED", "list", "hidden"),
        ("MIXED", "describe", "challenge"),
        ("MIXED", "read", "challenge"),
        ("CHALLENGE", "list", "shown"),
        ("CHALLENGE", "describe", "shown"),
        ("CHALLENGE", "read", "challenge"),
        ("CHALLENGE", "write", "challenge"),
        ("HIDE", "write", "hidden"),
    ],
)
def test_the_catalog_mode_says_what_a_refusal_looks_like(mode, intent, seen):
    assert access.visibility(mode, False, intent) == seen
    assert access.visibility(mode, True, intent) == "shown"
