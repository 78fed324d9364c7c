"""Reading and writing the generic fields of a field table (``fields.py``).

``read_extras`` takes a request body already in the JSON shape (``tree.read_body``; XML
and JSON alike) and returns the generic fields it carries in normal form; a field sent
empty or as ``xsi:nil="true"`` (JSON ``null``) comes back as None: unset it.
``write_extras`` adds a stored ``extras`` dict to a document node, each field at its place
in the table's order, and the defaults of the unset ones.
"""

from __future__ import annotations

from typing import Any

from ...core.errors import Invalid
from .fields import (
    BOOL,
    ENUM,
    FLOAT,
    I18N,
    INT,
    LIST,
    MAP,
    STRINGS,
    STRUCT,
    TEXT,
    Field,
    generic,
    order,
)
from .readers import entries, enum, flag, integer, items, number, text
from .tree import Node

Extras = dict[str, Any]


def read_extras(d: dict[str, Any], table: tuple[Field, ...]) -> dict[str, Any | None]:
    """The generic fields ``d`` carries: tag → normal form, or None to unset (a value equal
    to the field's default is stored as unset: both write the same)."""
    out: dict[str, Any | None] = {}
    for f in generic(table):
        if f.tag in d:
            value = read_value(d, f)
            # a default is what an unset field writes: keep the stored form canonical
            out[f.tag] = None if value == f.default else value
    return out


def read_value(d: dict[str, Any], f: Field) -> Any:
    """The normal form of ``d[f.tag]``; None when empty or nil."""
    raw = d.get(f.tag)
    if raw is None:
        return None
    if f.kind == TEXT:
        return text(d, f.tag)
    if f.kind == BOOL:
        return flag(d, f.tag)
    if f.kind == INT:
        return integer(d, f.tag)
    if f.kind == FLOAT:
        return number(d, f.tag)
    if f.kind == ENUM:
        return enum(d, f.tag, f.choices, f.tag) or None
    if f.kind == STRINGS:
        values = [_scalar(v, f.tag) for v in items(d, f.tag, f.item)]
        return values or None
    if f.kind == STRUCT:
        return _struct(raw, f)
    if f.kind == LIST:
        members = items(d, f.tag, f.item)
        if not members and isinstance(raw, dict):  # another element name for the items
            names = [k for k in raw if not k.startswith("@")]
            if len(names) == 1:
                members = items(d, f.tag, names[0])
        found = [_struct(v, f) for v in members]
        kept = [v for v in found if v is not None]
        return kept or None
    if f.kind == MAP:
        return entries(d, f.tag, structured=True) or None
    if f.kind == I18N:
        return _i18n(raw, f.tag)
    raise AssertionError(f"unknown field kind {f.kind}")


def _scalar(value: Any, where: str) -> str:
    if isinstance(value, dict):
        if set(value) - {"$"}:
            raise Invalid(f"Expected text in {where}")
        value = value.get("$", "")
    if isinstance(value, list):
        raise Invalid(f"Expected text in {where}")
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _struct(raw: Any, f: Field) -> dict[str, Any] | None:
    if raw == "" or raw is None:
        return None
    if not isinstance(raw, dict):
        raise Invalid(f"Expected an object for {f.tag}")
    out: dict[str, Any] = {}
    for sub in f.sub:
        if sub.tag in raw:
            value = read_value(raw, sub)
            if value is not None:
                out[sub.tag] = value
    return out or None


def _i18n(raw: Any, where: str) -> dict[str, str] | None:
    if raw == "":
        return None
    if not isinstance(raw, dict):
        raise Invalid(f"Expected one text per language in {where}")
    out = {}
    for locale, value in raw.items():
        if locale.startswith("@"):
            continue
        if value is None:
            continue
        out[str(locale)] = _scalar(value, f"{where}.{locale}")
    return out or None


def merge(stored: Extras, changes: dict[str, Any | None]) -> Extras:
    """``stored`` with ``changes`` applied (None removes a field): a PUT's merge."""
    out = dict(stored)
    for tag, value in changes.items():
        if value is None:
            out.pop(tag, None)
        else:
            out[tag] = value
    return out


# -- writing --------------------------------------------------------------------------------


JAVA_PREFIX = "org.geoserver."
"""an item tag starting so is a Java class name: written with the vendor prefix"""


def write_extras(
    node: Node, table: tuple[Field, ...], extras: Extras, vendor: str = "org.geoserver"
) -> Node:
    """Insert the generic fields (stored or defaulted) into ``node`` in table order (a
    child the table does not name, such as a trailing collection link, counts as last)."""
    rank = order(table)
    for f in generic(table):
        value = extras.get(f.tag, f.default)
        if value is None:
            continue
        child = value_node(f, value, vendor)
        if child is None:
            continue
        here = rank[f.tag]
        at = len(node.children)
        for i, existing in enumerate(node.children):
            if rank.get(existing.tag, len(rank)) > here:
                at = i
                break
        node.children.insert(at, child)
    return node


def value_node(f: Field, value: Any, vendor: str = "org.geoserver") -> Node | None:
    """The element for one field's normal-form value (None: nothing to write); ``vendor``
    replaces ``org.geoserver`` in item tags that are Java class names."""
    if f.kind in (TEXT, BOOL, INT, FLOAT, ENUM):
        return Node(f.tag, value)
    if f.kind == STRINGS:
        return Node(f.tag, children=[Node(f.item, v) for v in value]) if value else None
    if f.kind == STRUCT:
        return struct_node(f.tag, f.sub, value)
    if f.kind == LIST:
        if not value:
            return None
        item = f.item
        if item.startswith(JAVA_PREFIX):
            item = f"{vendor.rstrip('.')}.{item[len(JAVA_PREFIX) :]}"
        return Node(f.tag, children=[struct_node(item, f.sub, v) for v in value])
    if f.kind == MAP:
        if not value:
            return None
        from .tree import entries_node

        return entries_node(f.tag, value)
    if f.kind == I18N:
        return Node(f.tag, children=[Node(k, v) for k, v in value.items()]) if value else None
    raise AssertionError(f"unknown field kind {f.kind}")


def struct_node(tag: str, sub: tuple[Field, ...], value: dict[str, Any]) -> Node:
    node = Node(tag)
    for f in sub:
        v = value.get(f.tag, f.default)
        if v is None:
            continue
        if f.tag.startswith("@"):
            node.attrs[f.tag[1:]] = str(v)
            continue
        node.child(value_node(f, v))
    return node


def from_normal(table: tuple[Field, ...], values: dict[str, Any]) -> Extras:
    """Check stored values (a scenario's ``fields``) by writing and reading them back: the
    normal form of each, as a body carrying them would give it. Unknown tags are refused."""
    from .tree import to_json

    known = {f.tag: f for f in generic(table)}
    doc: dict[str, Any] = {}
    for tag, value in values.items():
        f = known.get(tag)
        if f is None:
            raise Invalid(f"unknown field {tag}")
        node = value_node(f, value) if value is not None else None
        if node is not None:
            doc[tag] = to_json(node)
    return {k: v for k, v in read_extras(doc, table).items() if v is not None}
