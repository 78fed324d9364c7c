"""Text every input path accepts: what XML 1.0 can carry, and names of a bounded length.

The emulator answers in XML as well as JSON, so a text it stores must be one XML 1.0 can
write: no C0 control other than tab, line feed and carriage return, no lone surrogate, no
U+FFFE or U+FFFF. ``unsafe_in`` finds the first such character; ``check_text`` and
``check_value`` refuse it with ``Invalid`` (400) before anything is stored. The HTTP layer
applies them to the path and the query (``http/routing.py``), the JSON reader to every key and
string of a body (``wire/json.py``); an XML body cannot hold such a character at all (the
parser refuses it). Names are bounded too: ``NAME_LIMIT`` characters.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from typing import Any

from ..core.errors import Invalid

NAME_LIMIT = 1024
"""the longest name (of a workspace, store, layer, style, user, group, role, rule, provider,
filter, tile layer, gridset, blob store, URL check…) accepted, in characters"""

NAME_KEYS = frozenset(
    {
        "name",
        "Name",  # an SLD's style and layer names, which name a style POSTed without one
        "userName",
        "groupName",
        "roleName",
        "id",  # blob stores
        "prefix",  # a namespace's prefix is its workspace's name
        "resource",  # an access rule's key, an XML attribute
        "coverageName",
        "filename",
    }
)
"""body fields (JSON keys, XML element and attribute names) and query parameters that name
the object a write creates or renames: their values are held to ``NAME_LIMIT``; a JSON key (an
access rule's, a map entry's) is a name too"""


@cache
def _not_xml() -> re.Pattern[str]:
    """Any one character outside XML 1.0's ``Char`` (``#x9 | #xA | #xD | [#x20-#xD7FF] |
    [#xE000-#xFFFD] | [#x10000-#x10FFFF]``), written as the complement's few ranges: the
    negated class of those ranges takes tens of milliseconds to compile."""
    return re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def unsafe_in(text: str) -> str | None:
    """The first character of ``text`` that XML 1.0 cannot hold, or None."""
    if text.isascii() and text.isprintable():
        return None
    found = _not_xml().search(text)
    return None if found is None else found.group()


def xml_safe(text: str) -> bool:
    """Whether ``text`` holds only characters XML 1.0 allows."""
    return unsafe_in(text) is None


def replace_unsafe(text: str, by: str = "\ufffd") -> str:
    """``text`` with each character XML 1.0 cannot hold replaced by ``by``."""
    return text if text.isascii() and text.isprintable() else _not_xml().sub(by, text)


def describe(char: str) -> str:
    """``U+0001`` for a character, as messages name it."""
    return f"U+{ord(char):04X}"


def refusal(char: str, where: str) -> str:
    """The message of a refusal of ``char`` in ``where``."""
    return (
        f"Invalid character {describe(char)} in {where}: XML cannot carry it (characters not"
        " allowed in XML 1.0: control characters other than tab, line feed and carriage"
        " return, lone surrogates, U+FFFE and U+FFFF)"
    )


def check_text(text: str, where: str) -> None:
    """Raise ``Invalid`` when ``text`` holds a character XML 1.0 cannot carry."""
    bad = unsafe_in(text)
    if bad is not None:
        raise Invalid(refusal(bad, where))


def check_name(name: str, where: str) -> None:
    """Raise ``Invalid`` when ``name`` is longer than ``NAME_LIMIT``."""
    if len(name) > NAME_LIMIT:
        raise Invalid(
            f"The {where} is {len(name)} characters long; names are limited to"
            f" {NAME_LIMIT} characters"
        )


def check_pairs(pairs: Iterable[tuple[str, str]], where: str, names: bool = False) -> None:
    """Check each key and value of query or form ``pairs`` (``names``: hold the values of
    ``NAME_KEYS`` to ``NAME_LIMIT``)."""
    for key, value in pairs:
        check_text(key, f"the {where} parameter name {key[:40]!r}")
        check_text(value, f"the {where} parameter {key[:40]}")
        if names and key in NAME_KEYS:
            check_name(value, f"{where} parameter {key}")


def check_value(value: Any, what: str, max_depth: int | None = None) -> None:
    """Walk a decoded JSON value (iteratively: no depth limit of its own) and refuse the
    first key or string XML 1.0 cannot carry, a name longer than ``NAME_LIMIT``, or arrays
    and objects nested more than ``max_depth`` deep. A first walk only looks; the refusal's
    message, which names where the value is, comes from a second walk, made only then."""
    if not _fine(value, max_depth):
        _refuse_first(value, what, max_depth)


def _plain(text: str) -> bool:
    return (text.isascii() and text.isprintable()) or unsafe_in(text) is None


def _fine(value: Any, max_depth: int | None) -> bool:
    """Whether ``check_value`` accepts ``value`` (without building any message)."""
    deepest = max_depth if max_depth is not None else -1
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if not _plain(item):
                return False
            continue
        if depth == deepest + 1:
            return False
        if isinstance(item, dict):
            for key, child in item.items():
                if len(key) > NAME_LIMIT or not _plain(key):
                    return False
                if isinstance(child, dict | list):
                    stack.append((child, depth + 1))
                elif isinstance(child, str) and (
                    not _plain(child) or (key in NAME_KEYS and len(child) > NAME_LIMIT)
                ):
                    return False
        elif isinstance(item, list):
            for child in item:
                if isinstance(child, dict | list):
                    stack.append((child, depth + 1))
                elif isinstance(child, str) and not _plain(child):
                    return False
    return True


def _refuse_first(value: Any, what: str, max_depth: int | None) -> None:
    """Raise ``Invalid`` for the first thing ``_fine`` finds wrong, saying where it is."""
    stack: list[tuple[Any, str, int]] = [(value, "", 1)]
    while stack:
        item, where, depth = stack.pop()
        if isinstance(item, dict | list) and max_depth is not None and depth > max_depth:
            raise Invalid(
                f"Malformed {what}: nested too deeply (arrays and objects more than"
                f" {max_depth} levels deep)"
            )
        if isinstance(item, str):
            check_text(item, f"{what} at {where or '/'}")
        elif isinstance(item, dict):
            for key, child in item.items():
                here = f"{where}/{key[:40]}"
                check_text(key, f"a key of {what} at {where or '/'}")
                check_name(key, f"key {key[:40]}… of {what} at {where or '/'}")
                if key in NAME_KEYS and isinstance(child, str):
                    check_name(child, f"{key} at {here}")
                stack.append((child, here, depth + 1))
        elif isinstance(item, list):
            stack.extend((child, f"{where}/{i}", depth + 1) for i, child in enumerate(item))
