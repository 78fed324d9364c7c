"""``Emulator.view``: the public, typed, read-only view of the state that tests may read.

``emu.state`` holds the area stores as the routes use them (keyed by tuples, shaped for the
emulator's own needs, and free to change between versions). ``emu.view`` is what a test
asserts on: plain frozen records, keyed by the names a GeoServer user writes
(``"topp:states"``), made from the state at the moment it is read (a snapshot: reading it
twice around a request shows the change; changing it is impossible).

Keys:

- ``workspaces``: workspace name → ``WorkspaceView``
- ``stores``: ``"workspace:store"`` → ``StoreView`` (data, coverage, WMS and WMTS stores)
- ``layers``: ``"workspace:layer"`` → ``LayerView`` (every layer is in a workspace)
- ``layer_groups``: ``"workspace:group"``, or ``"group"`` for a global one → ``LayerGroupView``
- ``styles``: ``"workspace:style"``, or ``"style"`` for a global one → ``StyleView``
- ``users``: user name → ``UserView`` (the default user/group service's users)
- ``roles``: the active role service's role names, sorted
- ``seed_tasks``: the seed scheduler's tasks, by id (``TaskView``)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .areas.seeding.scheduler import TaskView
    from .emulator import Emulator

__all__ = [
    "LayerGroupView",
    "LayerView",
    "StateView",
    "StoreView",
    "StyleView",
    "UserView",
    "WorkspaceView",
]


def _prefixed(workspace: str | None, name: str) -> str:
    return name if workspace is None else f"{workspace}:{name}"


@dataclass(frozen=True)
class WorkspaceView:
    name: str
    uri: str | None
    """its namespace's URI"""
    isolated: bool
    default: bool
    """whether it is the default workspace"""


@dataclass(frozen=True)
class StoreView:
    name: str
    workspace: str
    kind: str
    """``dataStore``, ``coverageStore``, ``wmsStore`` or ``wmtsStore``"""
    type: str | None
    """GeoServer's store type: ``Shapefile``, ``PostGIS``, ``GeoTIFF``, ``ImageMosaic``…"""
    enabled: bool


@dataclass(frozen=True)
class LayerView:
    name: str
    """``workspace:layer``, the key"""
    workspace: str
    store: str
    """the store of its resource"""
    resource: str
    """the resource's (feature type's, coverage's…) native name"""
    kind: str
    """the resource's kind: ``featureType``, ``coverage``, ``wmsLayer``, ``wmtsLayer``"""
    default_style: str | None
    """``workspace:style`` or ``style`` (global)"""
    styles: tuple[str, ...]
    """the other styles, named as ``default_style``"""
    srs: str | None
    native_crs: str | None
    enabled: bool


@dataclass(frozen=True)
class LayerGroupView:
    name: str
    """``workspace:group``, or ``group`` for a global one (the key)"""
    workspace: str | None
    mode: str
    layers: tuple[str, ...]
    """its members in order, as ``workspace:name`` (a nested group by its own name)"""


@dataclass(frozen=True)
class StyleView:
    name: str
    """``workspace:style``, or ``style`` for a global one (the key)"""
    workspace: str | None
    format: str
    """``sld``, ``css``, ``ysld``, ``mbstyle``, ``zip``…"""
    version: str | None


@dataclass(frozen=True)
class UserView:
    name: str
    enabled: bool
    roles: tuple[str, ...]
    """its roles in the active role service (own and through its groups), sorted"""
    groups: tuple[str, ...]


@dataclass(frozen=True)
class StateView:
    """What the emulated server holds, as a test reads it (see the module docstring)."""

    workspaces: Mapping[str, WorkspaceView]
    default_workspace: str | None
    stores: Mapping[str, StoreView]
    layers: Mapping[str, LayerView]
    layer_groups: Mapping[str, LayerGroupView]
    styles: Mapping[str, StyleView]
    users: Mapping[str, UserView]
    roles: tuple[str, ...]
    catalog_mode: str
    """``HIDE``, ``MIXED`` or ``CHALLENGE``"""
    seed_tasks: tuple[TaskView, ...]

    @classmethod
    def of(cls, emu: Emulator) -> StateView:
        """The view of ``emu``'s state now."""
        catalog, state = emu.state.view("catalog"), emu.state
        return cls(
            workspaces=_frozen(_workspaces(catalog)),
            default_workspace=catalog.default_workspace,
            stores=_frozen(
                {
                    _prefixed(s.workspace, s.name): StoreView(
                        s.name, s.workspace, s.kind, s.type, s.enabled
                    )
                    for s in catalog.stores.values()
                }
            ),
            layers=_frozen(_layers(catalog)),
            layer_groups=_frozen(_groups(catalog)),
            styles=_frozen(
                {
                    _prefixed(s.workspace, s.name): StyleView(
                        _prefixed(s.workspace, s.name), s.workspace, s.format, s.version
                    )
                    for s in state.view("styles").styles.values()
                }
            ),
            users=_frozen(_users(state.view("users"))),
            roles=tuple(sorted(state.view("users").role_service().roles)),
            catalog_mode=state.view("security").catalog_mode,
            seed_tasks=tuple(emu.scheduler.tasks),
        )


def _frozen(items: dict[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(sorted(items.items())))


def _workspaces(catalog: Any) -> dict[str, WorkspaceView]:
    return {
        name: WorkspaceView(
            name,
            ns.uri if (ns := catalog.namespaces.get(name)) is not None else None,
            ws.isolated,
            name == catalog.default_workspace,
        )
        for name, ws in catalog.workspaces.items()
    }


def _layers(catalog: Any) -> dict[str, LayerView]:
    out = {}
    for (ws, name), layer in catalog.layers.items():
        res = catalog.resources.get((ws, name))
        style = layer.default_style
        out[f"{ws}:{name}"] = LayerView(
            f"{ws}:{name}",
            ws,
            res.store if res is not None else "",
            (res.native_name or res.name) if res is not None else name,
            res.kind if res is not None else "",
            style.prefixed if style is not None else None,
            tuple(s.prefixed for s in layer.styles),
            res.srs if res is not None else None,
            res.native_crs if res is not None else None,
            layer.enabled,
        )
    return out


def _groups(catalog: Any) -> dict[str, LayerGroupView]:
    return {
        _prefixed(g.workspace, g.name): LayerGroupView(
            _prefixed(g.workspace, g.name),
            g.workspace,
            g.mode,
            tuple(p.prefixed for p in g.publishables),
        )
        for g in catalog.layer_groups.values()
    }


def _users(users: Any) -> dict[str, UserView]:
    service, roles = users.service(), users.role_service()
    out = {}
    for name, user in service.users.items():
        groups = sorted(g for g, members in service.memberships.items() if name in members)
        held = set(roles.roles_of_user(name))
        for group in groups:
            held.update(roles.roles_of_group(group))
        out[name] = UserView(name, user.enabled, tuple(sorted(held)), tuple(groups))
    return out
