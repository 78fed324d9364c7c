"""``Filter``: the parsed tree a back end walks (pygeofilter's AST, made from the quick
reader's tuples on demand), what it reads, and OGC Filter XML read into the same tree."""

from __future__ import annotations

import pytest

from geoserver_emulator.core.errors import Invalid
from geoserver_emulator.filters import ecql, ogc_xml
from geoserver_emulator.filters.tree import INCLUDE, Filter
from geoserver_emulator.wire import xml as wxml


def test_a_common_filter_keeps_the_quick_tree_and_gives_the_grammars_ast():
    quick = ecql.parse("a = 1 AND b LIKE 'x%'")
    assert quick.quick is not None and quick.node is None
    grammar = Filter(None, ecql._grammar_parse("a = 1 AND b LIKE 'x%'"))
    assert quick.ast == grammar.ast


def test_attributes_are_the_names_a_filter_reads():
    assert ecql.parse("a = 1 OR NOT (b LIKE 'x')").attributes() == {"a", "b"}
    spatial = ecql.parse("INTERSECTS(ws:geom, POINT(1 2)) AND strLength(name) + n > 2")
    assert spatial.quick is None
    assert spatial.attributes() == {"ws:geom", "name", "n"}
    assert ecql.parse("INCLUDE").attributes() == frozenset()


def test_include_is_told_apart_from_everything_else():
    assert ecql.parse("INCLUDE").includes_all and INCLUDE.includes_all
    assert not ecql.parse("EXCLUDE").includes_all
    assert not ecql.parse("a = 1").includes_all
    assert not ecql.parse("BBOX(g, 0, 0, 1, 1)").includes_all


def test_a_bad_filter_is_invalid_with_geoservers_message():
    with pytest.raises(Invalid, match="^Invalid cql syntax"):
        ecql.parse("a = ")


FES = "http://www.opengis.net/fes/2.0"


def element(body: str) -> object:
    return wxml.parse(f'<Filter xmlns="{FES}">{body}</Filter>'.encode(), "filter", names=False)


def test_an_ogc_filter_reads_as_its_cql_text():
    flt = element(
        "<And><PropertyIsEqualTo><ValueReference>a</ValueReference><Literal>1</Literal>"
        "</PropertyIsEqualTo><PropertyIsLike wildCard='*' singleChar='.' escapeChar='!'>"
        "<ValueReference>b</ValueReference><Literal>x*</Literal></PropertyIsLike></And>"
    )
    first = ogc_xml.first_condition(flt)
    assert ogc_xml.filter_cql(first) == "(a = 1 AND b LIKE 'x%')"
    assert ogc_xml.parse_xml(first) == ecql.parse("(a = 1 AND b LIKE 'x%')")
    assert ogc_xml.resource_ids(flt) is None
    assert ogc_xml.parse_xml(None) == INCLUDE


def test_id_filters_give_their_ids():
    flt = element('<ResourceId rid="t.1"/><ResourceId rid="t.2"/>')
    assert ogc_xml.resource_ids(flt) == ["t.1", "t.2"]
    old = wxml.parse(
        b'<Filter xmlns="http://www.opengis.net/ogc" xmlns:gml="http://www.opengis.net/gml">'
        b'<FeatureId fid="a.1"/><GmlObjectId gml:id="a.2"/><FeatureId/></Filter>',
        "filter",
        names=False,
    )
    assert ogc_xml.resource_ids(old) == ["a.1", "a.2", None]
