"""Which layer groups contain a layer or a group, as GeoServer's
``LayerGroupContainmentCache`` answers it for the security rules: every group containing it
directly or through other groups, ``SINGLE`` groups left out (their containers are not).

Built from the catalog on first use, once per call (``View`` makes one): a call sees the
catalog as it is. Pure domain logic.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..catalog.model import Catalog

GroupKey = tuple[str | None, str]
"""a group's workspace (None: global) and name"""
LayerKey = tuple[str, str]

OPAQUE = "OPAQUE_CONTAINER"


class Containment:
    """The containment of a catalog's layers and groups in its groups."""

    def __init__(self, catalog: Catalog) -> None:
        self._catalog = catalog
        self._built = False
        self._layer_parents: dict[LayerKey, set[GroupKey]] = {}
        self._group_parents: dict[GroupKey, set[GroupKey]] = {}
        self._modes: dict[GroupKey, str] = {}
        self._members: dict[GroupKey, list[tuple[str, GroupKey]]] = {}

    def _build(self) -> None:
        if self._built:
            return
        self._built = True
        for group in self._catalog.layer_groups.values():
            key: GroupKey = (group.workspace, group.name)
            self._modes[key] = group.mode
            members = self._members.setdefault(key, [])
            for ref in group.publishables:
                member: GroupKey = (ref.workspace, ref.name)
                members.append((ref.kind, member))
                if ref.kind == "layerGroup":
                    self._group_parents.setdefault(member, set()).add(key)
                elif ref.workspace is not None:
                    self._layer_parents.setdefault((ref.workspace, ref.name), set()).add(key)

    def mode(self, group: GroupKey) -> str:
        self._build()
        return self._modes.get(group, "SINGLE")

    def of_layer(self, workspace: str, name: str) -> set[GroupKey]:
        """The groups containing the layer, directly or not, but ``SINGLE`` ones."""
        self._build()
        return self._collect(self._layer_parents.get((workspace, name), ()))

    def of_group(self, group: GroupKey) -> set[GroupKey]:
        """The groups containing the group, directly or not, but ``SINGLE`` ones."""
        self._build()
        return self._collect(self._group_parents.get(group, ()))

    def _collect(self, direct: Iterable[GroupKey]) -> set[GroupKey]:
        out: set[GroupKey] = set()
        seen: set[GroupKey] = set()
        todo = list(direct)
        while todo:
            key = todo.pop()
            if key in seen:
                continue
            seen.add(key)
            if self._modes.get(key) != "SINGLE":
                out.add(key)
            todo.extend(self._group_parents.get(key, ()))
        return out

    def reaches_openly(
        self, group: GroupKey, layer: LayerKey, seen: frozenset[GroupKey] = frozenset()
    ) -> bool:
        """Whether ``group`` holds ``layer`` through no opaque container (GeoServer's
        ``allowsAccessViaNonOpaqueGroup``)."""
        self._build()
        for kind, member in self._members.get(group, []):
            if kind != "layerGroup":
                if member == layer:
                    return True
            elif (
                member not in seen
                and self._modes.get(member) != OPAQUE
                and self.reaches_openly(member, layer, seen | {group})
            ):
                return True
        return False
