"""ECQL (and CQL) text read into a ``Filter``, as GeoTools' ECQL reads it.

Common filters (comparisons, ``LIKE``, ``AND``/``OR``/``NOT``, ``INCLUDE``) are read by
``ecql_quick`` without lark or pygeofilter; anything else by pygeofilter's ECQL grammar with
three corrections, so that it reads filters as GeoTools' ECQL does: ``AND`` binds tighter
than ``OR`` (pygeofilter gives them the same precedence), ``NOT`` may precede a
parenthesised condition, and date-time literals may be compared
(``ingestion=2008-11-01T00:00:00Z``). Errors are ``Invalid`` with GeoServer's message
(``Invalid cql syntax: ...``); ``AND``, ``OR`` and ``NOT`` nesting deeper than ``MAX_DEPTH``
is refused before anything evaluates it.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.cachedir import folder as cache_folder
from ..core.errors import Invalid
from ..core.lazy import LazyModule
from . import ecql_quick
from .tree import Filter

if TYPE_CHECKING:
    from lark import Lark

ast: Any = LazyModule("pygeofilter.ast")
"""pygeofilter's tree: imported by the first filter the grammar reads"""

GRAMMAR_ADDITIONS = r"""
%override ?condition: condition_and
            | condition "OR" condition_and                                    -> or_
?condition_and: condition_1
            | condition_and "AND" condition_1                                 -> and_
%override ?condition_1: predicate
            | "NOT" condition_1                                               -> not_
            | "(" condition ")"
%extend ?literal: DATETIME
"""


@lru_cache(maxsize=1)
def _parser() -> Lark:
    """pygeofilter's ECQL grammar with GeoServer's additions (built once per process; the
    grammar's tables are kept in the scenario cache folder, so a later process loads them;
    lark is imported here, by the first filter ``ecql_quick`` does not read)."""
    from lark import Lark

    from .ecql_tree import ECQLTree

    spec = importlib.util.find_spec("pygeofilter.parsers.ecql")  # not imported: see ecql_tree
    assert spec is not None and spec.submodule_search_locations
    folder = Path(spec.submodule_search_locations[0])
    grammar = (folder / "grammar.lark").read_text(encoding="utf-8") + GRAMMAR_ADDITIONS
    return Lark(
        grammar,
        parser="lalr",
        maybe_placeholders=False,
        transformer=ECQLTree(),
        import_paths=[str(folder.parent)],
        source_path=str(folder / "grammar.lark"),
        cache=_tables_file(),
    )


def _tables_file() -> str | bool:
    """Where lark keeps the grammar's parse tables (it checks the grammar's digest on
    reading), or False with the scenario cache off or its folder not writable."""
    from lark import __version__ as lark_version

    folder = cache_folder()
    if folder is None:
        return False
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return str(folder / f"ecql-lark-{lark_version}.tables")


MAX_DEPTH = 500
"""the deepest nesting of ``AND``, ``OR`` and ``NOT`` a filter may have: deeper, it is
refused with 400 (evaluating it would exhaust Python's recursion limit)"""


def parse(text: str) -> Filter:
    """The ``Filter`` of an ECQL text, or ``Invalid`` with GeoServer's message (or one naming
    the nesting limit, ``MAX_DEPTH``)."""
    quick, node = read(text)
    return Filter(quick, node)


def read(text: str) -> tuple[ecql_quick.Tree | None, Any]:
    """The quick reader's tree of a common filter, else the grammar's AST (the other is
    None), refused when ``AND``, ``OR`` and ``NOT`` nest deeper than ``MAX_DEPTH``."""
    try:
        quick = ecql_quick.parse(text)
        node = None if quick is not None else _grammar_parse(text)
    except RecursionError:
        raise Invalid(_too_deep()) from None
    depth = _depth(node, _children) if quick is None else _depth(quick, _quick_children)
    if depth > MAX_DEPTH:
        raise Invalid(_too_deep())
    return quick, node


def _grammar_parse(text: str) -> Any:
    """``parse`` through the grammar."""
    from lark.exceptions import LarkError

    try:
        return _parser().parse(text)
    except LarkError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise Invalid(f"Invalid cql syntax: {first}") from None
    except (TypeError, ValueError, AttributeError, ArithmeticError) as exc:
        # raised by the grammar's transformer on input it cannot build (``-attr``, bad WKT)
        raise Invalid(f"Invalid cql syntax: {exc}") from None


def _too_deep() -> str:
    return f"Invalid cql syntax: the filter nests AND, OR and NOT more than {MAX_DEPTH} deep"


def _depth(root: Any, children: Callable[[Any], tuple[Any, ...]]) -> int:
    """How deep ``AND``, ``OR`` and ``NOT`` nest under ``root`` (walked without recursion):
    ``children`` gives the operands of one of them, nothing for anything else."""
    deepest = 0
    stack = [(root, 1)]
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        stack += [(child, depth + 1) for child in children(item)]
    return deepest


def _children(node: Any) -> tuple[Any, ...]:
    """The operands of a pygeofilter ``And``, ``Or`` or ``Not``."""
    if isinstance(node, (ast.And, ast.Or)):
        return (node.lhs, node.rhs)
    return (node.sub_node,) if isinstance(node, ast.Not) else ()


def _quick_children(tree: ecql_quick.Tree) -> tuple[Any, ...]:
    """The operands of the quick reader's ``and``, ``or`` or ``not``."""
    if tree[0] in ("and", "or"):
        return tree[1:3]
    return tree[1:2] if tree[0] == "not" else ()
