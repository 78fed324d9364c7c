"""The inspector's security section: users and their roles, role services, authentication
providers in their order, authentication filters, the access rules and the catalog mode,
from the scenario document of the current state."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from html import escape
from typing import Any


def _e(value: object) -> str:
    return escape("" if value is None else str(value))


def _table(head: Iterable[str], rows: Iterable[Iterable[str]], cls: str = "") -> str:
    """A table of already-escaped cells."""
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    if not body:
        return '<p class="muted">none</p>'
    th = "".join(f"<th>{_e(h)}</th>" for h in head)
    attr = f' class="{cls}"' if cls else ""
    return f"<table{attr}><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


def _rules(rules: Mapping[str, Any]) -> str:
    return _table(("rule", "roles"), ([f"<code>{_e(k)}</code>", _e(v)] for k, v in rules.items()))


def section(doc: Mapping[str, Any]) -> str:
    """The security section's content, from a scenario document."""
    users = doc.get("users", {})
    role_services = users.get("roleServices", [])
    user_roles: dict[str, list[str]] = {}
    for rs in role_services:
        for user, roles in rs.get("userRoles", {}).items():
            user_roles.setdefault(user, []).extend(roles)
    user_rows = [
        [
            _e(service.get("name")),
            f"<b>{_e(u.get('name'))}</b>",
            "yes" if u.get("enabled", True) else "no",
            _e(", ".join(user_roles.get(str(u.get("name")), []))),
        ]
        for service in users.get("services", [])
        for u in service.get("users", [])
    ]
    role_rows = [
        [_e(rs.get("name")), _e(", ".join(map(str, rs.get("roles", []))))] for rs in role_services
    ]
    providers = doc.get("authProviders", {})
    active = list(providers.get("active", []))
    by_name = {p.get("name"): p for p in providers.get("providers", [])}
    provider_rows = [
        [_e(i + 1), f"<b>{_e(n)}</b>", _e(by_name.get(n, {}).get("className", "?"))]
        for i, n in enumerate(active)
    ] + [
        ['<span class="muted">inactive</span>', _e(n), _e(p.get("className"))]
        for n, p in by_name.items()
        if n not in active
    ]
    filter_rows = [
        [f"<b>{_e(f.get('name'))}</b>", _e(f.get("className"))]
        for f in doc.get("authFilters", {}).get("filters", [])
    ]
    security = doc.get("security", {})
    body = (
        f'<p>Catalog mode: <b id="catalog-mode">{_e(security.get("catalogMode"))}</b></p>'
        f"<h3>Users</h3>{_table(('service', 'user', 'enabled', 'roles'), user_rows, 'users')}"
        f"<h3>Roles</h3>{_table(('role service', 'roles'), role_rows)}"
        "<h3>Authentication providers, in order</h3>"
        f"{_table(('#', 'provider', 'class'), provider_rows, 'providers')}"
        f"<h3>Authentication filters</h3>{_table(('filter', 'class'), filter_rows)}"
        f"<h3>Layer rules</h3>{_rules(security.get('layerRules', {}))}"
        f"<h3>Service rules</h3>{_rules(security.get('serviceRules', {}))}"
        f"<h3>REST rules</h3>{_rules(security.get('restRules', {}))}"
    )
    return body
