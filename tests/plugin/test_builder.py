"""ScenarioBuilder and in-memory scenario documents."""

from __future__ import annotations

import json

import pytest

from geoserver_emulator import Emulator, ScenarioError
from geoserver_emulator.scenarios import loader
from geoserver_emulator.scenarios.builder import ScenarioBuilder


def test_users_groups_and_roles_are_added_to_the_base():
    emu = (
        ScenarioBuilder("stock")
        .user("bob", "pw", roles=["ROLE_AUTHOR"], groups=["editors"], properties={"email": "b@x"})
        .user("carol", "pw2", enabled=False)
        .group("editors", members=["carol"], roles=["ROLE_EDITOR"])
        .role("ROLE_SPARE")
        .emulator()
    )
    users = emu.state.users
    svc = users.service()
    assert set(svc.users) == {"admin", "bob", "carol"}
    assert svc.users["bob"].properties == {"email": "b@x"} and not svc.users["carol"].enabled
    assert svc.memberships["editors"] == {"bob", "carol"}
    rs = users.role_services["default"]
    assert {"ADMIN", "ROLE_AUTHOR", "ROLE_EDITOR", "ROLE_SPARE"} <= set(rs.roles)
    assert rs.user_roles["bob"] == {"ROLE_AUTHOR"} and rs.group_roles["editors"] == {"ROLE_EDITOR"}
    assert rs.user_roles["admin"] == {"ADMIN"}


def test_new_user_can_log_in(client_for):
    emu = ScenarioBuilder("stock").user("bob", "pw").emulator()
    assert client_for(auth=("bob", "pw"), emulator=emu).get("/rest/x").status_code == 403
    assert client_for(auth=("bob", "nope"), emulator=emu).get("/rest/x").status_code == 401


def test_user_replaces_one_of_the_same_name():
    emu = ScenarioBuilder("stock").user("admin", "changed", roles=["ADMIN"]).emulator()
    assert emu.state.users.service().users["admin"].password == "changed"


def test_rules_are_merged_with_the_base():
    doc = (
        ScenarioBuilder("stock")
        .layer_rule("topp.*.r", ["ROLE_A", "ROLE_B"])
        .service_rule("wfs.GetFeature", "ROLE_A")
        .rest_rule("/rest/styles/**:GET", "ROLE_A")
        .security(catalog_mode="MIXED", keystore_password="secret1", root_login=True)
        .document()
    )
    sec = doc["security"]
    assert sec["layerRules"] == {
        "*.*.r": "*",
        "*.*.w": "GROUP_ADMIN,ADMIN",
        "topp.*.r": "ROLE_A,ROLE_B",
    }
    assert sec["serviceRules"] == {"wfs.GetFeature": "ROLE_A"}
    assert sec["restRules"]["/rest/styles/**:GET"] == "ROLE_A" and len(sec["restRules"]) == 3
    state = loader.load(doc).state().security
    assert (state.catalog_mode, state.keystore_password, state.root_login) == (
        "MIXED",
        "secret1",
        True,
    )
    assert state.layer_rules["topp.*.r"] == ["ROLE_A", "ROLE_B"]


def test_settings_reach_the_emulator():
    emu = Emulator(
        ScenarioBuilder("empty").settings(
            profile="geoserver", vendor_prefix="org.service", team="x"
        )
    )
    assert emu.profile == "geoserver" and emu.vendor.prefix == "org.service"
    assert emu.scenario.settings.extras == {"team": "x"}
    emu = Emulator(ScenarioBuilder().settings(clock_origin="2030-05-01T00:00:00Z"))
    assert emu.clock.datetime().year == 2030


def test_section_sets_any_area_verbatim():
    doc = ScenarioBuilder("empty").section("security", {"catalogMode": "CHALLENGE"}).document()
    assert doc == {"extends": "empty", "security": {"catalogMode": "CHALLENGE"}}
    assert Emulator(doc).state.security.catalog_mode == "CHALLENGE"


@pytest.mark.parametrize("key", ["extends", "settings", "nonsense"])
def test_section_refuses_reserved_and_unknown_keys(key):
    with pytest.raises(ScenarioError):
        ScenarioBuilder().section(key, {})


def test_roles_must_be_a_list():
    with pytest.raises(ScenarioError, match="list of role names"):
        ScenarioBuilder().user("bob", "pw", roles="ROLE_A")  # type: ignore[arg-type]


def test_bad_variation_is_a_scenario_error():
    with pytest.raises(ScenarioError, match="catalogMode"):
        ScenarioBuilder().security(catalog_mode="OPEN").load()


def test_extends_none_starts_from_nothing():
    doc = ScenarioBuilder(None).section("security", {"catalogMode": "MIXED"}).document()
    assert "extends" not in doc
    emu = ScenarioBuilder(None).emulator()
    assert emu.state.security.catalog_mode == "HIDE" and not emu.state.users.services


def test_extends_a_file(tmp_path):
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"extends": "stock", "security": {"catalogMode": "MIXED"}}))
    emu = ScenarioBuilder(path).user("bob", "pw").emulator()
    assert emu.state.security.catalog_mode == "MIXED" and "bob" in emu.state.users.service().users
    with pytest.raises(ScenarioError, match="no such scenario"):
        ScenarioBuilder(tmp_path / "missing.json")


def test_document_is_a_copy_and_follows_changes():
    b = ScenarioBuilder()
    first = b.document()
    first["extends"] = "tampered"
    assert b.document() == {"extends": "stock"}
    b.user("bob", "pw")
    assert "users" in b.document()


def test_documents_are_parsed_once_per_content():
    doc = ScenarioBuilder("empty").user("bob", "pw").document()
    a, b = loader.load_document(doc), loader.load_document(json.loads(json.dumps(doc)))
    assert a.baseline is b.baseline and a.name == b.name and a.name.startswith("document-")
    other = loader.load_document(ScenarioBuilder("empty").user("bob", "pw2").document())
    assert other.baseline is not a.baseline


def test_emulators_from_one_builder_share_nothing():
    b = ScenarioBuilder("empty").user("bob", "pw")
    one, two = Emulator(b), Emulator(b)
    one.state.users.service().users.pop("bob")
    assert "bob" in two.state.users.service().users


def test_document_extends_relative_to_base_dir(tmp_path):
    (tmp_path / "base.json").write_text(
        json.dumps({"extends": "empty", "security": {"catalogMode": "MIXED"}})
    )
    scenario = loader.load_document({"extends": "base.json"}, base_dir=tmp_path)
    assert scenario.state().security.catalog_mode == "MIXED"


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ({"extends": 3}, "extends"),
        ({"colour": 1}, "unknown top-level key"),
        ({"settings": {"profile": "x"}}, "profile"),
        ({"when": object()}, "JSON-serialisable"),
    ],
)
def test_bad_documents(doc, message):
    with pytest.raises(ScenarioError, match=message):
        loader.load_document(doc)


def test_loader_refuses_other_objects():
    with pytest.raises(ScenarioError, match="not a scenario"):
        loader.load(42)  # type: ignore[arg-type]


# -- catalog -----------------------------------------------------------------------------


def catalog_builder() -> ScenarioBuilder:
    b = ScenarioBuilder("stock")
    ws = b.workspace("acme", uri="http://acme.example.com", default=True)
    ws.datastore("roads_db", type="PostGIS", connection_parameters={"host": "db"}).feature_type(
        "roads",
        attributes=["the_geom:MultiLineString", "name:String"],
        bbox=(-10, 40, 5, 50),
        default_style="line",
        styles=["polygon"],
    )
    ws.coverage_store("dem", url="file:data/dem.tif").coverage(
        "dem", bbox=(0, 0, 1, 1), native_coverage_name="dem", layer=False
    )
    b.workspace("acme")  # the same workspace again: nothing new
    b.layer_group("basemap", ["acme:roads"], workspace="acme", title="Base")
    return b


def test_catalog_section_shape():
    catalog = catalog_builder().document()["catalog"]
    assert catalog["defaultWorkspace"] == "acme"
    assert catalog["workspaces"] == [
        {"name": "acme", "isolated": False, "uri": "http://acme.example.com"}
    ]
    (store,) = catalog["dataStores"]
    assert store == {
        "workspace": "acme",
        "name": "roads_db",
        "enabled": True,
        "type": "PostGIS",
        "connectionParameters": {"host": "db"},
        "featureTypes": [
            {
                "name": "roads",
                "srs": "EPSG:4326",
                "nativeBoundingBox": {"minx": -10, "maxx": 5, "miny": 40, "maxy": 50},
                "layer": {"defaultStyle": "line", "styles": ["polygon"]},
                "attributes": ["the_geom:MultiLineString", "name:String"],
            }
        ],
    }
    (coverage_store,) = catalog["coverageStores"]
    assert coverage_store["type"] == "GeoTIFF" and coverage_store["url"] == "file:data/dem.tif"
    assert coverage_store["coverages"][0]["layer"] is False
    assert coverage_store["coverages"][0]["nativeCoverageName"] == "dem"
    assert catalog["layerGroups"] == [
        {
            "name": "basemap",
            "mode": "SINGLE",
            "layers": ["acme:roads"],
            "workspace": "acme",
            "styles": [None],
            "title": "Base",
        }
    ]


def test_catalog_changes_clear_the_cached_document():
    b = ScenarioBuilder("stock")
    assert "catalog" not in b.document()
    store = b.workspace("acme").datastore("s")
    before = b.document()["catalog"]["dataStores"][0]["featureTypes"]
    store.feature_type("t")
    assert before == [] and len(b.document()["catalog"]["dataStores"][0]["featureTypes"]) == 1


def test_catalog_additions_load():
    b = catalog_builder()
    b.workspace("topp").datastore("extra").feature_type("things")  # topp exists in stock
    catalog = b.document()["catalog"]
    assert [w["name"] for w in catalog["workspaces"]] == ["acme"]
    cat = b.emulator().state.catalog
    names = [w.name for w in cat.list_workspaces()]
    assert "acme" in names and names.count("topp") == 1
    assert [s.name for s in cat.list_stores("acme", "dataStore")] == ["roads_db"]
    assert "extra" in [s.name for s in cat.list_stores("topp", "dataStore")]
    assert [g.name for g in cat.list_layer_groups("acme")] == ["basemap"]


def test_document_key_order_is_kept():
    first = {"extends": "empty", "security": {"restRules": {"/a/**:GET": "R1", "/**:GET": "R2"}}}
    second = {"extends": "empty", "security": {"restRules": {"/**:GET": "R2", "/a/**:GET": "R1"}}}
    assert list(loader.load_document(first).state().security.rest_rules) == ["/a/**:GET", "/**:GET"]
    assert list(loader.load_document(second).state().security.rest_rules) == [
        "/**:GET",
        "/a/**:GET",
    ]


def test_added_rest_rules_come_first():
    rules = ScenarioBuilder("stock").rest_rule("/rest/styles/**:GET", "R").document()["security"]
    assert list(rules["restRules"])[0] == "/rest/styles/**:GET"
