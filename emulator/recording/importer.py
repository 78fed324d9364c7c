"""``geoserver-emulator import``: a running server's configuration, read through its REST API,
written as a scenario file the emulator loads.

Only GET requests are made. The scenario ``extends`` ``empty`` (the built-in security defaults)
and adds, section by section, what the server has: ``catalog`` and ``styles`` (bodies saved
beside the scenario; ``import_catalog.py``), ``users``, ``authProviders``, ``authFilters``,
``security``, ``urlChecks``, ``about`` (versions and manifests) and ``seeding`` (tile layers,
custom gridsets; ``import_seeding.py``) and ``serverSettings`` (global and workspace
settings, services, logging, fonts, templates; ``import_settings.py``). An endpoint the server does
not have (404) or refuses (403) leaves its part out, with a note; a section the emulator
does not accept is left out with the reason.

Secrets are not written unless asked (``include_secrets``): the keystore password is left
at the default, secret fields (``clientSecret``, connection ``passwd``) become ``scrubbed``.
Passwords cannot be read through REST: imported users get ``geoserver``, except the
importing user, who keeps the password it logged in with when secrets are included.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from lxml import etree

from ..areas.sections import SECTIONS
from ..core.errors import EmulatorError, ScenarioError
from ..core.record import field, record
from ..scenarios.scrub import is_secret_key
from ..wire import xml as wxml
from .import_values import as_list, names, seg, unwrap
from .recorder import split_base

DEFAULT_PASSWORD = "geoserver"
SCRUBBED = "scrubbed"


class ImportFailed(Exception):
    """The server could not be read at all (unreachable, credentials refused)."""


@record
class ImportResult:
    path: Path
    document: dict[str, Any]
    notes: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return "".join(f"{note}\n" for note in self.notes) + f"wrote {self.path}\n"


class Reader:
    """Read-only REST access to the server; answers None (and notes why) when a path is
    missing or forbidden."""

    def __init__(
        self, base_url: str, user: str, password: str, transport: httpx.BaseTransport | None = None
    ) -> None:
        origin, self.context_path = split_base(base_url)
        self.base_url = base_url
        self.client = httpx.Client(
            base_url=origin, auth=(user, password), timeout=60.0, transport=transport
        )
        self.user, self.password = user, password
        self.notes: list[str] = []
        self.answered = 0
        """how many GETs the server answered 200"""

    def get(self, path: str, accept: str) -> bytes | None:
        try:
            answer = self.client.get(self.context_path + path, headers={"Accept": accept})
        except httpx.HTTPError as exc:
            raise ImportFailed(f"{self.base_url}: {type(exc).__name__}: {exc}") from None
        if answer.status_code == 401:
            raise ImportFailed(
                f"{self.base_url}: the server refused the credentials of {self.user}"
            )
        if answer.status_code == 200:
            self.answered += 1
            return answer.content
        if answer.status_code != 404:
            self.notes.append(f"GET {path}: {answer.status_code}, left out")
        return None

    def json(self, path: str) -> Any:
        raw = self.get(path, "application/json")
        if raw is None:
            return None
        try:
            return json.loads(raw)
        except ValueError:
            self.notes.append(f"GET {path}: not JSON, left out")
            return None

    def xml(self, path: str) -> etree._Element | None:
        raw = self.get(path, "application/xml")
        if raw is None:
            return None
        try:
            root: etree._Element = wxml.parse(
                raw, "answer", names=False, max_elements=wxml.TOOL_ELEMENTS
            )
            return root
        except EmulatorError:
            self.notes.append(f"GET {path}: not XML, left out")
            return None

    def close(self) -> None:
        self.client.close()


# -- JSON helpers for GeoServer's shapes ------------------------------------------------------


# -- sections -----------------------------------------------------------------------------


@record
class Context:
    reader: Reader
    include_secrets: bool
    out: Path

    def secret(self, value: str) -> str:
        return value if self.include_secrets else SCRUBBED


def read_security(ctx: Context) -> dict[str, Any] | None:
    r = ctx.reader
    sec: dict[str, Any] = {}
    mode = r.json("/rest/security/acl/catalog.json")
    if isinstance(mode, dict) and isinstance(mode.get("mode"), str):
        sec["catalogMode"] = mode["mode"]
    for key, part in (
        ("layerRules", "layers"),
        ("serviceRules", "services"),
        ("restRules", "rest"),
    ):
        rules = r.json(f"/rest/security/acl/{part}.json")
        if isinstance(rules, dict):
            sec[key] = {str(k): str(v) for k, v in rules.items()}
    if ctx.include_secrets:
        pw = r.json("/rest/security/masterpw.json")
        if isinstance(pw, dict) and isinstance(pw.get("oldMasterPassword"), str):
            sec["keystorePassword"] = pw["oldMasterPassword"]
    return sec or None


def read_url_checks(ctx: Context) -> dict[str, Any] | None:
    listing = ctx.reader.json("/rest/urlchecks.json")
    if listing is None:
        return None
    checks = []
    for name in names(listing, "urlchecks", "urlcheck"):
        check = unwrap(ctx.reader.json(f"/rest/urlchecks/{seg(name)}.json"))
        if check:
            checks.append(
                {k: check[k] for k in ("name", "description", "enabled", "regex") if k in check}
            )
    return {"checks": checks}


def read_auth_filters(ctx: Context) -> dict[str, Any] | None:
    listing = ctx.reader.json("/rest/security/authfilters.json")
    if listing is None:
        return None
    filters = []
    for name in names(listing, "authfilters", "authfilter"):
        data = ctx.reader.json(f"/rest/security/authfilters/{seg(name)}.json")
        if not isinstance(data, dict) or len(data) != 1:
            continue
        config_class, body = next(iter(data.items()))
        fields = {
            k: (ctx.secret(v) if is_secret_key(k) and isinstance(v, str) and v else v)
            for k, v in body.items()
            if k not in ("id", "name", "@class", "className")
        }
        filters.append(
            {
                "name": body.get("name", name),
                "id": body.get("id"),
                "className": body.get("className"),
                "configClass": body.get("@class", config_class),
                "fields": fields,
            }
        )
    return {"filters": filters}


def read_auth_providers(ctx: Context) -> dict[str, Any] | None:
    listing = ctx.reader.json("/rest/security/authproviders.json")
    if not isinstance(listing, dict):
        return None
    providers, active = [], []
    for item in as_list(listing.get("authproviders")):
        name = item.get("name") if isinstance(item, dict) else None
        if not isinstance(name, str):
            continue
        body = unwrap(ctx.reader.json(f"/rest/security/authproviders/{seg(name)}.json")) or item
        provider = {
            k: body[k] for k in ("name", "id", "className", "userGroupServiceName") if k in body
        }
        fields = {
            k: v
            for k, v in body.items()
            if k not in provider and k not in ("@class", "configClass")
        }
        if fields:
            provider["fields"] = {
                k: (ctx.secret(v) if is_secret_key(k) and isinstance(v, str) else v)
                for k, v in fields.items()
            }
        providers.append(provider)
        active.append(name)
    return {"providers": providers, "active": active}


def read_users(ctx: Context) -> dict[str, Any] | None:
    r = ctx.reader
    listing = r.json("/rest/security/usergroup/users.json")
    if not isinstance(listing, dict):
        return None
    users: list[dict[str, Any]] = []
    for item in as_list(listing.get("users")):
        name = item.get("userName") if isinstance(item, dict) else None
        if isinstance(name, str):
            known = ctx.include_secrets and name == r.user
            users.append({"name": name, "password": r.password if known else DEFAULT_PASSWORD,
                          "enabled": item.get("enabled", True) is not False})  # fmt: skip
    groups = []
    group_names = [
        g
        for g in as_list(unwrap_key(r.json("/rest/security/usergroup/groups.json"), "groups"))
        if isinstance(g, str)
    ]
    for group in group_names:
        members = as_list(
            unwrap_key(r.json(f"/rest/security/usergroup/group/{seg(group)}/users.json"), "users")
        )
        groups.append(
            {
                "name": group,
                "members": [m["userName"] if isinstance(m, dict) else m for m in members],
            }
        )
    roles = [
        x
        for x in as_list(unwrap_key(r.json("/rest/security/roles.json"), "roles"))
        if isinstance(x, str)
    ]
    user_roles = {u["name"]: _roles(r, f"user/{seg(u['name'])}") for u in users}
    group_roles = {g: _roles(r, f"group/{seg(g)}") for g in group_names}
    return {
        "services": [{"name": "default", "users": users, "groups": groups}],
        "roleServices": [
            {
                "name": "default",
                "roles": roles,
                "userRoles": {k: v for k, v in user_roles.items() if v},
                "groupRoles": {k: v for k, v in group_roles.items() if v},
            }
        ],
    }


def unwrap_key(data: Any, key: str) -> Any:
    return data.get(key) if isinstance(data, dict) else None


def _roles(r: Reader, path: str) -> list[str]:
    return [
        x
        for x in as_list(unwrap_key(r.json(f"/rest/security/roles/{path}.json"), "roles"))
        if isinstance(x, str)
    ]


def read_about(ctx: Context) -> dict[str, Any] | None:
    out: dict[str, Any] = {}
    for key, path in (
        ("versions", "/rest/about/version.xml"),
        ("manifests", "/rest/about/manifest.xml"),
    ):
        root = ctx.reader.xml(path)
        if root is None:
            continue
        resources = []
        for res in root.iter("resource"):
            props = {etree.QName(c).localname: c.text or "" for c in res if isinstance(c.tag, str)}
            resources.append({"name": res.get("name", ""), "properties": props})
        out[key] = resources
    return out or None


SectionReader = Callable[[Context], "dict[str, Any] | None"]


def section_readers() -> list[tuple[str, SectionReader]]:
    from . import import_cascade, import_catalog, import_seeding, import_settings

    return [
        ("users", read_users),
        ("authProviders", read_auth_providers),
        ("authFilters", read_auth_filters),
        ("security", read_security),
        ("catalog", import_catalog.read_catalog),
        ("cascade", import_cascade.read_cascade),
        ("styles", import_catalog.read_styles),
        ("urlChecks", read_url_checks),
        ("about", read_about),
        ("seeding", import_seeding.read_seeding),
        ("serverSettings", import_settings.read_server_settings),
    ]


# -- the command ----------------------------------------------------------------------------


def import_scenario(
    base_url: str,
    user: str,
    password: str,
    out: str | Path,
    *,
    include_secrets: bool = False,
    transport: httpx.BaseTransport | None = None,
) -> ImportResult:
    """Read the server at ``base_url`` and write a scenario to ``out``.

    Raises ``ImportFailed`` when the server cannot be read at all, ``ValueError`` for a bad URL.
    """
    out = Path(out)
    reader = Reader(base_url, user, password, transport)
    ctx = Context(reader, include_secrets, out)
    document: dict[str, Any] = {"extends": "empty"}
    notes: list[str] = []
    try:
        for key, read in section_readers():
            section = read(ctx)
            if section is None:
                notes.append(f"{key}: not available on this server, left out")
            else:
                document[key] = section
    finally:
        reader.close()
    if not reader.answered:
        raise ImportFailed(nothing_found_hint(base_url))
    known = {key for key, _ in SECTIONS}
    document = {k: v for k, v in document.items() if k == "extends" or k in known}
    notes = reader.notes + notes + _check(document, out.parent)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return ImportResult(out, document, notes)


def nothing_found_hint(base_url: str) -> str:
    """Why an import found nothing, and what to try: usually a base URL without the
    context path (``http://host:8080`` instead of ``http://host:8080/geoserver``)."""
    _, context_path = split_base(base_url)
    text = f"{base_url}: no REST endpoint answered (every one was missing); nothing was written."
    if not context_path:
        return (
            f"{text} The base URL has no context path: GeoServer's REST API is usually under"
            f" /geoserver (try {base_url.rstrip('/')}/geoserver)"
        )
    return f"{text} Is {base_url} the server's base URL (the REST API at {base_url}/rest)?"


def _check(document: dict[str, Any], base_dir: Path) -> list[str]:
    """Drop the sections the emulator does not accept (one by one, in application order)."""
    from ..scenarios import loader

    notes = []
    accepted: dict[str, Any] = {"extends": document["extends"]}
    for key, _ in SECTIONS:
        if key not in document:
            continue
        trial = {**accepted, key: document[key]}
        try:
            loader.load_document(trial, base_dir)
        except ScenarioError as exc:
            notes.append(f"{key}: the emulator does not accept it ({exc}), left out")
            del document[key]
            continue
        accepted = trial
    return notes
