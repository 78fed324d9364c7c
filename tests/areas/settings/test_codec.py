"""Codec: every configuration class survives XML and JSON (hypothesis), keywords encode as
GeoServer's one-string form, and wire values of the wrong type are refused."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from geoserver_emulator.areas.settings import codec, defaults, schema
from geoserver_emulator.core.errors import Invalid

WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz ABCXYZ:/_-", min_size=1, max_size=12).filter(
    lambda s: s.strip() == s and any(c.isalpha() for c in s)
)


def _value(f: schema.Field) -> st.SearchStrategy:
    kind = f.kind
    if kind == "str":
        return WORD
    if kind == "int":
        return st.integers(-(2**63), 2**63 - 1)
    if kind == "float":
        return st.floats(allow_nan=False, allow_infinity=False)
    if kind == "bool":
        return st.booleans()
    if kind == "enum":
        return st.sampled_from(f.choices)
    if kind == "strings":
        return st.lists(WORD, max_size=3)
    if kind == "versions":
        return st.lists(st.sampled_from(["1.0.0", "1.1.1", "1.3.0", "2.0.0"]), max_size=3)
    if kind == "keywords":
        kw = st.fixed_dictionaries(
            {"value": WORD},
            optional={"language": st.sampled_from(["en", "it"]), "vocabulary": WORD},
        )
        return st.lists(kw, max_size=3)
    if kind == "intl":
        return st.dictionaries(st.sampled_from(["en", "it", "de-CH"]), WORD, max_size=2)
    if kind == "metadata":
        return st.dictionaries(WORD, WORD, max_size=2)
    if kind == "record":
        return values(f.table)
    if kind == "items":
        return st.lists(values(f.table), max_size=3)
    if kind == "gml":
        return st.dictionaries(st.sampled_from(schema.GML_VERSIONS), values(f.table), max_size=3)
    raise AssertionError(kind)


def values(table: schema.Table) -> st.SearchStrategy:
    return st.fixed_dictionaries({}, optional={f.name: _value(f) for f in table if f.name != "id"})


ROOTS = {
    "global": schema.GLOBAL,
    "logging": schema.LOGGING,
    "contact": schema.CONTACT,
    "settings": schema.SETTINGS,
    **schema.SERVICES,
}


@pytest.mark.parametrize("fmt", ["xml", "json"])
@pytest.mark.parametrize("root", list(ROOTS))
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_round_trip(root, fmt, data):
    table = ROOTS[root]
    value = data.draw(values(table))
    body = codec.render(codec.node(table, value, root), fmt)
    parsed, _ = codec.parse(body, fmt, root, table)
    assert parsed == value


@pytest.mark.parametrize("kind", list(schema.SERVICES))
def test_stock_values_are_valid_and_round_trip(kind):
    table = schema.SERVICES[kind]
    stock = defaults.SERVICES[kind]
    assert schema.check(table, stock, kind) == stock
    for fmt in ("xml", "json"):
        parsed, _ = codec.parse(codec.render(codec.node(table, stock, kind), fmt), fmt, kind, table)
        assert parsed == {k: v for k, v in stock.items() if k != "id"}


def test_global_stock_is_valid():
    assert schema.check(schema.GLOBAL, defaults.GLOBAL, "global") == defaults.GLOBAL


@pytest.mark.parametrize(
    ("keyword", "text"),
    [
        ({"value": "WMS"}, "WMS"),
        ({"value": "WMS", "language": "en"}, "WMS\\@language=en\\;"),
        ({"value": "a", "language": "en", "vocabulary": "v"},
         "a\\@language=en\\;\\@vocabulary=v\\;"),
        ({"value": "x", "vocabulary": "v"}, "x\\@vocabulary=v\\;"),
    ],
)  # fmt: skip
def test_keyword_encoding(keyword, text):
    assert codec.encode_keyword(keyword) == text
    assert codec.decode_keyword(text) == keyword


def test_json_leaves_are_typed_as_jettison_types_them():
    doc = codec.node(
        schema.CONTACT, {"addressPostalCode": "20001", "addressCity": "2.27.1"}, "contact"
    )
    assert json.loads(codec.render(doc, "json")) == {
        "contact": {"addressPostalCode": 20001, "addressCity": "2.27.1"}
    }


def test_workspace_comes_first_without_an_id():
    doc = codec.node(
        schema.WMS, {"id": "x", "name": "n"}, "wms", workspace="topp", skip=frozenset({"id"})
    )
    assert [c.tag for c in doc.children] == ["workspace", "name"]
    doc = codec.node(schema.SETTINGS, {"id": "x", "charset": "c"}, "settings", workspace="topp")
    assert [c.tag for c in doc.children] == ["id", "workspace", "charset"]


def test_files_keep_class_attributes():
    doc = codec.node(schema.CONTACT, {"internationalAddress": {}}, "contact", files=True)
    assert b'class="org.geotools.util.GrowableInternationalString"' in codec.file_xml(doc)
    rest = codec.node(schema.CONTACT, {"internationalAddress": {}}, "contact")
    assert b"class=" not in codec.render(rest, "xml")


@pytest.mark.parametrize(
    "body",
    [
        {"wms": {"maxBuffer": True}},
        {"wms": {"maxBuffer": 2**70}},
        {"wms": {"enabled": 1}},
        {"wms": {"keywords": {"string": [{"value": 1}]}}},
        {"wms": {"srs": {"string": [{"a": 1}]}}},
        {"wms": {"internationalTitle": ["x"]}},
        {"wms": {"watermark": "x"}},
    ],
)
def test_wrong_types_are_refused(body):
    with pytest.raises(Invalid):
        codec.parse(json.dumps(body).encode(), "json", "wms", schema.WMS)


def test_wfs_gml_version_is_checked():
    body = {"wfs": {"gml": {"entry": {"version": "V_99", "gml": {}}}}}
    with pytest.raises(Invalid, match="V_99"):
        codec.parse(json.dumps(body).encode(), "json", "wfs", schema.WFS)


def test_workspace_name_is_read_apart():
    body = b"<settings><workspace><name>sf</name></workspace><charset>x</charset></settings>"
    assert codec.parse(body, "xml", "settings", schema.SETTINGS) == ({"charset": "x"}, "sf")
    with pytest.raises(Invalid):
        codec.parse(b'{"settings": {"workspace": 3}}', "json", "settings", schema.SETTINGS)


def test_fonts():
    assert json.loads(codec.dump_fonts(["A", "B"], "json")) == {"fonts": ["A", "B"]}
    assert codec.dump_fonts(["A"], "xml") == b"<root><fonts><entry>A</entry></fonts></root>"


@pytest.mark.parametrize("fmt", ["xml", "json"])
@pytest.mark.parametrize("kind", list(schema.SERVICES))
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_put_over_http_changes_only_what_it_names(kind, fmt, data):
    import httpx

    from geoserver_emulator import Emulator

    table = schema.SERVICES[kind]
    emu = Emulator("stock")
    before = emu.state.settings.service(kind)
    patch = data.draw(values(table))
    body = codec.render(codec.node(table, patch, kind), fmt)
    with httpx.Client(
        transport=httpx.WSGITransport(app=emu.wsgi_app),
        base_url="http://localhost:8080/geoserver",
        auth=("admin", "geoserver"),
    ) as c:
        ctype = "application/json" if fmt == "json" else "application/xml"
        r = c.put(f"/rest/services/{kind}/settings", content=body, headers={"Content-Type": ctype})
        assert r.status_code == 200, r.text
        after = emu.state.settings.service(kind)
        assert after == schema.merge(table, before, patch)
        again = c.get(f"/rest/services/{kind}/settings.{fmt}")
        parsed, _ = codec.parse(again.content, fmt, kind, table)
        assert parsed == {k: v for k, v in after.items() if k != "id"}
    assert not emu.internal_errors
