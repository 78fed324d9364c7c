"""Request bodies and small readers shared by the provider tests."""

from __future__ import annotations

import json
from typing import Any

import httpx
from lxml import etree

P = "/rest/security/authproviders"
UP = "org.geoserver.security.auth.UsernamePasswordAuthenticationProvider"
UP_CFG = "org.geoserver.security.config.UsernamePasswordAuthenticationProviderConfig"
LDAP = "org.service.security.auth.LdapAuthenticationProvider"
LDAP_CFG = "org.service.security.config.LdapAuthenticationProviderConfig"
JDBC = "org.geoserver.security.jdbc.JDBCConnectAuthProvider"
JDBC_CFG = "org.geoserver.security.jdbc.config.JDBCConnectAuthProviderConfig"
XML = {"Content-Type": "application/xml"}
JSON = {"Content-Type": "application/json"}
ACCEPT_XML = {"Accept": "application/xml"}
ACCEPT_JSON = {"Accept": "application/json"}


def up_xml(
    name: str,
    ugs: str | None = "default",
    class_name: str | None = UP,
    root: str = UP_CFG,
    id_: str | None = None,
) -> str:
    parts = [f"<{root}>"]
    if id_ is not None:
        parts.append(f"<id>{id_}</id>")
    parts.append(f"<name>{name}</name>")
    if class_name is not None:
        parts.append(f"<className>{class_name}</className>")
    if ugs is not None:
        parts.append(f"<userGroupServiceName>{ugs}</userGroupServiceName>")
    parts.append(f"</{root}>")
    return "".join(parts)


def up_json(
    name: str, ugs: str | None = "default", class_name: str | None = UP, **more: Any
) -> dict[str, Any]:
    out: dict[str, Any] = {"name": name}
    if class_name is not None:
        out["className"] = class_name
    if ugs is not None:
        out["userGroupServiceName"] = ugs
    out.update(more)
    return out


def send(
    client: httpx.Client, method: str, path: str, body: Any, fmt: str, **kw: Any
) -> httpx.Response:
    """A request with a provider body in ``fmt``; dicts are JSON, strings XML."""
    headers = {**(XML if fmt == "xml" else JSON), **kw.pop("headers", {})}
    content = body if isinstance(body, str | bytes) else json.dumps(body)
    return client.request(method, path, content=content, headers=headers, **kw)


def create(
    client: httpx.Client, name: str, fmt: str = "json", position: int | None = None, **kw: Any
) -> httpx.Response:
    body = up_xml(name, **kw) if fmt == "xml" else {"authprovider": up_json(name, **kw)}
    params = {} if position is None else {"position": str(position)}
    return send(client, "POST", P, body, fmt, params=params)


def listed(client: httpx.Client) -> list[str]:
    r = client.get(P + ".json")
    assert r.status_code == 200, r.text
    return [p["name"] for p in r.json()["authproviders"]]


def order(client: httpx.Client, names: list[str]) -> httpx.Response:
    return client.put(P + "/order", json={"order": names})


def xml_fields(text: str | bytes) -> tuple[str, dict[str, str]]:
    """(root tag, {child: text}) of a one-level XML document."""
    root = etree.fromstring(text.encode() if isinstance(text, str) else text)
    return root.tag, {c.tag: c.text or "" for c in root}
