"""Helpers for the security-settings tests: request bodies in both formats and a reader user."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

CONTENT_TYPES = {"xml": "text/xml", "json": "text/json"}
READER = ("reader", "readerpw1")


def map_body(root: str, values: dict[str, str], fmt: str) -> str:
    if fmt == "json":
        return json.dumps(values)
    inner = "".join(f"<{k}>{v}</{k}>" for k, v in values.items())
    return f"<{root}>{inner}</{root}>"


def rules_body(rules: dict[str, str], fmt: str) -> str:
    if fmt == "json":
        return json.dumps(rules)
    inner = "".join(f'<rule resource="{k}">{v}</rule>\n' for k, v in rules.items())
    return f"<rules>\n{inner}</rules>\n"


def send(client, method: str, url: str, body: str, fmt: str, content_type: str | None = None):
    headers = {"Content-Type": content_type or CONTENT_TYPES[fmt]}
    return client.request(method, url, content=body.encode(), headers=headers)


def read_rules(client, kind: str, fmt: str) -> dict[str, set[str]]:
    """The rule set as key → set of roles, read in ``fmt``."""
    r = client.get(f"/rest/security/acl/{kind}.{fmt}")
    assert r.status_code == 200, r.text
    if fmt == "json":
        data = r.json()
    else:
        from lxml import etree

        root = etree.fromstring(r.content)
        assert root.tag == "rules"
        data = {el.get("resource"): el.text or "" for el in root}
    return {k: {x.strip() for x in v.split(",")} for k, v in data.items()}


@pytest.fixture
def h() -> SimpleNamespace:
    """The helpers above, for test modules (which cannot import a conftest)."""
    return SimpleNamespace(
        map_body=map_body, rules_body=rules_body, send=send, read_rules=read_rules, READER=READER
    )


@pytest.fixture
def reader(emu, client_for):
    """A client for user ``reader`` holding only ``ROLE_READER`` (created in the users store)."""
    users = emu.state.users
    users.create_user(None, READER[0], READER[1], True)
    users.create_role(None, "ROLE_READER")
    users.assign_user_role(None, "ROLE_READER", READER[0], True)
    return client_for(auth=READER)


@pytest.fixture
def relaxed(emu):
    """REST rules that let ``ROLE_READER`` reach every security endpoint (so the controllers'
    own administrator checks answer)."""
    methods = "GET,HEAD,OPTIONS,POST,PUT,DELETE"
    emu.state.security.rest_rules = {
        f"/rest/security/**:{methods}": ["ROLE_READER", "ROLE_ADMINISTRATOR"],
        **emu.state.security.rest_rules,
    }
