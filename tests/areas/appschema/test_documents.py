"""Inferring schemas from sample documents (``documents.py``) and the area's store
(``model.py``)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from geoserver_emulator.areas.appschema.documents import (
    check_ids,
    field_mappings,
    infer_schema,
    object_id,
)
from geoserver_emulator.areas.appschema.mapping import parse_mapping
from geoserver_emulator.areas.appschema.model import (
    AppSchemaRecord,
    AppSchemaStore,
    internal_stores,
)
from geoserver_emulator.core.errors import Invalid

from .conftest import MONGO_URL, payload, stations_docs

ID0, ID1, ID2 = "58e5889ce4b02461ad5af080", "58e5889ce4b02461ad5af081", "58e5889ce4b02461ad5af082"


def test_field_mappings_walk_objects_and_lists():
    doc = {
        "_id": {"$oid": ID0},
        "n": 1,
        "big": 2**40,
        "f": 1.5,
        "b": True,
        "s": "x",
        "when": {"$date": "2020-01-01T00:00:00Z"},
        "nested": {"a": {"b": "c"}},
        "list": [{"v": 1}, {"w": "x"}],
        "tags": ["a", "b"],
        "none": None,
    }
    assert field_mappings([doc]) == {
        "_id": "org.bson.types.ObjectId",
        "n": "java.lang.Integer",
        "big": "java.lang.Long",
        "f": "java.lang.Double",
        "b": "java.lang.Boolean",
        "s": "java.lang.String",
        "when": "java.util.Date",
        "nested.a.b": "java.lang.String",
        "list.v": "java.lang.Integer",
        "list.w": "java.lang.String",
        "tags": "java.lang.String",
    }


def test_first_value_wins_across_documents():
    assert field_mappings([{"a": 1}, {"a": "x"}]) == {"a": "java.lang.Integer"}


def test_default_is_the_first_document():
    schema = infer_schema("stations", stations_docs(), [], 1)
    assert schema.sampled == (ID0,) and schema.geometry == "geometry"
    assert schema.attributes[0] == ("geometry", "org.locationtech.jts.geom.Geometry")
    assert "inferredAttribute" not in schema.fields


@pytest.mark.parametrize(
    ("ids", "max_objects", "sampled"),
    [
        ([ID1], 1, (ID1,)),
        ([ID2, ID1], 1, (ID1, ID2)),
        ([], 2, (ID0, ID1)),
        ([], -1, (ID0, ID1, ID2)),
        ([], 0, ()),
        ([], -5, ()),
        ([ID2], 100, (ID2, ID0, ID1)),
        (["ffffffffffffffffffffffff"], 1, (ID0,)),
    ],
)
def test_sampling(ids, max_objects, sampled):
    assert infer_schema("s", stations_docs(), ids, max_objects).sampled == sampled


def test_listed_ids_count_their_fields_against_max():
    # ID2 yields 6 fields (geometry.type and geometry.coordinates among them), so max 7
    # leaves room for one more document
    schema = infer_schema("s", stations_docs(), [ID2], 7)
    assert schema.sampled == (ID2, ID0)


def test_paths_below_the_geometry_are_dropped_and_a_declared_geometry_wins():
    docs = [{"_id": ID0, "loc": {"type": "Point", "coordinates": [1, 2]}, "locName": "x"}]
    schema = infer_schema("s", docs, [], 1)
    assert schema.geometry == "loc"
    assert "loc.type" not in schema.fields and "locName" not in schema.fields  # prefix quirk
    assert infer_schema("s", docs, [], 1, geometry="other").geometry == "other"


def test_empty_collection_gives_an_empty_schema():
    schema = infer_schema("s", [], [], 1)
    assert schema.attributes == () and schema.geometry is None


def test_object_ids():
    assert object_id(ID0.upper()) == ID0
    assert object_id({"$oid": ID0}) == ID0
    assert object_id("nope") is None and object_id(12) is None
    assert check_ids([ID0]) == [ID0]
    with pytest.raises(Invalid, match=r"ObjectId: \[zz\]"):
        check_ids(["zz"])


scalars = st.one_of(st.integers(-1000, 1000), st.text(max_size=5), st.booleans(), st.floats(0, 1))
documents = st.lists(
    st.dictionaries(st.sampled_from(["a", "b", "c", "d"]), scalars, max_size=4), max_size=6
)


@settings(deadline=None)
@given(documents)
def test_every_document_widens_the_schema(docs):
    every = infer_schema("s", docs, [], -1).fields
    for n in range(len(docs) + 1):
        assert set(infer_schema("s", docs, [], n).fields) <= set(every)
    assert set(every) == {k for d in docs for k in d}


# -- the store ------------------------------------------------------------------------------


def _record(store: AppSchemaStore) -> AppSchemaRecord:
    main = parse_mapping(payload("stations.appschema"), "stations.appschema")
    return AppSchemaRecord(
        "st", "stations", "data/st/stations", main, internal=internal_stores(main)
    )


def test_internal_stores_are_the_main_files_document_sources():
    main = parse_mapping(payload("stations.appschema"), "stations.appschema")
    found = internal_stores(main)
    assert list(found) == ["data_source"]
    assert found["data_source"].collections == ["stations"]
    assert found["data_source"].url == MONGO_URL


def test_add_documents_gives_missing_ids():
    store = AppSchemaStore()
    coll = store.add_documents("mongodb://x/db", "c", [{"a": 1}, {"_id": ID0}, {"b": 2}])
    assert [d["_id"] for d in coll.documents] == [f"{1:024x}", ID0, f"{3:024x}"]
    assert store.collection("mongodb://x/db", "nope").documents == []
    assert store.has_collection("mongodb://x/db", "c") and not store.has_collection("m", "c")


def test_infer_clean_rebuild_and_remember():
    store = AppSchemaStore()
    store.add_documents(MONGO_URL, "stations", stations_docs())
    record = store.remember(_record(store))
    store.infer_missing(record)
    internal = record.internal["data_source"]
    assert store.schemas("st", "stations", "data_source")["stations"].sampled == (ID0,)
    store.rebuild(internal, [], -1)
    assert len(internal.schemas["stations"].sampled) == 3
    again = store.remember(_record(store))
    assert len(again.internal["data_source"].schemas["stations"].sampled) == 3
    store.clean(again.internal["data_source"])
    assert store.schemas("st", "stations", "data_source") == {}
    assert store.schemas("st", "nope", "data_source") == {}
    store.forget("st", "stations")
    assert store.record("st", "stations") is None


def test_nothing_is_inferred_for_a_collection_without_documents():
    store = AppSchemaStore()
    record = store.remember(_record(store))
    store.infer_missing(record)
    assert record.internal["data_source"].schemas == {}
