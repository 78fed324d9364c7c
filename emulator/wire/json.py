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


MAX_VALUES = 100_000
"""the most values one JSON body may hold, counted before it is decoded as the commas and
opening brackets and braces outside its strings (every array item and object member after
the first adds a comma, every array and object a bracket or brace): parsing and checking that
many takes a few hundredths of a second, which every other client of the live server waits;
400 beyond"""
MAX_DEPTH = 256
"""the deepest nesting of arrays and objects accepted (the XML parser's own limit); 400 beyond"""


def loads(body: bytes | str, what: str = "JSON", max_values: int = MAX_VALUES) -> Any:
    """Parse a request body, or raise ``Invalid`` with a readable message: malformed JSON,
    more than ``max_values`` values (counted before anything is decoded) or nesting deeper
    than ``MAX_DEPTH``, a number Python will not convert (more than 4,300 digits), a key or
    string XML 1.0 cannot carry (``wire/text.py``), a name longer than ``text.NAME_LIMIT``."""
    count_values(body, what, max_values)
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
    wtext.check_value(value, what, MAX_DEPTH)
    return value


def count_values(body: bytes | str, what: str, limit: int = MAX_VALUES) -> int:
    """The values of a JSON text as ``MAX_VALUES`` counts them (commas, ``[`` and ``{``
    outside strings), or ``Invalid`` past ``limit``. Counting every one of those characters
    is an upper bound that takes milliseconds; only when it passes the limit are those inside
    strings taken off, string by string (at most ``2 × limit`` strings: more, and the body
    has too many values anyway)."""
    data = body.encode("utf-8", "surrogatepass") if isinstance(body, str) else body
    count = data.count(b",") + data.count(b"[") + data.count(b"{")
    if count > limit:
        if b"\\" in data:  # escaped backslashes and quotes are inside strings: drop them
            data = data.replace(b"\\\\", b"").replace(b'\\"', b"")
        quotes = data.count(b'"')
        if quotes > 4 * limit:  # an object member is at most two strings, four quotes
            count = quotes // 4
        else:
            count -= _inside_strings(data, count - limit)
    if count > limit:
        raise Invalid(
            f"The {what} is too large: it holds {count} values or more (counted as the commas"
            f" and opening brackets and braces outside strings); at most {limit} are accepted"
        )
    return count


def _inside_strings(data: bytes, enough: int) -> int:
    """The commas, ``[`` and ``{`` inside the strings of ``data`` (escapes removed), found
    string by string; the count stops growing once it passes ``enough``."""
    inside, end = 0, 0
    while inside < enough:
        start = data.find(b'"', end)
        end = data.find(b'"', start + 1) if start >= 0 else -1
        if end < 0:
            break
        inside += data.count(b",", start, end)
        inside += data.count(b"[", start, end) + data.count(b"{", start, end)
        end += 1
    return inside


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
