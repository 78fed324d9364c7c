"""GeoServer's configuration: global settings, per-workspace settings, OWS services, logging.

Values are plain Python in the shapes ``schema.py`` lists, keyed by GeoServer's XML element
names; a missing key means GeoServer's default for the field. Every change arrives checked
(the codec and the scenario reader check it against the schema first), so a refused request
never reaches the store. ``updateSequence`` moves by one with every saved change, as
GeoServer's ``UpdateSequenceListener`` moves it (also after a PUT that names a value).

Read by the OGC services (``service(kind, workspace)``, ``settings(workspace)``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.errors import NotFound, ServerError
from ...core.record import field, record
from . import defaults, schema

KINDS = tuple(schema.SERVICES)


def _global() -> dict[str, Any]:
    return defaults.fresh(defaults.GLOBAL)


def _services() -> dict[str, dict[str, Any]]:
    return defaults.fresh(defaults.SERVICES)


def _workspace_services() -> dict[str, dict[str, dict[str, Any]]]:
    return {kind: {} for kind in KINDS}


def _logging() -> dict[str, Any]:
    return defaults.fresh(defaults.LOGGING)


def _fonts() -> list[str]:
    return list(defaults.FONTS)


@record
class SettingsStore:
    global_info: dict[str, Any] = field(default_factory=_global)
    """``GeoServerInfo``, its global ``settings`` included"""
    workspace_settings: dict[str, dict[str, Any]] = field(default_factory=dict)
    """workspace name → its own ``SettingsInfo``"""
    services: dict[str, dict[str, Any]] = field(default_factory=_services)
    """kind (wms, wfs, wcs, wmts) → the global service configuration"""
    workspace_services: dict[str, dict[str, dict[str, Any]]] = field(
        default_factory=_workspace_services
    )
    """kind → workspace name → that workspace's own service configuration"""
    logging: dict[str, Any] = field(default_factory=_logging)
    fonts: list[str] = field(default_factory=_fonts)

    # -- reading (the interface other areas use) ---------------------------------------

    @property
    def update_sequence(self) -> int:
        value = self.global_info.get("updateSequence", 0)
        return int(value)

    def settings(self, workspace: str | None = None) -> Mapping[str, Any]:
        """The effective ``SettingsInfo``: the workspace's own if it has any, else global."""
        if workspace is not None and workspace in self.workspace_settings:
            return self.workspace_settings[workspace]
        found: dict[str, Any] = self.global_info.get("settings", {})
        return found

    def service(self, kind: str, workspace: str | None = None) -> Mapping[str, Any] | None:
        """The effective configuration of service ``kind``: the workspace's own if it has
        one, else the global one; None for a kind GeoServer does not have."""
        if kind not in self.services:
            return None
        if workspace is not None:
            own = self.workspace_services[kind].get(workspace)
            if own is not None:
                return own
        return self.services[kind]

    def own_service(self, kind: str, workspace: str) -> dict[str, Any] | None:
        """The workspace's own configuration of ``kind`` (None when it has none)."""
        return self.workspace_services[self._kind(kind)].get(workspace)

    # -- global ------------------------------------------------------------------------

    def update_global(self, patch: Mapping[str, Any]) -> None:
        """Apply a checked ``GeoServerInfo`` patch; only what it names changes."""
        self.global_info = schema.merge(schema.GLOBAL, self.global_info, patch)
        self._saved()

    def update_contact(self, patch: Mapping[str, Any]) -> None:
        self.update_global({"settings": {"contact": dict(patch)}})

    # -- workspace settings ------------------------------------------------------------

    def create_workspace_settings(
        self, workspace: str, values: Mapping[str, Any], new_id: str
    ) -> None:
        """Create a workspace's settings; a second create is GeoServer's 500."""
        if workspace in self.workspace_settings:
            raise ServerError(f"Settings already exist for workspace '{workspace}'")
        start = {**defaults.fresh(defaults.NEW_SETTINGS), "id": new_id}
        self.workspace_settings[workspace] = schema.merge(schema.SETTINGS, start, values)
        self._saved()

    def put_workspace_settings(self, workspace: str, patch: Mapping[str, Any], new_id: str) -> bool:
        """Change a workspace's settings (created when it has none); True when created."""
        current = self.workspace_settings.get(workspace)
        if current is None:
            self.create_workspace_settings(workspace, patch, new_id)
            return True
        self.workspace_settings[workspace] = schema.merge(schema.SETTINGS, current, patch)
        self._saved()
        return False

    def delete_workspace_settings(self, workspace: str) -> bool:
        """Remove a workspace's own settings (a no-op when it has none); True if removed."""
        if self.workspace_settings.pop(workspace, None) is None:
            return False
        self._saved()
        return True

    # -- services ----------------------------------------------------------------------

    def put_service(
        self, kind: str, workspace: str | None, patch: Mapping[str, Any], new_id: str
    ) -> bool:
        """Change the global or a workspace's configuration of ``kind``; a workspace's is
        created when absent (True). Only what ``patch`` names changes."""
        table = schema.SERVICES[self._kind(kind)]
        if workspace is None:
            self.services[kind] = schema.merge(table, self.services[kind], patch)
            self._saved()
            return False
        own = self.workspace_services[kind].get(workspace)
        created = own is None
        if own is None:
            own = {"id": new_id, **defaults.fresh(defaults.NEW_SERVICES[kind])}
        self.workspace_services[kind][workspace] = schema.merge(table, own, patch)
        self._saved()
        return created

    def delete_service(self, kind: str, workspace: str) -> bool:
        """Remove a workspace's own configuration of ``kind``; True if there was one."""
        if self.workspace_services[self._kind(kind)].pop(workspace, None) is None:
            return False
        self._saved()
        return True

    # -- logging -----------------------------------------------------------------------

    def update_logging(self, patch: Mapping[str, Any]) -> None:
        """Change the logging configuration; a level naming a ``.xml`` preset is kept as
        the ``.properties`` one, as GeoServer's logging reload does."""
        patch = dict(patch)
        level = patch.get("level")
        if isinstance(level, str) and level.endswith(".xml"):
            patch["level"] = level[: -len(".xml")] + ".properties"
        self.logging = schema.merge(schema.LOGGING, self.logging, patch)

    # -- workspaces going and moving ---------------------------------------------------

    def drop_workspace(self, workspace: str) -> None:
        """A deleted workspace takes its settings and service configurations with it."""
        gone = self.workspace_settings.pop(workspace, None) is not None
        for kind in KINDS:
            gone = self.workspace_services[kind].pop(workspace, None) is not None or gone
        if gone:
            self._saved()

    def rename_workspace(self, old: str, new: str) -> None:
        if old in self.workspace_settings:
            self.workspace_settings[new] = self.workspace_settings.pop(old)
        for kind in KINDS:
            own = self.workspace_services[kind]
            if old in own:
                own[new] = own.pop(old)

    # -- helpers -----------------------------------------------------------------------

    def workspaces_configured(self) -> list[str]:
        """Workspaces with settings or a service configuration of their own, sorted."""
        names = set(self.workspace_settings)
        for kind in KINDS:
            names.update(self.workspace_services[kind])
        return sorted(names)

    def _kind(self, kind: str) -> str:
        if kind not in self.services:
            raise NotFound(f"No such service: {kind}")
        return kind

    def _saved(self) -> None:
        self.global_info["updateSequence"] = self.update_sequence + 1
