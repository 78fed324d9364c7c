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

from collections.abc import Callable
from typing import TYPE_CHECKING, Literal, NamedTuple

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
    """The layer rules (``ws.layer.r`` / ``.w``), for questions about a layer or group."""
    name = access.name
    if name is None:
        return None
    principal = access.principal
    if principal.is_admin:
        return True
    suffix = ".w" if access.intent == "write" else ".r"
    rules = state.security.layer_rules
    ws = access.workspace or "*"
    roles = rules.get(ws + "." + name + suffix)
    if roles is None:
        roles = rules.get(ws + ".*" + suffix)
        if roles is None:
            roles = rules.get("*.*" + suffix)
            if roles is None:
                return None
    return "*" in roles or not principal.roles.isdisjoint(roles)


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
