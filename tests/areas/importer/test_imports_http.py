"""Imports over HTTP (``/rest/imports``, ``/rest/imports/<id>``): create, list, read,
delete, run; statuses and messages as GeoServer's ``ImportController`` answers them."""

from __future__ import annotations

import pytest

from geoserver_emulator import Emulator

from .files import BASE, JSON, client, digest, emulator, lanes_import, new_import

HREF = BASE + "/rest/imports"


@pytest.fixture
def emu() -> Emulator:
    return emulator()


@pytest.fixture
def c(emu):
    return client(emu)


def test_absent_without_the_extension():
    stock = client(Emulator("stock"))
    assert stock.get("/rest/imports").status_code == 404
    assert stock.post("/rest/imports").status_code == 404
    assert stock.get("/rest/imports/0/tasks").status_code == 404


def test_an_empty_import_is_created_with_its_location_and_listed(c):
    r = c.post("/rest/imports")
    assert r.status_code == 201
    assert r.headers["location"] == HREF + "/0"
    assert r.headers["content-type"].startswith("application/json")
    assert r.json() == {
        "import": {"id": 0, "href": HREF + "/0", "state": "PENDING", "archive": False, "tasks": []}
    }
    assert c.post("/rest/imports", json={}).json()["import"]["id"] == 1  # no "import": empty
    listed = c.get("/rest/imports").json()
    assert listed == {
        "imports": [
            {"id": 0, "href": HREF + "/0", "state": "PENDING"},
            {"id": 1, "href": HREF + "/1", "state": "PENDING"},
        ]
    }


def test_an_import_for_a_workspace_and_a_store(c):
    body = {
        "import": {
            "targetWorkspace": {"workspace": {"name": "topp"}},
            "targetStore": {"dataStore": {"name": "taz_shapes"}},
        }
    }
    doc = c.post("/rest/imports", json=body).json()["import"]
    assert doc["targetWorkspace"] == {"workspace": {"name": "topp"}}
    # the release sample store has no type (its datastore.xml names none)
    assert doc["targetStore"] == {"dataStore": {"name": "taz_shapes", "type": None}}
    full = c.get("/rest/imports/0", params={"expand": "2"}).json()["import"]
    store = full["targetStore"]["dataStore"]
    assert store["workspace"] == {"name": "topp"}  # the persister's reference: no link
    assert "featureTypes" not in store and "href" not in store["workspace"]


def test_a_store_alone_gives_its_workspace(c):
    body = {"import": {"targetStore": {"dataStore": {"name": "states_shapefile"}}}}
    doc = c.post("/rest/imports", json=body).json()["import"]
    assert doc["targetWorkspace"]["workspace"]["name"] == "topp"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"import": {"targetWorkspace": {"workspace": {"name": "nope"}}}},
         "Target workspace does not exist : nope"),
        ({"import": {"targetStore": {"dataStore": {"name": "nope"}}}},
         "Target store does not exist : nope"),
        ({"import": {"data": {"type": "strange"}}}, "Unknown data type: strange"),
        ({"import": {"data": {"file": "x"}}}, 'JSONObject["type"] not found.'),
        ({"import": {"data": {"type": "file"}}},
         "Could not find 'file' entry in data, mandatory for file type data"),
        ({"import": {"data": {"type": "remote"}}},
         "Could not find 'location' entry in data, mandatory for remote type data"),
        ({"import": {"data": {"type": "file", "file": "x", "charsetEncoding": "klingon"}}},
         "klingon is not supported"),
        ({"import": {"transforms": [{"type": "Nope"}]}}, "Invalid transform type 'Nope'"),
        ({"import": "x"}, 'JSONObject["import"] is not a JSONObject.'),
    ],
)  # fmt: skip
def test_bad_import_bodies_are_400_and_change_nothing(emu, c, body, message):
    before = digest(emu)
    r = c.post("/rest/imports", json=body)
    assert (r.status_code, r.text) == (400, message)
    assert digest(emu) == before
    assert c.post("/rest/imports").json()["import"]["id"] == 0  # no id was used up


def test_database_and_archive_data_are_geoservers_500(emu, c):
    for kind in ("database", "archive"):
        r = c.post("/rest/imports", json={"import": {"data": {"type": kind}}})
        assert (r.status_code, r.text) == (500, "TODO: implement")
    assert emu.internal_errors == []


def test_malformed_json_is_400_and_another_content_type_415(c):
    r = c.post("/rest/imports", content=b"{nope", headers=JSON)
    assert r.status_code == 400 and r.text.startswith("Malformed JSON")
    r = c.post("/rest/imports", content=b"<import/>", headers={"Content-Type": "text/xml"})
    assert r.status_code == 415
    assert c.post("/rest/imports", content=b"", headers={"Content-Type": "text/xml"}).is_success


def test_accept_without_json_is_406(c):
    r = c.get("/rest/imports", headers={"Accept": "application/xml"})
    assert r.status_code == 406 and r.text
    assert c.get("/rest/imports", headers={"Accept": "text/html,*/*;q=0.8"}).status_code == 200


def test_put_creates_with_an_id_past_the_counter(c):
    r = c.put("/rest/imports/5")
    assert r.status_code == 201 and r.headers["location"] == HREF + "/5"
    assert c.post("/rest/imports").json()["import"]["id"] == 6
    assert c.put("/rest/imports/2").json()["import"]["id"] == 7  # an id already reached


def test_one_import_unknown_ids_and_bad_ids(emu, c):
    assert c.get("/rest/imports/3").status_code == 404
    assert c.get("/rest/imports/3").text == "No such import: 3"
    assert c.delete("/rest/imports/3").status_code == 404
    assert c.post("/rest/imports/3").status_code == 404
    r = c.get("/rest/imports/abc")
    assert r.status_code == 400 and "abc" in r.text
    r = client(emulator("geoserver")).get("/rest/imports/abc")
    assert r.status_code == 500  # GeoServer's controllers refuse the argument with a 500


def test_expand_levels(c):
    i = lanes_import(c)
    short = c.get(f"/rest/imports/{i}", params={"expand": "none"}).json()["import"]
    assert set(short) == {"id", "href", "state"}
    one = c.get(f"/rest/imports/{i}").json()["import"]
    assert one["tasks"] == [{"id": 0, "href": f"{HREF}/{i}/tasks/0", "state": "READY"}]
    deep = c.get(f"/rest/imports/{i}", params={"expand": "all"}).json()["import"]
    assert deep["tasks"][0]["layer"]["attributes"][0]["name"] == "the_geom"
    assert c.get(f"/rest/imports/{i}", params={"expand": "bogus"}).json() == {"import": one}
    listed = c.get("/rest/imports", params={"expand": "1"}).json()["imports"][0]
    assert listed["tasks"][0]["state"] == "READY"


def test_delete_one_and_all(c):
    new_import(c)
    new_import(c)
    assert c.delete("/rest/imports/0").status_code == 204
    assert [i["id"] for i in c.get("/rest/imports").json()["imports"]] == [1]
    assert c.delete("/rest/imports").status_code == 204
    assert c.get("/rest/imports").json() == {"imports": []}


def test_the_list_is_in_the_order_imports_were_last_saved(c):
    new_import(c)
    new_import(c)
    c.put("/rest/imports/0/tasks/0", json={"task": {"updateMode": "CREATE"}})  # no task: 404
    lanes_import(c)  # import 2
    c.post("/rest/imports/0")  # running an empty import saves it: last
    assert [i["id"] for i in c.get("/rest/imports").json()["imports"]] == [1, 2, 0]


def test_running_an_import_answers_204_and_completes_it(c):
    i = lanes_import(c)
    r = c.post(f"/rest/imports/{i}")
    assert (r.status_code, r.text) == (204, "")
    doc = c.get(f"/rest/imports/{i}").json()["import"]
    assert doc["state"] == "COMPLETE" and doc["tasks"][0]["state"] == "COMPLETE"


def test_an_async_import_without_data_stays_init_and_cannot_run(c):
    r = c.post("/rest/imports", params={"async": "true"})
    assert r.json()["import"]["state"] == "INIT"
    r = c.post("/rest/imports/0")
    assert (r.status_code, r.text) == (
        412,
        "Import context is still in INIT state, cannot run it yet",
    )


def test_a_bad_boolean_query_is_400(c):
    assert c.post("/rest/imports", params={"exec": "maybe"}).status_code == 400


def test_reset_forgets_imports_and_a_dump_does_not_carry_them(emu, c):
    lanes_import(c)
    dumped = emu.dump_scenario()
    assert "imports" not in str(dumped.keys())
    emu.reset()
    assert c.get("/rest/imports").json() == {"imports": []}
    assert new_import(c) == 0


def test_non_admin_is_refused(emu):
    r = client(emu).get("/rest/imports", auth=("nobody", "x"))
    assert r.status_code == 401


def test_a_non_admin_user_is_forbidden_and_other_methods_are_405(emu, c):
    r = c.post("/rest/security/usergroup/users",
               json={"user": {"userName": "bob", "password": "pw", "enabled": True}})  # fmt: skip
    assert r.status_code == 201, r.text
    r = client(emu).get("/rest/imports", auth=("bob", "pw"))
    assert r.status_code == 403
    r = c.put("/rest/imports")
    assert r.status_code == 405 and r.headers["allow"] == "GET, HEAD, POST, DELETE"
    assert c.delete("/rest/imports/0/tasks/0/progress").status_code == 405


def test_ids_past_a_java_long_are_refused(c):
    r = c.get(f"/rest/imports/{2**63}")
    assert r.status_code == 400
    assert c.put(f"/rest/imports/{2**64}").status_code == 400
