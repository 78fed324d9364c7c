"""``/rest/security/filterchain`` over HTTP: list, view, create (with position), update,
delete, order, in XML and JSON, with GeoServer's statuses; nothing stored on a refusal."""

from __future__ import annotations

import pytest

from geoserver_emulator import Emulator

BASE = "/rest/security/filterchain"
XML = {"Content-Type": "application/xml"}
HTML_CHAIN = "org.geoserver.security.HtmlLoginFilterChain"
STOCK = ["web", "webLogin", "webLogout", "rest", "gwc", "default"]


def chain_xml(name: str, cls: str = HTML_CHAIN, path: str = "/web/**,/gwc/rest/web/**,/") -> bytes:
    return (
        f'<filters name="{name}" class="{cls}" path="{path}" disabled="false"'
        ' allowSessionCreation="true" ssl="false" matchHTTPMethod="false"'
        ' interceptorName="interceptor" exceptionTranslationName="exception">'
        "<filter>rememberme</filter><filter>form</filter><filter>anonymous</filter></filters>"
    ).encode()


def chain_json(name: str, path: str = "/web/**,/gwc/rest/web/**,/") -> dict:
    return {
        "filters": {
            "@name": name,
            "@class": HTML_CHAIN,
            "@path": path,
            "@disabled": False,
            "@allowSessionCreation": True,
            "@ssl": False,
            "@matchHTTPMethod": False,
            "@interceptorName": "interceptor",
            "@exceptionTranslationName": "exception",
            "filter": ["rememberme", "form", "anonymous"],
        }
    }


def names(client) -> list[str]:
    return [c["@name"] for c in client.get(f"{BASE}.json").json()["filterchain"]["filters"]]


def test_the_stock_chains(client):
    assert names(client) == STOCK
    xml = client.get(BASE).text
    assert xml.startswith('<filterchain><filters name="web" class="org.geoserver.security.Html')
    rest = client.get(f"{BASE}/rest.json").json()["filters"]
    assert rest["@path"] == "/rest.*,/rest/**" and rest["filter"] == ["basic", "anonymous"]
    assert rest["@interceptorName"] == "restInterceptor"


@pytest.mark.parametrize("fmt", ["xml", "json"])
def test_create_view_update_delete(client, fmt):
    if fmt == "xml":
        r = client.post(BASE, content=chain_xml("t1"), headers=XML)
    else:
        r = client.post(BASE, json=chain_json("t1"))
    assert r.status_code == 201, r.text
    assert r.headers["location"].endswith(f"{BASE}/t1")
    assert names(client) == [*STOCK, "t1"]
    view = client.get(f"{BASE}/t1.json").json()["filters"]
    assert view["@class"] == HTML_CHAIN and len(view["filter"]) == 3
    assert client.get(f"{BASE}/t1.xml").text.startswith('<filters name="t1"')
    r = client.put(f"{BASE}/t1", json=chain_json("t1", path="/web/**,/"))
    assert r.status_code == 200
    assert client.get(f"{BASE}/t1.json").json()["filters"]["@path"] == "/web/**,/"
    assert client.delete(f"{BASE}/t1").status_code == 200
    assert client.get(f"{BASE}/t1").status_code == 404
    assert client.delete(f"{BASE}/t1").status_code == 410


def test_position_on_create_and_update(client):
    assert client.post(f"{BASE}?position=0", content=chain_xml("a"), headers=XML).status_code == 201
    assert names(client)[0] == "a"
    r = client.put(f"{BASE}/a?position=3", content=chain_xml("a"), headers=XML)
    assert r.status_code == 200
    assert names(client)[3] == "a"


def test_order(client):
    order = list(reversed(STOCK))
    assert client.put(f"{BASE}/order", json={"order": order}).status_code == 200
    assert names(client) == order
    xml = "<order>" + "".join(f"<order>{n}</order>" for n in STOCK) + "</order>"
    r = client.put(f"{BASE}/order", content=xml.encode(), headers=XML)
    assert r.status_code == 200 and names(client) == STOCK
    for method in ("GET", "POST", "DELETE"):
        assert client.request(method, f"{BASE}/order").status_code == 405


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "says"),
    [
        ("POST", BASE, chain_json("web"), 400, "already exists"),
        ("POST", BASE, chain_json("bad name!"), 400, "Invalid chain name"),
        ("POST", BASE, chain_json("order"), 400, "reserved"),
        ("POST", f"{BASE}?position=99", chain_json("x"), 400, "position out of range"),
        (
            "POST",
            BASE,
            {"filters": {"@name": "x", "@class": "java.lang.Runtime"}},
            400,
            "Unsupported className",
        ),  # fmt: skip
        ("POST", BASE, [1, 2], 400, "Malformed payload"),
        ("PUT", f"{BASE}/web", chain_json("other"), 400, "must match payload name"),
        ("PUT", f"{BASE}/nope", chain_json("nope"), 404, "Cannot find the filter chain nope"),
        ("PUT", f"{BASE}/order", {"order": ["web"]}, 400, "exactly the current set"),
        ("PUT", f"{BASE}/order", {"order": []}, 400, "`order` list required"),
        ("PUT", f"{BASE}/order", {"nothing": 1}, 400, "`order` array required"),
        ("DELETE", f"{BASE}/webLogin", None, 400, "cannot be removed"),
        ("DELETE", f"{BASE}/nope", None, 410, "Cannot delete nope as no filter exists"),
        ("GET", f"{BASE}/nope", None, 404, "Cannot find the filter chain nope"),
    ],
)
def test_refusals_store_nothing(client, method, path, body, status, says):
    before = client.get(f"{BASE}.json").json()
    kwargs = {"json": body} if body is not None else {}
    r = client.request(method, path, **kwargs)
    assert r.status_code == status, r.text
    assert r.json() == {"status": status, "message": r.json()["message"]}
    assert says in r.json()["message"]
    assert client.get(f"{BASE}.json").json() == before


def test_bad_bodies_and_media_types(client):
    assert client.post(BASE, content=b"<filters", headers=XML).status_code == 400
    assert (
        client.post(BASE, content=b"x", headers={"Content-Type": "text/plain"}).status_code == 415
    )
    assert client.get(BASE, headers={"Accept": "text/html"}).status_code == 406
    r = client.get(f"{BASE}/nope.xml")
    assert r.status_code == 404 and r.text.startswith("<ErrorResponse>")


def test_only_the_administrator(client_for, anon):
    assert anon.get(BASE).status_code == 401
    client = client_for()
    body = {"user": {"userName": "bob", "password": "pw", "enabled": True}}
    assert client.post("/rest/security/usergroup/users", json=body).status_code == 201
    bob = client_for(auth=("bob", "pw"))
    assert bob.get(BASE).status_code == 403
    assert bob.delete(f"{BASE}/web").status_code == 403
    assert "web" in names(client)


def test_chains_round_trip_through_the_scenario(client, emu):
    client.post(f"{BASE}?position=1", json=chain_json("kept"))
    dumped = emu.dump_scenario()
    assert [c["name"] for c in dumped["filterChains"]["chains"]][1] == "kept"
    again = Emulator(dumped)
    assert [c.name for c in again.state.filter_chains.chains] == [
        c.name for c in emu.state.filter_chains.chains
    ]
