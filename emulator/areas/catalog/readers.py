"""Reading one value out of a catalog body (its JSON shape): text, numbers, flags, lists,
maps, bounding boxes. ``parse.py`` builds whole objects from them; ``generic.py`` reads the
field tables' values with them."""

from __future__ import annotations

from typing import Any

from ...core.errors import Invalid
from ...wire.geoserver.java import fits
from ...wire.json import as_list
from .entities import (
    BBox,
)


def text(d: dict[str, Any], key: str) -> str | None:
    value = d.get(key)
    if value is None:
        return None
    if isinstance(value, dict):
        value = value.get("$", value.get("name", ""))
    if isinstance(value, list | dict):
        raise Invalid(f"Expected a single value for {key}")
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def enum(d: dict[str, Any], key: str, allowed: tuple[str, ...], what: str) -> str | None:
    """An enum constant as XStream's ``EnumConverter`` reads it: exact name first, then a
    case-insensitive match (``single`` → ``SINGLE``); anything else is refused."""
    value = text(d, key)
    if value is None or value in allowed:
        return value
    for constant in allowed:
        if constant.lower() == value.lower():
            return constant
    raise Invalid(f"Unknown {what} {value}")


def flag(d: dict[str, Any], key: str) -> bool | None:
    value = text(d, key)
    if value is None or value == "":
        return None
    if value.lower() in ("true", "false"):
        return value.lower() == "true"
    raise Invalid(f"Invalid boolean for {key}: {value!r}")


def integer(d: dict[str, Any], key: str) -> int | None:
    value = text(d, key)
    if value is None or value == "":
        return None
    try:
        as_float = float(value)
    except ValueError:
        raise Invalid(f"Invalid integer for {key}: {value!r}") from None
    if not as_float.is_integer():
        raise Invalid(f"Invalid integer for {key}: {value!r}")
    whole = int(value) if value.strip().lstrip("+-").isdigit() else int(as_float)
    if not fits(whole):
        raise Invalid(f"Invalid integer for {key}: {value!r} (out of the range of a Java int)")
    return whole


def number(d: dict[str, Any], key: str) -> float | None:
    value = text(d, key)
    if value is None or value == "":
        return None
    try:
        return float(value)
    except ValueError:
        raise Invalid(f"Invalid number for {key}: {value!r}") from None


def ref_name(d: dict[str, Any], key: str) -> str | None:
    """A reference to another catalog object by name (``ws:name`` kept whole): ``{"name":
    …}``, or the element's text (``<published type="layer">topp:states</published>``)."""
    value = d.get(key)
    if isinstance(value, dict):
        if "name" not in value and "$" in value:
            return text(value, "$")
        return text(value, "name")
    return text(d, key)


def items(d: dict[str, Any], key: str, item: str) -> list[Any]:
    """The members of a collection element ``<key><item/>…</key>``."""
    value = d.get(key)
    if value is None or value == "":
        return []
    if isinstance(value, list):
        return value
    if isinstance(value, dict):
        return as_list(value.get(item))
    raise Invalid(f"Expected a list for {key}")


def strings(d: dict[str, Any], key: str) -> list[str] | None:
    if key not in d:
        return None
    out = []
    for v in items(d, key, "string"):
        if isinstance(v, dict | list):
            raise Invalid(f"Expected strings in {key}")
        out.append(str(v))
    return out


def keywords(d: dict[str, Any]) -> list[str] | None:
    """``<keywords>``: GeoServer's keyword list converter reads every child as a keyword,
    whatever its name (``<string>``, ``<keyword>``), in document order."""
    if "keywords" not in d:
        return None
    value = d["keywords"]
    if value is None or value == "":
        return []
    if isinstance(value, list):
        found = value
    elif isinstance(value, dict):
        found = [v for child in value.values() for v in as_list(child)]
    else:
        found = [value]
    out = []
    for v in found:
        if isinstance(v, dict | list):
            raise Invalid("Expected strings in keywords")
        out.append(str(v))
    return out


def entries(d: dict[str, Any], key: str, structured: bool = False) -> dict[str, Any] | None:
    """A map: ``<entry key="k">v</entry>``, ``<entry><string>k</string><string>v</string>
    </entry>``, ``<k><string>v</string></k>``, ``{"entry":[{"@key":k,"$":v}]}`` or ``{k: v}``.

    With ``structured`` (metadata maps), an entry holding elements rather than text
    (``<entry key="time"><dimensionInfo>…</dimensionInfo></entry>``, a ``virtualTable``) keeps
    them as a dict in the JSON shape, to be written back as they came."""
    value = d.get(key)
    if value is None:
        return None
    if value == "":
        return {}
    if not isinstance(value, dict):
        raise Invalid(f"Expected a map for {key}")
    out: dict[str, str] = {}
    for name, v in value.items():
        if name != "entry":
            inner = v.get("string") if isinstance(v, dict) else v
            out[name] = "" if inner is None else str(inner)
            continue
        for e in as_list(v):
            if not isinstance(e, dict):
                raise Invalid(f"Malformed entry in {key}")
            if "@key" in e:
                inner = {k: v for k, v in e.items() if k not in ("@key", "$")}
                if structured and inner:
                    out[str(e["@key"])] = inner
                else:
                    out[str(e["@key"])] = text(e, "$") or ""
            else:
                pair = as_list(e.get("string"))
                if len(pair) == 1 and "null" in e:  # <entry><string>k</string><null/></entry>
                    pair.append("")
                if len(pair) != 2 or isinstance(pair[0], dict | list):
                    raise Invalid(f"Malformed entry in {key}")
                out[str(pair[0])] = "" if pair[1] is None else _plain(pair[1], key)
    return out


def _plain(value: Any, key: str) -> str:
    if isinstance(value, dict | list):
        raise Invalid(f"Malformed entry in {key}")
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def bbox(d: dict[str, Any], key: str, default_crs: str | None) -> BBox | None:
    value = d.get(key)
    if value is None or value == "":
        return None
    if not isinstance(value, dict):
        raise Invalid(f"Expected an envelope for {key}")
    coords = [number(value, k) for k in ("minx", "maxx", "miny", "maxy")]
    if None in coords:
        raise Invalid(f"{key} needs minx, maxx, miny and maxy")
    minx, maxx, miny, maxy = (float(c) for c in coords if c is not None)
    return BBox(minx, maxx, miny, maxy, text(value, "crs") or default_crs)
