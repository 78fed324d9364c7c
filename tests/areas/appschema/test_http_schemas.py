"""``cleanSchemas`` and ``rebuildMongoSchemas`` over HTTP, observed through the Python API."""

from __future__ import annotations

import pytest

from geoserver_emulator import Emulator

from .conftest import MONGO_URL, XML, mapping_xml, payload, stations_docs

ST = "/rest/workspaces/st/appschemastores/stations"
ERR = "org.geoserver.rest.RestException 400 BAD_REQUEST: "
ID0, ID1, ID2 = "58e5889ce4b02461ad5af080", "58e5889ce4b02461ad5af081", "58e5889ce4b02461ad5af082"


def load_stations(emu, client, store: str = "stations", body: bytes | None = None) -> None:
    emu.state.appschema.add_documents(MONGO_URL, "stations", stations_docs(), "geometry")
    if client.get("/rest/workspaces/st.json").status_code == 404:
        assert (
            client.post("/rest/workspaces", json={"workspace": {"name": "st"}}).status_code == 201
        )
    url = f"/rest/workspaces/st/datastores/{store}/file.appschema?configure=all"
    r = client.put(url, content=body or payload("stations.appschema"), headers=XML)
    assert r.status_code == 201, r.text


def schemas(emu, store: str = "stations", sid: str = "data_source"):
    return emu.state.appschema.schemas("st", store, sid)


@pytest.fixture
def st(emu, client):
    load_stations(emu, client)
    return client


def test_loading_the_mapping_infers_the_used_schema_from_the_first_document(emu, st):
    found = schemas(emu)
    assert list(found) == ["stations"]
    schema = found["stations"]
    assert schema.geometry == "geometry" and schema.sampled == (ID0,)
    fields = schema.fields
    assert fields["geometry"] == "org.locationtech.jts.geom.Geometry"
    assert fields["inferredAttribute2"] == "java.lang.String"
    assert fields["measurements.values.value"] == "java.lang.Double"
    assert fields["_id"] == "org.bson.types.ObjectId"
    assert "inferredAttribute" not in fields and "geometry.type" not in fields


def test_feature_types_of_the_mongo_mapping(st):
    body = st.get("/rest/workspaces/st/datastores/stations/featuretypes.json").json()
    names = sorted(i["name"] for i in body["featureTypes"]["featureType"])
    assert names == ["Measurement", "StationFeature", "StationKind"]


@pytest.mark.parametrize("path", ["/datastores/data_source/cleanSchemas", "/cleanSchemas"])
def test_clean_empties_the_persisted_schemas(emu, st, path):
    r = st.post(ST + path)
    assert r.status_code == 200 and r.content == b""
    assert schemas(emu) == {}


def test_rebuild_from_listed_ids(emu, st):
    st.post(ST + "/cleanSchemas")
    r = st.post(ST + f"/rebuildMongoSchemas?ids={ID1},{ID0}")
    assert r.status_code == 200 and r.content == b""
    schema = schemas(emu)["stations"]
    assert set(schema.sampled) == {ID0, ID1}
    assert {"inferredAttribute", "inferredAttribute2"} <= set(schema.fields)
    assert "active" not in schema.fields


def test_rebuild_with_max_one_is_the_first_document(emu, st):
    st.post(ST + f"/rebuildMongoSchemas?ids={ID1}")
    assert "inferredAttribute" in schemas(emu)["stations"].fields
    assert st.post(ST + "/rebuildMongoSchemas?max=1").status_code == 200
    schema = schemas(emu)["stations"]
    assert "inferredAttribute" not in schema.fields and schema.sampled == (ID0,)


def test_rebuild_one_store_with_every_document_and_a_schema(emu, st):
    r = st.post(ST + "/datastores/data_source/rebuildMongoSchemas?max=-1&schema=stations")
    assert r.status_code == 200
    schema = schemas(emu)["stations"]
    assert schema.sampled == (ID0, ID1, ID2)
    assert {"inferredAttribute", "inferredAttribute2", "active"} <= set(schema.fields)
    assert schema.fields["active"] == "java.lang.Boolean"


def test_rebuild_with_max_two_takes_the_first_two(emu, st):
    st.post(ST + "/datastores/data_source/rebuildMongoSchemas?max=2")
    assert schemas(emu)["stations"].sampled == (ID0, ID1)


def test_rebuild_all_ignores_schema(emu, st):
    assert st.post(ST + "/rebuildMongoSchemas?max=1&schema=nope").status_code == 200
    assert list(schemas(emu)) == ["stations"]


def test_rebuild_of_a_schema_the_mapping_does_not_use(emu, st):
    emu.state.appschema.add_documents(MONGO_URL, "other", [{"_id": ID2, "x": 1}])
    r = st.post(ST + "/datastores/data_source/rebuildMongoSchemas?max=1&schema=other")
    assert r.status_code == 200
    assert list(schemas(emu)) == ["other"]
    assert schemas(emu)["other"].fields == {
        "_id": "org.bson.types.ObjectId",
        "x": "java.lang.Integer",
    }


@pytest.mark.parametrize(
    ("path", "message"),
    [
        (
            "/rebuildMongoSchemas",
            "At least one schema generation parameter is required: 'ids' or 'max'",
        ),
        (
            "/rebuildMongoSchemas?ids=&max=",
            "At least one schema generation parameter is required: 'ids' or 'max'",
        ),
        (
            "/datastores/data_source/rebuildMongoSchemas?schema=stations",
            "At least one schema generation parameter is required: 'ids' or 'max'",
        ),
        ("/datastores/nope/cleanSchemas", "Internal Datastore not found."),
        ("/datastores/nope/rebuildMongoSchemas?max=1", "Internal Datastore not found."),
        ("/datastores/lookup/cleanSchemas", "Internal Datastore is not a MongoDB one."),
        (
            "/datastores/lookup/rebuildMongoSchemas?max=1",
            "Internal Datastore is not a MongoDB one.",
        ),
        (
            "/rebuildMongoSchemas?ids=xyz",
            "invalid hexadecimal representation of an ObjectId: [xyz]",
        ),
        (
            f"/rebuildMongoSchemas?ids={ID0},,{ID1}",
            "invalid hexadecimal representation of an ObjectId: []",
        ),
        (
            "/rebuildMongoSchemas?max=many",
            "Failed to convert value of type 'java.lang.String' "
            "to required type 'java.lang.Integer'; For input string: \"many\"",
        ),
        (
            "/datastores/data_source/rebuildMongoSchemas?max=1&schema=nope",
            "Schema 'nope' does not exist.",
        ),
    ],
)
def test_refusals_are_400_with_the_controller_text_and_change_nothing(emu, st, path, message):
    before = schemas(emu)
    r = st.post(ST + path)
    assert r.status_code == 400
    assert r.text == ERR + message
    assert r.headers["content-type"].startswith("text/plain")
    assert schemas(emu) == before


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("/rest/workspaces/nope/appschemastores/stations/cleanSchemas", "Workspace not found."),
        ("/rest/workspaces/st/appschemastores/nope/cleanSchemas", "Appschema datastore not found."),
        (
            "/rest/workspaces/topp/appschemastores/states_shapefile/cleanSchemas",
            "Datastore is not an App-Schema one.",
        ),
        (
            "/rest/workspaces/topp/appschemastores/states_shapefile/rebuildMongoSchemas?max=1",
            "Datastore is not an App-Schema one.",
        ),
        (
            "/rest/workspaces/nope/appschemastores/x/datastores/y/rebuildMongoSchemas",
            "At least one schema generation parameter is required: 'ids' or 'max'",
        ),
        (
            "/rest/workspaces/nope/appschemastores/x/datastores/y/rebuildMongoSchemas?max=1",
            "Workspace not found.",
        ),
        ("/rest/workspaces/st/appschemastores/%20/cleanSchemas", "All parameters are required."),
        (
            "/rest/workspaces/st/appschemastores/stations/datastores/%20/cleanSchemas",
            "All parameters are required.",
        ),
    ],
)
def test_lookups_fail_with_400_not_404(st, path, message):
    r = st.post(path)
    assert r.status_code == 400 and r.text == ERR + message


def test_store_without_document_database_sources(emu, st):
    url = "/rest/workspaces/st/datastores/plain/file.appschema?configure=all"
    st.put(url, content=mapping_xml(["A"], prefix="st"), headers=XML)
    for action in ("cleanSchemas", "rebuildMongoSchemas?max=1"):
        r = st.post(f"/rest/workspaces/st/appschemastores/plain/{action}")
        assert r.status_code == 400
        assert r.text == ERR + "Internal MongoDB Datastores not found."


def test_dbtype_mongodb_marks_a_document_database_source(emu, client):
    body = (
        payload("stations.appschema")
        .replace(
            b"<name>data_store_type</name>",
            b"<name>dbtype</name><value>mongodb</value></Parameter><Parameter><name>ignored</name>",
        )
        .replace(
            b"mongodb://mongo.example:27017/stations", MONGO_URL.replace("mongodb://", "").encode()
        )
    )
    load_stations(emu, client, "other", body)
    assert client.post("/rest/workspaces/st/appschemastores/other/cleanSchemas").status_code == 200


def test_the_vendor_prefix_names_the_exception_class(client_for):
    c = client_for(emulator=Emulator("stock", vendor_prefix="org.service"))
    r = c.post("/rest/workspaces/nope/appschemastores/x/cleanSchemas")
    assert r.text == "org.service.rest.RestException 400 BAD_REQUEST: Workspace not found."


def test_schema_endpoints_accept_only_post(st):
    r = st.get(ST + "/cleanSchemas")
    assert r.status_code == 405 and "POST" in r.headers["allow"]
    assert st.put(ST + "/rebuildMongoSchemas?max=1").status_code == 405


def test_anonymous_is_401(anon):
    assert anon.post("/rest/workspaces/topp/appschemastores/x/cleanSchemas").status_code == 401


def test_a_deleted_and_recreated_store_starts_with_fresh_schemas(emu, st):
    st.post(ST + "/datastores/data_source/rebuildMongoSchemas?max=-1")
    assert len(schemas(emu)["stations"].sampled) == 3
    assert st.delete("/rest/workspaces/st/datastores/stations?recurse=true").status_code == 200
    assert st.post(ST + "/cleanSchemas").text == ERR + "Appschema datastore not found."
    load_stations(emu, st)
    assert schemas(emu)["stations"].sampled == (ID0,)


def test_replacing_the_mapping_keeps_persisted_schemas(emu, st):
    st.post(ST + "/rebuildMongoSchemas?max=-1")
    url = "/rest/workspaces/st/datastores/stations/file.appschema?configure=none"
    assert st.put(url, content=payload("stations.appschema"), headers=XML).status_code == 200
    assert schemas(emu)["stations"].sampled == (ID0, ID1, ID2)


def test_reloading_a_mapping_infers_a_cleaned_schema_again_as_first_use_does(emu, st):
    st.post(ST + "/cleanSchemas")
    url = "/rest/workspaces/st/datastores/stations/file.appschema?configure=none"
    assert st.put(url, content=payload("stations.appschema"), headers=XML).status_code == 200
    assert schemas(emu)["stations"].sampled == (ID0,)


def test_a_store_made_through_the_catalog_is_read_from_its_file(emu, client):
    emu.state.appschema.add_documents(MONGO_URL, "stations", stations_docs())
    r = client.put(
        "/rest/resource/data/topp/manual/stations.appschema", content=payload("stations.appschema")
    )
    assert r.status_code == 201
    store = {
        "dataStore": {
            "name": "manual",
            "connectionParameters": {
                "entry": [
                    {"@key": "dbtype", "$": "app-schema"},
                    {"@key": "url", "$": "file:data/topp/manual/stations.appschema"},
                ]
            },
        }
    }
    assert client.post("/rest/workspaces/topp/datastores", json=store).status_code == 201
    r = client.post("/rest/workspaces/topp/appschemastores/manual/rebuildMongoSchemas?max=-1")
    assert r.status_code == 200
    assert emu.state.appschema.schemas("topp", "manual", "data_source")["stations"].sampled == (
        ID0,
        ID1,
        ID2,
    )


def test_an_app_schema_store_whose_mapping_cannot_be_read_is_500(client):
    store = {
        "dataStore": {
            "name": "broken",
            "connectionParameters": {
                "entry": [
                    {"@key": "dbtype", "$": "app-schema"},
                    {"@key": "url", "$": "file:data/nowhere.xml"},
                ]
            },
        }
    }
    assert client.post("/rest/workspaces/topp/datastores", json=store).status_code == 201
    r = client.post("/rest/workspaces/topp/appschemastores/broken/cleanSchemas")
    assert r.status_code == 500 and "Unable to load the app-schema mapping" in r.text
