"""``PUT …/file.imagemosaic`` (and ``external.``/``url.``) black-box: the store, the files in the
data directory, the configured coverage, and every error."""

from __future__ import annotations

import pytest
from lxml import etree

from geoserver_emulator import Emulator


def test_upload_creates_store_files_and_coverage(wcs, client, m):
    r = m.put_mosaic(client, m.watertemp())
    assert r.status_code == 200
    assert r.headers["content-type"] == "application/xml"
    doc = etree.fromstring(r.content)
    assert doc.tag == "coverageStore"
    assert doc.findtext("name") == "watertemp"
    assert doc.findtext("type") == "ImageMosaic"
    assert doc.findtext("url") == "file:data/wcs/watertemp"
    # the files are in the data directory, visible through the resource API
    listing = client.get("/rest/resource/data/wcs/watertemp?format=json").json()
    names = {c["name"] for c in listing["ResourceDirectory"]["children"]["child"]}
    assert {"indexer.properties", "timeregex.properties", m.granule_name(0, "20081031")} <= names
    # the coverage is configured from the index, and published
    cov = client.get(f"{m.ROOT}/coverages/watertemp.json").json()["coverage"]
    assert cov["nativeCoverageName"] == "watertemp"
    assert cov["srs"] == "EPSG:4326"
    assert cov["nativeBoundingBox"]["minx"] == 0.0 and cov["nativeBoundingBox"]["maxx"] == 2.0
    assert cov["latLonBoundingBox"]["miny"] == 44.0
    assert cov["nativeFormat"] == "ImageMosaic"
    assert client.get("/rest/layers/wcs:watertemp.json").status_code == 200


def test_upload_json_reply_when_asked(wcs, client, m):
    r = client.put(
        f"{m.ROOT}/file.imagemosaic",
        content=m.zipped(m.watertemp()),
        headers={**m.ZIP, "Accept": "application/json"},
    )
    assert r.status_code == 200
    assert r.json()["coverageStore"]["name"] == "watertemp"


def test_upload_status_in_the_geoserver_profile(client_for, m):
    emu = Emulator("stock", profile="geoserver")
    emu.state.catalog.add_workspace(m.WS)
    r = m.put_mosaic(client_for(emulator=emu), m.watertemp())
    assert r.status_code == 201


def test_configure_none_leaves_the_coverage_for_later(wcs, client, m):
    r = m.put_mosaic(client, m.watertemp(), query="?configure=none")
    assert r.status_code == 200
    assert r.content == b""
    assert client.get(f"{m.ROOT}.json").status_code == 200
    assert client.get(f"{m.ROOT}/coverages/watertemp.json").status_code == 404
    # no configured coverage: the index is not reachable yet
    r = client.get(f"{m.INDEX}.xml")
    assert r.status_code == 404
    assert r.text == "No such coverage in store: watertemp"


def test_coverage_name_parameter(wcs, client, m):
    r = m.put_mosaic(client, m.watertemp(), query="?coverageName=temperature")
    assert r.status_code == 200
    cov = client.get(f"{m.ROOT}/coverages/temperature.json").json()["coverage"]
    assert cov["nativeCoverageName"] == "watertemp"
    assert client.get(f"{m.ROOT}/coverages/temperature/index/granules.json").json()["features"]


def test_indexer_name_names_the_coverage(wcs, client, m):
    files = m.watertemp()
    files["indexer.properties"] = files["indexer.properties"] + "Name=sea\n"
    m.put_mosaic(client, files)
    cov = client.get(f"{m.ROOT}/coverages/sea.json").json()["coverage"]
    assert cov["nativeCoverageName"] == "sea"
    fids = [
        f["id"]
        for f in client.get(f"{m.ROOT}/coverages/sea/index/granules.json").json()["features"]
    ]
    assert fids == ["sea.1", "sea.2"]


def test_reupload_replaces_the_folder_and_updates_the_coverage(wcs, client, m):
    m.put_mosaic(client, m.watertemp())
    r = m.put_mosaic(client, m.watertemp(days=("20090101",)))
    assert r.status_code == 200
    feats = client.get(f"{m.INDEX}/granules.json").json()["features"]
    assert [f["properties"]["location"] for f in feats] == [m.granule_name(0, "20090101")]
    assert (
        client.get(f"/rest/resource/data/wcs/watertemp/{m.granule_name(0, '20081031')}").status_code
        == 404
    )
    cov = client.get(f"{m.ROOT}/coverages/watertemp.json").json()["coverage"]
    assert cov["nativeBoundingBox"]["maxx"] == 1.0


def test_mosaic_without_indexer_uses_the_default_schema(wcs, client, m):
    r = m.put_mosaic(client, {"a.tif": m.geotiff(), "sub/b.tif": m.geotiff(minx=4.0)})
    assert r.status_code == 200
    schema = client.get(f"{m.INDEX}.json").json()["Schema"]["attributes"]["Attribute"]
    assert [(a["name"], a["binding"]) for a in schema] == [
        ("the_geom", "org.locationtech.jts.geom.MultiPolygon"),
        ("location", "java.lang.String"),
    ]
    locations = [
        f["properties"]["location"]
        for f in client.get(f"{m.INDEX}/granules.json").json()["features"]
    ]
    assert locations == ["a.tif", "sub/b.tif"]


def test_world_file_png_granules(wcs, client, m):
    files = {"a.png": m.png(), "a.pgw": m.world(10.0, 50.0, 0.5, 0.5)}
    assert m.put_mosaic(client, files).status_code == 200
    cov = client.get(f"{m.ROOT}/coverages/watertemp.json").json()["coverage"]
    box = cov["nativeBoundingBox"]
    assert (box["minx"], box["maxx"], box["miny"], box["maxy"]) == (10.0, 12.0, 48.0, 50.0)
    assert [d["name"] for d in cov["dimensions"]["coverageDimension"]] == [
        "RED_BAND",
        "GREEN_BAND",
        "BLUE_BAND",
    ]


def test_projected_granules_give_a_lonlat_box(wcs, client, m):
    files = {"utm.tif": m.geotiff(minx=500000.0, maxy=5000000.0, px=1000.0, py=1000.0, epsg=32633)}
    m.put_mosaic(client, files)
    cov = client.get(f"{m.ROOT}/coverages/watertemp.json").json()["coverage"]
    assert cov["srs"] == "EPSG:32633"
    ll = cov["latLonBoundingBox"]
    assert 14.9 < ll["minx"] < 15.0 and 45.1 < ll["maxy"] < 45.2


def test_empty_mosaic_without_can_be_empty_cannot_be_configured(wcs, client, m):
    r = m.put_mosaic(client, {"indexer.properties": "Schema=*the_geom:Polygon,location:String\n"})
    assert r.status_code == 500
    assert r.text == "Could not acquire reader for coverage."
    # GeoServer keeps the store; the emulator keeps nothing on a refusal (docs/fidelity.md):
    # configure=none is how an empty mosaic is uploaded
    assert client.get(f"{m.ROOT}.json").status_code == 404


# -- errors ---------------------------------------------------------------------------------


def test_unreadable_granule_is_named_and_nothing_is_added(wcs, client, m):
    files = m.watertemp()
    files["broken.tif"] = b"II*\x00 this is not a tiff"
    r = m.put_mosaic(client, files)
    assert r.status_code == 400
    assert "broken.tif" in r.text
    assert client.get(f"{m.ROOT}.json").status_code == 404
    assert client.get("/rest/resource/data/wcs/watertemp").status_code == 404


def test_granule_without_georeferencing(wcs, client, m):
    r = m.put_mosaic(client, {"plain.tif": m.geotiff(tiepoint=False, epsg=None)})
    assert r.status_code == 400
    assert (
        r.text == "Could not harvest plain.tif: "
        "it has no georeferencing (no GeoTIFF tags and no world file)"
    )


def test_granule_with_another_crs(wcs, client, m):
    files = {"a.tif": m.geotiff(), "b.tif": m.geotiff(epsg=3857)}
    r = m.put_mosaic(client, files)
    assert r.status_code == 400
    assert "b.tif" in r.text and "EPSG:3857" in r.text


def test_granule_whose_name_has_no_date(wcs, client, m):
    files = m.watertemp()
    files["NCOM_wattemp_000_nodate_12.tiff"] = m.geotiff()
    r = m.put_mosaic(client, files)
    assert r.status_code == 400
    assert "NCOM_wattemp_000_nodate_12.tiff" in r.text and "no date" in r.text


@pytest.mark.parametrize(
    "entry", ["../evil.tif", "/etc/evil.tif", "a/../../evil.tif", "C:/evil.tif"]
)
def test_path_traversal_is_refused(wcs, client, m, entry):
    r = m.put_mosaic(client, {entry: m.geotiff()})
    assert r.status_code == 400
    assert "Illegal entry in the archive" in r.text
    assert client.get(f"{m.ROOT}.json").status_code == 404


def test_archive_that_inflates_too_much_is_refused(client_for, m):
    emu = Emulator("stock", max_body=4096)
    emu.state.catalog.add_workspace(m.WS)
    big = {"a.tif": m.geotiff(), "padding.txt": "x" * 50_000}  # deflates to a few hundred bytes
    r = m.put_mosaic(client_for(emulator=emu), big)
    assert r.status_code == 413  # refused on the sizes it declares, before inflating
    assert r.text.startswith("The archive declares ") and "more than the 16384" in r.text
    assert emu.state.catalog.coverage_store(m.WS, m.STORE) is None


def test_archive_bomb_is_refused_before_inflating(client_for, m):
    """A small body declaring a huge entry (a compression ratio only a bomb has) is refused
    on what it declares, before any of it is inflated."""
    emu = Emulator("stock")
    emu.state.catalog.add_workspace(m.WS)
    bomb = {"a.tif": m.geotiff(), "zeros.bin": b"\x00" * 4_000_000}  # deflates ~1000:1
    r = m.put_mosaic(client_for(emulator=emu), bomb)
    assert r.status_code == 413
    assert "zeros.bin declares a compression ratio of" in r.text
    assert emu.state.catalog.coverage_store(m.WS, m.STORE) is None


def test_not_a_zip(wcs, client, m):
    r = client.put(f"{m.ROOT}/file.imagemosaic", content=b"not a zip", headers=m.ZIP)
    assert r.status_code == 400
    assert r.text.startswith("Error occured unzipping file")


def test_body_that_is_not_declared_a_zip(wcs, client, m):
    r = client.put(
        f"{m.ROOT}/file.imagemosaic", content=m.geotiff(), headers={"Content-Type": "image/tiff"}
    )
    assert r.status_code == 415


def test_archive_without_a_mosaic(wcs, client, m):
    r = m.put_mosaic(client, {"readme.txt": "hello"})
    assert r.status_code == 400
    assert r.text == "Could not find appropriate imagemosaic file in archive"


def test_unknown_workspace(client, m):
    r = m.put_mosaic(client, m.watertemp(), ws="nowhere")
    assert r.status_code == 404
    assert r.text == "No such workspace : nowhere"


def test_unsupported_format(wcs, client, m):
    r = client.put(f"{m.ROOT}/file.mosaic", content=m.zipped(m.watertemp()), headers=m.ZIP)
    assert r.status_code == 400
    assert r.text.startswith("Unsupported format: mosaic, available formats are: [")


def test_indexer_collector_on_a_missing_attribute(wcs, client, m):
    files = m.watertemp()
    files["indexer.properties"] = (
        "Schema=*the_geom:Polygon,location:String\nPropertyCollectors=TimestampFileNameExtractorSPI[timeregex](time)\n"
    )
    r = m.put_mosaic(client, files)
    assert r.status_code == 400
    assert "time" in r.text and "not in the index schema" in r.text


def test_indexer_with_a_bad_regex(wcs, client, m):
    files = m.watertemp()
    files["timeregex.properties"] = "regex=[0-9\n"
    r = m.put_mosaic(client, files)
    assert r.status_code == 400
    assert "invalid regular expression" in r.text


def test_coverage_name_with_several_coverages(wcs, client, m):
    files = m.watertemp()
    files["indexer.xml"] = (
        "<Indexer><coverages>"
        "<coverage><name>a</name><schema name='s'>"
        "<attributes>*the_geom:Polygon,location:String</attributes></schema></coverage>"
        "<coverage><name>b</name><schema ref='s'/></coverage>"
        "</coverages></Indexer>"
    )
    r = m.put_mosaic(client, files, query="?coverageName=x")
    assert r.status_code == 400
    assert r.text.startswith("The reader found more than one coverage, coverageName cannot be used")


def test_anonymous_is_refused(wcs, anon, m):
    assert m.put_mosaic(anon, m.watertemp()).status_code == 401


def test_method_not_allowed(wcs, client, m):
    r = client.get(f"{m.ROOT}/file.imagemosaic")
    assert r.status_code == 405
    assert client.put(f"{m.ROOT}/remote.imagemosaic", content=b"x").status_code == 405


# -- external and url uploads -----------------------------------------------------------------


def test_put_external_folder_of_this_machine(wcs, client, m, tmp_path):
    for name, body in m.watertemp().items():
        (tmp_path / name).write_bytes(body.encode() if isinstance(body, str) else body)
    r = client.put(f"{m.ROOT}/external.imagemosaic", content=str(tmp_path), headers=m.TEXT)
    assert r.status_code == 200
    assert etree.fromstring(r.content).findtext("url") == f"file://{tmp_path.as_posix()}"
    feats = client.get(f"{m.ROOT}/coverages/{tmp_path.name}/index/granules.json").json()["features"]
    assert len(feats) == 2
    # files of this machine are indexed in place, never copied into the data directory
    assert client.get("/rest/resource/data/wcs/watertemp").status_code == 404


def test_put_url_zip_from_the_data_directory(wcs, client, m):
    client.put("/rest/resource/uploads/wt.zip", content=m.zipped(m.watertemp()))
    r = client.put(f"{m.ROOT}/url.imagemosaic", content="file:uploads/wt.zip", headers=m.ZIP)
    assert r.status_code == 200
    assert len(client.get(f"{m.INDEX}/granules.json").json()["features"]) == 2


def test_put_external_missing_folder(wcs, client, m, tmp_path):
    r = client.put(f"{m.ROOT}/external.imagemosaic", content=str(tmp_path / "nope"), headers=m.TEXT)
    assert r.status_code == 400
    assert r.text == f"Failed to locate the input file {tmp_path / 'nope'}"


# -- indexer parameters -----------------------------------------------------------------------


def test_wildcard_recursive_and_absolute_path(wcs, client, m):
    files = {
        "indexer.properties": "Wildcard=*.tif\nRecursive=false\nAbsolutePath=true\n",
        "a.tif": m.geotiff(),
        "b.tiff": m.geotiff(),
        "sub/c.tif": m.geotiff(),
    }
    assert m.put_mosaic(client, files).status_code == 200
    feats = client.get(f"{m.INDEX}/granules.json").json()["features"]
    assert [f["properties"]["location"] for f in feats] == [
        "/opt/geoserver_data/data/wcs/watertemp/a.tif"
    ]


def test_custom_location_attribute(wcs, client, m):
    files = {"indexer.properties": "LocationAttribute=path\n", "a.tif": m.geotiff()}
    assert m.put_mosaic(client, files).status_code == 200
    schema = client.get(f"{m.INDEX}.json").json()["Schema"]["attributes"]["Attribute"]
    assert [a["name"] for a in schema] == ["the_geom", "path"]
    feats = client.get(f"{m.INDEX}/granules.json?filter=path = 'a.tif'").json()["features"]
    assert feats[0]["properties"] == {"path": "a.tif"}


def test_harvest_file_name_cannot_escape(wcs, client, m):
    m.put_mosaic(client, m.watertemp())
    url = f"{m.ROOT}/file.geotiff?filename=../../evil.tif"
    r = client.post(url, content=m.geotiff(), headers={"Content-Type": "image/tiff"})
    assert r.status_code == 400
    assert client.get("/rest/resource/data/evil.tif").status_code == 404
