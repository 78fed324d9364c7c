"""XML and JSON of the configuration classes, as GeoServer's XStream and Jettison write them.

Writing walks a ``schema`` table in field order and builds the catalog's ``tree.Node``
(so XML, JSON and HTML come out as the catalog's do). XStream's shapes: a string list is
``<srs><string>EPSG:4326</string></srs>`` (JSON ``{"string": [...]}``), versions are
``<org.geotools.util.Version><version>1.3.0</version></org.geotools.util.Version>``, a
keyword is a ``<string>`` with its language and vocabulary encoded
(``WMS\\@language=en\\;\\@vocabulary=v\\;``), a metadata map is ``<entry key="k">v</entry>``
(JSON ``{"@key": "k", "$": "v"}``), the WFS GML map is ``<entry><version>V_11</version>
<gml>...</gml></entry>``. JSON leaves are typed as Jettison types them (``"8"`` → 8).

Reading accepts either format (both are first turned into the same nested dicts), checks
every value's type and refuses the first bad one with a 400 naming the field; nothing is
stored before the whole body has been read. Elements this emulator does not model (fields
of other GeoServer versions) are read past, as the catalog's codec does.
"""

from __future__ import annotations

from typing import Any

from ...core.errors import Invalid
from ...wire import json as wjson
from ...wire import xml as wxml
from ...wire.geoserver.java import string_of as java_string
from ...wire.geoserver.jettison import jettison
from ..catalog.tree import Node, dump_xml, to_html, to_json, xml_to_dict
from . import schema
from .schema import Field, Table

VERSION_CLASS = "org.geotools.util.Version"
ParsedBody = tuple[dict[str, Any], str | None]
"""a checked patch and the workspace name the body gives"""

# -- writing -------------------------------------------------------------------------------


def node(
    table: Table,
    value: dict[str, Any],
    tag: str,
    *,
    workspace: str | None = None,
    files: bool = False,
    skip: frozenset[str] = frozenset(),
) -> Node:
    """The element ``tag`` for ``value``; ``workspace`` adds ``<workspace><name>`` (after
    the id); ``files`` writes as the data directory does (class attributes kept)."""
    out = Node(tag)
    if workspace is not None and ("id" not in value or "id" in skip):
        out.children.append(_workspace(workspace))
    for f in table:
        if f.name in skip or f.name not in value or value[f.name] is None:
            continue
        out.children.append(_field(f, value[f.name], files))
        if f.name == "id" and workspace is not None:
            out.children.append(_workspace(workspace))
    return out


def _workspace(name: str) -> Node:
    return Node("workspace", children=[Node("name", name)])


def _field(f: Field, value: Any, files: bool) -> Node:
    kind = f.kind
    attrs = dict(f.attrs) if files else {}
    if kind in ("str", "int", "float", "bool", "enum"):
        return Node(f.name, value)
    if kind == "strings":
        return Node(f.name, children=[Node("string", s) for s in value], attrs=attrs)
    if kind == "versions":
        return Node(
            f.name,
            children=[Node(VERSION_CLASS, children=[Node("version", v)]) for v in value],
        )
    if kind == "keywords":
        return Node(f.name, children=[Node("string", encode_keyword(k)) for k in value])
    if kind == "intl":
        return Node(
            f.name, children=[Node(lang, text) for lang, text in value.items()], attrs=attrs
        )
    if kind == "metadata":
        return Node(f.name, children=[_metadata_entry(k, v, files) for k, v in value.items()])
    if kind == "record":
        return node(f.table, value, f.name, files=files)
    if kind == "items":
        return Node(f.name, children=[node(f.table, v, f.choices[0], files=files) for v in value])
    if kind == "gml":
        entries = [
            Node("entry", children=[Node("version", version), node(f.table, gml, "gml")])
            for version, gml in value.items()
        ]
        return Node(f.name, children=entries)
    raise AssertionError(kind)  # pragma: no cover


def _metadata_entry(key: str, value: Any, files: bool) -> Node:
    """``<entry key="k">text</entry>``, or ``<entry key="k"><type>…</type></entry>`` for an
    object of a registered type (``schema.METADATA_TYPES``)."""
    if isinstance(value, str):
        return Node("entry", value, attrs={"key": key})
    ((kind, inner),) = value.items()
    return Node(
        "entry",
        children=[node(schema.METADATA_TYPES[kind], inner, kind, files=files)],
        attrs={"key": key},
    )


def encode_keyword(keyword: dict[str, str]) -> str:
    """GeoServer's one-string keyword: ``value\\@language=xx\\;\\@vocabulary=yy\\;``."""
    text = keyword["value"]
    for key in ("language", "vocabulary"):
        if keyword.get(key):
            text += f"\\@{key}={keyword[key]}\\;"
    return text


def decode_keyword(text: str) -> dict[str, str]:
    value, _, rest = text.partition("\\@")
    out = {"value": value}
    if rest:
        for part in ("\\@" + rest).split("\\;"):
            if not part.startswith("\\@"):
                continue
            key, _, item = part[2:].partition("=")
            if key in ("language", "vocabulary"):
                out[key] = item
    return out


def render(doc: Node, fmt: str, title: str = "") -> bytes:
    """``doc`` as XML, JSON (Jettison-typed leaves) or an HTML page."""
    if fmt == "json":
        return wjson.dumps({doc.tag: to_json(_typed(doc))})
    if fmt == "html":
        return to_html(doc, title or doc.tag).encode("utf-8")
    return dump_xml(doc)


def _typed(n: Node) -> Node:
    """A copy whose text leaves carry the JSON type Jettison gives them."""
    if not n.children and not n.attrs and isinstance(n.value, str):
        return Node(n.tag, jettison(n.value))
    if not n.children:
        return n
    return Node(n.tag, n.value, [_typed(c) for c in n.children], n.attrs, n.link)


def dump_fonts(names: list[str], fmt: str) -> bytes:
    """``{"fonts": [...]}`` (always a list) or ``<root><fonts><entry>...``."""
    if fmt == "json":
        return wjson.dumps({"fonts": names})
    return dump_xml(
        Node("root", children=[Node("fonts", children=[Node("entry", n) for n in names])])
    )


# -- reading -------------------------------------------------------------------------------


def parse(
    body: bytes,
    fmt: str,
    root: str,
    table: Table,
    unknown: list[str] | None = None,
    ids: bool = False,
) -> ParsedBody:
    """A checked patch from a request body whose root is ``root``, and the workspace name
    the body gives (``<workspace><name>``), if any. ``id`` is read and dropped (GeoServer
    keeps the stored object's) unless ``ids`` (reading the data directory's own files).
    Fields this emulator does not know are skipped (named in ``unknown`` when a list is
    given)."""
    data = _root(body, fmt, root)
    workspace = _workspace_name(data.pop("workspace", None))
    return fields(table, data, root, unknown, ids), workspace


def _root(body: bytes, fmt: str, root: str) -> dict[str, Any]:
    """The fields of the body's ``root`` object; 400 for another root or a root that is not
    an object (``{"wms": 5}``, ``<wms>text</wms>``)."""
    if fmt == "json":
        data = wjson.as_object(wjson.loads(body), "the request body")
        if root not in data:
            raise Invalid(f"Expected a JSON object with the key {root}")
        inner = data[root]
    else:
        el = wxml.parse(body)
        tag = wxml.local(getattr(el, "tag", ""))
        if tag != root:
            raise Invalid(f"Expected a <{root}> document, got <{tag}>")
        inner = xml_to_dict(el)
    if inner is None or (isinstance(inner, str) and not inner.strip()):
        return {}
    if not isinstance(inner, dict):
        raise Invalid(f"Expected {root} to be an object")
    return dict(inner)


def _workspace_name(value: Any) -> str | None:
    if value is None or value == "":
        return None
    if isinstance(value, dict) and isinstance(value.get("name"), str):
        return str(value["name"])
    raise Invalid("workspace: expected an object with a name")


def fields(
    table: Table, data: Any, where: str, unknown: list[str] | None = None, ids: bool = False
) -> dict[str, Any]:
    """The plain values of a wire object (the nested-dict shape of either format)."""
    if data == "":
        return {}
    if not isinstance(data, dict):
        raise Invalid(f"{where}: expected an object")
    known = schema.by_name(table)
    out: dict[str, Any] = {}
    for key, raw in data.items():
        if key.startswith("@") or (key == "href" and "href" not in known):  # a link
            continue
        name = schema.CONTACT_ALIASES.get(key, key) if table is schema.CONTACT else key
        if name == "id" and not ids:  # GeoServer keeps the stored object's id
            continue
        f = known.get(name)
        if f is None:  # a field of another GeoServer version: read past, as the catalog does
            if unknown is not None:
                unknown.append(f"{where}.{key}")
            continue
        if raw is None:
            continue
        out[name] = _value(f, raw, f"{where}.{key}", unknown, ids)
    try:
        return schema.check(table, out, where)
    except ValueError as exc:  # pragma: no cover - _value already checked every field
        raise Invalid(str(exc)) from None


def _value(f: Field, raw: Any, where: str, unknown: list[str] | None, ids: bool) -> Any:
    kind = f.kind
    if kind == "str":
        return _text(raw, where)
    if kind == "int":
        return _int(raw, where)
    if kind == "float":
        return _float(raw, where)
    if kind == "bool":
        return _bool(raw, where)
    if kind == "enum":
        text = _text(raw, where).strip()
        if text not in f.choices:
            raise Invalid(f"Invalid value for {where}: {text!r}; one of {', '.join(f.choices)}")
        return text
    if kind == "strings":
        return [_text(v, where) for v in _items(raw, where)]
    if kind == "versions":
        return [_version(v, where) for v in _items(raw, where)]
    if kind == "keywords":
        return [_keyword(v, where) for v in _items(raw, where)]
    if kind == "intl":
        texts = {k: v for k, v in _object(raw, where).items() if k[:1] != "@"}
        return {_locale(k, where): _text(v, f"{where}.{k}") for k, v in texts.items()}
    if kind == "metadata":
        return dict(_entry(v, where, unknown, ids) for v in _named(raw, "entry", where))
    if kind == "record":
        return fields(f.table, raw, where, unknown, ids)
    if kind == "items":
        return [fields(f.table, v, where, unknown, ids) for v in _items(raw, where)]
    if kind == "gml":
        out: dict[str, Any] = {}
        for entry in _named(raw, "entry", where):
            entry = _object(entry, where)
            version = _text(entry.get("version"), f"{where}.version").strip()
            if version not in schema.GML_VERSIONS:
                raise Invalid(f"Invalid value for {where}.version: {version!r}")
            gml = entry.get("gml", "")
            out[version] = fields(f.table, gml, f"{where}.gml", unknown, ids)
        return out
    raise AssertionError(kind)  # pragma: no cover


def _text(raw: Any, where: str) -> str:
    if isinstance(raw, bool | int | float):
        return java_string(raw)
    if not isinstance(raw, str):
        raise Invalid(f"Invalid value for {where}: expected text")
    if not wxml.xml_safe(raw):
        raise Invalid(f"Invalid value for {where}: a character XML cannot hold")
    return raw


def _locale(key: str, where: str) -> str:
    """A locale key of an international text: it is an element name in XML."""
    try:
        wxml.check_name(key)
    except ValueError:
        raise Invalid(f"Invalid locale in {where}: {key!r}") from None
    return key


def _int(raw: Any, where: str) -> int:
    if isinstance(raw, int) and not isinstance(raw, bool):
        value = raw
    elif isinstance(raw, str) and raw.strip().lstrip("+-").isdigit() and raw.strip().isascii():
        value = int(raw.strip())
    else:
        raise Invalid(f"Invalid value for {where}: {raw!r} is not an integer")
    if not -(2**63) <= value < 2**63:
        raise Invalid(f"Invalid value for {where}: {raw!r} is out of range")
    return value


def _float(raw: Any, where: str) -> float:
    if isinstance(raw, int | float) and not isinstance(raw, bool):
        value = float(raw)
    elif isinstance(raw, str):
        try:
            value = float(raw.strip())
        except ValueError:
            raise Invalid(f"Invalid value for {where}: {raw!r} is not a number") from None
    else:
        raise Invalid(f"Invalid value for {where}: {raw!r} is not a number")
    if value != value or value in (float("inf"), float("-inf")):
        raise Invalid(f"Invalid value for {where}: {raw!r} is not a finite number")
    return value


def _bool(raw: Any, where: str) -> bool:
    if isinstance(raw, bool):
        return raw
    if isinstance(raw, str) and raw.strip().lower() in ("true", "false"):
        return raw.strip().lower() == "true"
    raise Invalid(f"Invalid value for {where}: {raw!r} is not true or false")


def _object(raw: Any, where: str) -> dict[str, Any]:
    if raw == "":
        return {}
    if not isinstance(raw, dict):
        raise Invalid(f"Invalid value for {where}: expected an object")
    return raw


def _items(raw: Any, where: str) -> list[Any]:
    """A collection's members: every child of an object (whatever its element name, as
    XStream's collection converters read them), or a JSON list as given."""
    if isinstance(raw, list):
        return raw
    out: list[Any] = []
    for key, value in _object(raw, where).items():
        if key.startswith("@"):
            continue
        out.extend(wjson.as_list(value) if isinstance(value, list) else [value])
    return out


def _named(raw: Any, name: str, where: str) -> list[Any]:
    obj = _object(raw, where)
    unknown = [k for k in obj if k != name and not k.startswith("@")]
    if unknown:
        raise Invalid(f"Unknown field {where}.{unknown[0]}")
    return wjson.as_list(obj.get(name))


def _version(raw: Any, where: str) -> str:
    if isinstance(raw, dict):
        raw = raw.get("version")
    text = _text(raw, where).strip()
    parts = text.split(".")
    if not text or not all(p.isdigit() for p in parts):
        raise Invalid(f"Invalid value for {where}: {text!r} is not a version")
    return text


def _keyword(raw: Any, where: str) -> dict[str, str]:
    if isinstance(raw, dict) and "value" in raw:
        try:
            return schema.keyword(raw, where)
        except ValueError as exc:
            raise Invalid(str(exc)) from None
    return decode_keyword(_text(raw, where))


def _entry(
    raw: Any, where: str, unknown: list[str] | None = None, ids: bool = False
) -> tuple[str, str | dict[str, Any]]:
    """One metadata entry: its key and text, or the object of a registered type it holds
    (``<entry key="k"><cql2>…</cql2></entry>``; an object of another type is read past, as
    its text)."""
    if not isinstance(raw, dict) or not isinstance(raw.get("@key"), str):
        raise Invalid(f"Invalid value for {where}: an entry needs a key attribute")
    key = _text(raw["@key"], where)
    for kind, table in schema.METADATA_TYPES.items():
        if kind in raw:
            return key, {kind: fields(table, raw[kind], f"{where}.{key}.{kind}", unknown, ids)}
    return key, _text(raw.get("$", ""), where)


# -- the data directory ----------------------------------------------------------------------


def file_xml(doc: Node) -> bytes:
    """``doc`` as GeoServer writes a configuration file: indented by two spaces."""
    from lxml import etree

    from ..catalog.tree import to_xml

    el = to_xml(doc)
    etree.indent(el, space="  ")
    data: bytes = etree.tostring(el, encoding="UTF-8")
    return data
