"""Access-rule keys and role lists: their syntax, as GeoServer's ACL controllers check it.

Three kinds of rule, each a key mapped to roles:

- ``layers``: ``workspace.layer.mode``, mode ``r`` (read), ``w`` (write) or ``a`` (admin);
- ``services``: ``service.method``;
- ``rest``: ``antPattern:METHOD[,METHOD...]``.

Layer and service keys are cut on dots with the spaces around them (``ws . l . r`` is
``ws.l.r``); ``*`` stands for any. Pure functions, no state.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

LAYERS, SERVICES, REST = "layers", "services", "rest"
KINDS = (LAYERS, SERVICES, REST)
ANY = "*"
ACCESS_MODES = ("r", "w", "a")
REST_METHODS = ("GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS")
_METHOD = "(" + "|".join(REST_METHODS) + ")"
REST_KEY = re.compile(rf"\S+:{_METHOD}(,{_METHOD})*")
_DOT = re.compile(r"\s*\.\s*")
_ROLE_SEP = re.compile(r"[\s,]+")


def _parts(key: str) -> list[str]:
    """``key`` cut on dots as Java's ``String.split`` does (trailing empty parts dropped)."""
    parts = _DOT.split(key)
    if key == "":
        return [""]
    while parts and parts[-1] == "":
        parts.pop()
    return parts


def key_error(kind: str, key: str) -> str | None:
    """Why ``key`` is not a valid rule key of ``kind``, or None when it is."""
    if kind == REST:
        if REST_KEY.fullmatch(key) is None:
            return f"Invalid '{key}' not matching {REST_KEY.pattern}"
        return None
    parts = _parts(key)
    if kind == LAYERS:
        return _layer_key_error(key, parts)
    if len(parts) != 2:
        return f"Invalid rule {key}, the expected format is service.method=role1,role2,..."
    if parts[0] == ANY and parts[1] != ANY:
        return f"Invalid rule {key}, when namespace is * then also layer must be *."
    return None


def _layer_key_error(key: str, parts: list[str]) -> str | None:
    if len(parts) != 3:
        return f"Invalid rule {key}, the expected format is workspace.layer.mode=role1,role2,..."
    workspace, layer, mode = parts
    if mode not in ACCESS_MODES:
        return f"Unknown access mode {mode} in {key}"
    if workspace == ANY and layer != ANY:
        return f"Invalid rule {key}, when namespace is * then also layer must be *."
    if mode == "a" and layer != ANY:
        return (
            f"Invalid rule {key}, admin (a) privileges may only be applied globally to a "
            "workspace, layer must be *."
        )
    return None


def normal_key(kind: str, key: str) -> str:
    """The key GeoServer stores for a valid ``key``: layer and service parts rejoined."""
    if kind == REST:
        return key
    return ".".join(_parts(key))


def parse_roles(value: str) -> list[str]:
    """Roles from a list separated by commas and/or spaces; ``*`` among them means only ``*``."""
    roles = list(dict.fromkeys(r for r in _ROLE_SEP.split(value) if r))
    return [ANY] if ANY in roles else roles


def _item(value: str) -> tuple[int, str]:
    """Sort key of one key part: ``*`` first, then by name."""
    return (0, "") if value == ANY else (1, value)


def sort_key(kind: str, key: str) -> tuple[object, ...]:
    """GeoServer's order of layer and service rules: generic before specific, then by name,
    read before write before admin. REST rules keep their own order (all keys compare equal)."""
    if kind == REST:
        return ()
    parts = _parts(key)
    if kind == LAYERS:
        mode = ACCESS_MODES.index(parts[2]) if parts[2] in ACCESS_MODES else len(ACCESS_MODES)
        return (_item(parts[0]), _item(parts[1]), mode)
    return tuple(_item(p) for p in parts)


def ordered(kind: str, keys: Iterable[str]) -> list[str]:
    """``keys`` in the order GeoServer keeps rules of ``kind`` (a stable sort)."""
    return sorted(keys, key=lambda k: sort_key(kind, k))
