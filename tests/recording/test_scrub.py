"""Scrubbing: credentials and hosts out, structure kept, placeholders stable and reversible."""

from __future__ import annotations

import base64
import json

from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from geoserver_emulator.scenarios.replay import Secrets
from geoserver_emulator.scenarios.scrub import RECORDED_ORIGIN, Scrubber, body_kind, is_secret_key


def basic(user: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


def test_authorization_keeps_the_user_and_names_the_password() -> None:
    s = Scrubber()
    assert s.authorization(basic("bob", "pw1")) == "Basic bob:scrubbed-secret-1"
    assert s.authorization(basic("alice", "pw2")) == "Basic alice:scrubbed-secret-2"
    assert s.authorization(basic("bob", "pw1")) == "Basic bob:scrubbed-secret-1"
    assert s.authorization("Bearer abc.def") == "Bearer scrubbed-secret-3"
    assert s.authorization("Basic !!notbase64") == "Basic scrubbed-secret-4"


def test_secret_headers_and_hosts() -> None:
    s = Scrubber(origins=["http://gs.internal:8080"])
    out = s.headers(
        {
            "authorization": basic("admin", "geoserver"),
            "cookie": "JSESSIONID=1",
            "location": "http://gs.internal:8080/geoserver/rest/x",
            "accept": "application/json",
        }
    )
    assert out == {
        "authorization": "Basic admin:scrubbed-secret-1",
        "cookie": "scrubbed",
        "location": f"{RECORDED_ORIGIN}/geoserver/rest/x",
        "accept": "application/json",
    }


def test_json_bodies() -> None:
    s = Scrubber(origins=["http://h:1"])
    body = json.dumps(
        {
            "masterPassword": {"oldMasterPassword": "old", "newMasterPassword": "new"},
            "user": {"userName": "bob", "password": "old"},
            "filter": {
                "clientSecret": "cs",
                "sendClientSecret": True,
                "passwordParameterName": "pw",
                "href": "http:\\/\\/h:1\\/x",
            },
            "connectionParameters": {
                "entry": [{"@key": "passwd", "$": "dbpw"}, {"@key": "user", "$": "u"}]
            },
            "empty": {"password": ""},
        }
    ).encode()
    out = json.loads(s.body(body, "application/json"))
    assert out["masterPassword"] == {
        "oldMasterPassword": "scrubbed-secret-1",
        "newMasterPassword": "scrubbed-secret-2",
    }
    assert out["user"]["password"] == "scrubbed-secret-1"
    assert out["filter"]["clientSecret"] == "scrubbed-secret-3"
    assert (
        out["filter"]["sendClientSecret"] is True and out["filter"]["passwordParameterName"] == "pw"
    )
    assert out["connectionParameters"]["entry"] == [
        {"@key": "passwd", "$": "scrubbed-secret-4"},
        {"@key": "user", "$": "u"},
    ]
    assert out["empty"]["password"] == ""


def test_json_escaped_slashes_in_links_are_scrubbed() -> None:
    s = Scrubber(origins=["http://h:1"])
    assert s.body(b'{"href":"http:\\/\\/h:1\\/geoserver"}', "application/json") == (
        b'{"href":"http:\\/\\/recorded.invalid\\/geoserver"}'
    )


def test_xml_bodies() -> None:
    s = Scrubber()
    body = (
        b'<?xml version="1.0"?><user><userName>bob</userName><password>pw</password>'
        b'<connectionParameters><entry key="passwd">db</entry><entry key="host">h</entry>'
        b"</connectionParameters></user>"
    )
    out = s.body(body, "application/xml")
    assert out.startswith(b"<?xml")
    root = etree.fromstring(out)
    assert root.findtext("password") == "scrubbed-secret-1"
    assert [e.text for e in root.iter("entry")] == ["scrubbed-secret-2", "h"]


def test_untouched_bodies_keep_their_bytes() -> None:
    s = Scrubber()
    for body, ctype in (
        (b'{ "a" : 1 }', "application/json"),
        (b"<a>\n <b/></a>", "text/xml"),
        (b"{bad", None),
    ):
        assert s.body(body, ctype) == body


def test_form_bodies_and_queries() -> None:
    s = Scrubber()
    assert s.body(b"username=bob&password=pw", "application/x-www-form-urlencoded") == (
        b"username=bob&password=scrubbed-secret-1"
    )
    assert s.query("a=1&newPassword=x") == "a=1&newPassword=scrubbed-secret-2"
    assert s.query("a=1&b=2") == "a=1&b=2"


def test_disabled_scrubber_changes_nothing() -> None:
    s = Scrubber(False, origins=["http://h:1"])
    header = basic("a", "b")
    assert s.authorization(header) == header
    assert (
        s.body(b'{"password":"x","u":"http://h:1"}', "application/json")
        == b'{"password":"x","u":"http://h:1"}'
    )


def test_secret_names() -> None:
    assert all(
        map(is_secret_key, ("password", "PASSWD", "masterPassword", "clientSecret", "@passwd"))
    )
    assert not any(
        map(is_secret_key, ("sendClientSecret", "passwordParameterName", "userName", "secretive"))
    )


def test_body_kinds() -> None:
    assert body_kind("application/vnd.ogc.sld+xml", b"<a/>") == "xml"
    assert body_kind(None, b" {}") == "json"
    assert body_kind("text/plain", b"<x/>") == "xml"
    assert body_kind("application/zip", b"{") is None


passwords = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1).map(
    lambda s: "Zq9" + s
)


@settings(deadline=None)
@given(old=passwords, new=passwords)
def test_json_secrets_never_survive_and_resolve_back(old: str, new: str) -> None:
    body = json.dumps({"oldMasterPassword": old, "newMasterPassword": new, "x": "ok"}).encode()
    s = Scrubber()
    scrubbed = s.body(body, "application/json")
    assert old not in scrubbed.decode() and new not in scrubbed.decode()
    secrets = Secrets({name: value for value, name in s.names.items()})
    restored = secrets.body(scrubbed, "application/json", None)  # type: ignore[arg-type]
    assert json.loads(restored) == json.loads(body) and not secrets.unresolved


@settings(deadline=None)
@given(password=passwords.filter(lambda p: all(c.isprintable() for c in p)))
def test_xml_secrets_never_survive_and_resolve_back(password: str) -> None:
    root = etree.Element("user")
    etree.SubElement(root, "userName").text = "bob"
    etree.SubElement(root, "password").text = password
    body = etree.tostring(root, encoding="UTF-8")
    s = Scrubber()
    scrubbed = s.body(body, "text/xml")
    assert etree.fromstring(scrubbed).findtext("password") == "scrubbed-secret-1"
    restored = Secrets({"scrubbed-secret-1": password}).body(scrubbed, "text/xml", None)  # type: ignore[arg-type]
    assert etree.fromstring(restored).findtext("password") == password
