"""``ScenarioBuilder``: a small variation of a scenario, written in code.

    scenario = (
        ScenarioBuilder("stock")
        .user("bob", "secret", roles=["ROLE_AUTHOR"])
        .layer_rule("topp.*.r", "ROLE_AUTHOR")
        .settings(profile="geoserver")
    )
    emu = Emulator(scenario)               # or @pytest.mark.geoserver_scenario(scenario)

The builder writes a scenario document (``document()``) that ``extends`` the base and holds
only the additions, so the loader parses each distinct variation once per process and every
emulator built from it is a cheap snapshot copy. Sections whose scenario form replaces
rather than adds (the access-rule maps) are merged with the base's values here.
``section(key, data)`` sets any scenario section verbatim, for areas without helpers yet.
The catalog methods (``workspace(...).datastore(...).feature_type(...)``) live in
``builder_catalog.py``.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..areas.sections import SECTIONS, TOP_LEVEL_KEYS
from ..areas.security import scenario as security_section
from ..core import root
from ..core.errors import ScenarioError
from ..core.vendor import VendorNames
from . import loader
from .builder_catalog import CatalogSection, WorkspaceBuilder
from .context import ScenarioContext

if TYPE_CHECKING:
    from ..emulator import Emulator

RULE_KINDS = {"layers": "layerRules", "services": "serviceRules", "rest": "restRules"}


class ScenarioBuilder:
    """A scenario document built by method calls; every method returns the builder.

    Parameters:
        extends: the scenario to start from (``"stock"``, ``"empty"``, a path) or None for
            an empty server with no users at all.
    """

    def __init__(self, extends: str | Path | None = "stock") -> None:
        if extends is None or str(extends) in loader.BUILTINS:
            self._extends = None if extends is None else str(extends)
        else:
            self._extends = str(loader.resolve(extends))
        self._settings: dict[str, Any] = {}
        self._services: dict[str, dict[str, Any]] = {}
        self._role_services: dict[str, dict[str, Any]] = {}
        self._security: dict[str, Any] = {}
        self._rules: dict[str, dict[str, str]] = {}
        self._sections: dict[str, Any] = {}
        self._catalog = CatalogSection(self._touch)
        self._document: dict[str, Any] | None = None
        """the last document made; every change clears it"""

    # -- settings ----------------------------------------------------------------------

    def settings(
        self,
        *,
        profile: str | None = None,
        vendor_prefix: str | None = None,
        clock_origin: str | None = None,
        **extras: Any,
    ) -> ScenarioBuilder:
        """Scenario settings: fidelity profile, vendor prefix, clock origin (ISO 8601), extras."""
        self._document = None
        for key, value in (
            ("profile", profile),
            ("vendorPrefix", vendor_prefix),
            ("clockOrigin", clock_origin),
        ):
            if value is not None:
                self._settings[key] = value
        if extras:
            self._settings.setdefault("extras", {}).update(extras)
        return self

    # -- users, groups and roles -------------------------------------------------------

    def user(
        self,
        name: str,
        password: str,
        *,
        enabled: bool = True,
        roles: list[str] | tuple[str, ...] = (),
        groups: list[str] | tuple[str, ...] = (),
        properties: dict[str, str] | None = None,
        service: str = "default",
        role_service: str = "default",
    ) -> ScenarioBuilder:
        """A user (replacing one of the same name), its roles and its group memberships."""
        svc = self._service(service)
        svc["users"] = [u for u in svc["users"] if u["name"] != name]
        svc["users"].append(
            {
                "name": name,
                "password": password,
                "enabled": enabled,
                "properties": dict(properties or {}),
            }
        )
        for group in groups:
            self._group(svc, group)["members"].append(name)
        if roles:
            self._grant(role_service, "userRoles", name, roles)
        return self

    def group(
        self,
        name: str,
        *,
        members: list[str] | tuple[str, ...] = (),
        roles: list[str] | tuple[str, ...] = (),
        enabled: bool = True,
        service: str = "default",
        role_service: str = "default",
    ) -> ScenarioBuilder:
        """A group of users of the same user/group service, and the roles it grants."""
        entry = self._group(self._service(service), name)
        entry["enabled"] = enabled
        entry["members"].extend(m for m in members if m not in entry["members"])
        if roles:
            self._grant(role_service, "groupRoles", name, roles)
        return self

    def role(self, *names: str, role_service: str = "default") -> ScenarioBuilder:
        """Roles that exist in the role service (roles given to users are added anyway)."""
        rs = self._role_service(role_service)
        rs["roles"].extend(n for n in names if n not in rs["roles"])
        return self

    # -- security ----------------------------------------------------------------------

    def security(
        self,
        *,
        catalog_mode: str | None = None,
        keystore_password: str | None = None,
        root_login: bool | None = None,
    ) -> ScenarioBuilder:
        """Security settings: catalog mode (HIDE, MIXED, CHALLENGE), keystore password and
        whether ``root`` may log in with it."""
        self._document = None
        for key, value in (
            ("catalogMode", catalog_mode),
            ("keystorePassword", keystore_password),
            ("rootLogin", root_login),
        ):
            if value is not None:
                self._security[key] = value
        return self

    def layer_rule(self, resource: str, roles: str | list[str]) -> ScenarioBuilder:
        """A data access rule ``workspace.layer.mode`` (added to the base's rules)."""
        return self._rule("layers", resource, roles)

    def service_rule(self, resource: str, roles: str | list[str]) -> ScenarioBuilder:
        """A service access rule ``service.method``."""
        return self._rule("services", resource, roles)

    def rest_rule(self, resource: str, roles: str | list[str]) -> ScenarioBuilder:
        """A REST access rule ``/ant/pattern:METHOD[,METHOD]``, placed before the base's
        rules (the first matching rule decides)."""
        return self._rule("rest", resource, roles)

    # -- catalog ---------------------------------------------------------------------------

    def workspace(
        self, name: str, *, uri: str | None = None, isolated: bool = False, default: bool = False
    ) -> WorkspaceBuilder:
        """A workspace (created unless the base has it); add stores to what this returns."""
        entry: dict[str, Any] = {"name": name, "isolated": isolated}
        if uri is not None:
            entry["uri"] = uri
        self._catalog.workspaces.setdefault(name, entry)
        if default:
            self._catalog.default_workspace = name
        self._touch()
        return WorkspaceBuilder(self._catalog, name)

    def layer_group(
        self,
        name: str,
        layers: list[str],
        *,
        workspace: str | None = None,
        styles: list[str | None] | None = None,
        mode: str = "SINGLE",
        title: str | None = None,
    ) -> ScenarioBuilder:
        """A layer group of ``ws:layer`` names (``group@ws:name`` for a nested group)."""
        entry: dict[str, Any] = {"name": name, "mode": mode, "layers": list(layers)}
        if workspace is not None:
            entry["workspace"] = workspace
        entry["styles"] = list(styles) if styles is not None else [None] * len(layers)
        if title is not None:
            entry["title"] = title
        self._catalog.layer_groups.append(entry)
        self._touch()
        return self

    # -- any section -------------------------------------------------------------------

    def section(self, key: str, data: Any) -> ScenarioBuilder:
        """Set a scenario section verbatim (it is applied on top of the base's)."""
        if key in ("extends", "settings"):
            raise ScenarioError(f"{key}: use the builder's constructor or settings()")
        if key not in TOP_LEVEL_KEYS:
            raise ScenarioError(f"{key}: unknown top-level key")
        self._document = None
        self._sections[key] = copy.deepcopy(data)
        return self

    # -- output ------------------------------------------------------------------------

    def document(self) -> dict[str, Any]:
        """The scenario document (what a scenario file would hold)."""
        if self._document is None:
            self._document = self._make_document()
        return copy.deepcopy(self._document)

    def _make_document(self) -> dict[str, Any]:
        doc: dict[str, Any] = {}
        if self._extends is not None:
            doc["extends"] = self._extends
        if self._settings:
            doc["settings"] = copy.deepcopy(self._settings)
        if self._services or self._role_services:
            users: dict[str, Any] = {}
            if self._services:
                users["services"] = copy.deepcopy(list(self._services.values()))
            if self._role_services:
                users["roleServices"] = copy.deepcopy(list(self._role_services.values()))
            doc["users"] = users
        security = self._security_section()
        if security:
            doc["security"] = security
        if self._catalog:
            doc["catalog"] = copy.deepcopy(self._catalog.document(self._base_workspaces()))
        doc.update(copy.deepcopy(self._sections))
        return doc

    def load(self) -> loader.Scenario:
        """The parsed scenario (checks the document; cached per distinct content)."""
        return loader.load_document(self.document())

    def emulator(self, **kwargs: Any) -> Emulator:
        """An ``Emulator`` started from this scenario (keyword arguments as ``Emulator``'s)."""
        emulator: Emulator = root.emulator_class()(self, **kwargs)
        return emulator

    # -- helpers -----------------------------------------------------------------------

    def _service(self, name: str) -> dict[str, Any]:
        self._document = None
        return self._services.setdefault(name, {"name": name, "users": [], "groups": []})

    def _role_service(self, name: str) -> dict[str, Any]:
        self._document = None
        return self._role_services.setdefault(
            name, {"name": name, "roles": [], "userRoles": {}, "groupRoles": {}}
        )

    @staticmethod
    def _group(svc: dict[str, Any], name: str) -> dict[str, Any]:
        for group in svc["groups"]:
            if group["name"] == name:
                found: dict[str, Any] = group
                return found
        group = {"name": name, "enabled": True, "members": []}
        svc["groups"].append(group)
        return group

    def _grant(
        self, role_service: str, kind: str, holder: str, roles: list[str] | tuple[str, ...]
    ) -> None:
        if isinstance(roles, str):
            raise ScenarioError(f"{holder}: roles must be a list of role names, not a string")
        rs = self._role_service(role_service)
        rs["roles"].extend(r for r in roles if r not in rs["roles"])
        held = rs[kind].setdefault(holder, [])
        held.extend(r for r in roles if r not in held)

    def _rule(self, kind: str, resource: str, roles: str | list[str]) -> ScenarioBuilder:
        self._document = None
        self._rules.setdefault(kind, {})[resource] = (
            roles if isinstance(roles, str) else ",".join(roles)
        )
        return self

    def _security_section(self) -> dict[str, Any]:
        section = copy.deepcopy(self._security)
        if self._rules:
            base = self._base_security()
            for kind, additions in self._rules.items():
                key = RULE_KINDS[kind]
                kept = {k: v for k, v in base.get(key, {}).items() if k not in additions}
                # REST rules apply first-match: the additions go first so that they count
                section[key] = {**additions, **kept} if kind == "rest" else {**kept, **additions}
        return section

    def _touch(self) -> None:
        self._document = None

    def _base_workspaces(self) -> set[str]:
        """Workspaces the base scenario already has (they are referred to, not created)."""
        section = dict(SECTIONS).get("catalog")
        if self._extends is None or section is None:
            return set()
        state = loader.load(self._extends).state()
        dumped = section.dump(state, ScenarioContext(VendorNames(), None, "builder"))
        return {w["name"] for w in dumped.get("workspaces", [])}

    def _base_security(self) -> dict[str, Any]:
        """The base scenario's security section (rule maps replace, so they are merged here)."""
        if self._extends is None:
            return {}
        state = loader.load(self._extends).state()
        dumped: dict[str, Any] = security_section.dump(
            state, ScenarioContext(VendorNames(), None, "builder")
        )
        return dumped
