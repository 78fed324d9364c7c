"""geoserver-restconfig (GeoNode, ``from geoserver.catalog import Catalog``) against a live
emulator.

One test per client flow. The library speaks XML, follows the ``atom:link`` hrefs the server
writes, and checks statuses (200/201 on save, 200 on delete). Flows that cannot work are
listed in docs/clients.md, not here.
"""

from __future__ import annotations

import pytest
from geoserver.catalog import Catalog, ConflictingDataError, FailedRequestError
from geoserver.support import DimensionInfo, JDBCVirtualTable, JDBCVirtualTableGeometry

from geoserver_emulator import Emulator


@pytest.fixture
def cat(base_url: str) -> Catalog:
    return Catalog(base_url + "/rest", "admin", "geoserver", retries=1)


def test_version(cat: Catalog) -> None:
    assert cat.get_version() == "2.27.1"
    assert cat.get_short_version() == "2.27.1"


def test_reload_and_reset(cat: Catalog) -> None:
    assert cat.reload().status_code == 200
    assert cat.reset().status_code == 200


def test_wrong_password(base_url: str) -> None:
    bad = Catalog(base_url + "/rest", "admin", "nope", retries=1)
    with pytest.raises(FailedRequestError):
        bad.get_workspaces()


def test_workspaces(cat: Catalog, emu: Emulator) -> None:
    names = [w.name for w in cat.get_workspaces()]
    assert names == ["cite", "it.geosolutions", "ne", "nurc", "sde", "sf", "tiger", "topp"]
    assert cat.get_workspace("sf").name == "sf"
    assert cat.get_workspace("nope") is None
    assert cat.get_default_workspace().name == "ne"
    ws = cat.create_workspace("demo", "http://demo.example.org")  # POSTs a namespace
    assert ws.name == "demo"
    assert emu.state.catalog.namespace("demo").uri == "http://demo.example.org"
    cat.set_default_workspace("demo")
    assert cat.get_default_workspace().name == "demo"
    cat.set_default_workspace("ne")
    assert cat.delete(cat.get_workspace("demo"), recurse=True).status_code == 200
    assert cat.get_workspace("demo") is None


def test_stores(cat: Catalog) -> None:
    stores = {(s.workspace.name, s.name, type(s).__name__) for s in cat.get_stores()}
    assert ("sf", "sf", "DataStore") in stores
    assert ("sf", "sfdem", "CoverageStore") in stores
    assert [s.name for s in cat.get_stores(workspaces="sf")] == ["sf", "sfdem"]
    store = cat.get_store("sf", "sf")
    assert store.enabled is True
    assert store.connection_parameters["url"] == "file:data/sf"
    assert cat.get_store("nope", "sf") is None


def test_create_edit_and_delete_datastore(cat: Catalog, emu: Emulator) -> None:
    cat.create_workspace("demo", "http://demo")
    ds = cat.create_datastore("pg", "demo")
    ds.connection_parameters.update(
        host="db", port="5432", database="gis", user="u", passwd="p", dbtype="postgis"
    )
    cat.save(ds)
    saved = cat.get_store("pg", "demo")
    assert saved.type == "PostGIS"
    assert saved.connection_parameters["namespace"] == "http://demo"
    saved.enabled = False
    cat.save(saved)
    assert cat.get_store("pg", "demo").enabled is False
    assert emu.state.catalog.store("demo", "pg", "dataStore").enabled is False
    assert cat.delete(cat.get_store("pg", "demo"), recurse=True).status_code == 200
    assert cat.get_store("pg", "demo") is None


def test_coverage_store_without_upload(cat: Catalog, emu: Emulator) -> None:
    coverage = cat.create_coveragestore("dem", workspace="sf", path="/data/dem.tif")
    assert coverage.name == "dem"
    store = emu.state.catalog.store("sf", "dem", "coverageStore")
    assert (store.type, store.url) == ("GeoTIFF", "file:/data/dem.tif")
    assert emu.state.catalog.layer("sf", "dem") is not None
    with pytest.raises(ConflictingDataError):
        cat.create_coveragestore("dem", workspace="sf", path="/data/dem.tif")
    assert cat.delete(cat.get_store("dem", "sf"), purge="all", recurse=True).status_code == 200
    assert emu.state.catalog.store("sf", "dem", "coverageStore") is None


def test_resources(cat: Catalog) -> None:
    sf = cat.get_store("sf", "sf")
    names = [r.name for r in cat.get_resources(stores=[sf])]
    assert names == ["archsites", "bugsites", "restricted", "roads", "streams"]
    assert [r.name for r in cat.get_resources(names="roads", workspaces="sf")] == ["roads"]
    roads = cat.get_resource("roads", store="sf", workspace="sf")
    assert roads.title == "Spearfish roads"
    assert roads.projection == "EPSG:26713"
    assert roads.native_bbox[4] == "EPSG:26713"
    assert roads.latlon_bbox[4] == "EPSG:4326"
    assert roads.keywords == ["sfRoads", "spearfish", "roads"]
    assert roads.attributes == ["the_geom", "cat", "label"]
    dem = cat.get_resource("sfdem", workspace="sf")
    assert (dem.resource_type, dem.projection) == ("coverage", "EPSG:26713")
    assert cat.list_feature_type_names("sf", "sf", "configured") == [
        "archsites",
        "bugsites",
        "restricted",
        "roads",
        "streams",
    ]
    assert cat.list_feature_type_names("sf", "sf", "available") == []


def test_edit_resource(cat: Catalog, emu: Emulator) -> None:
    roads = cat.get_resource("roads", workspace="sf")
    roads.title = "Roads"
    roads.abstract = "All of them"
    roads.keywords = ["a", "b"]
    cat.save(roads)
    again = cat.get_resource("roads", workspace="sf")
    assert (again.title, again.abstract, again.keywords) == ("Roads", "All of them", ["a", "b"])
    assert emu.state.catalog.resource("sf", "roads").title == "Roads"


def test_time_dimension_metadata(cat: Catalog, emu: Emulator) -> None:
    dem = cat.get_resource("sfdem", workspace="sf")
    metadata = dict(dem.metadata or {})
    metadata["time"] = DimensionInfo("time", True, "LIST", None, "ISO8601", None, "MINIMUM")
    dem.metadata = metadata
    cat.save(dem)
    time = cat.get_resource("sfdem", workspace="sf").metadata["time"]
    assert isinstance(time, DimensionInfo)
    assert (time.enabled, time.presentation, time.units, time.strategy) == (
        True,
        "LIST",
        "ISO8601",
        "MINIMUM",
    )


def test_publish_feature_type(cat: Catalog, emu: Emulator) -> None:
    cat.create_workspace("demo", "http://demo")
    ds = cat.create_datastore("pg", "demo")
    ds.connection_parameters.update(host="db", database="gis", dbtype="postgis")
    cat.save(ds)
    ft = cat.publish_featuretype("parcels", cat.get_store("pg", "demo"), "EPSG:4326")
    assert (ft.name, ft.title, ft.projection) == ("parcels", "parcels", "EPSG:4326")
    layer = cat.get_layer("demo:parcels")
    assert layer.resource.name == "parcels"
    assert cat.delete(layer, recurse=True).status_code == 200
    assert emu.state.catalog.resource("demo", "parcels") is None


def test_publish_sql_view(cat: Catalog, emu: Emulator) -> None:
    cat.create_workspace("demo", "http://demo")
    ds = cat.create_datastore("pg", "demo")
    ds.connection_parameters.update(host="db", database="gis", dbtype="postgis")
    cat.save(ds)
    geometry = JDBCVirtualTableGeometry("geom", "Point", "4326")
    vt = JDBCVirtualTable("view1", "select id, geom from t", "false", geometry, "id", [])
    cat.publish_featuretype(
        "view1", cat.get_store("pg", "demo"), "EPSG:4326", jdbc_virtual_table=vt
    )
    read = cat.get_resource("view1", workspace="demo").metadata["JDBC_VIRTUAL_TABLE"]
    assert isinstance(read, JDBCVirtualTable)
    # the client keeps name and sql as XML elements, keyColumn as text
    assert (read.name.text, read.sql.text, read.keyColumn) == (
        "view1",
        "select id, geom from t",
        "id",
    )
    stored = emu.state.catalog.resource("demo", "view1").metadata["JDBC_VIRTUAL_TABLE"]
    assert stored["virtualTable"]["geometry"] == {"name": "geom", "type": "Point", "srid": "4326"}


def test_layers(cat: Catalog) -> None:
    roads = cat.get_layer("sf:roads")
    assert (roads.name, roads.type, roads.enabled, roads.advertised) == (
        "sf:roads",
        "VECTOR",
        True,
        True,
    )
    assert roads.default_style.name == "simple_roads"
    assert [s.name for s in roads.styles] == ["line"]
    assert roads.resource.name == "roads"
    assert cat.get_layer("sf:nope") is None
    assert len(cat.get_layers()) == 24
    assert [layer.name for layer in cat.get_layers(resource="sf:roads")] == ["sf:roads"]


def test_layer_styles(cat: Catalog, emu: Emulator) -> None:
    layer = cat.get_layer("sf:roads")
    layer.default_style = cat.get_style("countries", workspace="ne")
    layer.styles = [cat.get_style("simple_roads"), cat.get_style("point")]
    cat.save(layer)
    again = cat.get_layer("sf:roads")
    assert (again.default_style.name, again.default_style.workspace) == ("countries", "ne")
    assert [s.name for s in again.styles] == ["simple_roads", "point"]
    stored = emu.state.catalog.layer("sf", "roads")
    assert (stored.default_style.workspace, stored.default_style.name) == ("ne", "countries")


def test_recalculate_bounds(cat: Catalog, emu: Emulator) -> None:
    assert cat.get_layer("sf:roads").recalc_bbox() is True
    assert cat.get_layer("sf:sfdem").recalc_bbox() is True
    assert cat.get_layer("sf:roads").recalc_bbox(force_bbox=(0, 1, 2, 3)) is True
    box = emu.state.catalog.resource("sf", "roads").latlon_bbox
    assert (box.minx, box.miny, box.maxx, box.maxy) == (0, 1, 2, 3)


def test_layer_groups_read(cat: Catalog) -> None:
    assert [(g.name, g.workspace) for g in cat.get_layergroups()] == [
        ("spearfish", None),
        ("tasmania", None),
        ("tiger-ny", None),
        ("world", "ne"),
    ]
    world = cat.get_layergroup("world", workspace="ne")
    assert world.mode == "NAMED" and world.title == "World Map"
    assert world.layers == [
        "ne:countries",
        "ne:coastlines",
        "ne:boundary_lines",
        "ne:populated_places",
    ]
    assert world.styles == ["ne:countries_basemap", None, None, None]


def test_workspace_layer_group_create_edit_delete(cat: Catalog, emu: Emulator) -> None:
    group = cat.create_layergroup(
        "wlg",
        layers=["sf:roads", "sf:streams"],
        styles=[None, "line"],
        workspace="sf",
        mode="named",
        title="T",
    )
    cat.save(group)
    saved = cat.get_layergroup("wlg", workspace="sf")
    assert (saved.layers, saved.mode, saved.title) == (["sf:roads", "sf:streams"], "NAMED", "T")
    assert saved.bounds[4] == "EPSG:26713"
    with pytest.raises(ConflictingDataError):
        cat.create_layergroup("wlg", layers=["sf:roads"], workspace="sf")
    saved.layers = ["sf:roads"]
    saved.styles = [None]
    cat.save(saved)
    assert cat.get_layergroup("wlg", workspace="sf").layers == ["sf:roads"]
    assert cat.delete(cat.get_layergroup("wlg", workspace="sf")).status_code == 200
    assert emu.state.catalog.layer_group("sf", "wlg") is None


def test_global_layer_group_lookup_fails_as_on_geoserver(cat: Catalog) -> None:
    # get_layergroup(name) asks /rest/workspaces/None/layergroups.xml; GeoServer answers 404
    # "Workspace None not found", which the client does not treat as "no such workspace".
    with pytest.raises(FailedRequestError, match="Workspace None not found"):
        cat.get_layergroup("spearfish")


def test_styles_read(cat: Catalog) -> None:
    assert len(cat.get_styles()) == 27
    assert [s.name for s in cat.get_styles(workspaces="ne")][:2] == ["boundary_lines", "coastline"]
    formats = [(s.name, s.style_format) for s in cat.get_styles(names="point,line", recursive=True)]
    assert formats == [("line", "sld10"), ("point", "sld10")]
    point = cat.get_style("point")
    assert (point.name, point.style_format, point.filename) == (
        "point",
        "sld1.0.0",
        "default_point.sld",
    )
    assert (point.sld_name, point.sld_title) == ("point", "Red square")
    assert point.sld_body.startswith(b"<?xml")
    assert b"StyledLayerDescriptor" in point.body
    assert cat.get_style("countries", workspace="ne").workspace == "ne"
    assert cat.get_style("nope") is None


def test_create_update_and_delete_style(cat: Catalog, emu: Emulator, sld: str) -> None:
    style = cat.create_style("mine", sld)
    assert (style.name, style.style_format) == ("mine", "sld10")
    assert cat.get_style("mine").filename == "mine.sld"
    with pytest.raises(ConflictingDataError):
        cat.create_style("mine", sld)
    assert cat.create_style("mine", sld, overwrite=True).name == "mine"
    assert cat.create_style("mine", sld, workspace="sf").workspace == "sf"
    se = sld.replace('version="1.0.0"', 'version="1.1.0"')
    assert cat.create_style("mine11", se, style_format="sld11").style_format == "sld11"
    assert cat.get_style("mine11").style_format == "sld1.1.0"
    assert cat.create_style("mineraw", sld, raw=True).name == "mineraw"
    cat.get_style("mine").update_body(sld.replace("Red square", "Blue square"))
    assert cat.get_style("mine").sld_title == "Blue square"
    cat.delete_style("mine", workspace="sf")
    assert cat.get_style("mine", workspace="sf") is None
    cat.delete_style("mine", purge=True)
    assert cat.get_style("mine") is None
    cat.delete_style("mine")  # a 404 is ignored by the client
    assert cat.delete(cat.get_style("mineraw"), purge=True).status_code == 200
    assert emu.state.styles.get(None, "mineraw") is None


def test_keystore_password(cat: Catalog) -> None:
    assert cat.get_master_pwd() == "geoserver"
    assert cat.set_master_pwd("geoserver2") == "geoserver2"
    assert cat.get_master_pwd() == "geoserver2"


# -- file uploads (issue 20) ------------------------------------------------------------------


def _shapefile(folder, name: str = "parcels") -> dict[str, str]:
    import shapefile

    base = folder / name
    with shapefile.Writer(str(base), shapeType=1) as w:
        w.field("NAME", "C", 10)
        w.point(1, 2)
        w.record("a")
    (folder / f"{name}.prj").write_text('GEOGCS["WGS 84",AUTHORITY["EPSG","4326"]]')
    return {ext: str(folder / f"{name}.{ext}") for ext in ("shp", "shx", "dbf", "prj")}


def test_create_featurestore_from_shapefile_parts(cat: Catalog, emu: Emulator, tmp_path) -> None:
    cat.create_featurestore("parcels", _shapefile(tmp_path), workspace="sf")
    store = cat.get_store("parcels", "sf")
    assert store.type == "Shapefile"
    assert cat.get_resource("parcels", store=store) is not None


def test_add_data_to_a_database_store_imports(cat: Catalog, emu: Emulator, tmp_path) -> None:
    ds = cat.create_datastore("pg", "sf")
    ds.connection_parameters.update(host="db", port="5432", database="gis", dbtype="postgis")
    cat.save(ds)
    cat.add_data_to_store("pg", "parcels", _shapefile(tmp_path), workspace="sf")
    table = emu.state.features.get("sf", "pg", "parcels")
    assert table is not None and len(table.features) == 1


def test_create_coveragestore_uploading_a_geotiff(cat: Catalog, emu: Emulator, tmp_path) -> None:
    from PIL import Image, TiffImagePlugin

    info = TiffImagePlugin.ImageFileDirectory_v2()
    info[33550] = (1.0, 1.0, 0.0)
    info[33922] = (0.0, 0.0, 0.0, 5.0, 45.0, 0.0)
    info[34735] = (1, 1, 0, 2, 1024, 0, 1, 2, 2048, 0, 1, 4326)
    path = tmp_path / "dem.tif"
    Image.new("L", (10, 5)).save(path, "TIFF", tiffinfo=info)
    cat.create_coveragestore("dem", workspace="sf", path=str(path), upload_data=True)
    store = cat.get_store("dem", "sf")
    assert store.type == "GeoTIFF"
    coverage = emu.state.catalog.coverage("sf", "dem")
    assert coverage is not None and coverage.native_coverage_name == "dem"
