"""How GeoServer's JSON types its leaves.

GeoServer builds JSON by writing XML events through Jettison, so every leaf starts as text;
Jettison's default converter then turns a text into a JSON number or boolean when it reads
back exactly as Java prints that number or boolean (``"4"`` → 4, ``"12.5"`` → 12.5,
``"true"`` → true), and leaves it a string otherwise: ``"2.27.1"``, ``"007"``, ``"1e3"``, and
``"NaN"``, ``"Infinity"``, ``"-Infinity"`` (Jettison keeps a non-finite double a string, so
the JSON stays valid).
"""

from __future__ import annotations

import math
import re

from .java import double_text, string_of

Scalar = str | int | float | bool

_LONG = re.compile(r"-?(?:0|[1-9][0-9]*)")
_DOUBLE = re.compile(r"-?[0-9]+\.[0-9]+(?:E-?[0-9]+)?")
_LONG_MIN, _LONG_MAX = -(2**63), 2**63 - 1


def jettison(text: str) -> Scalar:
    """The JSON leaf Jettison writes for an XML text."""
    if _LONG.fullmatch(text) and text != "-0" and _LONG_MIN <= int(text) <= _LONG_MAX:
        return int(text)
    if _DOUBLE.fullmatch(text):
        number = float(text.replace("E", "e"))
        if double_text(number) == text:
            return int(number) if number.is_integer() and "E" not in text else number
    if text in ("true", "false"):
        return text == "true"
    return text


def leaf(value: Scalar | None) -> Scalar:
    """A Java value as a JSON leaf: ``toString`` first, then Jettison's typing."""
    return jettison(string_of(value))


def number(value: float | int) -> float | int | str:
    """A number GeoServer keeps as a ``Double`` (or ``Integer``), as its JSON writes it: a
    JSON number, or the text ``NaN``/``Infinity``/``-Infinity`` where JSON has none. (Unlike
    ``leaf`` this keeps ``1.0`` a float: the catalog's JSON writer types its numbers itself.)"""
    if isinstance(value, float) and not math.isfinite(value):
        return double_text(value)
    return value
