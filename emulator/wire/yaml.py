"""Deterministic YAML (block style) of JSON-like values, for the documents GeoServer's OGC
APIs also write as ``application/yaml``.

Mappings and sequences in block style, strings double-quoted (JSON's escapes, which YAML's
double-quoted scalars read the same way), keys quoted unless they are plain words, numbers
and booleans as JSON writes them, ``null``. Any YAML 1.1 or 1.2 reader reads back the value
written.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
_RESERVED = frozenset({"y", "n", "yes", "no", "on", "off", "true", "false", "null", "~"})


def dumps(value: Any) -> bytes:
    lines = ["---"]
    if isinstance(value, dict | list) and value:
        _block(value, 0, lines)
    else:
        lines[0] = "--- " + _scalar(value)
    return ("\n".join(lines) + "\n").encode("utf-8")


def _scalar(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return ".nan"
        if math.isinf(value):
            return ".inf" if value > 0 else "-.inf"
        return json.dumps(value)
    if isinstance(value, dict):
        return "{}"
    if isinstance(value, list | tuple):
        return "[]"
    return json.dumps(str(value), ensure_ascii=False)


def _key(key: Any) -> str:
    text = str(key)
    if _PLAIN_KEY.fullmatch(text) and text.lower() not in _RESERVED:
        return text
    return json.dumps(text, ensure_ascii=False)


def _container(value: Any) -> bool:
    return isinstance(value, dict | list | tuple) and len(value) > 0


def _block(value: Any, indent: int, lines: list[str]) -> None:
    pad = " " * indent
    if isinstance(value, dict):
        for key, item in value.items():
            if _container(item):
                lines.append(f"{pad}{_key(key)}:")
                _block(item, indent + 2, lines)
            else:
                lines.append(f"{pad}{_key(key)}: {_scalar(item)}")
        return
    for item in value:
        if not _container(item):
            lines.append(f"{pad}- {_scalar(item)}")
            continue
        inner: list[str] = []
        _block(item, indent + 2, inner)
        first = inner[0][indent + 2 :]
        lines.append(f"{pad}- {first}")
        lines.extend(inner[1:])
