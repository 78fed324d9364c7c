"""Who may use what: the one security decision every OGC service (and the OGC APIs) asks.

An ``Access`` is one question: may this principal call this operation (``name`` None), or
list, describe, read or write this layer or group through it? ``RULES`` answer it in
order; the first rule with an opinion decides, and when none has one the answer is yes.
The stock rules are GeoServer's ``DefaultResourceAccessManager``'s:

- ``service_rules``: ``service.Request`` (else ``service.*``, else ``*.*``) names the roles
  that may call an operation;
- ``layer_rules``: ``ws.layer.r`` (else ``ws.*.r``, else ``*.*.r``) names the roles that may
  read a layer, ``.w`` those that may write it; ``*`` admits anyone, an administrator may do
  everything, no rule at all admits anyone.

``View`` asks no rule about an item for an administrator (as GeoServer's
``SecureCatalogImpl`` does); questions about an operation always reach the rules.

**The extension hook.** An access-rule extension (GeoFence's rules, for one) is a function
``(state, access) -> bool | None`` put first in ``RULES``: it answers the questions its
rules cover and leaves the rest (None) to the stock rules. What a refusal looks like
(absent, or an authentication challenge) is the catalog mode's to say, in one place:
``visibility``.

Pure domain logic: no HTTP, no XML.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Literal, NamedTuple

from .containment import OPAQUE, Containment, GroupKey

if TYPE_CHECKING:
    from ...core.state import State
    from ..access import Principal

Intent = Literal["call", "list", "describe", "read", "write"]
"""``call``: the operation itself; ``list``: shown in capabilities; ``describe``: its
description (DescribeLayer, DescribeFeatureType…); ``read``: its data; ``write``: a change"""


class Access(NamedTuple):
    principal: Principal
    service: str
    """upper case (``WMS``), empty when the caller names none"""
    operation: str
    """the request (``GetMap``), empty when not known"""
    workspace: str | None
    name: str | None
    """the layer or group (unqualified); None: the question is about the operation"""
    intent: Intent
    group: bool = False
    """``name`` is a layer group's"""
    direct: bool = True
    """the item is named by the request (or listed at the top of a document), not reached
    through a group the caller asked for"""
    containment: Containment | None = None
    """the catalog's groups, for the layer-group rules (None: groups play no part)"""


Rule = Callable[["State", Access], "bool | None"]


def _allowed(roles: list[str], principal: Principal) -> bool:
    return "*" in roles or bool(set(roles) & principal.roles)


def service_rules(state: State, access: Access) -> bool | None:
    """The service rules (``service.Request``), for questions about an operation."""
    if access.name is not None:
        return None
    if access.principal.is_admin:
        return True
    rules = {k.lower(): v for k, v in state.security.service_rules.items()}
    service = access.service.lower()
    for key in (f"{service}.{access.operation}".lower(), f"{service}.*", "*.*"):
        roles = rules.get(key)
        if roles is not None:
            return _allowed(roles, access.principal)
    return None


def layer_rules(state: State, access: Access) -> bool | None:
    """The layer rules (``ws.layer.r`` / ``.w``, ``group.r`` for a global group), for
    questions about a layer or group: GeoServer's tree of rules, where the deepest node on
    the item's path with a rule for the mode decides. In WMS and WMTS a layer's access also
    follows the groups holding it (``_through_groups``)."""
    name = access.name
    if name is None:
        return None
    if access.principal.is_admin:
        return True
    tree = RuleTree(state.security.layer_rules, access.principal.roles)
    mode = "w" if access.intent == "write" else "r"
    if access.group:
        return _group_allowed(tree, access, (access.workspace, name), access.direct, mode)
    path = (access.workspace or "*", name)
    depth, allowed = tree.decide(path, mode)
    if mode == "w" or depth == 2 or access.containment is None:
        return allowed
    if access.service not in GROUP_SERVICES:
        return allowed
    return _through_groups(tree, access, (path[0], name), depth, bool(allowed is not False))


GROUP_SERVICES = frozenset({"WMS", "WMTS"})
"""the services in which a layer's groups take part in its access (GeoServer: WMS and the
tile services)"""


class RuleTree:
    """GeoServer's ``SecureTreeNode`` tree of the layer rules, for one caller."""

    def __init__(self, rules: Mapping[str, list[str]], roles: frozenset[str] | set[str]) -> None:
        self.rules = rules
        self.roles = roles

    def exists(self, path: tuple[str, ...]) -> bool:
        """Whether a rule names this node (a workspace, a global group, a layer)."""
        prefix = ".".join(path) + "."
        return any(k.startswith(prefix) and k.count(".") == len(path) for k in self.rules) or (
            len(path) == 1 and any(k.startswith(prefix) for k in self.rules)
        )

    def decide(self, path: tuple[str, ...], mode: str) -> tuple[int, bool | None]:
        """(the depth of the deepest node on ``path``, whether its rules, else its
        ancestors', admit the caller; None: no rule at all)."""
        nodes: list[tuple[str, ...]] = [()]
        for i in range(1, len(path) + 1):
            if path[i - 1] == "*" or not self.exists(path[:i]):
                break
            nodes.append(path[:i])
        for node in reversed(nodes):
            roles = self._roles(node, mode)
            if roles is not None:
                return len(nodes) - 1, "*" in roles or not self.roles.isdisjoint(roles)
        return len(nodes) - 1, None

    def _roles(self, node: tuple[str, ...], mode: str) -> list[str] | None:
        if not node:
            return self.rules.get(f"*.*.{mode}")
        if len(node) == 1:
            found = self.rules.get(f"{node[0]}.*.{mode}")
            return found if found is not None else self.rules.get(f"{node[0]}.{mode}")
        return self.rules.get(f"{node[0]}.{node[1]}.{mode}")

    def group_node(self, group: GroupKey) -> tuple[str, ...] | None:
        """The node a rule gives the group itself, if any."""
        path = (group[1],) if group[0] is None else (group[0], group[1])
        return path if self.exists(path) else None


def _group_allowed(
    tree: RuleTree, access: Access, group: GroupKey, direct: bool, mode: str = "r"
) -> bool | None:
    """A group's access (``DefaultResourceAccessManager.canAccess`` of a group): its own
    rules (else its workspace's or the root's), then at least one path of containing groups
    the caller may reach (an opaque one only through another group)."""
    path = (group[1],) if group[0] is None else (group[0], group[1])
    _, allowed = tree.decide(path, mode)
    if allowed is False:
        return False
    containment = access.containment
    containers = containment.of_group(group) if containment is not None else set()
    if not containers:
        return allowed
    assert containment is not None
    return any(
        not (direct and containment.mode(c) == OPAQUE)
        and _group_allowed(tree, access, c, direct) is not False
        for c in containers
    )


def _through_groups(
    tree: RuleTree, access: Access, layer: tuple[str, str], depth: int, allowed: bool
) -> bool:
    """A layer's access through the groups holding it (``canAccess`` of a resource): a rule
    on a group deeper than the layer's own, or an opaque group, overrides its workspace's
    rules; a group without rules the caller may reach admits it too. Asked directly, a layer
    is reachable only through a group that holds it through no opaque one."""
    containment = access.containment
    assert containment is not None
    containers = containment.of_layer(*layer)
    if not containers:
        return allowed
    direct = access.direct

    def opens(group: GroupKey) -> bool:
        if direct and containment.mode(group) == OPAQUE:
            return False
        if _group_allowed(tree, access, group, direct) is False:
            return False
        return not direct or containment.reaches_openly(group, layer)

    def deeper(group: GroupKey) -> bool:
        node = tree.group_node(group)
        return (node is not None and len(node) > depth) or containment.mode(group) == OPAQUE

    overrides = [g for g in containers if deeper(g)]
    if overrides:
        allowed = any(opens(g) for g in overrides)
    if allowed:
        return True
    return any(tree.group_node(g) is None and opens(g) for g in containers)


RULES: tuple[Rule, ...] = (layer_rules, service_rules)
"""asked in order; an access-rule extension goes first (the two stock rules answer
different questions: their order is only the cheaper one)"""


def allowed(state: State, access: Access, rules: tuple[Rule, ...] | None = None) -> bool:
    """Whether ``rules`` (``RULES``) let the question's principal do it (no opinion at all:
    yes)."""
    for rule in RULES if rules is None else rules:
        decision = rule(state, access)
        if decision is not None:
            return decision
    return True


Visibility = Literal["shown", "hidden", "challenge"]


def visibility(mode: str, permitted: bool, intent: Intent) -> Visibility:
    """What the caller meets, by the catalog mode, for an item the rules do not permit:
    ``HIDE`` hides it everywhere; ``MIXED`` leaves it out of capabilities and challenges a
    request that names it; ``CHALLENGE`` lists and describes it and challenges a read."""
    if permitted:
        return "shown"
    if mode == "HIDE":
        return "hidden"
    if intent == "list":
        return "shown" if mode == "CHALLENGE" else "hidden"
    if intent == "describe" and mode == "CHALLENGE":
        return "shown"
    return "challenge"
