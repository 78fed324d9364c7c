"""geoserver-rest (gicait, ``from geo.Geoserver import Geoserver``) against a live emulator.

One test per client flow. The library reads bare catalog URLs with ``r.json()`` and checks
exact statuses (201 on create, 200 elsewhere); a wrong status raises ``GeoserverException``.
Flows that cannot work are listed in docs/clients.md, not here.
"""

from __future__ import annotations

import pytest
from geo.Geoserver import Geoserver, GeoserverException

from geoserver_emulator import Emulator


@pytest.fixture
def geo(base_url: str) -> Geoserver:
    return Geoserver(base_url, username="admin", password="geoserver")


def test_about_version_manifest_status(geo: Geoserver) -> None:
    resources = geo.get_version()["about"]["resource"]
    assert {r["@name"] for r in resources} >= {"GeoServer", "GeoTools", "GeoWebCache"}
    assert "about" in geo.get_manifest()
    statuses = geo.get_status()["statuss"]["status"]
    assert any(s["name"] == "GeoServer Main" for s in statuses)
    metrics = geo.get_system_status()["metrics"]["metric"]
    assert any(m["name"] == "OPERATING_SYSTEM" for m in metrics)


def test_reload_and_reset(geo: Geoserver) -> None:
    assert geo.reload() == "Status code: 200"
    assert geo.reset() == "Status code: 200"


def test_wrong_password_raises_401(base_url: str) -> None:
    with pytest.raises(GeoserverException) as err:
        Geoserver(base_url, username="admin", password="nope").get_workspaces()
    assert err.value.status == 401


def test_workspaces(geo: Geoserver, emu: Emulator) -> None:
    names = [w["name"] for w in geo.get_workspaces()["workspaces"]["workspace"]]
    assert names == ["cite", "it.geosolutions", "ne", "nurc", "sde", "sf", "tiger", "topp"]
    assert geo.get_default_workspace()["workspace"]["name"] == "ne"
    assert geo.create_workspace("demo") == "201 Workspace demo created!"
    with pytest.raises(GeoserverException) as err:
        geo.create_workspace("demo")
    assert err.value.status == 409
    assert geo.get_workspace("demo")["workspace"]["name"] == "demo"
    geo.set_default_workspace("demo")
    assert geo.get_default_workspace()["workspace"]["name"] == "demo"
    geo.set_default_workspace("ne")
    geo.delete_workspace("demo")
    with pytest.raises(GeoserverException) as err:
        geo.get_workspace("demo")
    assert err.value.status == 404
    assert emu.state.catalog.workspace("demo") is None


def test_delete_workspace_recurses(geo: Geoserver, emu: Emulator) -> None:
    geo.delete_workspace("sf")
    assert emu.state.catalog.workspace("sf") is None
    with pytest.raises(GeoserverException) as err:
        geo.get_layer("sf:roads")
    assert err.value.status == 404


def test_read_stores(geo: Geoserver) -> None:
    assert geo.get_datastore("sf", "sf")["dataStore"]["name"] == "sf"
    stores = geo.get_datastores("topp")["dataStores"]["dataStore"]
    assert [s["name"] for s in stores] == ["states_shapefile", "taz_shapes"]
    assert geo.get_coveragestore("sfdem", "sf")["coverageStore"]["type"] == "GeoTIFF"
    stores = geo.get_coveragestores("nurc")["coverageStores"]["coverageStore"]
    assert "mosaic" in [s["name"] for s in stores]
    # no workspace: the client asks for the "default" workspace (ne)
    assert geo.get_datastore("NaturalEarth")["dataStore"]["type"] == "GeoPackage"
    with pytest.raises(GeoserverException) as err:
        geo.get_datastore("nope", "sf")
    assert err.value.status == 404


def test_create_datastores(geo: Geoserver, emu: Emulator) -> None:
    geo.create_workspace("demo")
    assert geo.create_datastore("shp", "/data/roads.shp", workspace="demo") == (
        "Data store created/updated successfully"
    )
    geo.create_datastore("wfs", "http://example.com/wfs?request=GetCapabilities", "demo")
    geo.create_datastore("shp", "/data/other.shp", workspace="demo", overwrite=True)
    store = emu.state.catalog.store("demo", "shp", "dataStore")
    assert store.connection_parameters["url"] == "file:/data/other.shp"
    assert store.type == "Shapefile"
    wfs = emu.state.catalog.store("demo", "wfs", "dataStore")
    assert wfs.connection_parameters["GET_CAPABILITIES_URL"].startswith("http://example.com/")


def test_postgis_featurestore_publish_and_delete(geo: Geoserver, emu: Emulator) -> None:
    geo.create_workspace("demo")
    geo.create_featurestore("pg", workspace="demo", db="gis", host="db", pg_password="pw")
    store = geo.get_featurestore("pg", "demo")
    assert store["type"] == "PostGIS" and store["enabled"] is True
    params = {e["@key"]: e["$"] for e in store["connectionParameters"]["entry"]}
    assert params["host"] == "db" and params["database"] == "gis"
    geo.create_featurestore("pg", workspace="demo", host="db2", overwrite=True)
    store = emu.state.catalog.store("demo", "pg", "dataStore")
    assert store.connection_parameters["host"] == "db2"
    assert geo.publish_featurestore("pg", "parcels", "demo", abstract="A", keywords=["k"]) == 201
    layer = geo.get_layer("parcels", workspace="demo")["layer"]
    assert layer["resource"]["name"] == "demo:parcels"
    ft = emu.state.catalog.resource("demo", "parcels")
    assert ft.title == "parcels" and ft.abstract == "A" and ft.keywords == ["k"]
    geo.delete_featurestore("pg", workspace="demo")
    assert emu.state.catalog.resource("demo", "parcels") is None
    with pytest.raises(GeoserverException) as err:
        geo.get_featurestore("pg", "demo")
    assert err.value.status == 404


def test_sql_view(geo: Geoserver, emu: Emulator) -> None:
    geo.create_workspace("demo")
    geo.create_featurestore("pg", workspace="demo")
    status = geo.publish_featurestore_sqlview(
        "view1",
        "pg",
        "select id, geom from t where a = %a%",
        key_column="id",
        parameters=[{"name": "a", "defaultValue": "1", "regexpValidator": "^[0-9]+$"}],
        workspace="demo",
    )
    assert status == 201
    vt = emu.state.catalog.resource("demo", "view1").metadata["JDBC_VIRTUAL_TABLE"]
    assert vt["virtualTable"]["sql"].startswith("select id, geom")
    assert vt["virtualTable"]["keyColumn"] == "id"


def test_feature_types(geo: Geoserver, emu: Emulator) -> None:
    names = geo.get_featuretypes(workspace="sf", store_name="sf")
    assert names == ["archsites", "bugsites", "restricted", "roads", "streams"]
    assert geo.get_feature_attribute("roads", "sf", "sf") == ["the_geom", "cat", "label"]
    kw = {"abstract": "a", "keywords": ["x"]}
    status = geo.edit_featuretype("sf", "sf", "roads", "roads", "Roads", **kw)
    assert status == 200
    ft = emu.state.catalog.resource("sf", "roads")
    assert (ft.title, ft.abstract, ft.keywords) == ("Roads", "a", ["x"])
    recalc = "nativebbox,latlonbbox"
    assert geo.edit_featuretype("sf", "sf", "roads", "roads", "Roads", recalculate=recalc) == 200


def test_coverages(geo: Geoserver, emu: Emulator) -> None:
    assert geo.create_coverage("sf", "sfdem", coverage_name="dem2", navite_name="sfdem") == "dem2"
    assert emu.state.catalog.layer("sf", "dem2") is not None
    assert geo.get_layer("dem2", workspace="sf")["layer"]["type"] == "RASTER"
    deleted = geo.delete_coveragestore("sfdem", workspace="sf")
    assert deleted == "Coverage store deleted successfully"
    assert emu.state.catalog.store("sf", "sfdem", "coverageStore") is None


def test_time_dimension_is_stored_though_the_client_fails_to_read_the_reply(
    geo: Geoserver, emu: Emulator
) -> None:
    # The PUT succeeds (200, empty body, as GeoServer's void controller answers); the client
    # then calls r.json() on the empty body and raises. It does so against GeoServer too.
    with pytest.raises(ValueError):
        geo.publish_time_dimension_to_coveragestore("sfdem", "sf")
    time = emu.state.catalog.resource("sf", "sfdem").metadata["time"]
    assert time["dimensionInfo"]["presentation"] == "LIST"
    assert time["dimensionInfo"]["defaultValue"] == {"strategy": "MINIMUM"}


def test_layers(geo: Geoserver, emu: Emulator) -> None:
    layers = geo.get_layers()["layers"]["layer"]
    assert {"sf:roads", "topp:states"} <= {layer["name"] for layer in layers}
    names = [layer["name"] for layer in geo.get_layers(workspace="sf")["layers"]["layer"]]
    assert names == ["archsites", "bugsites", "restricted", "roads", "sfdem", "streams"]
    assert geo.get_layer("sf:roads")["layer"]["defaultStyle"]["name"] == "simple_roads"
    assert geo.get_layer("roads", workspace="sf")["layer"]["type"] == "VECTOR"
    geo.delete_layer("roads", workspace="sf")
    assert emu.state.catalog.layer("sf", "roads") is None
    with pytest.raises(GeoserverException) as err:
        geo.delete_layer("roads", workspace="sf")
    assert err.value.status == 404


def test_layer_groups(geo: Geoserver, emu: Emulator) -> None:
    assert [g["name"] for g in geo.get_layergroups()["layerGroups"]["layerGroup"]] == [
        "spearfish",
        "tasmania",
        "tiger-ny",
    ]
    assert geo.get_layergroups("ne")["layerGroups"]["layerGroup"][0]["name"] == "world"
    assert geo.get_layergroup("world", workspace="ne")["layerGroup"]["mode"] == "NAMED"
    geo.create_layergroup(
        name="lg",
        mode="single",
        title="T",
        abstract_text="A",
        layers=["sf:roads", "sf:streams"],
        keywords=["k1", "k2"],
        metadata=[{"about": "x", "content_url": "http://x"}],
    )
    group = geo.get_layergroup("lg")["layerGroup"]
    assert (group["mode"], group["title"], group["abstractTxt"]) == ("SINGLE", "T", "A")
    assert group["keywords"]["string"] == ["k1", "k2"]
    assert [p["name"] for p in group["publishables"]["published"]] == ["sf:roads", "sf:streams"]
    with pytest.raises(Exception, match="already exist"):
        geo.create_layergroup(name="lg", layers=["sf:roads"])
    geo.update_layergroup("lg", title="T2", keywords=["k3"])
    group = geo.get_layergroup("lg")["layerGroup"]
    # one keyword: a plain string, as GeoServer's Jettison writes a lone item
    assert group["title"] == "T2" and group["keywords"]["string"] == "k3"
    assert geo.delete_layergroup("lg") == "Layer group deleted successfully"
    with pytest.raises(GeoserverException) as err:
        geo.get_layergroup("lg")
    assert err.value.status == 404


def test_workspace_layer_group_add_and_remove_layers(geo: Geoserver, emu: Emulator) -> None:
    geo.create_layergroup(name="wlg", layers=["roads"], workspace="sf")
    group = geo.get_layergroup("wlg", workspace="sf")["layerGroup"]
    # a one-layer group: `published` is an object, the case the client's own code handles
    assert group["publishables"]["published"]["name"] == "sf:roads"
    assert group["workspace"]["name"] == "sf"
    geo.add_layer_to_layergroup("streams", "sf", "wlg", "sf")
    geo.add_layer_to_layergroup("archsites", "sf", "wlg", "sf")
    members = emu.state.catalog.layer_group("sf", "wlg").publishables
    assert [m.prefixed for m in members] == ["sf:roads", "sf:streams", "sf:archsites"]
    geo.remove_layer_from_layergroup("streams", "sf", "wlg", "sf")
    members = emu.state.catalog.layer_group("sf", "wlg").publishables
    assert [m.prefixed for m in members] == ["sf:roads", "sf:archsites"]
    geo.delete_layergroup("wlg", workspace="sf")
    assert emu.state.catalog.layer_group("sf", "wlg") is None


def test_layer_group_of_a_missing_layer_is_refused_by_the_client(geo: Geoserver) -> None:
    with pytest.raises(Exception, match="not a valid layer"):
        geo.create_layergroup(name="bad", layers=["sf:nope"])


def test_styles_read(geo: Geoserver) -> None:
    names = [s["name"] for s in geo.get_styles()["styles"]["style"]]
    assert {"point", "line", "polygon", "raster"} <= set(names)
    assert [s["name"] for s in geo.get_styles("ne")["styles"]["style"]][0] == "boundary_lines"
    style = geo.get_style("point")["style"]
    assert (style["format"], style["languageVersion"]["version"]) == ("sld", "1.0.0")
    assert geo.get_style("countries", workspace="ne")["style"]["workspace"]["name"] == "ne"
    with pytest.raises(GeoserverException) as err:
        geo.get_style("nope")
    assert err.value.status == 404


def test_upload_publish_and_delete_style(geo: Geoserver, emu: Emulator, sld: str, tmp_path) -> None:
    path = tmp_path / "mystyle.sld"
    path.write_text(sld, encoding="utf-8")
    assert geo.upload_style(str(path)) == 200  # name from the file name
    assert geo.upload_style(sld, name="mystyle", workspace="sf") == 200
    assert geo.upload_style(sld, name="se", sld_version="1.1.0") == 200
    assert geo.get_style("mystyle")["style"]["filename"] == "mystyle.sld"
    assert geo.get_style("mystyle", workspace="sf")["style"]["workspace"]["name"] == "sf"
    with pytest.raises(GeoserverException) as err:
        geo.upload_style(sld, name="mystyle")  # the record POST: catalog.add refuses it
    assert err.value.status == 500
    assert err.value.message == b"Style named 'mystyle' already exists"
    assert geo.publish_style("roads", "mystyle", "sf") == 200
    assert geo.get_layer("sf:roads")["layer"]["defaultStyle"]["name"] == "mystyle"
    # delete sends recurse=true: the style goes even though a layer uses it
    assert geo.delete_style("mystyle") == "Status code: 200, delete style"
    assert emu.state.catalog.layer("sf", "roads").default_style.name != "mystyle"
    geo.delete_style("mystyle", workspace="sf")
    with pytest.raises(GeoserverException) as err:
        geo.delete_style("mystyle")
    assert err.value.status == 404


# -- file uploads (issue 20) ------------------------------------------------------------------


def _shapefile(folder, name: str = "parcels") -> dict[str, str]:
    import shapefile

    base = folder / name
    with shapefile.Writer(str(base), shapeType=5) as w:
        w.field("ID", "N", 6, 0)
        w.poly([[(0, 0), (0, 1), (1, 1), (1, 0), (0, 0)]])
        w.record(1)
    (folder / f"{name}.prj").write_text('GEOGCS["WGS 84",AUTHORITY["EPSG","4326"]]')
    return {ext: str(folder / f"{name}.{ext}") for ext in ("shp", "shx", "dbf", "prj")}


def _geotiff(path) -> None:
    from PIL import Image, TiffImagePlugin

    info = TiffImagePlugin.ImageFileDirectory_v2()
    info[33550] = (1.0, 1.0, 0.0)
    info[33922] = (0.0, 0.0, 0.0, 5.0, 45.0, 0.0)
    info[34735] = (1, 1, 0, 2, 1024, 0, 1, 2, 2048, 0, 1, 4326)
    Image.new("L", (10, 5)).save(path, "TIFF", tiffinfo=info)


def test_create_coveragestore_from_a_geotiff(geo: Geoserver, emu: Emulator, tmp_path) -> None:
    path = tmp_path / "dem.tif"
    _geotiff(path)
    answer = geo.create_coveragestore(str(path), workspace="sf", layer_name="dem")
    assert answer["coverageStore"]["name"] == "dem"
    assert answer["coverageStore"]["type"] == "GeoTIFF"
    layer = geo.get_layer("dem", workspace="sf")
    assert layer["layer"]["type"] == "RASTER"


def test_create_shp_datastore(geo: Geoserver, emu: Emulator, tmp_path) -> None:
    import zipfile

    files = _shapefile(tmp_path)
    archive = tmp_path / "parcels.zip"
    with zipfile.ZipFile(archive, "w") as z:
        for path in files.values():
            z.write(path, arcname=path.rsplit("/", 1)[-1])
    assert "successfully" in geo.create_shp_datastore(str(archive), workspace="sf")
    assert emu.state.catalog.feature_type("sf", "parcels") is not None
    assert emu.state.features.get("sf", "parcels", "parcels") is not None


def test_create_gpkg_datastore(geo: Geoserver, emu: Emulator, tmp_path) -> None:
    import sqlite3

    path = tmp_path / "places.gpkg"
    conn = sqlite3.connect(path)
    conn.executescript(
        "CREATE TABLE gpkg_spatial_ref_sys (srs_name TEXT, srs_id INTEGER PRIMARY KEY,"
        " organization TEXT, organization_coordsys_id INTEGER, definition TEXT);"
        "INSERT INTO gpkg_spatial_ref_sys VALUES ('WGS 84', 4326, 'EPSG', 4326, 'GEOGCS[]');"
        "CREATE TABLE gpkg_contents (table_name TEXT, data_type TEXT, srs_id INTEGER);"
        "INSERT INTO gpkg_contents VALUES ('places', 'features', 4326);"
        "CREATE TABLE gpkg_geometry_columns (table_name TEXT, column_name TEXT,"
        " geometry_type_name TEXT, srs_id INTEGER);"
        "INSERT INTO gpkg_geometry_columns VALUES ('places', 'geom', 'POINT', 4326);"
        "CREATE TABLE places (fid INTEGER PRIMARY KEY, geom BLOB, name TEXT);"
    )
    conn.close()
    assert "successfully" in geo.create_gpkg_datastore(str(path), workspace="sf")
    assert emu.state.catalog.feature_type("sf", "places") is not None
