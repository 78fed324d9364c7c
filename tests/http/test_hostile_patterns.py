"""Catastrophic patterns over HTTP: each answers, with the right result or a 400 that says
what ran out, and changes nothing (issue 18, item 4). The cases are the ones that hung the
server: LIKE with many ``%``, many URL checks against a long URL, nested repeats, ant
patterns against long paths. No timings are asserted: an answer at all is the property."""

from __future__ import annotations

import pytest

from geoserver_emulator.areas.urlchecks.model import UrlCheck

MOSAIC = "/rest/workspaces/nurc/coveragestores/mosaic/coverages/mosaic/index/granules.json"
LONG_URL = "https://example.com/" + "a" * 8000
CUBIC = ".*a.*a.*b"


def locations(r) -> list[str]:
    assert r.status_code == 200, r.text
    return [f["properties"]["location"] for f in r.json()["features"]]


@pytest.mark.parametrize("op", ["LIKE", "ILIKE"])
def test_like_with_many_wildcards_answers_correctly(client, op):
    assert locations(client.get(MOSAIC, params={"filter": f"location {op} '%%%%%%%%%%%%x'"})) == []
    found = locations(client.get(MOSAIC, params={"filter": f"location {op} '%%%%%%%%%%%%_4.TIF'"}))
    expected = ["global_mosaic_14.tif", "global_mosaic_24.tif", "global_mosaic_4.tif"]
    assert sorted(found) == (expected if op == "ILIKE" else [])


def test_delete_by_a_catastrophic_like_removes_nothing(emu, client):
    before = emu.dump_scenario()
    cql = "location LIKE '%%%%%%%%%%%%x'"
    r = client.delete(MOSAIC.removesuffix(".json"), params={"filter": cql})
    assert r.status_code == 200
    assert emu.dump_scenario() == before


def test_wfs_cql_like_over_long_values(client):
    props = (
        b"_=name:String,geom:Point:srid=4326\n"
        + b"p.1=" + b"a" * 5000 + b"|POINT(1 1)\n"
        + b"p.2=" + b"a" * 5000 + b"x|POINT(2 2)\n"
    )  # fmt: skip
    r = client.put(
        "/rest/workspaces/sf/datastores/long/file.properties",
        content=props,
        headers={"Content-Type": "text/plain"},
    )
    assert r.status_code == 201, r.text
    r = client.get(
        "/wfs",
        params={
            "service": "WFS",
            "version": "1.1.0",
            "request": "GetFeature",
            "typeName": "sf:long",
            "outputFormat": "application/json",
            "CQL_FILTER": "name LIKE '%%%%%%%%%%%%x'",
        },
    )
    assert r.status_code == 200, r.text
    assert [f["id"] for f in r.json()["features"]] == ["p.2"]


def many_cubic_checks(emu, count: int = 1200) -> None:
    emu.state.urlchecks.checks = [UrlCheck(f"c{i}", CUBIC, enabled=True) for i in range(count)]


def test_many_url_checks_against_a_long_url_stop_with_a_400(emu, client):
    many_cubic_checks(emu)
    r = client.get("/__emulator/urlchecks/evaluate", params={"url": LONG_URL})
    assert r.status_code == 400
    assert "URL checks against this URL took longer than the emulator allows" in r.text


def test_remote_mosaic_harvest_through_many_url_checks_is_a_400(emu, client):
    many_cubic_checks(emu)
    before = emu.dump_scenario()
    r = client.post(
        "/rest/workspaces/nurc/coveragestores/mosaic/remote.imagemosaic",
        content=LONG_URL,
        headers={"Content-Type": "text/plain"},
    )
    assert r.status_code == 400
    assert "took longer than the emulator allows" in r.text
    assert emu.dump_scenario() == before


def test_a_few_url_checks_still_decide(emu, client):
    emu.state.urlchecks.checks = [
        UrlCheck("slow", CUBIC, enabled=True),
        UrlCheck("site", "https://example\\.com/.*", enabled=True),
    ]
    r = client.get("/__emulator/urlchecks/evaluate", params={"url": LONG_URL})
    assert r.status_code == 200
    assert r.json()["matchedBy"] == "site" and r.json()["timedOut"] == ["slow"]


EXPLOSIVE = ["(a{1000}){1000}", "((a{100}){100}){100}", "(" * 400 + ")" * 400]


@pytest.mark.parametrize("regex", EXPLOSIVE)
def test_url_checks_with_explosive_repeats_are_refused(emu, client, regex):
    r = client.post("/rest/urlchecks", json={"regexUrlCheck": {"name": "x", "regex": regex}})
    assert r.status_code == 400 and "regular expression" in r.text
    assert emu.state.urlchecks.checks == []


def test_parameter_filter_with_explosive_repeats_is_refused(emu, client):
    body = (
        "<GeoServerLayer><name>topp:states</name><enabled>true</enabled>"
        "<parameterFilters><regexParameterFilter><key>X</key><defaultValue></defaultValue>"
        "<regex>((a{1000}){1000}){1000}</regex></regexParameterFilter></parameterFilters>"
        "</GeoServerLayer>"
    )
    before = emu.dump_scenario()
    r = client.put(
        "/gwc/rest/layers/topp:states.xml", content=body, headers={"Content-Type": "text/xml"}
    )
    assert r.status_code == 400 and "Invalid regexParameterFilter regex" in r.text
    assert emu.dump_scenario() == before


@pytest.mark.parametrize("param", ["manifest", "key", "value"])
def test_about_filters_that_run_out_are_a_400(client, param):
    r = client.get("/rest/about/manifest.json", params={param: "(.*?){30}\\d"})
    assert r.status_code in (200, 400), r.text
    if r.status_code == 400:
        assert "takes too long" in r.text or "took longer" in r.text
    r = client.get("/rest/about/manifest.json", params={param: "((a{1000}){1000}){1000}"})
    assert r.status_code == 400 and "repeat counts" in r.text


def test_rest_rule_wildcards_against_a_long_path(emu, client):
    emu.state.security.rest_rules = {
        "/rest/*a*a*a*a*a*a*a*a*b/**:GET": ["ROLE_NOBODY"],
        **emu.state.security.rest_rules,
    }
    r = client.get("/rest/" + "a" * 6000 + "/x")
    assert r.status_code == 404  # no rule above matched: the administrator's rule applies
    r = client.get("/rest/" + "a" * 6000 + "b/x")
    assert r.status_code == 403


def test_a_rest_rule_regex_that_runs_out_refuses_the_request(emu, client):
    emu.state.security.rest_rules = {
        "/rest/{x:(?:(.*?){30})\\d}/**:GET": ["ROLE_ADMINISTRATOR"],
        **emu.state.security.rest_rules,
    }
    r = client.get("/rest/" + "a" * 60 + "/x")
    assert r.status_code == 400 and "takes too long to match this path" in r.text
    assert client.get("/__emulator/health").status_code == 200
