"""Reading values out of a live server's REST answers, for the importers of each area."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote


def as_list(value: Any) -> list[Any]:
    """GeoServer's collections: ``""`` when empty, an object for one item, else a list."""
    if value is None or value == "":
        return []
    return value if isinstance(value, list) else [value]


def listed(data: Any, outer: str, inner: str) -> list[Any]:
    """The items of ``{"outer": {"inner": [...]}}`` (tolerating the empty and single forms)."""
    if not isinstance(data, dict):
        return []
    body = data.get(outer)
    if isinstance(body, dict):
        return as_list(body.get(inner))
    return as_list(body) if isinstance(body, list) else []


def names(data: Any, outer: str, inner: str) -> list[str]:
    out = []
    for item in listed(data, outer, inner):
        name = item.get("name") if isinstance(item, dict) else item
        if isinstance(name, str):
            out.append(name)
    return out


def entries(value: Any) -> dict[str, str]:
    """``{"entry": [{"@key": k, "$": v}]}`` as a plain map."""
    out = {}
    for item in as_list(value.get("entry") if isinstance(value, dict) else None):
        if isinstance(item, dict) and "@key" in item:
            out[str(item["@key"])] = "" if item.get("$") is None else str(item["$"])
    return out


def seg(name: str) -> str:
    return quote(name, safe="")


def unwrap(data: Any) -> dict[str, Any]:
    """The object inside a one-key wrapper (``{"featureType": {...}}`` → ``{...}``)."""
    if isinstance(data, dict) and len(data) == 1:
        inner = next(iter(data.values()))
        if isinstance(inner, dict):
            return inner
    return data if isinstance(data, dict) else {}
