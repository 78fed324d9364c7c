"""Wire forms of GWC's configuration REST: gridsets, blob stores, disk quota, global
settings, mass truncation requests, the name lists, the bounds answer.

XML is XStream's pretty printing (two-space indent); JSON keeps GeoServer's shapes
(objects keyed by the root element, arrays for lists).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from ...core.errors import Invalid
from ...wire import json as wjson
from ...wire import xml as wxml
from ...wire.geoserver.java import double_text as java_double
from ...wire.geoserver.java import parse_finite, parse_int
from ...wire.geoserver.xmltext import escape_attribute as _esc
from ...wire.geoserver.xstream import names_xml_pretty
from ..seeding.config import BlobStore, Tree
from ..seeding.gridsets import GridSet, create
from ..seeding.layer_codec import json_document, read_box
from ..seeding.truncate import REQUEST_TYPES, MassTruncate

# -- name lists ---------------------------------------------------------------------------


def dump_names_xml(root: str, item: str, names: list[str], href: str) -> bytes:
    """``<gridSets><gridSet><name/><atom:link/></gridSet>…`` as ``XStreamListAliasWrapper``."""
    entries = [(name, f"{href}/{quote(name, safe=':')}.xml") for name in names]
    return names_xml_pretty(root, item, entries)


def dump_names_json(names: list[str]) -> bytes:
    return wjson.dumps(names)


# -- generic trees ------------------------------------------------------------------------


def tree_from_element(el: wxml.Element) -> Tree:
    out: Tree = []
    for c in el:
        if not isinstance(c.tag, str):
            continue
        kids = [k for k in c if isinstance(k.tag, str)]
        out.append((wxml.local(c.tag), tree_from_element(c) if kids else (c.text or "").strip()))
    return out


def _tree_lines(lines: list[str], tree: Tree, pad: str) -> None:
    for tag, value in tree:
        if isinstance(value, list):
            if not value:
                lines.append(f"{pad}<{tag}/>")
                continue
            lines.append(f"{pad}<{tag}>")
            _tree_lines(lines, value, pad + "  ")
            lines.append(f"{pad}</{tag}>")
        else:
            lines.append(f"{pad}<{tag}>{_esc(value)}</{tag}>")


def dump_tree_xml(root: str, tree: Tree, attrs: str = "") -> bytes:
    lines = [f"<{root}{attrs}>"]
    _tree_lines(lines, tree, "  ")
    lines.append(f"</{root}>")
    return "\n".join(lines).encode("utf-8")


def _json_scalar(text: str) -> Any:
    if text in ("true", "false"):
        return text == "true"
    try:
        return int(text)
    except ValueError:
        pass
    try:
        value = float(text)
        if value == value and value not in (float("inf"), float("-inf")):
            return value
    except ValueError:
        pass
    return text


def tree_json(tree: Tree) -> Any:
    """A tree as JSON: repeated tags become arrays; a list of one repeated item tag
    (``<keywords><string/>…``) becomes a plain array."""
    tags = [t for t, _ in tree]
    if tags and len(set(tags)) == 1 and len(tags) > 1:
        return [tree_json(v) if isinstance(v, list) else _json_scalar(v) for _, v in tree]
    out: dict[str, Any] = {}
    for tag, value in tree:
        out[tag] = tree_json(value) if isinstance(value, list) else _json_scalar(value)
    return out


def dump_tree_json(root: str, tree: Tree) -> bytes:
    return wjson.dumps({root: tree_json(tree)})


def parse_tree(body: bytes, fmt: str, roots: tuple[str, ...], what: str) -> tuple[str, Tree]:
    """A configuration document: its root element and fields."""
    el = wxml.parse(body, what) if fmt == "xml" else json_document(body, roots, what)
    root = wxml.local(el.tag)
    if root not in roots:
        raise Invalid(f"Expected a {' or '.join(roots)} document, got {root or 'no element'}")
    tree = tree_from_element(el)
    return root, [(k, v) for k, v in tree]


# -- blob stores --------------------------------------------------------------------------


BLOB_STORE_INTS = frozenset({"fileSystemBlockSize", "maxConnections"})
"""the blob store fields GWC holds as an ``Integer`` (file, S3, Azure stores)"""


def parse_blob_store(body: bytes, fmt: str, kinds: tuple[str, ...]) -> BlobStore:
    el = (
        wxml.parse(body, "blob store") if fmt == "xml" else json_document(body, kinds, "blob store")
    )
    kind = wxml.local(el.tag)
    if kind not in kinds:
        raise Invalid(f"Unknown blob store type: {kind or 'no element'}")
    tree = tree_from_element(el)
    store = BlobStore(kind, "")
    default = el.get("default")
    for tag, value in tree:
        if tag == "id" and isinstance(value, str):
            store.id = value
        elif tag == "enabled" and isinstance(value, str):
            flag = wxml.to_bool(value, "enabled")
            store.enabled = bool(flag)
        elif tag == "default" and isinstance(value, str):
            default = value
        else:
            if tag in BLOB_STORE_INTS and isinstance(value, str) and value.strip():
                try:
                    parse_int(value.strip())
                except ValueError:
                    raise Invalid(f"{tag} must be an integer (a Java int): {value}") from None
            store.fields.append((tag, value))
    if default is not None:
        store.default = bool(wxml.to_bool(default, "default"))
    return store


def dump_blob_store_xml(store: BlobStore) -> bytes:
    tree: Tree = [("id", store.id), ("enabled", "true" if store.enabled else "false")]
    attrs = f' default="{"true" if store.default else "false"}"'
    return dump_tree_xml(store.kind, [*tree, *store.fields], attrs)


def dump_blob_store_json(store: BlobStore) -> bytes:
    body: dict[str, Any] = {
        "id": store.id,
        "enabled": store.enabled,
        "default": store.default,
    }
    fields = tree_json(store.fields) if store.fields else {}
    if isinstance(fields, dict):
        body.update(fields)
    return wjson.dumps({store.kind: body})


# -- gridsets -----------------------------------------------------------------------------


def _doubles(tree_el: wxml.Element, what: str) -> list[float]:
    out = []
    for c in tree_el:
        if not isinstance(c.tag, str):
            continue
        try:
            out.append(parse_finite((c.text or "").strip()))
        except ValueError:
            raise Invalid(f"Invalid value in {what}: {c.text!r} (a finite number)") from None
    return out


def _gridset_from_element(el: wxml.Element) -> GridSet:
    if wxml.local(el.tag) != "gridSet":
        raise Invalid(f"Expected a gridSet document, got {wxml.local(el.tag) or 'no element'}")
    got: dict[str, Any] = {}
    for c in el:
        if not isinstance(c.tag, str):
            continue
        tag = wxml.local(c.tag)
        if tag in ("resolutions", "scaleDenominators"):
            got[tag] = _doubles(c, tag)
        elif tag == "scaleNames":
            got[tag] = [(k.text or "").strip() for k in c if isinstance(k.tag, str)]
        elif tag == "extent":
            got[tag] = read_box(c, "extent")
        elif tag == "srs":
            number = wxml.text(c, "number")
            try:
                got[tag] = parse_int((number or "").strip())
            except ValueError:
                raise Invalid(
                    "srs must hold a number (a Java int), e.g. <srs><number>4326</number></srs>"
                ) from None
        elif tag in (
            "name", "description", "alignTopLeft", "metersPerUnit", "pixelSize", "tileHeight",
            "tileWidth", "yCoordinateFirst",
        ):  # fmt: skip
            got[tag] = wxml.text(c) or ""
        else:
            raise Invalid(f"Unknown field {tag} in gridSet")
    return _build_gridset(got)


def _number(got: dict[str, Any], key: str, kind: type, default: Any) -> Any:
    """A gridset's integer (a Java ``int``) or finite double."""
    if key not in got or got[key] == "":
        return default
    read = parse_int if kind is int else parse_finite
    try:
        return read(str(got[key]).strip())
    except ValueError:
        raise Invalid(f"Invalid value for {key}: {got[key]!r}") from None


def _build_gridset(got: dict[str, Any]) -> GridSet:
    name = got.get("name")
    if not name:
        raise Invalid("GridSet name is not set")
    if "srs" not in got:
        raise Invalid(f"GridSet {name}: srs is not set")
    if "extent" not in got:
        raise Invalid(f"GridSet {name}: extent is not set")
    res, scales = got.get("resolutions"), got.get("scaleDenominators")
    if (res is None) == (scales is None):
        raise Invalid(
            f"GridSet {name}: give either resolutions or scaleDenominators, not both or none"
        )
    tile_w = _number(got, "tileWidth", int, 256)
    tile_h = _number(got, "tileHeight", int, 256)
    if tile_w <= 0 or tile_h <= 0:
        raise Invalid(f"GridSet {name}: tile sizes must be positive")
    pixel = _number(got, "pixelSize", float, 0.00028)
    if pixel <= 0:
        raise Invalid(f"GridSet {name}: pixelSize must be positive")
    mpu = _number(got, "metersPerUnit", float, None)
    if mpu is not None and mpu <= 0:
        raise Invalid(f"GridSet {name}: metersPerUnit must be positive")
    values = res if res is not None else scales
    if any(v <= 0 for v in values):
        raise Invalid(f"GridSet {name}: resolutions and scales must be positive")
    return create(
        name, got["srs"], got["extent"], got.get("alignTopLeft") == "true", res, scales, mpu,
        pixel, tile_w, tile_h, scale_names=got.get("scaleNames") or (),
        description=got.get("description") or None,
        y_coordinate_first=got.get("yCoordinateFirst") == "true",
    )  # fmt: skip


def parse_gridset(body: bytes, fmt: str) -> GridSet:
    if fmt == "json":
        return _gridset_from_element(json_document(body, ("gridSet",), "gridset"))
    return _gridset_from_element(wxml.parse(body, "gridset"))


def _gridset_fields(g: GridSet) -> list[tuple[str, Any]]:
    values = (
        ("scaleDenominators", list(g.scale_denominators))
        if g.scale_denominators is not None
        else ("resolutions", list(g.resolutions))
    )
    out: list[tuple[str, Any]] = [("name", g.name)]
    if g.description:
        out.append(("description", g.description))
    out += [
        ("srs", g.srs),
        ("extent", list(g.original_extent or g.extent)),
        ("alignTopLeft", g.align_top_left),
        values,
        ("metersPerUnit", g.meters_per_unit),
        ("pixelSize", g.pixel_size),
        ("scaleNames", list(g.level_names())),
        ("tileHeight", g.tile_height),
        ("tileWidth", g.tile_width),
        ("yCoordinateFirst", g.y_coordinate_first),
    ]
    return out


def dump_gridset_xml(g: GridSet) -> bytes:
    lines = ["<gridSet>"]
    for tag, value in _gridset_fields(g):
        if tag == "srs":
            lines.append(f"  <srs>\n    <number>{value}</number>\n  </srs>")
        elif tag == "extent":
            lines.append("  <extent>\n    <coords>")
            lines.extend(f"      <double>{java_double(v)}</double>" for v in value)
            lines.append("    </coords>\n  </extent>")
        elif tag in ("resolutions", "scaleDenominators"):
            lines.append(f"  <{tag}>")
            lines.extend(f"    <double>{java_double(v)}</double>" for v in value)
            lines.append(f"  </{tag}>")
        elif tag == "scaleNames":
            lines.append("  <scaleNames>")
            lines.extend(f"    <string>{_esc(v)}</string>" for v in value)
            lines.append("  </scaleNames>")
        elif isinstance(value, bool):
            lines.append(f"  <{tag}>{'true' if value else 'false'}</{tag}>")
        elif isinstance(value, float):
            lines.append(f"  <{tag}>{java_double(value)}</{tag}>")
        else:
            lines.append(f"  <{tag}>{_esc(str(value))}</{tag}>")
    lines.append("</gridSet>")
    return "\n".join(lines).encode("utf-8")


def dump_gridset_json(g: GridSet) -> bytes:
    body: dict[str, Any] = {}
    for tag, value in sorted(_gridset_fields(g)):
        if tag == "srs":
            value = {"number": value}
        elif tag == "extent":
            value = {"coords": value}
        body[tag] = value
    return wjson.dumps({"gridSet": body})


# -- mass truncation ----------------------------------------------------------------------


def dump_mass_truncate_types(href: str) -> bytes:
    items = "".join(f" <requestType>{t}</requestType>" for t in REQUEST_TYPES)
    return f'<massTruncateRequests href="{_esc(href)}">{items}</massTruncateRequests>'.encode()


def _mass_from_element(el: wxml.Element) -> MassTruncate:
    kind = wxml.local(el.tag)
    if kind not in REQUEST_TYPES:
        raise Invalid(f"Unknown mass truncate request: {kind or 'no element'}")
    req = MassTruncate(kind)
    for c in el:
        if not isinstance(c.tag, str):
            continue
        tag = wxml.local(c.tag)
        if tag == "layerName":
            req.layer = wxml.text(c) or None
        elif tag == "gridSetId":
            req.gridset = wxml.text(c) or None
        elif tag == "bounds":
            req.bounds = read_box(c, "bounds")
        elif tag == "parameters":
            for entry in wxml.children(c, "entry"):
                parts = [p for p in entry if isinstance(p.tag, str)]
                if len(parts) != 2:
                    raise Invalid("Each parameters entry must hold two strings")
                req.parameters.append(((parts[0].text or "").strip(), (parts[1].text or "")))
        else:
            raise Invalid(f"Unknown field {tag} in {kind}")
    return req


def parse_mass_truncate(body: bytes, fmt: str) -> MassTruncate:
    if fmt == "json":
        doc = wjson.as_object(wjson.loads(body, "mass truncate request"), "the request")
        if len(doc) != 1 or next(iter(doc)) not in REQUEST_TYPES:
            raise Invalid(
                f"Expected a JSON object with one key, one of: {', '.join(REQUEST_TYPES)}"
            )
        kind, value = next(iter(doc.items()))
        params = value.get("parameters") if isinstance(value, dict) else None
        if isinstance(params, dict) and "entry" not in params:
            value = dict(value)
            value["parameters"] = {"entry": [{"string": [k, str(v)]} for k, v in params.items()]}
        body = wjson.dumps({kind: value or {}})
        return _mass_from_element(json_document(body, REQUEST_TYPES, "mass truncate request"))
    return _mass_from_element(wxml.parse(body, "mass truncate request"))


def dump_coverages(coverages: list[tuple[int, int, int, int, int]]) -> str:
    """``BoundsController``'s ``java`` answer: ``{{minx, miny, maxx, maxy, z}, …}``."""
    return "{" + ", ".join("{" + ", ".join(str(v) for v in c) + "}" for c in coverages) + "}"


def dump_statistics_xml(values: tuple[tuple[str, object], ...]) -> bytes:
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', "<gwcInMemoryCacheStatistics>"]
    lines += [f"  <{k}>{v}</{k}>" for k, v in values]
    lines.append("</gwcInMemoryCacheStatistics>")
    return "\n".join(lines).encode()


def dump_statistics_json(values: tuple[tuple[str, object], ...]) -> bytes:
    from ..seeding.java import hash_order

    plain = dict(values)
    return wjson.dumps({"gwcInMemoryCacheStatistics": {k: plain[k] for k in hash_order(plain)}})
