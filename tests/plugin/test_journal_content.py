"""Journal assertions on what requests carried (JSON, body, query, headers) and on their
order; the control plane's filtered journal."""

from __future__ import annotations

import re

import pytest

STYLE = {"style": {"name": "roads", "filename": "roads.sld"}}


@pytest.fixture
def made(emu, client):
    client.post("/rest/workspaces.json", json={"workspace": {"name": "w1"}})
    client.post("/rest/styles.json?raw=false", json=STYLE, headers={"X-Trace": "abc"})
    client.get("/rest/styles.json", params={"a": "1", "b": "two"})
    client.put("/rest/styles/roads", content=b"<StyledLayerDescriptor/>",
               headers={"content-type": "application/vnd.ogc.sld+xml"})  # fmt: skip
    client.delete("/rest/workspaces/w1")
    return emu.journal


def test_json_equal_and_contains(made):
    (hit,) = made.assert_called("POST", "/rest/styles.json", json=STYLE)
    assert hit.json() == STYLE
    made.assert_called("POST", "/rest/styles.json", json_contains={"style": {"name": "roads"}})
    made.assert_called("POST", "/rest/*.json", json_contains={"workspace": {"name": "w1"}})
    assert made.calls("POST", None, json_contains={"style": {"name": "other"}}) == []
    assert made.calls("POST", None, json={"style": {"name": "roads"}}) == []  # not all of it


def test_json_failure_says_what_differs(made):
    with pytest.raises(AssertionError) as info:
        made.assert_called("POST", "/rest/styles.json", json_contains={"style": {"name": "rivers"}})
    text = str(info.value)
    assert "holding" in text and "rivers" in text
    assert "Requests matching all but the content" in text and '"roads"' in text


def test_body_query_headers(made):
    made.assert_called("PUT", "/rest/styles/roads", body="<StyledLayerDescriptor/>")
    made.assert_called("PUT", "/rest/styles/roads", body=b"<StyledLayerDescriptor/>")
    made.assert_called("PUT", "/rest/styles/roads", body=re.compile("Styled"))
    assert made.calls("PUT", None, body="<other/>") == []
    made.assert_called("GET", "/rest/styles.json", query={"a": "1"})
    made.assert_called("GET", "/rest/styles.json", query={"a": 1, "b": ["two"]})
    made.assert_called("GET", "/rest/styles.json", query="a=1&b=two")
    assert made.calls("GET", None, query={"a": "2"}) == []
    made.assert_called("POST", "/rest/styles.json", headers={"X-Trace": "abc"})
    assert made.calls("POST", None, headers={"x-trace": "no"}) == []
    made.assert_not_called("POST", "/rest/styles.json", query={"raw": "true"})


def test_unknown_criterion_is_a_type_error(made):
    with pytest.raises(TypeError, match="json_contains"):
        made.calls("GET", None, jsonn={})


def test_in_order(made):
    found = made.assert_called_in_order(
        [
            ("POST", "/rest/workspaces.json"),
            {"method": "POST", "path": "/rest/styles.json", "json_contains": {"style": {}}},
            ("PUT", "/rest/styles/roads", {"status": 400}),
            ("DELETE", "/rest/workspaces/w1"),
        ]
    )
    assert [e.method for e in found] == ["POST", "POST", "PUT", "DELETE"]


def test_in_order_failure_shows_what_came_after(made):
    with pytest.raises(AssertionError) as info:
        made.assert_called_in_order(
            [("DELETE", "/rest/workspaces/w1"), ("POST", "/rest/workspaces.json")]
        )
    text = str(info.value)
    assert "expected request 2 of 2, POST /rest/workspaces.json" in text
    assert "1. DELETE /rest/workspaces/w1" in text
    assert "came earlier: POST /rest/workspaces.json" in text


def test_in_order_bad_description(made):
    with pytest.raises(TypeError, match="expected"):
        made.assert_called_in_order(["GET /rest"])


# -- GET /__emulator/requests filters ---------------------------------------------------


def test_requests_filtered_by_method_path_status(made, client):
    def listed(query):
        r = client.get("/__emulator/requests" + query)
        assert r.status_code == 200
        return [(e["method"], e["path"]) for e in r.json()["requests"]]

    assert listed("?method=DELETE") == [("DELETE", "/rest/workspaces/w1")]
    assert listed("?path=/rest/styles/**") == [("PUT", "/rest/styles/roads")]
    assert listed("?path=/rest/styles*") == [
        ("POST", "/rest/styles.json"),
        ("GET", "/rest/styles.json"),
    ]
    assert listed("?method=post&status=201&path=/rest/*.json") == [
        ("POST", "/rest/workspaces.json"),
        ("POST", "/rest/styles.json"),
    ]
    assert listed("?status=418") == []
    assert len(listed("")) == 5


@pytest.mark.parametrize(
    "query",
    ["?status=abc", "?status=20", "?verb=GET", "?path=rest", "?path=/rest/{x}", "?path=/*a*b*c"],
)
def test_requests_filter_bad_input(made, client, query):
    r = client.get("/__emulator/requests" + query)
    assert r.status_code == 400 and r.json()["error"]


def test_entries_keep_the_answer_headers(emu, client, anon):
    """Header names in lower case; a header sent twice is kept once, its values joined."""
    anon.get("/rest/workspaces.json")
    denied = emu.journal.last
    assert denied.status == 401
    assert denied.response_headers["www-authenticate"] == 'Basic realm="GeoServer Realm"'
    assert denied.response_type == denied.response_headers["content-type"]
    emu.faults.add("GET", "/rest/about/**", status=503, headers={"Content-Type": "text/x-a"})
    client.get("/rest/about/version.json")
    faulted = emu.journal.last
    assert faulted.status == 503 and faulted.fault
    first, second = faulted.response_headers["content-type"].split(", ")
    assert first.startswith("text/plain") and second == "text/x-a"
    assert faulted.response_type == faulted.response_headers["content-type"]
