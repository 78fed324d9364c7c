"""Black-box: GET the list and one provider, formats, and who may call."""

from __future__ import annotations

import pytest
from provider_helpers import (
    ACCEPT_JSON,
    ACCEPT_XML,
    UP,
    UP_CFG,
    P,
    create,
    listed,
    order,
    xml_fields,
)

STOCK_ID = "-2f2c1b6e:1429c8e6aa5:-8000"
STOCK_JSON = {"id": STOCK_ID, "name": "default", "className": UP, "userGroupServiceName": "default"}


def test_list_stock_xml(client):
    r = client.get(P)
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/xml")
    assert r.text == (
        f"<authproviders><{UP_CFG}><id>{STOCK_ID}</id><name>default</name><className>{UP}</className>"
        f"<userGroupServiceName>default</userGroupServiceName></{UP_CFG}></authproviders>"
    )


def test_list_stock_json(client):
    r = client.get(P, headers=ACCEPT_JSON)
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/json")
    assert r.json() == {"authproviders": [STOCK_JSON]}


@pytest.mark.parametrize(
    "path, headers, fmt",
    [
        (P + ".xml", {}, "xml"),
        (P + ".json", {}, "json"),
        (P + ".json", ACCEPT_XML, "json"),  # the extension wins
        (P, ACCEPT_XML, "xml"),
        (P, ACCEPT_JSON, "json"),
        (P, {"Accept": "*/*"}, "xml"),
        (P, {"Accept": "text/html, application/json;q=0.5"}, "json"),
    ],
)
def test_list_format_from_extension_then_accept(client, path, headers, fmt):
    r = client.get(path, headers=headers)
    assert r.status_code == 200
    assert r.headers["content-type"].startswith(f"application/{fmt}")


def test_list_holds_only_the_active_providers_in_active_order(client):
    for name in ("a", "b", "c"):
        assert create(client, name).status_code == 201
    assert listed(client) == ["default", "a", "b", "c"]
    assert order(client, ["c", "default", "a"]).status_code == 200
    assert listed(client) == ["c", "default", "a"]
    r = client.get(P + ".xml")
    assert [el.split(">")[0] for el in r.text.split("<name>")[1:]] == [
        "c</name",
        "default</name",
        "a</name",
    ]


def test_empty_active_list_is_an_empty_list(emu, client, client_for):
    """With no provider enabled nobody logs in through one; root (keystore password) still can."""
    emu.state.auth_providers.active = []
    emu.state.security.root_login = True
    assert client.get(P).status_code == 401
    root = client_for(auth=("root", "geoserver"))
    assert root.get(P + ".json").json() == {"authproviders": []}
    assert root.get(P + ".xml").text == "<authproviders/>"


def test_list_unknown_extension_is_404(client):
    assert client.get(P + ".html").status_code == 404


def test_list_unacceptable_accept_is_406(client):
    r = client.get(P, headers={"Accept": "text/html"})
    assert r.status_code == 406
    assert r.json()["status"] == 406


@pytest.mark.parametrize(
    "suffix, fmt",
    [("", "xml"), (".xml", "xml"), (".json", "json"), (".JSON", "json"), (".Xml", "xml")],
)
def test_get_one(client, suffix, fmt):
    r = client.get(f"{P}/default{suffix}")
    assert r.status_code == 200
    if fmt == "json":
        assert r.json() == STOCK_JSON
    else:
        root, fields = xml_fields(r.text)
        assert root == UP_CFG
        assert fields == {
            "id": STOCK_ID,
            "name": "default",
            "className": UP,
            "userGroupServiceName": "default",
        }


def test_get_one_follows_accept(client):
    assert client.get(P + "/default", headers=ACCEPT_JSON).json() == STOCK_JSON


def test_get_one_of_a_disabled_provider(client):
    create(client, "a")
    order(client, ["default"])
    assert "a" not in listed(client)
    r = client.get(P + "/a.json")
    assert r.status_code == 200 and r.json()["name"] == "a"


@pytest.mark.parametrize("headers, fmt", [({}, "json"), (ACCEPT_JSON, "json"), (ACCEPT_XML, "xml")])
def test_get_missing_is_404_error_response(client, headers, fmt):
    r = client.get(P + "/nope", headers=headers)
    assert r.status_code == 404
    if fmt == "json":
        assert r.json() == {"status": 404, "message": "Provider 'nope' not found"}
    else:
        message = "<message>Provider 'nope' not found</message>"
        assert r.text == f"<ErrorResponse><status>404</status>{message}</ErrorResponse>"


def test_get_missing_with_xml_extension_answers_xml(client):
    r = client.get(P + "/nope.xml")
    assert r.status_code == 404 and r.text.startswith("<ErrorResponse>")


def test_path_name_with_control_character_is_400(client):
    """Text XML cannot carry is refused on every input path, the request path too (issue 18)."""
    r = client.get(P + "/a%00b", headers=ACCEPT_XML)
    assert r.status_code == 400 and r.text.startswith("<ErrorResponse>")
    assert "U+0000" in r.text


# -- who may call ---------------------------------------------------------------------------

ALL_CALLS = [
    ("GET", P, None),
    ("GET", P + "/default", None),
    ("POST", P, "{}"),
    ("PUT", P + "/default", "{}"),
    ("DELETE", P + "/default", None),
    ("PUT", P + "/order", '["default"]'),
]


@pytest.mark.parametrize("method, path, body", ALL_CALLS)
def test_anonymous_gets_401(anon, emu, method, path, body):
    r = anon.request(method, path, content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == 401
    assert r.headers["www-authenticate"] == 'Basic realm="GeoServer Realm"'
    assert emu.state.auth_providers.active == ["default"] and emu.state.security.reloads == 0


@pytest.fixture
def bob(emu, client_for):
    emu.state.users.create_user(None, "bob", "pw", True)
    return client_for(auth=("bob", "pw"))


@pytest.mark.parametrize("method, path, body", ALL_CALLS)
def test_non_admin_gets_403_error_response(bob, emu, method, path, body):
    r = bob.request(method, path, content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == 403
    assert r.json()["status"] == 403 and r.json()["message"]
    assert emu.state.auth_providers.active == ["default"] and emu.state.security.reloads == 0


def test_403_error_response_in_xml_when_asked(bob):
    r = bob.get(P, headers=ACCEPT_XML)
    assert r.status_code == 403
    assert r.text.startswith("<ErrorResponse><status>403</status><message>")


@pytest.mark.parametrize("method, path, body", ALL_CALLS)
def test_controller_repeats_the_admin_check(bob, emu, method, path, body):
    """With the REST rules opened to everyone, the controller itself still says 403."""
    emu.state.security.rest_rules = {"/**:GET,POST,PUT,DELETE": ["*"]}
    r = bob.request(method, path, content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == 403
    assert r.json() == {"status": 403, "message": "Admin role required"}
