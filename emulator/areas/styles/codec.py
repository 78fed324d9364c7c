"""The style record and style lists in XML, JSON and HTML, as GeoServer's REST writes them.

Record (XStream; JSON in Jettison's mapped convention)::

    <style><name>countries</name><workspace><name>ne</name></workspace><format>sld</format>
      <languageVersion><version>1.0.0</version></languageVersion><filename>countries.sld</filename>
      <legend>…</legend><dateCreated>…</dateCreated><dateModified>…</dateModified>
      <metadata><entry key="cacheAgeMax">300</entry></metadata></style>

    {"style":{"name":"countries","workspace":{"name":"ne"},"format":"sld",
              "languageVersion":{"version":"1.0.0"},"filename":"countries.sld", …}}

A global style has no ``workspace``. On input the workspace may also be written as plain text
(``<workspace>cite</workspace>``); an empty one (``<workspace/>``, ``"workspace": ""``) makes
the style global. Unknown fields, ``id`` and the dates are ignored.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ...core.errors import Invalid
from ...wire import json as wjson
from ...wire import xml as wxml
from ...wire.geoserver.html import esc, page
from ...wire.geoserver.java import parse_int
from ...wire.geoserver.xstream import names_json, names_xml
from .model import Legend, Style, StyleChanges

ROOT = "style"
LIST_LINK_TYPE = "application/atom+xml"


# -- reading -------------------------------------------------------------------------------


def parse_style(body: bytes, fmt: str) -> StyleChanges:
    """The fields a record body gives (two-step POST or record PUT)."""
    if fmt == "json":
        return _from_json(wjson.loads(body, "style"))
    root = wxml.parse(body, "style")
    tag = wxml.local(root.tag)
    if tag != ROOT:
        hint = ""
        if tag == "StyledLayerDescriptor":
            hint = (
                ". To upload an SLD, send it with Content-Type application/vnd.ogc.sld+xml"
                " (SLD 1.0) or application/vnd.ogc.se+xml (SLD 1.1); text/xml and"
                " application/xml mean a <style> record"
            )
        raise Invalid(f"Malformed style: expected <style>, got <{tag}>{hint}")
    return _from_xml(root)


def _from_xml(root: wxml.Element) -> StyleChanges:
    out = StyleChanges(
        name=wxml.text(root, "name"),
        filename=wxml.text(root, "filename"),
        format=wxml.text(root, "format"),
    )
    lv = wxml.child(root, "languageVersion")
    if lv is not None:
        out.version = wxml.text(lv, "version") or None
    ws = wxml.child(root, "workspace")
    if ws is not None:
        out.workspace = (
            wxml.text(ws, "name") if wxml.child(ws, "name") is not None else wxml.text(ws)
        ) or None
    legend = wxml.child(root, "legend")
    if legend is not None:
        out.legend = _legend(
            {wxml.local(c.tag): (c.text or "").strip() for c in legend if isinstance(c.tag, str)}
        )
    metadata = wxml.child(root, "metadata")
    if metadata is not None:
        out.metadata = {}
        for entry in wxml.children(metadata, "entry"):
            key = entry.get("key")
            if key is None:
                raise Invalid("Malformed style: a metadata <entry> has no key attribute")
            out.metadata[key] = (entry.text or "").strip()
    return out


def _from_json(data: Any) -> StyleChanges:
    obj = wjson.as_object(data, "the style")
    if ROOT in obj:
        obj = wjson.as_object(obj[ROOT], "the style")
    out = StyleChanges(
        name=_string(obj, "name"), filename=_string(obj, "filename"), format=_string(obj, "format")
    )
    lv = obj.get("languageVersion")
    if isinstance(lv, dict):
        out.version = _string(lv, "version") or None
    elif lv is not None:
        out.version = _string(obj, "languageVersion") or None
    if "workspace" in obj:
        ws = obj["workspace"]
        out.workspace = (
            _string(ws, "name") if isinstance(ws, dict) else _string(obj, "workspace")
        ) or None
    if obj.get("legend") not in (None, ""):
        legend = wjson.as_object(obj["legend"], "the legend")
        out.legend = _legend({k: _scalar(v, k) for k, v in legend.items()})
    if obj.get("metadata") not in (None, ""):
        entries = wjson.as_object(obj["metadata"], "the metadata").get("entry")
        out.metadata = {}
        for entry in wjson.as_list(entries):
            entry = wjson.as_object(entry, "a metadata entry")
            if "@key" not in entry:
                raise Invalid('Malformed style: a metadata entry has no "@key"')
            out.metadata[str(entry["@key"])] = _scalar(entry.get("$", ""), "$")
    return out


def _string(obj: dict[str, Any], key: str) -> str | None:
    value = obj.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise Invalid(f"Malformed style: {key} must be a string")
    return value.strip()


def _scalar(value: Any, key: str) -> str:
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise Invalid(f"Malformed style: {key} must be a string or a number")
    return str(value)


def _legend(values: dict[str, str]) -> Legend:
    def number(key: str) -> int | None:
        text = values.get(key)
        if text in (None, ""):
            return None
        try:
            return parse_int(text.strip())
        except ValueError:
            raise Invalid(
                f"Malformed style: legend {key} must be an integer (a Java int), not {text!r}"
            ) from None

    return Legend(
        number("width"),
        number("height"),
        values.get("format") or None,
        values.get("onlineResource") or None,
    )


# -- writing -------------------------------------------------------------------------------


def _record_fields(style: Style) -> list[tuple[str, Any]]:
    """(tag, value) in XStream's field order; nested values are lists of pairs."""
    fields: list[tuple[str, Any]] = [("name", style.name)]
    if style.workspace is not None:
        fields.append(("workspace", [("name", style.workspace)]))
    fields.append(("format", style.format))
    if style.version:
        fields.append(("languageVersion", [("version", style.version)]))
    if style.filename:
        fields.append(("filename", style.filename))
    if style.legend is not None:
        fields.append(("legend", style.legend.fields()))
    fields += [
        (t, v)
        for t, v in (("dateCreated", style.date_created), ("dateModified", style.date_modified))
        if v
    ]
    return fields


def dump_style(style: Style, fmt: str, body_link: str = "") -> bytes:
    """The record in ``xml``, ``json`` or ``html`` (``body_link``: the body's URL, for HTML)."""
    if fmt == "json":
        obj: dict[str, Any] = {tag: _json_value(value) for tag, value in _record_fields(style)}
        if style.metadata:
            entries = [{"@key": k, "$": v} for k, v in style.metadata.items()]
            obj["metadata"] = {"entry": entries[0] if len(entries) == 1 else entries}
        return wjson.dumps({ROOT: obj})
    if fmt == "html":
        return _html_record(style, body_link)
    root = wxml.element(ROOT)
    _xml_fields(root, _record_fields(style))
    if style.metadata:
        md = wxml.sub(root, "metadata")
        for key, value in style.metadata.items():
            wxml.sub(md, "entry", value, {"key": key})
    return wxml.dump(root)


def _json_value(value: Any) -> Any:
    if isinstance(value, list):
        return {tag: _json_value(v) for tag, v in value}
    return value


def _xml_fields(parent: wxml.Element, fields: Iterable[tuple[str, Any]]) -> None:
    for tag, value in fields:
        if isinstance(value, list):
            _xml_fields(wxml.sub(parent, tag), value)
        else:
            wxml.sub(parent, tag, str(value))


def dump_list(items: list[tuple[str, str]], fmt: str) -> bytes:
    """A style list: (name, href) per style."""
    if fmt == "json":
        return names_json("styles", ROOT, items)
    if fmt == "html":
        lis = "".join(f'<li><a href="{esc(h)}">{esc(n)}</a></li>' for n, h in items)
        return _page("Styles", f"<ul>{lis}</ul>")
    return names_xml("styles", ROOT, items, LIST_LINK_TYPE)


def _html_record(style: Style, body_link: str) -> bytes:
    rows = [
        ("Name", style.name),
        ("Workspace", style.workspace),
        ("Format", style.format),
        ("Language version", style.version),
        ("Filename", style.filename),
        ("Created", style.date_created),
        ("Modified", style.date_modified),
    ]
    lis = "".join(f"<li>{k}: {esc(v)}</li>" for k, v in rows if v)
    link = f'<p><a href="{esc(body_link)}">Style body</a></p>' if body_link else ""
    return _page(f'Style "{style.name}"', f"<ul>{lis}</ul>{link}")


def _page(title: str, body: str) -> bytes:
    return page(f"<h4>{esc(title)}</h4>{body}").encode()
