"""Wire forms of the seeding area: the ``seedRequest`` body (XML, or JSON read the way
GWC's Jettison driver maps it onto the same XML), and the task list.

Tile-layer representations are in ``layer_codec.py``; the kill replies in ``html.py``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ...core.errors import Invalid
from ...wire import json as wjson
from ...wire import text as wtext
from ...wire import xml as wxml
from .request import SeedRequest

ENUM_TYPES = ("UNSET", "SEED", "RESEED", "TRUNCATE")
_IGNORED = ("tileFailureRetryCount", "tileFailureRetryWaitTime", "totalFailuresBeforeAborting")


def java_decode(text: str, what: str) -> int:
    """XStream's integer reading (``Long.decode``): decimal, ``0x``/``#`` hex, ``0`` octal."""
    s = text.strip()
    sign = -1 if s.startswith("-") else 1
    body = s[1:] if s[:1] in "+-" else s
    if body[:2].lower() == "0x":
        digits, base = body[2:], 16
    elif body.startswith("#"):
        digits, base = body[1:], 16
    elif len(body) > 1 and body.startswith("0"):
        digits, base = body[1:], 8
    else:
        digits, base = body, 10
    allowed = "0123456789abcdefABCDEF"[: 10 if base == 10 else 8 if base == 8 else 22]
    if not digits or any(c not in allowed for c in digits):
        raise Invalid(f"Invalid value for {what}: {text!r} is not an integer")
    value = int(digits, base)
    value *= sign
    if not -(1 << 31) <= value <= 0xFFFFFFFF:
        raise Invalid(f"Invalid value for {what}: {text!r} is out of range")
    return value - (1 << 32) if value > 0x7FFFFFFF else value


def _double(text: str | None, what: str) -> float:
    try:
        value = float((text or "").strip())
    except ValueError:
        raise Invalid(f"Invalid value for {what}: {text!r} is not a number") from None
    if not math.isfinite(value):
        raise Invalid(f"Invalid value for {what}: {text!r} is not a finite number")
    return value


def _bounds(el: wxml.Element) -> tuple[float, float, float, float]:
    coords = wxml.child(el, "coords")
    values: list[wxml.Element] = []
    if coords is not None:
        values = [c for c in coords if isinstance(c.tag, str)]
    if len(values) != 4:
        raise Invalid("bounds must hold coords with four numbers: minx, miny, maxx, maxy")
    x0, y0, x1, y1 = (_double(v.text, "bounds") for v in values)
    return (x0, y0, x1, y1)


def _parameters(el: wxml.Element) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for entry in wxml.children(el, "entry"):
        parts = [c for c in entry if isinstance(c.tag, str)]
        if len(parts) != 2:
            raise Invalid("Each parameters entry must hold two strings: the name and the value")
        out.append(((parts[0].text or "").strip(), (parts[1].text or "").strip()))
    return out


def _srs(el: wxml.Element) -> int:
    number = wxml.text(el, "number")
    if number is None:
        raise Invalid("srs must hold a number, e.g. <srs><number>4326</number></srs>")
    return java_decode(number, "srs")


def _enum_type(text: str) -> str:
    if text not in ENUM_TYPES:
        raise Invalid(f"Invalid value for enumType: {text!r}; one of {', '.join(ENUM_TYPES)}")
    return text


def _int(el: wxml.Element, name: str) -> int:
    return java_decode(el.text or "", name)


_FIELDS: dict[str, tuple[str, Callable[[wxml.Element], object]]] = {
    "name": ("name", lambda el: wxml.text(el)),
    "bounds": ("bounds", _bounds),
    "gridSetId": ("gridset_id", lambda el: wxml.text(el)),
    "srs": ("srs", _srs),
    "zoomStart": ("zoom_start", lambda el: _int(el, "zoomStart")),
    "zoomStop": ("zoom_stop", lambda el: _int(el, "zoomStop")),
    "threadCount": ("thread_count", lambda el: _int(el, "threadCount")),
    "format": ("format", lambda el: wxml.text(el)),
    "type": ("type", lambda el: wxml.text(el)),
    "enumType": ("enum_type", lambda el: _enum_type(wxml.text(el) or "")),
    "parameters": ("parameters", _parameters),
    "filterUpdate": ("filter_update", lambda el: (wxml.text(el) or "").lower() == "true"),
}


def seed_request_from_element(root: wxml.Element) -> SeedRequest:
    """Read a ``seedRequest`` element as XStream fills ``SeedRequest``."""
    if wxml.local(root.tag) != "seedRequest":
        raise Invalid(
            f"Expected a seedRequest document, got {wxml.local(root.tag) or 'no element'}"
        )
    req = SeedRequest()
    for el in root:
        if not isinstance(el.tag, str):
            continue
        tag = wxml.local(el.tag)
        if tag in _IGNORED:
            req.extras[tag] = str(_int(el, tag))
            continue
        known = _FIELDS.get(tag)
        if known is None:
            raise Invalid(f"Unknown field {tag} in seedRequest")
        attr, read = known
        setattr(req, attr, read(el))
    return req


def parse_seed_request_xml(body: bytes) -> SeedRequest:
    return seed_request_from_element(wxml.parse(body, "seed request"))


def _json_to_xml(parent: wxml.Element, key: str, value: Any) -> None:
    """Jettison's mapped convention: objects are elements, arrays repeat the element."""
    if value is None:
        return
    if isinstance(value, list):
        for item in value:
            _json_to_xml(parent, key, item)
        return
    el = wxml.sub(parent, key)
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "$":
                el.text = _scalar(v)
            elif not k.startswith("@"):
                _json_to_xml(el, k, v)
    else:
        el.text = _scalar(value)


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict | list):
        raise Invalid("Expected a plain value in the seed request")
    return str(value)


def parse_seed_request_json(body: bytes) -> SeedRequest:
    doc = wjson.as_object(wjson.loads(body, "seed request"), "the seed request")
    if list(doc) != ["seedRequest"] or not isinstance(doc["seedRequest"], dict):
        raise Invalid('Expected a JSON object {"seedRequest": {...}}')
    holder = wxml.element("holder")
    _json_to_xml(holder, "seedRequest", doc["seedRequest"])
    return seed_request_from_element(holder[0])


def dump_task_list_json(rows: list[list[int]]) -> bytes:
    return wjson.dumps({"long-array-array": rows})


def dump_task_list_xml(rows: list[list[int]]) -> bytes:
    """XStream's default writing of ``long[][]`` (two-space indent, no declaration)."""
    if not rows:
        return b"<long-array-array/>"
    lines = ["<long-array-array>"]
    for r in rows:
        lines.append("  <long-array>")
        lines.extend(f"    <long>{v}</long>" for v in r)
        lines.append("  </long-array>")
    lines.append("</long-array-array>")
    return "\n".join(lines).encode("utf-8")


def parse_form(body: bytes, decode: bool) -> dict[str, str]:
    """GWC's ``splitToMap``: split on ``&`` (or on spaces without one), then on ``=``."""
    from urllib.parse import unquote_plus

    text = body.decode("utf-8", errors="replace")
    if decode:
        text = unquote_plus(text)
    out: dict[str, str] = {}
    for chunk in text.split("&" if "&" in text else " "):
        key, sep, value = chunk.partition("=")
        if not sep or "=" in value:
            raise Invalid(f"Chunk [{chunk}] is not a valid entry")
        if key in out:
            raise Invalid(f"Duplicate key [{key}] found.")
        out[key] = value
    wtext.check_pairs(out.items(), "form")
    return out
