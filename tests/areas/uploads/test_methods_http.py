"""The url and external methods, remote content, imports into other stores, errors."""

from __future__ import annotations

import io
import zipfile

from lxml import etree

from geoserver_emulator import Emulator

from .conftest import PROPERTIES, TEXT, WS, ZIP, geotiff, shapefile_files, shapefile_zip

CONTROL = "/__emulator/remote"


def test_external_shapefile_is_used_in_place(client, emu: Emulator) -> None:
    for name, data in shapefile_files().items():
        emu.state.datadir.write(f"data/shared/{name}", data)
    r = client.put(f"{WS}/sf/datastores/ext/external.shp", content=b"file:data/shared/lanes.shp")
    assert r.status_code == 201, r.text
    store = client.get(f"{WS}/sf/datastores/ext.json").json()["dataStore"]
    params = {e["@key"]: e["$"] for e in store["connectionParameters"]["entry"]}
    assert params["url"] == "file:/opt/geoserver_data/data/shared/lanes.shp"
    assert not any(p.startswith("data/sf/ext") for p in emu.state.datadir.files)
    assert len(emu.state.features.get("sf", "ext", "lanes").features) == 2


def test_external_absolute_path_inside_the_data_directory(client, emu: Emulator) -> None:
    emu.state.datadir.write("data/x/pds.properties", PROPERTIES)
    body = b"/opt/geoserver_data/data/x/pds.properties"
    r = client.put(f"{WS}/sf/datastores/p/external.properties", content=body, headers=TEXT)
    assert r.status_code == 201, r.text
    assert emu.state.features.get("sf", "p", "pds") is not None


def test_external_zip_is_unpacked_into_the_store_folder(client, emu: Emulator) -> None:
    emu.state.datadir.write("incoming/lanes.zip", shapefile_zip())
    r = client.put(f"{WS}/sf/datastores/z/external.shp", content=b"incoming/lanes.zip", headers=ZIP)
    assert r.status_code == 201, r.text
    assert "data/sf/z/lanes.shp" in emu.state.datadir.files
    assert "incoming/lanes.zip" in emu.state.datadir.files


def test_url_of_a_data_directory_file(client, emu: Emulator) -> None:
    emu.state.datadir.write("incoming/pds.properties", PROPERTIES)
    r = client.put(
        f"{WS}/sf/datastores/u/url.properties",
        content=b"file:/opt/geoserver_data/incoming/pds.properties",
        headers=TEXT,
    )
    assert r.status_code == 201, r.text
    assert "data/u.properties" in emu.state.datadir.files  # GeoServer saves url. uploads there
    assert emu.state.features.get("sf", "u", "u") is not None


def test_url_with_registered_content(client, emu: Emulator) -> None:
    url = "http://example.com/dem.tif"
    assert client.put(f"{CONTROL}?url={url}", content=geotiff()).status_code == 204
    listed = client.get(CONTROL).json()
    assert listed == {"remotes": [{"url": url, "size": len(geotiff())}]}
    r = client.put(f"{WS}/sf/coveragestores/r/url.geotiff", content=url.encode(), headers=TEXT)
    assert r.status_code == 201, r.text
    assert etree.fromstring(r.content).findtext("url") == "file:/opt/geoserver_data/data/r.geotiff"
    assert client.delete(f"{CONTROL}?url={url}").status_code == 204
    assert client.get(CONTROL).json() == {"remotes": []}
    assert client.put(CONTROL, content=b"x").status_code == 400


def test_url_refused_by_url_checks_names_them(client, emu: Emulator) -> None:
    body = {"regexUrlCheck": {"name": "only", "regex": "^https://ok\\..*", "enabled": True}}
    assert client.post("/rest/urlchecks", json=body).status_code == 201
    r = client.put(
        f"{WS}/sf/coveragestores/r/url.geotiff", content=b"http://bad.example/x.tif", headers=TEXT
    )
    assert r.status_code == 400
    assert "external URL checks" in r.text
    assert emu.state.catalog.coverage_store("sf", "r") is None


def test_external_coverage_outside_the_data_directory_is_refused_when_host_reading_is_off(
    client, emu: Emulator
) -> None:
    emu.host_read = False
    r = client.put(
        f"{WS}/sf/coveragestores/x/external.geotiff", content=b"/etc/hosts", headers=TEXT
    )
    assert r.status_code == 400
    assert "outside the data directory" in r.text
    r = client.put(
        f"{WS}/sf/coveragestores/x/external.geotiff", content=b"data/../../x.tif", headers=TEXT
    )
    assert r.status_code == 400


def test_upload_into_an_existing_database_store_imports_the_features(client, emu) -> None:
    store = {"dataStore": {"name": "pg", "connectionParameters": {"entry": [
        {"@key": "dbtype", "$": "postgis"}, {"@key": "host", "$": "db"}]}}}  # fmt: skip
    assert client.post(f"{WS}/sf/datastores", json=store).status_code == 201
    url = f"{WS}/sf/datastores/pg/file.shp"
    assert client.put(url, content=shapefile_zip(), headers=ZIP).status_code == 201
    assert client.put(url, content=shapefile_zip(), headers=ZIP).status_code == 201
    table = emu.state.features.get("sf", "pg", "lanes")
    assert [f.fid for f in table.features] == ["lanes.1", "lanes.2", "lanes.3", "lanes.4"]
    r = client.put(url + "?update=overwrite", content=shapefile_zip(), headers=ZIP)
    assert r.status_code == 201
    assert len(emu.state.features.get("sf", "pg", "lanes").features) == 2
    assert not any(p.startswith("data/sf/pg") for p in emu.state.datadir.files)
    pg = client.get(f"{WS}/sf/datastores/pg.json").json()["dataStore"]
    assert pg["type"] == "PostGIS"


def test_target_h2_creates_a_database_store(client, emu: Emulator) -> None:
    r = client.put(f"{WS}/sf/datastores/h/file.shp?target=h2", content=shapefile_zip(), headers=ZIP)
    assert r.status_code == 201
    store = client.get(f"{WS}/sf/datastores/h.json").json()["dataStore"]
    assert store["type"] == "H2"
    assert emu.state.features.get("sf", "h", "lanes") is not None
    assert (
        client.put(
            f"{WS}/sf/datastores/h2/file.shp?target=nope", content=shapefile_zip(), headers=ZIP
        ).status_code
        == 400
    )


def test_charset_is_kept_and_used(client, emu: Emulator) -> None:
    rows = [("Zürich", 1, 1.0, "20200101", (8.5, 47.4))]
    files = shapefile_files(records=rows)
    r = client.put(
        f"{WS}/sf/datastores/c/file.shp?charset=ISO-8859-1",
        content=make_zip_of(files),
        headers=ZIP,
    )
    assert r.status_code == 201
    params = emu.state.catalog.data_store("sf", "c").connection_parameters
    assert params["charset"] == "ISO-8859-1"
    value = emu.state.features.get("sf", "c", "lanes").features[0].properties["NAME"]
    assert value in ("Zürich", "ZÃ¼rich")


def make_zip_of(files: dict[str, bytes]) -> bytes:
    from .conftest import make_zip

    return make_zip(files)


def test_download_zips_the_store_folder(client) -> None:
    client.put(f"{WS}/sf/datastores/lanes/file.shp", content=shapefile_zip(), headers=ZIP)
    r = client.get(f"{WS}/sf/datastores/lanes/file.shp")
    assert r.status_code == 200
    assert r.headers["content-disposition"] == "attachment; filename=lanes.zip"
    names = zipfile.ZipFile(io.BytesIO(r.content)).namelist()
    assert names == ["lanes.dbf", "lanes.prj", "lanes.shp", "lanes.shx"]
    assert client.get(f"{WS}/sf/datastores/nope/file.shp").status_code == 404


def test_statuses_for_methods_auth_and_missing_workspace(client, anon) -> None:
    assert client.post(f"{WS}/sf/datastores/x/file.shp", content=b"").status_code == 405
    assert client.get(f"{WS}/sf/coveragestores/x/file.geotiff").status_code == 405
    assert anon.put(f"{WS}/sf/datastores/x/file.shp", content=b"").status_code == 401
    r = client.put(f"{WS}/nowhere/datastores/x/file.shp", content=shapefile_zip(), headers=ZIP)
    assert r.status_code == 404
    r = client.put(f"{WS}/nowhere/coveragestores/x/file.geotiff", content=geotiff())
    assert r.status_code == 404


def test_wrong_extension_and_zip_without_main_file(client, emu: Emulator) -> None:
    r = client.put(
        f"{WS}/sf/datastores/w/file.shp?filename=lanes.txt",
        content=shapefile_files()["lanes.shp"],
    )
    assert r.status_code == 400
    assert "lanes.txt is not a .shp file" in r.text
    r = client.put(
        f"{WS}/sf/datastores/w/file.gpkg", content=make_zip_of({"a.txt": b"x"}), headers=ZIP
    )
    assert r.status_code == 400
    assert r.text == "Could not find appropriate gpkg file in archive"
    r = client.put(
        f"{WS}/sf/datastores/w/file.shp", content=make_zip_of({"a.txt": b"x"}), headers=ZIP
    )
    assert r.status_code == 400
    assert emu.state.catalog.data_store("sf", "w") is None


def test_zip_slip_is_refused(client, emu: Emulator) -> None:
    body = make_zip_of({"../../evil.shp": b"x"})
    r = client.put(f"{WS}/sf/datastores/w/file.shp", content=body, headers=ZIP)
    assert r.status_code == 400
    assert "outside of the target directory" in r.text
    assert not any("evil" in p for p in emu.state.datadir.files)


def test_feature_type_xml_carries_the_attributes(client) -> None:
    client.put(f"{WS}/sf/datastores/lanes/file.shp", content=shapefile_zip(kind="polygon"),
               headers=ZIP)  # fmt: skip
    r = client.get(f"{WS}/sf/datastores/lanes/featuretypes/lanes.xml")
    doc = etree.fromstring(r.content)
    assert doc.findtext("attributes/attribute/binding") == "org.locationtech.jts.geom.MultiPolygon"
    assert doc.findtext("latLonBoundingBox/crs") == "EPSG:4326"
    layer = client.get(f"{WS}/sf/layers/lanes.json").json()["layer"]
    assert layer["defaultStyle"]["name"] == "polygon"


def test_resource_api_lists_uploaded_files(client) -> None:
    client.put(f"{WS}/sf/datastores/lanes/file.shp", content=shapefile_zip(), headers=ZIP)
    r = client.get("/rest/resource/data/sf/lanes/lanes.prj")
    assert r.status_code == 200
    assert r.content.startswith(b"GEOGCS")


def test_external_appschema_uploads_the_named_mapping(client, emu: Emulator) -> None:
    from pathlib import Path

    mapping = Path(__file__).parents[2] / "payloads" / "appschema" / "mappedfeature.xml"
    assert client.post("/rest/workspaces", json={"workspace": {"name": "gsml"}}).status_code == 201
    ns = {"namespace": {"prefix": "gsml", "uri": "urn:cgi:xmlns:CGI:GeoSciML:2.0"}}
    assert client.put("/rest/namespaces/gsml", json=ns).status_code == 200
    emu.state.datadir.write("incoming/mf.appschema", mapping.read_bytes())
    r = client.put(
        f"{WS}/gsml/datastores/mf/external.appschema?configure=all",
        content=b"incoming/mf.appschema",
        headers=TEXT,
    )
    assert r.status_code == 201, r.text
    listed = client.get(f"{WS}/gsml/datastores/mf/featuretypes.json").json()
    assert [f["name"] for f in listed["featureTypes"]["featureType"]] == [
        "GeologicUnit",
        "MappedFeature",
    ]


def test_external_geotiff_keeps_its_absolute_url(client, emu: Emulator) -> None:
    emu.state.datadir.write("rasters/dem.tif", geotiff())
    r = client.put(
        f"{WS}/sf/coveragestores/e/external.geotiff", content=b"file:rasters/dem.tif", headers=TEXT
    )
    assert r.status_code == 201, r.text
    assert etree.fromstring(r.content).findtext("url") == "file:/opt/geoserver_data/rasters/dem.tif"
    cov = client.get(f"{WS}/sf/coveragestores/e/coverages/dem.json").json()["coverage"]
    assert cov["nativeCoverageName"] == "dem"
    assert client.delete(f"{WS}/sf/coveragestores/e?recurse=true").status_code == 200
    assert "rasters/dem.tif" in emu.state.datadir.files


def test_reupload_into_the_same_shapefile_store(client, emu: Emulator) -> None:
    url = f"{WS}/sf/datastores/lanes/file.shp?configure=all"
    assert client.put(url, content=shapefile_zip("a"), headers=ZIP).status_code == 201
    assert client.put(url, content=shapefile_zip("b"), headers=ZIP).status_code == 201
    listed = client.get(f"{WS}/sf/datastores/lanes/featuretypes.json").json()
    assert [f["name"] for f in listed["featureTypes"]["featureType"]] == ["a", "b"]
    assert {t.name for t in emu.state.features.of_store("sf", "lanes")} == {"a", "b"}


def test_recursive_workspace_delete_drops_the_features(client, emu: Emulator) -> None:
    assert client.post("/rest/workspaces", json={"workspace": {"name": "w"}}).status_code == 201
    client.put(f"{WS}/w/datastores/lanes/file.shp", content=shapefile_zip(), headers=ZIP)
    client.put(f"{WS}/w/coveragestores/dem/file.geotiff", content=geotiff())
    assert emu.state.features.get("w", "lanes", "lanes") is not None
    assert client.delete(f"{WS}/w?recurse=true").status_code == 200
    assert all(k[0] != "w" for k in emu.state.features.tables)
    assert all(k[0] != "w" for k in emu.state.features.grids)


def test_archive_bombs_are_refused_before_inflating(client_for) -> None:
    import zipfile as zf

    small = Emulator("stock", max_body=200_000)
    c = client_for(emulator=small)
    buf = io.BytesIO()
    with zf.ZipFile(buf, "w", zf.ZIP_DEFLATED) as z:
        z.writestr("lanes.shp", b"\x00" * 2_000_000)
    r = c.put(f"{WS}/sf/datastores/b/file.shp", content=buf.getvalue(), headers=ZIP)
    assert r.status_code == 413
    assert "compression ratio of" in r.text
    assert small.state.catalog.data_store("sf", "b") is None
    many = io.BytesIO()
    with zf.ZipFile(many, "w", zf.ZIP_DEFLATED) as z:
        for i in range(5):  # 1 MB declared, past the 800 kB this server inflates
            z.writestr(f"f{i}.bin", b"\x00" * 200_000)
    r = c.put(f"{WS}/sf/datastores/b/file.shp", content=many.getvalue(), headers=ZIP)
    assert r.status_code == 413
    assert "declares 1000000 bytes" in r.text
    assert small.state.datadir.files.keys().isdisjoint({f"data/sf/b/f{i}.bin" for i in range(5)})


def test_a_store_of_the_other_kind_with_the_name_is_refused_before_writing(client, emu) -> None:
    client.put(f"{WS}/sf/coveragestores/same/file.geotiff", content=geotiff())
    files = set(emu.state.datadir.files)
    r = client.put(f"{WS}/sf/datastores/same/file.shp", content=shapefile_zip(), headers=ZIP)
    assert r.status_code == 500
    assert r.text == "Store 'same' already exists in workspace 'sf'"
    assert set(emu.state.datadir.files) == files


def test_catalog_collections_keep_their_405(client) -> None:
    r = client.put(f"{WS}/sf/datastores/sf/featuretypes.json", json={})
    assert r.status_code == 405
    r = client.put(f"{WS}/nurc/coveragestores/arcGridSample/coverages.json", json={})
    assert r.status_code == 405
    assert client.put(f"{WS}/sf/datastores/sf/nope.shp", content=b"").status_code == 400
