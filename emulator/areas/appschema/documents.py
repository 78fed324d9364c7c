"""Document-database collections and the schemas inferred from their documents.

A document is a JSON object; ``_id`` is its object id (24 hex digits, or ``{"$oid": …}``).
The inference follows GeoTools' ``MongoInferredMapper``:

- no ``ids`` and ``max`` 1 (the default): the first document only;
- otherwise the documents whose ids are listed, plus the first ``max - n`` documents where
  ``n`` is the number of fields the listed documents yielded (``max`` -1: every document);
  fields from the listed documents win;
- fields are dotted paths into nested objects (lists are walked), each with the Java class
  of its first value; the geometry field (the collection's, else the first field holding a
  GeoJSON object) comes first, and paths below it are dropped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ...core.errors import Invalid
from ...core.record import record

OBJECT_ID = re.compile(r"^[0-9a-fA-F]{24}$")
GEOMETRY_BINDING = "org.locationtech.jts.geom.Geometry"
Document = dict[str, Any]


@record(frozen=True)
class DocumentSchema:
    """A persisted schema: its name (the collection), geometry field, the attributes as
    (path, Java class) in order, and the ids of the documents it was inferred from."""

    name: str
    geometry: str | None
    attributes: tuple[tuple[str, str], ...]
    sampled: tuple[str, ...] = ()

    @property
    def fields(self) -> dict[str, str]:
        return dict(self.attributes)


def object_id(value: Any) -> str | None:
    """The hex form of an ``_id`` value, or None when it is not an object id."""
    if isinstance(value, dict) and set(value) == {"$oid"}:
        value = value["$oid"]
    if isinstance(value, str) and OBJECT_ID.match(value):
        return value.lower()
    return None


def check_ids(ids: Iterable[str]) -> list[str]:
    """Object ids as given in a request, or ``Invalid`` with MongoDB's message."""
    out = []
    for raw in ids:
        if not OBJECT_ID.match(raw):
            raise Invalid(f"invalid hexadecimal representation of an ObjectId: [{raw}]")
        out.append(raw.lower())
    return out


def _java_class(value: Any) -> str:
    if isinstance(value, bool):
        return "java.lang.Boolean"
    if isinstance(value, int):
        return "java.lang.Integer" if -(2**31) <= value < 2**31 else "java.lang.Long"
    if isinstance(value, float):
        return "java.lang.Double"
    if isinstance(value, dict) and set(value) == {"$oid"}:
        return "org.bson.types.ObjectId"
    if isinstance(value, dict) and set(value) == {"$date"}:
        return "java.util.Date"
    if isinstance(value, str) and OBJECT_ID.match(value):
        return "org.bson.types.ObjectId"
    return "java.lang.String"


def _is_scalar(value: Any) -> bool:
    return not isinstance(value, dict | list) or (
        isinstance(value, dict) and set(value) in ({"$oid"}, {"$date"})
    )


def field_mappings(docs: Iterable[Document], into: dict[str, str] | None = None) -> dict[str, str]:
    """Paths to Java classes over ``docs`` (first value wins; list items re-set it)."""
    out = {} if into is None else into
    for doc in docs:
        _walk(doc, "", out)
    return out


def _walk(value: Any, path: str, out: dict[str, str]) -> None:
    if value is None:
        return
    if isinstance(value, dict) and not _is_scalar(value):
        for key, item in value.items():
            if item is None:
                continue
            child = f"{path}.{key}" if path else key
            if isinstance(item, list):
                for element in item:
                    _walk(element, child, out)
            elif isinstance(item, dict) and not _is_scalar(item):
                _walk(item, child, out)
            else:
                out.setdefault(child, _java_class(item))
    elif path:
        out[path] = _java_class(value)


def geometry_field(docs: list[Document]) -> str | None:
    """The first top-level field of the first document that holds a GeoJSON geometry."""
    for doc in docs[:1]:
        for key, value in doc.items():
            if isinstance(value, dict) and "type" in value and "coordinates" in value:
                return key
    return None


def sample(
    docs: list[Document], ids: list[str], max_objects: int
) -> tuple[list[Document], dict[str, str]]:
    """The documents a schema is inferred from, and their field mappings."""
    if not ids and max_objects == 1:
        chosen = docs[:1]
        return chosen, field_mappings(chosen)
    by_id = [d for d in docs if object_id(d.get("_id")) in ids]
    id_fields = field_mappings(by_id)
    remaining = max_objects - len(id_fields)
    if max_objects == -1:
        extra = list(docs)
    elif remaining > 0:
        extra = docs[:remaining]
    else:
        extra = []
    fields = field_mappings(extra)
    fields.update(id_fields)
    chosen = by_id + [d for d in extra if d not in by_id]
    return chosen, fields


def infer_schema(
    name: str, docs: list[Document], ids: list[str], max_objects: int, geometry: str | None = None
) -> DocumentSchema:
    """The schema of collection ``name`` (see the module docstring)."""
    chosen, fields = sample(docs, ids, max_objects)
    geom = geometry or geometry_field(docs)
    attributes: list[tuple[str, str]] = []
    if geom is not None:
        attributes.append((geom, GEOMETRY_BINDING))
        fields = {p: c for p, c in fields.items() if not p.startswith(geom)}
    attributes.extend(sorted(fields.items()))
    sampled = tuple(i for i in (object_id(d.get("_id")) for d in chosen) if i is not None)
    return DocumentSchema(name, geom, tuple(attributes), sampled)
