"""Round trips drawn from the field tables (``catalog/fields.py``): for each catalog kind, any
document hypothesis draws from that kind's table is kept through POST and PUT and written
back by GET, in XML and JSON, in the table's order.

Every field is drawn from the table alone (a field added there is tested here at once):
generic fields by their kind, model fields by their ``shape``. Model fields without a shape
(names, references, boxes, attributes, bands) have tests of their own; the few a kind's
creation forces or that name the object are left out (``FIXED`` below).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from geoserver_emulator.areas.catalog import fields as F
from geoserver_emulator.areas.catalog import parse
from geoserver_emulator.areas.catalog.codec import render
from geoserver_emulator.areas.catalog.generic import read_extras, value_node
from geoserver_emulator.areas.catalog.tree import Node, read_body

PAYLOADS = Path(__file__).resolve().parents[2] / "payloads"
ALPHA = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -_.:/&<>éü"
TEXT = st.text(alphabet=ALPHA, min_size=1, max_size=10).map(str.strip).filter(bool)
NAME = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=8)
FLOATS = st.floats(-1e9, 1e9, allow_nan=False, allow_infinity=False)
STRUCTURED = st.fixed_dictionaries(
    {
        "dimensionInfo": st.fixed_dictionaries(
            {"presentation": st.sampled_from(["LIST"]), "units": TEXT}
        )
    }
)
KEYWORD = st.builds(
    lambda v, lang, voc: (
        v + (f"\\@language={lang}\\;" if lang else "") + (f"\\@vocabulary={voc}\\;" if voc else "")
    ),
    st.text(alphabet="abcdefghij XYZ", min_size=1, max_size=8).map(str.strip).filter(bool),
    st.none() | st.sampled_from(["en", "it"]),
    st.none() | NAME,
)


def value_of(f: F.Field) -> st.SearchStrategy[Any]:
    """Normal-form values of one generic field."""
    if f.kind == F.TEXT:
        return TEXT
    if f.kind == F.BOOL:
        return st.booleans()
    if f.kind == F.INT:
        return st.integers(-5, 100000)
    if f.kind == F.FLOAT:
        return FLOATS
    if f.kind == F.ENUM:
        return st.sampled_from(f.choices)
    if f.kind == F.STRINGS:
        return st.lists(TEXT, min_size=1, max_size=3)
    if f.kind == F.STRUCT:
        return struct_of(f.sub)
    if f.kind == F.LIST:
        return st.lists(struct_of(f.sub), min_size=1, max_size=3)
    if f.kind == F.MAP:
        return st.dictionaries(NAME, TEXT | STRUCTURED, min_size=1, max_size=3)
    if f.kind == F.I18N:
        return st.dictionaries(st.sampled_from(["en", "it", "de", "fr_CA"]), TEXT, min_size=1)
    raise AssertionError(f.kind)


def struct_of(sub: tuple[F.Field, ...]) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({}, optional={s.tag: value_of(s) for s in sub}).filter(bool)


def generic_docs(table: tuple[F.Field, ...]) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({}, optional={f.tag: value_of(f) for f in F.generic(table)})


def canonical(f: F.Field, value: Any) -> Any:
    """What GET gives back for a sent value: struct defaults filled in."""
    if f.kind == F.STRUCT:
        out = {s.tag: s.default for s in f.sub if s.default is not None}
        out.update({s.tag: canonical(s, v) for s, v in _pairs(f.sub, value)})
        return out
    if f.kind == F.LIST:
        return [canonical(F.Field(f.item, F.STRUCT, sub=f.sub), v) for v in value]
    return value


def _pairs(sub: tuple[F.Field, ...], value: dict[str, Any]) -> list[tuple[F.Field, Any]]:
    return [(s, value[s.tag]) for s in sub if s.tag in value]


def expected_extras(table: tuple[F.Field, ...], *docs: dict[str, Any]) -> dict[str, Any]:
    """The stored generic fields after sending ``docs`` in turn (each replaces what it names)."""
    out: dict[str, Any] = {}
    for doc in docs:
        for f in F.generic(table):
            if f.tag in doc:
                value = canonical(f, doc[f.tag])
                default = canonical(f, f.default) if f.default is not None else None
                if value == default:
                    out.pop(f.tag, None)
                else:
                    out[f.tag] = value
    return out


# -- per kind: where it lives, how it is made, which model fields are drawn ------------------

KEYWORDS = st.lists(KEYWORD, min_size=1, max_size=3, unique=True)
METADATA = st.dictionaries(NAME, TEXT | STRUCTURED, min_size=1, max_size=3)
PARAMETERS = st.dictionaries(NAME.map("p_".__add__), TEXT, min_size=1, max_size=3)
FIXED = {
    "featureType": {"enabled"},  # POST forces it on
    "coverage": {"enabled"},
    "namespace": {"uri"},  # drawn apart (a URI of its own)
    "wmsLayer": {"enabled", "nativeName"},  # POST: on, and a layer of the remote server
    "wmtsLayer": {"enabled", "nativeName"},
}
OVERRIDES = {
    ("namespace", "uri"): NAME.map("urn:x:".__add__),
    ("layerGroup", "mode"): st.sampled_from(["SINGLE", "NAMED", "CONTAINER", "OPAQUE_CONTAINER"]),
    ("coverageStore", "url"): NAME.map("file:data/{}.tif".format),
    ("layer", "path"): TEXT.map("/".__add__),
}


def model_value(kind: str, f: F.Field) -> st.SearchStrategy[Any]:
    """Values of a model field, from its shape."""
    if (kind, f.tag) in OVERRIDES:
        return OVERRIDES[(kind, f.tag)]
    if f.shape == F.STRINGS:
        return KEYWORDS if f.tag == "keywords" else st.lists(TEXT, min_size=1, max_size=3)
    if f.shape == F.MAP:
        return METADATA if f.tag == "metadata" else PARAMETERS
    if f.shape == F.INT:
        return st.integers(0, 1000)
    return value_of(F.Field(f.tag, f.shape, choices=f.choices))


def model_fields(kind: str) -> dict[str, st.SearchStrategy[Any]]:
    fixed = FIXED.get(kind, set()) - {t for k, t in OVERRIDES if k == kind}
    return {
        f.tag: model_value(kind, f)
        for f in F.TABLES[kind]
        if not f.generic and f.shape and f.tag not in fixed
    }


ATTRIBUTES = {"attribute": [{"name": "the_geom", "binding": "org.locationtech.jts.geom.Point"}]}

KINDS: dict[str, dict[str, Any]] = {
    "workspace": {
        "table": F.WORKSPACE,
        "create": ("POST", "/rest/workspaces", {"name": "drawn"}),
        "path": "/rest/workspaces/drawn",
    },
    "namespace": {
        "table": F.NAMESPACE,
        "create": ("POST", "/rest/namespaces", {"prefix": "drawn", "uri": "http://drawn"}),
        "path": "/rest/namespaces/drawn",
    },
    "dataStore": {
        "table": F.DATA_STORE,
        "create": ("POST", "/rest/workspaces/sf/datastores", {"name": "drawn"}),
        "path": "/rest/workspaces/sf/datastores/drawn",
    },
    "coverageStore": {
        "table": F.COVERAGE_STORE,
        "create": ("POST", "/rest/workspaces/nurc/coveragestores", {"name": "drawn"}),
        "path": "/rest/workspaces/nurc/coveragestores/drawn",
    },
    "featureType": {
        "table": F.FEATURE_TYPE,
        "create": (
            "POST",
            "/rest/workspaces/sf/datastores/sf/featuretypes",
            {"name": "drawn", "attributes": ATTRIBUTES},
        ),
        "path": "/rest/workspaces/sf/datastores/sf/featuretypes/drawn",
    },
    "coverage": {
        "table": F.COVERAGE,
        "create": ("POST", "/rest/workspaces/nurc/coveragestores/cs/coverages", {"name": "drawn"}),
        "path": "/rest/workspaces/nurc/coveragestores/cs/coverages/drawn",
    },
    "layer": {
        "table": F.LAYER,
        "create": None,  # the stock topp:states
        "path": "/rest/layers/topp:states",
    },
    "layerGroup": {
        "table": F.LAYER_GROUP,
        "create": (
            "POST",
            "/rest/layergroups",
            {
                "name": "drawn",
                "publishables": {"published": {"@type": "layer", "name": "topp:states"}},
            },
        ),
        "path": "/rest/layergroups/drawn",
    },
    "wmsStore": {
        "table": F.WMS_STORE,
        "create": ("POST", "/rest/workspaces/sf/wmsstores", {"name": "drawn"}),
        "path": "/rest/workspaces/sf/wmsstores/drawn",
    },
    "wmtsStore": {
        "table": F.WMTS_STORE,
        "create": ("POST", "/rest/workspaces/sf/wmtsstores", {"name": "drawn"}),
        "path": "/rest/workspaces/sf/wmtsstores/drawn",
    },
    "wmsLayer": {
        "table": F.WMS_LAYER,
        "create": (
            "POST",
            "/rest/workspaces/sf/wmsstores/demo/wmslayers",
            {"name": "drawn", "nativeName": "topp:states"},
        ),
        "path": "/rest/workspaces/sf/wmsstores/demo/wmslayers/drawn",
    },
    "wmtsLayer": {
        "table": F.WMTS_LAYER,
        "create": (
            "POST",
            "/rest/workspaces/sf/wmtsstores/tiles/layers",
            {"name": "drawn", "nativeName": "basemap"},
        ),
        "path": "/rest/workspaces/sf/wmtsstores/tiles/layers/drawn",
    },
}


MAPS = ("metadata", "connectionParameters", "parameters")


MODELS = {kind: model_fields(kind) for kind in KINDS}


def model_node(tag: str, value: Any) -> Node:
    if isinstance(value, list):
        return Node(tag, children=[Node("string", v) for v in value])
    if isinstance(value, dict):
        from geoserver_emulator.areas.catalog.tree import entries_node

        return entries_node(tag, value)
    return Node(tag, value)


def body(root: str, table: tuple[F.Field, ...], doc: dict[str, Any], fmt: str) -> bytes:
    """A request body in ``fmt`` with the document's fields in table order."""
    node = Node(root)
    rank = F.order(table)
    for tag in sorted(doc, key=lambda t: rank.get(t, -1)):
        field = next((f for f in table if f.tag == tag), None)
        value = doc[tag]
        if field is not None and field.generic:
            node.child(value_node(field, value))
        elif isinstance(value, dict) and tag not in MAPS:  # a fixed part, in the JSON shape
            node.children.append(_shape(tag, value))
        else:
            node.children.append(model_node(tag, value))
    return render(node, fmt)


def _shape(tag: str, value: Any) -> Node:
    from geoserver_emulator.areas.catalog.tree import shape_node

    return shape_node(tag, value)


def send(client, method: str, path: str, root: str, table, doc, fmt: str):
    headers = {"Content-Type": f"application/{fmt}"}
    return client.request(method, path, content=body(root, table, doc, fmt), headers=headers)


def read_back(client, kind: str, fmt: str) -> tuple[dict[str, Any], list[str]]:
    """The stored document, through GET in ``fmt``: (the JSON shape, XML child tags)."""
    r = client.get(f"{KINDS[kind]['path']}.{fmt}")
    assert r.status_code == 200, r.text
    _, data = read_body(r.content, fmt, kind)
    tags = [c.tag for c in etree.fromstring(r.content)] if fmt == "xml" else []
    return data, tags


def model_back(kind: str, data: dict[str, Any], tag: str) -> Any:
    """A model field as GET wrote it, read by its shape (absent: the field's default)."""
    f = next(f for f in F.TABLES[kind] if f.tag == tag)
    if tag not in data:
        return f.default
    if tag == "keywords":
        return parse.keywords(data)
    if f.shape == F.STRINGS:
        return parse.strings(data, tag)
    if f.shape == F.MAP:
        return parse.entries(data, tag, structured=True)
    if f.shape == F.BOOL:
        return parse.flag(data, tag)
    if f.shape == F.INT:
        return parse.integer(data, tag)
    if f.shape == F.FLOAT:
        return parse.number(data, tag)
    return parse.text(data, tag)


def check(client, kind: str, sent: list[dict[str, Any]]) -> None:
    table = KINDS[kind]["table"]
    want = expected_extras(table, *sent)
    model = {}
    for doc in sent:
        model.update({t: v for t, v in doc.items() if t in MODELS[kind]})
    rank = F.order(table)
    for fmt in ("xml", "json"):
        data, tags = read_back(client, kind, fmt)
        got = {k: v for k, v in read_extras(data, table).items() if v is not None}
        assert got == want, fmt
        for tag, value in model.items():
            assert model_back(kind, data, tag) == value, (fmt, tag)
        known = [rank[t] for t in tags if t in rank]
        assert known == sorted(known), tags


SETTINGS = settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def docs(kind: str) -> st.SearchStrategy[dict[str, Any]]:
    model = st.fixed_dictionaries({}, optional=MODELS[kind])
    return st.builds(lambda g, m: {**g, **m}, generic_docs(KINDS[kind]["table"]), model)


CASCADE = {
    "wmsLayer": ("wmsstores", "wmsStore", "demo", "wms130.xml"),
    "wmtsLayer": ("wmtsstores", "wmtsStore", "tiles", "wmts100.xml"),
}


def _prepare(client, kind: str) -> None:
    if kind in CASCADE:  # a store over a registered remote server
        segment, root, name, payload = CASCADE[kind]
        url = f"http://remote.example.com/{name}?service={root[:4].upper()}"
        content = (PAYLOADS / "cascade" / payload).read_bytes()
        r = client.put("/__emulator/remote", params={"url": url}, content=content)
        assert r.status_code == 204, r.text
        store = {root: {"name": name, "capabilitiesURL": url}}
        r = client.post(f"/rest/workspaces/sf/{segment}", json=store)
        assert r.status_code == 201, r.text
    if kind == "coverage":
        store = {"coverageStore": {"name": "cs", "type": "GeoTIFF", "url": "file:data/cs.tif"}}
        assert client.post("/rest/workspaces/nurc/coveragestores", json=store).status_code == 201


def _create(client, kind: str, doc: dict[str, Any], fmt: str) -> list[dict[str, Any]]:
    """Create the object with ``doc`` (POST, where GeoServer creates from a full document;
    else POST the bare object and PUT ``doc``). Returns the documents that count."""
    spec = KINDS[kind]
    table = spec["table"]
    if spec["create"] is None:
        r = send(client, "PUT", spec["path"], kind, table, doc, fmt)
        assert r.status_code == 200, r.text
        return [doc]
    method, path, base = spec["create"]
    if kind in ("dataStore", "coverageStore", "wmsStore", "wmtsStore"):  # POST forces some
        r = send(client, method, path, kind, table, base, fmt)
        assert r.status_code == 201, r.text
        r = send(client, "PUT", spec["path"], kind, table, doc, fmt)
        assert r.status_code == 200, r.text
        return [doc]
    r = send(client, method, path, kind, table, {**base, **doc}, fmt)
    assert r.status_code == 201, r.text
    return [doc]


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_kind_has_a_table(kind):
    assert F.TABLES[kind] is KINDS[kind]["table"]
    assert len({f.tag for f in F.TABLES[kind]}) == len(F.TABLES[kind])


def _round_trip(emu, client, kind, first, second, fmt):
    emu.reset()
    _prepare(client, kind)
    sent = _create(client, kind, first, fmt)
    check(client, kind, sent)
    other = "json" if fmt == "xml" else "xml"
    r = send(client, "PUT", KINDS[kind]["path"], kind, KINDS[kind]["table"], second, other)
    assert r.status_code == 200, r.text
    check(client, kind, [*sent, second])
    assert not emu.internal_errors, emu.internal_errors


FMT = st.sampled_from(["xml", "json"])


@SETTINGS
@given(first=docs("workspace"), second=docs("workspace"), fmt=FMT)
def test_workspace_round_trip(emu, client, first, second, fmt):
    _round_trip(emu, client, "workspace", first, second, fmt)


@SETTINGS
@given(first=docs("namespace"), second=docs("namespace"), fmt=FMT)
def test_namespace_round_trip(emu, client, first, second, fmt):
    _round_trip(emu, client, "namespace", first, second, fmt)


@SETTINGS
@given(first=docs("dataStore"), second=docs("dataStore"), fmt=FMT)
def test_data_store_round_trip(emu, client, first, second, fmt):
    _round_trip(emu, client, "dataStore", first, second, fmt)


@SETTINGS
@given(first=docs("coverageStore"), second=docs("coverageStore"), fmt=FMT)
def test_coverage_store_round_trip(emu, client, first, second, fmt):
    _round_trip(emu, client, "coverageStore", first, second, fmt)


@SETTINGS
@given(first=docs("featureType"), second=docs("featureType"), fmt=FMT)
def test_feature_type_round_trip(emu, client, first, second, fmt):
    _round_trip(emu, client, "featureType", first, second, fmt)


@SETTINGS
@given(first=docs("coverage"), second=docs("coverage"), fmt=FMT)
def test_coverage_round_trip(emu, client, first, second, fmt):
    _round_trip(emu, client, "coverage", first, second, fmt)


@SETTINGS
@given(first=docs("layer"), second=docs("layer"), fmt=FMT)
def test_layer_round_trip(emu, client, first, second, fmt):
    _round_trip(emu, client, "layer", first, second, fmt)


@SETTINGS
@given(first=docs("layerGroup"), second=docs("layerGroup"), fmt=FMT)
def test_layer_group_round_trip(emu, client, first, second, fmt):
    _round_trip(emu, client, "layerGroup", first, second, fmt)


@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    kind=st.sampled_from(
        ["featureType", "layer", "layerGroup", "workspace", "wmsLayer", "wmsStore", "wmtsStore"]
    ),
    data=st.data(),
)
def test_scenario_dump_keeps_the_drawn_fields(emu, client, kind, data):
    """What a client stored survives ``dump_scenario`` → load."""
    from geoserver_emulator import Emulator

    emu.reset()
    _prepare(client, kind)
    doc = data.draw(docs(kind))
    sent = _create(client, kind, doc, "json")
    again = Emulator(json.loads(json.dumps(emu.dump_scenario())))
    from httpx import Client, WSGITransport

    with Client(
        transport=WSGITransport(app=again.wsgi_app),
        base_url="http://localhost:8080/geoserver",
        auth=("admin", "geoserver"),
    ) as other:
        check(other, kind, sent)


# -- style records (the styles area writes them; the same table drives the documents) --------

STYLE_RECORD = (
    F.Field("name"),
    F.Field("filename", F.TEXT),
    F.Field("legend", F.STRUCT, sub=F.LEGEND),
    F.Field("metadata", F.MAP),
)


@SETTINGS
@given(
    doc=st.fixed_dictionaries(
        {"filename": NAME.map("{}.sld".format)},
        # text metadata only: the styles area does not keep structured entries (yet)
        optional={
            "legend": value_of(STYLE_RECORD[2]),
            "metadata": st.dictionaries(NAME, TEXT, min_size=1, max_size=3),
        },
    ),
    fmt=FMT,
)
def test_style_record_round_trip(emu, client, doc, fmt):
    emu.reset()
    sent = body("style", STYLE_RECORD, {"name": "drawn", **doc}, fmt)
    r = client.post("/rest/styles", content=sent, headers={"Content-Type": f"application/{fmt}"})
    assert r.status_code == 201, r.text
    for out in ("xml", "json"):
        _, data = read_body(client.get(f"/rest/styles/drawn.{out}").content, out, "style")
        got = {k: v for k, v in read_extras(data, STYLE_RECORD).items() if v is not None}
        want = expected_extras(STYLE_RECORD, doc)
        assert got == want, out


@SETTINGS
@given(first=docs("wmsLayer"), second=docs("wmsLayer"), fmt=FMT)
def test_wms_layer_round_trip(emu, client, first, second, fmt):
    _round_trip(emu, client, "wmsLayer", first, second, fmt)


@SETTINGS
@given(first=docs("wmtsLayer"), second=docs("wmtsLayer"), fmt=FMT)
def test_wmts_layer_round_trip(emu, client, first, second, fmt):
    _round_trip(emu, client, "wmtsLayer", first, second, fmt)


@SETTINGS
@given(first=docs("wmsStore"), second=docs("wmsStore"), fmt=FMT)
def test_wms_store_round_trip(emu, client, first, second, fmt):
    _round_trip(emu, client, "wmsStore", first, second, fmt)


@SETTINGS
@given(first=docs("wmtsStore"), second=docs("wmtsStore"), fmt=FMT)
def test_wmts_store_round_trip(emu, client, first, second, fmt):
    _round_trip(emu, client, "wmtsStore", first, second, fmt)
