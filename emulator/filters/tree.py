"""``Filter``: one parsed filter, the tree every back end reads.

The tree is pygeofilter's AST (``Filter.ast``): ``pygeofilter.ast`` nodes (``And``, ``Or``,
``Not``, ``Include``, the comparisons, ``Between``, ``Like``, ``In``, ``IsNull``,
``Exists``, the temporal and spatial predicates, ``BBox``; ``Attribute``, ``Arithmetic``
and ``Function`` in expressions) over plain Python literals and ``pygeofilter.values``
(``Geometry`` as a GeoJSON mapping, ``Envelope``, ``Interval``). A back end other than
``predicates`` (a SQL compiler) walks it, as pygeofilter's own back ends do.

A common filter read by ``ecql_quick`` keeps that reader's small tuple tree as well, so that
the in-memory predicate is built without importing pygeofilter (a tenth of a second); its
AST is made on first access of ``ast`` (the grammar would give the same, a property test
checks it).
"""

from __future__ import annotations

from typing import Any

from ..core.lazy import LazyModule
from ..core.record import record
from . import ecql_quick

pygeofilter_ast: Any = LazyModule("pygeofilter.ast")


@record(frozen=True)
class Filter:
    """A parsed filter: ``quick`` (the quick reader's tuples) or ``node`` (pygeofilter's
    AST, when the grammar read it); read it as a tree through ``ast``."""

    quick: ecql_quick.Tree | None = None
    node: Any = None

    @property
    def ast(self) -> Any:
        """The filter as pygeofilter's AST (see the module docstring)."""
        if self.node is not None:
            return self.node
        assert self.quick is not None, "a Filter holds a tree"
        return ecql_quick.to_ast(self.quick)

    @property
    def includes_all(self) -> bool:
        """Whether the filter is ``INCLUDE`` (every feature passes, nothing to evaluate)."""
        if self.quick is not None:
            return self.quick == ("include", False)
        return isinstance(self.node, pygeofilter_ast.Include) and not self.node.not_

    def attributes(self) -> frozenset[str]:
        """The attribute names the filter reads, as written (``ws:name`` stays qualified)."""
        if self.quick is not None:
            return frozenset(_quick_names(self.quick))
        return frozenset(_ast_names(self.node))


INCLUDE = Filter(("include", False))
"""the filter that lets every feature through"""


def _quick_names(tree: ecql_quick.Tree) -> list[str]:
    out: list[str] = []
    stack = [tree]
    while stack:
        item = stack.pop()
        kind = item[0]
        if kind in ("and", "or"):
            stack += [item[1], item[2]]
        elif kind == "not":
            stack.append(item[1])
        elif kind != "include":
            out.append(item[1])  # a comparison or a LIKE: (kind, name, ...)
    return out


def _ast_names(root: Any) -> list[str]:
    """Every ``Attribute`` under ``root`` (walked without recursion)."""
    out: list[str] = []
    stack = [root]
    while stack:
        item = stack.pop()
        if isinstance(item, pygeofilter_ast.Attribute):
            out.append(str(item.name))
        elif isinstance(item, pygeofilter_ast.Node):
            stack += list(vars(item).values())
        elif isinstance(item, list | tuple):
            stack += list(item)
    return out
