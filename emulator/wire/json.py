"""Deterministic JSON: insertion order kept, fixed separators, UTF-8."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from json.encoder import encode_basestring
from typing import Any

from ..core.errors import Invalid
from . import text as wtext


def dumps(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


string: Callable[[str], str] = encode_basestring
"""a string as ``dumps`` writes it, quotes included (the encoder's own string writer)"""


def joined(*parts: str) -> bytes:
    """JSON text written piecewise (with ``string`` and ``dumps``' separators), as bytes."""
    return "".join(parts).encode("utf-8")


def loads(body: bytes | str, what: str = "JSON") -> Any:
    """Parse a request body, or raise ``Invalid`` with a readable message: malformed JSON,
    a number Python will not convert (more than 4,300 digits), nesting deeper than the
    interpreter's recursion limit, a key or string XML 1.0 cannot carry (``wire/text.py``),
    a name longer than ``text.NAME_LIMIT``."""
    if isinstance(body, bytes):
        try:
            body = body.decode("utf-8")
        except UnicodeDecodeError:
            raise Invalid(f"Malformed {what}: not UTF-8") from None
    if not body.strip():
        raise Invalid(f"Empty {what} body")
    try:
        value = json.loads(body, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise Invalid(f"Malformed {what}: {exc}") from None
    except RecursionError:
        raise Invalid(f"Malformed {what}: nested too deeply") from None
    except ValueError:  # an integer past Python's digit limit for conversion
        raise Invalid(
            f"Malformed {what}: a number has more than {sys.get_int_max_str_digits()} digits"
        ) from None
    wtext.check_value(value, what)
    return value


def _reject_constant(name: str) -> Any:
    raise json.JSONDecodeError(f"{name} is not valid JSON", name, 0)


def as_object(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise Invalid(f"Expected a JSON object for {what}")
    return value


def as_list(value: Any) -> list[Any]:
    """GeoServer's one-element-list quirk on input: an object stands for a list of one."""
    if value is None or value == "":
        return []
    if isinstance(value, list):
        return value
    return [value]
