"""The memory source over a ``FeatureTable``: queries (ids, bbox, filter), GeoTools' order
with empty values, paging, projection, the fid index, the filter's time bound, and
transactions (seen by their own later operations, applied all at once or not at all)."""

from __future__ import annotations

from typing import Any

import pytest
import shapely

from geoserver_emulator.core.budget import Budget, TooCostly
from geoserver_emulator.core.errors import Invalid
from geoserver_emulator.features import memory, select
from geoserver_emulator.features.model import Attribute, Feature, FeatureStore, FeatureTable
from geoserver_emulator.features.query import Query
from geoserver_emulator.filters import ecql

ATTRIBUTES = [
    Attribute("name", "java.lang.String"),
    Attribute("n", "java.lang.Integer"),
    Attribute("the_geom", "org.locationtech.jts.geom.Point"),
]


def feature(fid: str, name: str | None, n: int | None, x: float | None = 0.0) -> Feature:
    geom = shapely.Point(x, x) if x is not None else None
    return Feature(fid, {"name": name, "n": n, "the_geom": geom})


def rows() -> list[Feature]:
    return [
        feature("t.1", "b", 3, 0),
        feature("t.2", None, 1, 5),
        feature("t.3", "a", None, 10),
        feature("t.7", "c", 3, None),
        feature("other.9", "a", 2, 2),
    ]


def source(features: list[Feature] | None = None) -> memory.MemorySource:
    store = FeatureStore()
    table = store.put("ws", "st", FeatureTable("t", ATTRIBUTES, "the_geom", "EPSG:4326"))
    table.features = rows() if features is None else features
    return memory.MemorySource(store, ("ws", "st", "t"), table, memory.schema_of(Type(), table))


class Type:
    """A feature type as ``source_for`` sees one (``features.query.TypeRef``)."""

    workspace, store, name, native_name, srs = "ws", "st", "t", None, "EPSG:4326"
    attributes: list[Any] = []


def fids(src: memory.MemorySource, **query: Any) -> list[str]:
    if isinstance(query.get("filter"), str):
        query["filter"] = ecql.parse(query["filter"])
    return [f.fid for f in src.read(Query(**query))]


# -- reading -----------------------------------------------------------------------------------


def test_no_query_reads_everything_in_table_order():
    src = source()
    assert fids(src) == ["t.1", "t.2", "t.3", "t.7", "other.9"]
    assert src.count(Query()) == 5


def test_fids_select_in_table_order_and_unknown_ones_are_ignored():
    src = source()
    assert fids(src, fids=("t.7", "nope", "t.1")) == ["t.1", "t.7"]
    assert src.count(Query(fids=())) == 0


def test_fids_repeated_in_the_table_are_all_found():
    src = source([feature("t.1", "x", 1), feature("t.2", "y", 2), feature("t.1", "z", 3)])
    assert not src.table.index().unique
    assert [f.properties["name"] for f in src.read(Query(fids=("t.1",)))] == ["x", "z"]


def test_bbox_selects_intersecting_default_geometries_and_skips_empty_ones():
    src = source()
    assert fids(src, bbox=(1.0, 1.0, 5.0, 5.0)) == ["t.2", "other.9"]
    assert fids(src, bbox=(-1.0, -1.0, 0.0, 0.0)) == ["t.1"]  # touching counts


def test_filter_on_values_and_on_the_geometry():
    src = source()
    assert fids(src, filter="n = 3") == ["t.1", "t.7"]
    assert fids(src, filter="name LIKE 'a%'") == ["t.3", "other.9"]
    assert fids(src, filter="n BETWEEN 2 AND 3") == ["t.1", "t.7", "other.9"]
    assert fids(src, filter="INTERSECTS(the_geom, POINT(5 5))") == ["t.2"]
    assert fids(src, filter="BBOX(the_geom, 4, 4, 11, 11)") == ["t.2", "t.3"]
    assert fids(src, filter="the_geom IS NULL") == ["t.7"]
    assert fids(src, filter="INCLUDE") == fids(src)
    assert fids(src, filter="EXCLUDE") == []


def test_a_value_the_filter_cannot_compare_fails_it():
    src = source([feature("t.1", "x", 1), Feature("t.2", {"n": object()})])
    assert fids(src, filter="n < 5") == ["t.1"]


def test_ids_bbox_and_filter_together():
    src = source()
    query = {"fids": ("t.1", "t.2", "t.3"), "bbox": (0.0, 0.0, 6.0, 6.0), "filter": "n > 1"}
    assert fids(src, **query) == ["t.1"]


def test_sorting_puts_empty_values_last_ascending_and_first_descending():
    src = source()
    assert fids(src, sort=(("n", False),)) == ["t.2", "other.9", "t.1", "t.7", "t.3"]
    assert fids(src, sort=(("n", True),)) == ["t.3", "t.1", "t.7", "other.9", "t.2"]
    assert fids(src, sort=(("name", False), ("n", True))) == [
        "t.3",
        "other.9",
        "t.1",
        "t.7",
        "t.2",
    ]


def test_paging_comes_after_sorting_and_count_ignores_it():
    src = source()
    query = Query(sort=(("fid_free_name", False),), start=1, count=2)
    assert [f.fid for f in src.read(query)] == ["t.2", "t.3"]
    assert src.count(query) == 5
    assert fids(src, start=4, count=10) == ["other.9"]
    assert fids(src, start=9) == []
    assert fids(src, count=0) == []


def test_properties_restrict_each_feature_in_the_order_asked():
    src = source()
    [first] = src.read(Query(fids=("t.1",), properties=("n", "missing", "name")))
    assert list(first.properties.items()) == [("n", 3), ("missing", None), ("name", "b")]
    assert "the_geom" in src.table.features[0].properties  # the table is left alone


def test_count_then_read_evaluates_the_filter_once(monkeypatch):
    src = source()
    calls = []
    real = select.select

    def counted(*args: Any) -> Any:
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(select, "select", counted)
    query = Query(filter=ecql.parse("n > 1"))
    assert src.count(query) == 3
    assert len(list(src.read(Query(filter=ecql.parse("n > 1"), sort=(("n", True),))))) == 3
    assert len(calls) == 1
    src.count(Query(filter=ecql.parse("n > 2")))
    assert len(calls) == 2


def test_a_filter_past_its_time_bound_is_too_costly(monkeypatch):
    monkeypatch.setattr(select, "Budget", lambda what: Budget(what, -1.0))
    with pytest.raises(TooCostly):
        source().count(Query(filter=ecql.parse("n > 1")))


def test_a_filter_that_cannot_be_compiled_is_invalid():
    with pytest.raises(Invalid, match="Function not found"):
        source().count(Query(filter=ecql.parse("nosuchfunction(n) = 1")))


def test_bounds_and_values():
    src = source()
    assert src.bounds() == (0.0, 0.0, 10.0, 10.0)
    assert src.values("n") == [3, 1, 2]
    assert src.values("name") == ["b", "a", "c"]
    assert source([Feature("t.1", {"v": 1}), Feature("t.2", {"v": True})]).values("v") == [1, True]
    assert source([Feature("t.1", {"v": [1]}), Feature("t.2", {"v": [1]})]).values("v") == [[1]]


def test_the_schema_prefers_the_configured_attributes():
    class Configured(Type):
        attributes = [
            Attribute("name", None),
            Attribute("geom", "com.vividsolutions.jts.geom.Point"),
        ]  # type: ignore[arg-type]

    schema = memory.schema_of(Configured(), None)
    assert [a.binding for a in schema.attributes] == [
        "java.lang.String",
        "com.vividsolutions.jts.geom.Point",
    ]
    assert (schema.geometry, schema.srs) == ("geom", "EPSG:4326")
    table = FeatureTable("t", ATTRIBUTES, "the_geom", "EPSG:3857")
    assert memory.schema_of(Configured(), table).geometry == "the_geom"  # the data's wins
    assert memory.schema_of(Type(), table).attributes == tuple(ATTRIBUTES)


# -- the fid index -----------------------------------------------------------------------------


def test_the_fid_index_follows_the_table():
    src = source()
    table = src.table
    index = table.index()
    assert index.numbered == 7 and index.find({"t.3", "other.9"}) == [2, 4]
    assert table.index() is index  # kept while the table is unchanged
    table.name = "other"
    assert table.index() is not index and table.index().numbered == 9
    table.name = "t"
    table.features = table.features[:2]
    assert table.index().numbered == 2
    table.features.append(feature("t.5", "x", 1))  # changed in place: the length tells
    assert table.index().numbered == 5


def test_the_fid_index_is_not_pickled():
    import pickle

    table = source().table
    table.index()
    copy = pickle.loads(pickle.dumps(table))
    assert "_fid_index" not in copy.__dict__ and copy == table


# -- transactions ------------------------------------------------------------------------------


def test_inserts_are_numbered_on_from_the_highest_fid():
    src = source()
    tx = src.transaction()
    assert tx.insert([{"name": "x"}, {"name": "y"}]) == ["t.8", "t.9"]
    assert tx.insert([{"name": "z"}]) == ["t.10"]
    assert src.count(Query()) == 5  # nothing shows before the commit
    tx.commit()
    assert fids(src, fids=("t.9",)) == ["t.9"]
    assert src.table.index().numbered == 10 and src.count(Query()) == 8


def test_a_transaction_sees_its_own_inserts():
    src = source()
    tx = src.transaction()
    tx.insert([{"name": "new", "n": 50}])
    assert tx.update(Query(filter=ecql.parse("n > 10")), {"name": "changed"}) == 1
    assert tx.delete(Query(fids=("t.1",))) == 1
    tx.commit()
    assert fids(src, filter="name = 'changed'") == ["t.8"]
    assert "t.1" not in fids(src)


def test_inserts_after_a_delete_are_numbered_on_from_what_remains():
    src = source()
    tx = src.transaction()
    assert tx.delete(Query(fids=("t.7",))) == 1
    assert tx.insert([{}]) == ["t.4"]  # t.1..t.3 remain


def test_updates_replace_features_and_never_change_what_a_reader_holds():
    src = source()
    before = list(src.read(Query()))
    held = before[0].properties
    tx = src.transaction()
    assert tx.update(Query(), {"n": 0}) == 5
    tx.commit()
    assert held["n"] == 3
    assert {f.properties["n"] for f in src.read(Query())} == {0}


def test_discard_leaves_the_table_as_it_was():
    src = source()
    before = list(src.table.features)
    tx = src.transaction()
    tx.insert([{"name": "x"}])
    tx.delete(Query())
    tx.discard()
    assert src.table.features == before
    with pytest.raises(RuntimeError):
        tx.commit()


def test_a_filter_error_in_a_transaction_changes_nothing():
    src = source()
    before = list(src.table.features)
    tx = src.transaction()
    tx.insert([{"name": "x"}])
    with pytest.raises(Invalid):
        tx.delete(Query(filter=ecql.parse("nosuchfunction(n) = 1")))
    tx.discard()
    assert src.table.features == before


def test_a_new_table_is_stored_on_commit_even_when_empty():
    store = FeatureStore()

    class State:
        features = store

    src = memory.empty(State(), Type())  # type: ignore[arg-type]
    assert src is not None and store.get("ws", "st", "t") is None
    tx = src.transaction()
    assert tx.insert([{"name": "x"}]) == ["t.1"]
    tx.commit()
    table = store.get("ws", "st", "t")
    assert table is not None and [f.fid for f in table.features] == ["t.1"]
    empty_src = memory.empty(State(), Type())  # type: ignore[arg-type]
    assert empty_src is not None
    empty_src.transaction().commit()
    assert store.get("ws", "st", "t") is not table  # a new, empty table replaced it
