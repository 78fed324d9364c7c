"""App-schema mapping documents (``as:AppSchemaDataAccess``) and the schemas they name.

A mapping file declares namespaces, the source data stores (an ``id`` and connection
parameters), the target schemas (``targetTypes/FeatureType/schemaUri``), other mapping
files it includes (``includedTypes/Include``) and one ``FeatureTypeMapping`` per mapped
type (``sourceDataStore``, ``sourceType``, ``targetElement``, optional ``mappingName``).
Child elements are unqualified in real files; they are matched here by local name, so a
qualified spelling is read too. Parsing goes through the hardened parser of ``wire.xml``.

A mapped type is named as GeoTools' ``AppSchemaDataAccess.getNames()`` names it: the
``mappingName`` when given, else the local part of ``targetElement``.
"""

from __future__ import annotations

import posixpath
import re

from ...core.errors import EmulatorError, Invalid
from ...wire import xml as wxml
from .model import MappingDoc, SourceDataStore, TypeMapping

APP_SCHEMA_NS = "http://www.geotools.org/app-schema"
XSD_NS = "http://www.w3.org/2001/XMLSchema"
ROOT = "AppSchemaDataAccess"
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def _fail(path: str, detail: str) -> Invalid:
    return Invalid(f"Invalid app-schema mapping {path}: {detail}")


def _required(el: wxml.Element, name: str, path: str, where: str) -> str:
    value = wxml.text(el, name)
    if not value:
        raise _fail(path, f"{where} has no {name}")
    return value


def parse_mapping(data: bytes, path: str) -> MappingDoc:
    """Parse the mapping file at ``path`` (used in messages), or raise ``Invalid``."""
    try:
        root = wxml.parse(data, "XML")
    except EmulatorError as exc:
        raise _fail(path, exc.message) from None
    tag = wxml.local(root.tag)
    if tag != ROOT:
        raise _fail(path, f"the root element is <{tag}>, expected <as:{ROOT}>")
    namespaces = _namespaces(root, path)
    stores = _source_stores(root, path)
    mappings = _type_mappings(root, path, namespaces, {s.id for s in stores})
    includes = tuple(_texts(root, "includedTypes", "Include", path))
    schemas = tuple(_texts(root, "targetTypes", "FeatureType", path, leaf="schemaUri"))
    return MappingDoc(path, tuple(namespaces.items()), includes, stores, schemas, mappings)


def _namespaces(root: wxml.Element, path: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for holder in wxml.children(root, "namespaces"):
        for ns in wxml.children(holder, "Namespace"):
            prefix = _required(ns, "prefix", path, "a Namespace")
            out[prefix] = _required(ns, "uri", path, f"Namespace {prefix}")
    return out


def _source_stores(root: wxml.Element, path: str) -> tuple[SourceDataStore, ...]:
    out: list[SourceDataStore] = []
    for holder in wxml.children(root, "sourceDataStores"):
        for ds in wxml.children(holder, "DataStore"):
            store_id = _required(ds, "id", path, "a sourceDataStores/DataStore")
            if any(s.id == store_id for s in out):
                raise _fail(path, f"the source data store id {store_id} is declared twice")
            params: list[tuple[str, str]] = []
            for group in wxml.children(ds, "parameters"):
                for p in wxml.children(group, "Parameter"):
                    name = _required(p, "name", path, f"a Parameter of DataStore {store_id}")
                    params.append((name, wxml.text(p, "value", "") or ""))
            out.append(SourceDataStore(store_id, tuple(params)))
    return tuple(out)


def _type_mappings(
    root: wxml.Element, path: str, namespaces: dict[str, str], store_ids: set[str]
) -> tuple[TypeMapping, ...]:
    out: list[TypeMapping] = []
    seen: set[tuple[str, str | None]] = set()
    items = [
        m
        for h in wxml.children(root, "typeMappings")
        for m in wxml.children(h, "FeatureTypeMapping")
    ]
    for i, m in enumerate(items, start=1):
        where = f"FeatureTypeMapping #{i}"
        source = _required(m, "sourceDataStore", path, where)
        source_type = _required(m, "sourceType", path, where)
        target = _required(m, "targetElement", path, where)
        prefix, sep, local = target.rpartition(":")
        if not local or (sep and prefix not in namespaces):
            raise _fail(
                path, f"{where}: targetElement {target} uses an undeclared namespace prefix"
            )
        if source not in store_ids:
            raise _fail(
                path, f"{where}: sourceDataStore {source} is not declared in sourceDataStores"
            )
        mapping_name = wxml.text(m, "mappingName") or None
        key = (target, mapping_name)
        if key in seen:
            raise _fail(path, f"duplicate mapping of {target}; give each a distinct mappingName")
        seen.add(key)
        out.append(TypeMapping(source, source_type, target, mapping_name))
    return tuple(out)


def _texts(
    root: wxml.Element, group: str, item: str, path: str, leaf: str | None = None
) -> list[str]:
    out: list[str] = []
    for holder in wxml.children(root, group):
        for el in wxml.children(holder, item):
            value = wxml.text(el, leaf) if leaf else wxml.text(el)
            if not value:
                raise _fail(path, f"an empty {group}/{item}")
            out.append(value)
    return out


def schema_locations(data: bytes, path: str) -> list[str]:
    """The ``schemaLocation`` of every ``include``, ``import`` and ``redefine`` of an XSD."""
    try:
        root = wxml.parse(data, "XML")
    except EmulatorError as exc:
        raise Invalid(f"Invalid schema {path}: {exc.message}") from None
    tag = wxml.local(root.tag)
    if tag != "schema":
        raise Invalid(f"Invalid schema {path}: the root element is <{tag}>, expected <xs:schema>")
    out = []
    for el in root:
        if wxml.local(el.tag) in ("include", "import", "redefine"):
            location = (el.get("schemaLocation") or "").strip()
            if location:
                out.append(location)
    return out


def is_local(uri: str) -> bool:
    """A reference to a file next to the mapping (no scheme, not absolute)."""
    return not _SCHEME.match(uri) and not uri.startswith(("/", "\\"))


def resolve(base_file: str, ref: str) -> str | None:
    """``ref`` relative to the folder of ``base_file`` (both relative to the store folder),
    or None when it would leave the store folder."""
    joined = posixpath.normpath(
        posixpath.join(posixpath.dirname(base_file), ref.replace("\\", "/"))
    )
    if joined.startswith("../") or joined == ".." or joined.startswith("/"):
        return None
    return joined
