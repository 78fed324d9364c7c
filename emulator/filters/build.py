"""Filters made in code rather than read from text: what a service selects by itself (a map
request's ``TIME`` and ``ELEVATION``) as a ``Filter`` any source evaluates (the memory
source in Python, a database source in SQL)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.lazy import LazyModule
from .tree import Filter

ast: Any = LazyModule("pygeofilter.ast")


def in_ranges(attribute: str, ranges: Sequence[tuple[Any, Any]]) -> Filter:
    """``attribute`` within one of the ``(low, high)`` ranges, ends included (a range whose
    ends are equal: equal to that value); no range: nothing passes."""
    attr = ast.Attribute(attribute)
    node: Any = None
    for low, high in ranges:
        part = ast.Equal(attr, low) if low == high else ast.Between(attr, low, high, False)
        node = part if node is None else ast.Or(node, part)
    return Filter(node=node if node is not None else ast.Include(True))


def all_of(filters: Sequence[Filter]) -> Filter | None:
    """Every filter passes (None for none)."""
    node: Any = None
    for flt in filters:
        node = flt.ast if node is None else ast.And(node, flt.ast)
    return None if node is None else Filter(node=node)
