"""The counting behind the body limits (``wire/json.py``, ``wire/xml.py``) and the end of
simulated time (``core/clock.py``): exact at the edges, never fooled by what strings,
comments or escapes hold. (The limits over HTTP: ``tests/fuzz/test_amplification.py``.)"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from geoserver_emulator import Emulator
from geoserver_emulator.core.clock import LAST_INSTANT, ClockLimit, ManualClock, StepClock
from geoserver_emulator.core.errors import Invalid, ScenarioError
from geoserver_emulator.wire import json as wjson
from geoserver_emulator.wire import xml as wxml


def test_json_values_are_counted_outside_strings():
    """51 marks outside the strings (49 commas, a brace, a bracket), 250 inside them."""
    inside = json.dumps({"x": ["a,b,[c,{d"] * 50}).encode()
    escaped = json.dumps({"x": ['\\",[,{,"\\\\'] * 50}).encode()
    for body in (inside, escaped):
        assert wjson.count_values(body, "JSON", limit=51) <= 51
        with pytest.raises(Invalid, match="at most 50 are accepted"):
            wjson.count_values(body, "JSON", limit=50)


def test_json_values_counted_in_text_and_bytes_alike():
    doc = '{"é":[1,2,{"a":[]}]}'
    assert wjson.count_values(doc, "JSON") == wjson.count_values(doc.encode(), "JSON") == 6


def test_too_many_strings_is_too_many_values_at_once():
    body = json.dumps(["a"] * 500).encode()
    with pytest.raises(Invalid, match="at most 100 are accepted"):
        wjson.count_values(body, "JSON", limit=100)


def test_json_nesting_is_refused_past_max_depth_with_its_message():
    depth = wjson.MAX_DEPTH
    assert wjson.loads("[" * depth + "]" * depth) is not None
    with pytest.raises(Invalid, match=f"more than {depth} levels deep"):
        wjson.loads("[" * (depth + 1) + "]" * (depth + 1))


def test_json_checks_still_name_where_a_bad_value_is():
    with pytest.raises(Invalid, match="at /x/1"):
        wjson.loads('{"x": ["ok", "\\u0001"]}')
    with pytest.raises(Invalid, match="names are limited"):
        wjson.loads(json.dumps({"name": "n" * 2000}))


def test_xml_elements_are_counted_before_parsing():
    limit = 10
    body = "<a>" + "<b/>" * (limit - 1) + "<!-- c --><?pi x?></a>"
    assert wxml.parse(body, max_elements=limit) is not None
    with pytest.raises(Invalid, match=f"at most {limit} are accepted"):
        wxml.parse("<a>" + "<b/>" * limit + "</a>", max_elements=limit)
    wide = ("<a>" + "<b/>" * limit + "</a>").encode("utf-16")
    with pytest.raises(Invalid, match=f"more than {limit} elements"):
        wxml.parse(wide, max_elements=limit)
    comments = "<a>" + "<!-- x -->" * (4 * limit) + "</a>"
    with pytest.raises(Invalid, match=f"more than {limit} elements"):
        wxml.parse(comments, max_elements=limit)


def test_the_doctype_check_still_runs_without_the_bytes_upper_copy():
    with pytest.raises(Invalid, match="DOCTYPE"):
        wxml.parse(b'<?xml version="1.0"?><!doctype a [<!entity x "y">]><a>&x;</a>')


# -- the end of simulated time -------------------------------------------------------------


def test_an_advance_past_the_last_instant_is_refused_and_changes_nothing():
    clock = ManualClock(datetime(9998, 12, 31, tzinfo=UTC))
    with pytest.raises(ClockLimit, match="past 9999-01-01"):
        clock.advance(86_401)
    assert clock.now() == 0
    clock.advance(86_400)
    assert clock.datetime() == LAST_INSTANT and clock.room() == 0


def test_a_step_clock_stops_at_the_last_instant():
    clock = StepClock(LAST_INSTANT - timedelta(seconds=10), step=4)
    for _ in range(5):
        clock.tick()
    assert clock.datetime() == LAST_INSTANT


def test_a_scenario_origin_at_the_last_instant_is_refused():
    with pytest.raises(ScenarioError, match="clockOrigin"):
        Emulator({"extends": "empty", "settings": {"clockOrigin": "9999-06-01T00:00:00Z"}})


def test_a_simulated_fault_delay_stops_at_the_last_instant():
    emu = Emulator("stock")
    emu.clock.advance(emu.clock.room() - 5)
    emu.faults.add("GET", "/rest/workspaces.json", status=None, delay=1e12)
    import httpx

    c = httpx.Client(
        transport=httpx.WSGITransport(app=emu.wsgi_app),
        base_url="http://localhost:8080/geoserver",
        auth=("admin", "geoserver"),
    )
    assert c.get("/rest/workspaces.json").status_code == 200
    assert emu.clock.datetime() == LAST_INSTANT
    assert not emu.internal_errors
