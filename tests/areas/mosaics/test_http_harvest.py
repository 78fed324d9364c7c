"""Harvesting (``POST …/external.imagemosaic``, ``POST …/file.imagemosaic``), configuring a
coverage on a mosaic (``POST …/coverages``) and the spec's empty-mosaic flow, end to end."""

from __future__ import annotations

import pytest
from lxml import etree

from geoserver_emulator import Emulator
from geoserver_emulator.areas.urlchecks.model import UrlCheck


@pytest.fixture
def mosaic(wcs, client, m):
    assert m.put_mosaic(client, m.watertemp()).status_code == 200
    return client


def locations(client, m) -> list[str]:
    return [
        f["properties"]["location"]
        for f in client.get(f"{m.INDEX}/granules.json").json()["features"]
    ]


@pytest.fixture
def host(wcs):
    """Reading this machine (``Emulator.host_read``, on in-process by default): the tests
    below harvest folders of it."""
    assert wcs.host_read
    return wcs


def write_host(folder, files) -> None:
    for name, body in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(body.encode() if isinstance(body, str) else body)


# -- external harvest ---------------------------------------------------------------------------


def test_harvest_a_file_url_of_this_machine(host, mosaic, m, tmp_path):
    name = m.granule_name(100, "20081031")
    write_host(tmp_path, {name: m.geotiff(minx=5.0, maxy=45.0)})
    r = mosaic.post(
        f"{m.ROOT}/external.imagemosaic", content=(tmp_path / name).as_uri(), headers=m.TEXT
    )
    assert r.status_code == 201
    assert r.content == b""
    assert locations(mosaic, m)[-1] == str(tmp_path / name)  # outside the mosaic folder: absolute
    feature = mosaic.get(f"{m.INDEX}/granules.json").json()["features"][-1]
    assert feature["properties"]["elevation"] == 100
    assert feature["properties"]["ingestion"] == "2008-10-31T00:00:00.000+0000"


def test_harvest_a_plain_path_into_the_mosaic_folder(mosaic, m):
    name = m.granule_name(100, "20081101")
    mosaic.put(f"/rest/resource/data/wcs/watertemp/{name}", content=m.geotiff(minx=7.0, maxy=45.0))
    r = mosaic.post(
        f"{m.ROOT}/external.imagemosaic", content=f"data/wcs/watertemp/{name}", headers=m.TEXT
    )
    assert r.status_code == 201
    assert locations(mosaic, m)[-1] == name  # inside the mosaic folder: relative


def test_harvest_under_the_data_directory_root(mosaic, m):
    name = m.granule_name(0, "20081102")
    mosaic.put(f"/rest/resource/data/wcs/watertemp/{name}", content=m.geotiff(minx=7.0, maxy=45.0))
    body = f"file:///opt/geoserver_data/data/wcs/watertemp/{name}"
    assert (
        mosaic.post(f"{m.ROOT}/external.imagemosaic", content=body, headers=m.TEXT).status_code
        == 201
    )
    assert locations(mosaic, m)[-1] == name


def test_reharvest_a_directory(mosaic, m):
    """Two files refreshed, two added (GeoServer's testHarvestMulti)."""
    for name, body in m.watertemp(elevations=(100,)).items():
        if name.endswith(".tiff"):
            mosaic.put(f"/rest/resource/data/wcs/watertemp/{name}", content=body)
    r = mosaic.post(
        f"{m.ROOT}/external.imagemosaic", content="file:data/wcs/watertemp", headers=m.TEXT
    )
    assert r.status_code == 201
    feats = mosaic.get(f"{m.INDEX}/granules.json").json()["features"]
    assert len(feats) == 4
    by_name = {f["properties"]["location"]: f["properties"] for f in feats}
    assert by_name[m.granule_name(100, "20081101")] == {
        "location": m.granule_name(100, "20081101"),
        "ingestion": "2008-11-01T00:00:00.000+0000",
        "elevation": 100,
    }
    # re-harvested granules get new ids, as a remove-and-add in the index does
    assert sorted(f["id"] for f in feats) == [
        "watertemp.3",
        "watertemp.4",
        "watertemp.5",
        "watertemp.6",
    ]


def test_harvest_a_directory_of_this_machine(host, mosaic, m, tmp_path):
    files = {
        m.granule_name(100, d): m.geotiff(minx=10.0, maxy=45.0) for d in ("20081031", "20081101")
    }
    files["notes.txt"] = "not a granule"
    write_host(tmp_path / "more", files)
    r = mosaic.post(
        f"{m.ROOT}/external.imagemosaic", content=(tmp_path / "more").as_uri(), headers=m.TEXT
    )
    assert r.status_code == 201
    assert len(locations(mosaic, m)) == 4


def test_harvest_status_in_the_geoserver_profile(client_for, m, tmp_path):
    emu = Emulator("stock", profile="geoserver", host_read=True)
    emu.state.catalog.add_workspace(m.WS)
    client = client_for(emulator=emu)
    m.put_mosaic(client, m.watertemp())
    write_host(tmp_path, {"x_000_20081105T0000000_1.tif": m.geotiff()})
    r = client.post(f"{m.ROOT}/external.imagemosaic", content=str(tmp_path), headers=m.TEXT)
    assert r.status_code == 202


def test_harvest_a_granule_that_cannot_be_read(host, mosaic, m, tmp_path):
    write_host(
        tmp_path,
        {
            "ok_000_20081105T0000000_1.tif": m.geotiff(),
            "bad_000_20081106T0000000_1.tif": b"garbage",
        },
    )
    r = mosaic.post(f"{m.ROOT}/external.imagemosaic", content=str(tmp_path), headers=m.TEXT)
    assert r.status_code == 400
    assert "bad_000_20081106T0000000_1.tif" in r.text
    assert len(locations(mosaic, m)) == 2  # nothing half-added


def test_harvest_errors(mosaic, m, tmp_path):
    r = mosaic.post(
        "/rest/workspaces/wcs/coveragestores/nope/external.imagemosaic",
        content=str(tmp_path),
        headers=m.TEXT,
    )
    assert (r.status_code, r.text) == (404, "No such coverage store: wcs,nope")
    r = mosaic.post(
        f"{m.ROOT}/external.imagemosaic", content=str(tmp_path / "missing.tif"), headers=m.TEXT
    )
    assert (r.status_code, r.text) == (
        400,
        f"Failed to locate the input file {tmp_path / 'missing.tif'}",
    )
    r = mosaic.post(
        f"{m.ROOT}/external.imagemosaic", content="data/../../etc/passwd", headers=m.TEXT
    )
    assert r.status_code == 400
    r = mosaic.post(
        "/rest/workspaces/nurc/coveragestores/arcGridSample/external.imagemosaic",
        content=str(tmp_path),
        headers=m.TEXT,
    )
    assert (r.status_code, r.text) == (
        405,
        "Coverage store found, but it does not support resource harvesting",
    )


def test_remote_urls_pass_through_the_url_checks(emu, mosaic, m):
    url = "https://example.com/granule.tif"
    r = mosaic.post(f"{m.ROOT}/external.imagemosaic", content=url, headers=m.TEXT)
    assert r.status_code == 400
    assert r.text == f"Evaluation Failure: '{url}' was not accepted by external URL checks"
    emu.state.urlchecks.checks.append(UrlCheck("example", "https://example\\.com/.*", enabled=True))
    r = mosaic.post(f"{m.ROOT}/remote.imagemosaic", content=url, headers=m.TEXT)
    assert r.status_code == 400
    assert r.text == f"Failed to locate the input file {url}"


# -- harvest by upload -----------------------------------------------------------------------------


def test_post_a_zip_of_granules(mosaic, m):
    files = {m.granule_name(0, "20081102"): m.geotiff(minx=3.0, maxy=45.0), "readme.txt": "ignored"}
    r = mosaic.post(f"{m.ROOT}/file.imagemosaic", content=m.zipped(files), headers=m.ZIP)
    assert r.status_code == 201
    assert locations(mosaic, m)[-1] == m.granule_name(0, "20081102")
    assert mosaic.get("/rest/resource/data/wcs/watertemp/readme.txt").status_code == 200


def test_post_one_geotiff_with_a_file_name(mosaic, m):
    name = m.granule_name(0, "20081102")
    url = f"{m.ROOT}/file.geotiff?filename={name}"
    for _ in range(2):  # uploading it again re-harvests it
        r = mosaic.post(
            url, content=m.geotiff(minx=3.0, maxy=45.0), headers={"Content-Type": "image/tiff"}
        )
        assert r.status_code == 201
    assert locations(mosaic, m) == [
        m.granule_name(0, "20081031"),
        m.granule_name(0, "20081101"),
        name,
    ]


def test_post_with_update_bbox(mosaic, m):
    files = {m.granule_name(0, "20081102"): m.geotiff(minx=20.0, maxy=45.0)}
    mosaic.post(f"{m.ROOT}/file.imagemosaic", content=m.zipped(files), headers=m.ZIP)
    box = mosaic.get(f"{m.ROOT}/coverages/watertemp.json").json()["coverage"]["nativeBoundingBox"]
    assert box["maxx"] == 2.0  # by default the coverage keeps its bounds
    files = {m.granule_name(0, "20081103"): m.geotiff(minx=30.0, maxy=45.0)}
    mosaic.post(
        f"{m.ROOT}/file.imagemosaic?updateBBox=true", content=m.zipped(files), headers=m.ZIP
    )
    box = mosaic.get(f"{m.ROOT}/coverages/watertemp.json").json()["coverage"]["nativeBoundingBox"]
    assert box["maxx"] == 34.0


# -- configuring a coverage ----------------------------------------------------------------------


def test_post_coverage_with_native_name(wcs, client, m):
    m.put_mosaic(client, m.watertemp(), query="?configure=none")
    body = (
        "<coverage><nativeCoverageName>watertemp</nativeCoverageName>"
        "<name>temperature</name></coverage>"
    )
    r = client.post(f"{m.ROOT}/coverages", content=body, headers={"Content-Type": "text/xml"})
    assert r.status_code == 201
    assert r.text == "temperature"
    assert r.headers["location"] == f"http://localhost:8080/geoserver{m.ROOT}/coverages/temperature"
    cov = client.get(f"{m.ROOT}/coverages/temperature.json").json()["coverage"]
    assert cov["nativeCoverageName"] == "watertemp" and cov["nativeBoundingBox"]["maxx"] == 2.0
    assert client.get(f"{m.ROOT}/coverages/temperature/index/granules.json").json()["features"]


def test_post_coverage_with_only_a_name_is_configured_automatically(wcs, client, m):
    m.put_mosaic(client, m.watertemp(), query="?configure=none")
    r = client.post(f"{m.ROOT}/coverages.json", json={"coverage": {"name": "watertemp"}})
    assert r.status_code == 201
    cov = client.get(f"{m.ROOT}/coverages/watertemp.xml")
    doc = etree.fromstring(cov.content)
    assert doc.findtext("srs") == "EPSG:4326"
    assert doc.findtext("nativeBoundingBox/minx") == "0.0"
    assert doc.findtext("nativeFormat") == "ImageMosaic"


def test_post_coverage_keeps_the_fields_given(wcs, client, m):
    m.put_mosaic(client, m.watertemp(), query="?configure=none")
    body = "<coverage><name>watertemp</name><title>Sea temperature</title></coverage>"
    assert (
        client.post(
            f"{m.ROOT}/coverages", content=body, headers={"Content-Type": "text/xml"}
        ).status_code
        == 201
    )
    assert (
        client.get(f"{m.ROOT}/coverages/watertemp.json").json()["coverage"]["title"]
        == "Sea temperature"
    )


def test_post_coverage_errors(wcs, client, m):
    m.put_mosaic(client, m.watertemp(), query="?configure=none")
    xml = {"Content-Type": "text/xml"}
    r = client.post(
        f"{m.ROOT}/coverages", content="<coverage><title>x</title></coverage>", headers=xml
    )
    assert r.status_code == 400
    r = client.post(
        f"{m.ROOT}/coverages",
        content="<coverage><nativeCoverageName>nope</nativeCoverageName><name>x</name></coverage>",
        headers=xml,
    )
    assert r.status_code == 500
    assert r.text == "Error getting coverages from coverage reader: no coverage named nope"
    client.post(
        f"{m.ROOT}/coverages", content="<coverage><name>watertemp</name></coverage>", headers=xml
    )
    r = client.post(
        f"{m.ROOT}/coverages", content="<coverage><name>watertemp</name></coverage>", headers=xml
    )
    assert r.status_code == 500  # the catalog refuses a second resource of that name
    r = client.post(f"{m.ROOT}/coverages", content="<coverage><name>x", headers=xml)
    assert r.status_code == 400


def test_other_stores_keep_the_catalog_behaviour(client):
    r = client.get("/rest/workspaces/nurc/coveragestores/arcGridSample/coverages.json")
    assert r.status_code == 200
    assert r.json()["coverages"]["coverage"][0]["name"] == "Arc_Sample"
    assert (
        client.put(
            "/rest/workspaces/nurc/coveragestores/arcGridSample/coverages", content=b""
        ).status_code
        == 405
    )


# -- the empty-mosaic flow of the spec --------------------------------------------------------


def test_empty_mosaic_flow(host, wcs, client, m, tmp_path):
    """Upload the definition only (datastore properties, an indexer with CanBeEmpty=true and
    an auxiliary file) with configure=none, harvest files, then configure the coverage."""
    empty = {
        "datastore.properties": (
            "SPI=org.geotools.data.postgis.PostgisNGDataStoreFactory\n"
            "host=localhost\nport=5432\ndatabase=mosaic\n"
        ),
        "indexer.properties": (
            "CanBeEmpty=true\nName=NO2\nTimeAttribute=time\n"
            "Schema=*the_geom:Polygon,location:String,time:java.util.Date\n"
            "PropertyCollectors=TimestampFileNameExtractorSPI[timeregex](time)\n"
        ),
        "timeregex.properties": "regex=[0-9]{8}\n",
        "auxiliary.xml": "<auxiliary/>",
    }
    url = "/rest/workspaces/wcs/coveragestores/empty"
    r = client.put(f"{url}/file.imagemosaic?configure=none", content=m.zipped(empty), headers=m.ZIP)
    assert r.status_code == 200
    assert client.get(f"{url}/coverages.json").json() == {"coverages": ""}
    # configuring before any granule is there fails, as GeoServer's reader has no extent yet
    r = client.post(
        f"{url}/coverages",
        content="<coverage><name>NO2</name></coverage>",
        headers={"Content-Type": "text/xml"},
    )
    assert r.status_code == 500
    # harvest a folder of this machine
    write_host(
        tmp_path,
        {
            f"no2_{d}.tif": m.geotiff(minx=5.0 + i, maxy=50.0)
            for i, d in enumerate(("20130301", "20130302"))
        },
    )
    r = client.post(f"{url}/external.imagemosaic", content=tmp_path.as_uri(), headers=m.TEXT)
    assert r.status_code == 201
    # configure the coverage
    body = "<coverage><nativeCoverageName>NO2</nativeCoverageName><name>NO2</name></coverage>"
    r = client.post(f"{url}/coverages", content=body, headers={"Content-Type": "text/xml"})
    assert r.status_code == 201
    index = client.get(f"{url}/coverages/NO2/index.xml")
    attrs = etree.fromstring(index.content).findall("attributes/Attribute")
    assert [(a.findtext("name"), a.findtext("binding")) for a in attrs] == [
        ("the_geom", "org.locationtech.jts.geom.Polygon"),
        ("location", "java.lang.String"),
        ("time", "java.sql.Timestamp"),
    ]
    doc = etree.fromstring(client.get(f"{url}/coverages/NO2/index/granules.xml?limit=1").content)
    (feature,) = doc.findall(
        "{http://www.opengis.net/gml}featureMember/{http://www.geoserver.org/rest/granules}NO2"
    )
    assert feature.get("fid") == "NO2.1"
    assert (
        feature.findtext("{http://www.geoserver.org/rest/granules}time") == "2013-03-01T00:00:00Z"
    )
    cov = client.get(f"{url}/coverages/NO2.json").json()["coverage"]
    assert cov["nativeBoundingBox"]["minx"] == 5.0 and cov["nativeBoundingBox"]["maxx"] == 10.0


def test_post_external_zip_is_unpacked_and_harvested(mosaic, m):
    files = {m.granule_name(0, "20081105"): m.geotiff(minx=3.0, maxy=45.0)}
    mosaic.put("/rest/resource/incoming/more.zip", content=m.zipped(files))
    r = mosaic.post(
        f"{m.ROOT}/external.imagemosaic", content="file:incoming/more.zip", headers=m.ZIP
    )
    assert r.status_code == 201
    assert locations(mosaic, m)[-1] == m.granule_name(0, "20081105")
    assert (
        mosaic.get(f"/rest/resource/data/wcs/watertemp/{m.granule_name(0, '20081105')}").status_code
        == 200
    )
    r = mosaic.post(f"{m.ROOT}/external.imagemosaic", content="file:incoming", headers=m.ZIP)
    assert (r.status_code, r.text) == (400, "Failed to read the input file file:incoming")


def test_empty_mosaic_coverage_is_listed_by_list_all_after_a_harvest(
    host, wcs, client, m, tmp_path
):
    """geoservercloud's acceptance suite: an empty mosaic uploaded with CanBeEmpty=true,
    Name=cov and configure=none, then harvested, offers ``cov`` under ``?list=all``."""
    empty = {
        "indexer.properties": (
            "CanBeEmpty=true\nName=cov\nSchema=*the_geom:Polygon,location:String\n"
        )
    }
    url = "/rest/workspaces/wcs/coveragestores/emptycov"
    r = client.put(f"{url}/file.imagemosaic?configure=none", content=m.zipped(empty), headers=m.ZIP)
    assert r.status_code in (200, 201)
    assert client.get(f"{url}/coverages.json?list=all").json() == {"list": {"string": ["cov"]}}
    write_host(tmp_path, {"g1.tif": m.geotiff(minx=5.0, maxy=50.0)})
    r = client.post(f"{url}/external.imagemosaic", content=tmp_path.as_uri(), headers=m.TEXT)
    assert r.status_code == 201
    assert client.get(f"{url}/coverages.json?list=all").json() == {"list": {"string": ["cov"]}}
    root = etree.fromstring(client.get(f"{url}/coverages.xml?list=all").content)
    assert [e.text for e in root] == ["cov"]
    # once configured it is listed once, among the configured ones
    body = "<coverage><name>cov</name></coverage>"
    assert (
        client.post(
            f"{url}/coverages", content=body, headers={"Content-Type": "text/xml"}
        ).status_code
        == 201
    )
    assert client.get(f"{url}/coverages.json?list=all").json() == {"list": {"string": ["cov"]}}


# -- collectors' regular expressions under a time bound (issue 18) -----------------------------


@pytest.mark.parametrize(
    ("regex", "says"),
    [
        ("(.*?){30}[^A-Za-z0-9_]", "ran out of time"),
        ("((a{1000}){1000}){1000}", "invalid regular expression"),
    ],
)
def test_a_collector_regex_that_costs_too_much_is_a_400(emu, wcs, client, m, regex, says):
    files = m.watertemp(elevations=(0, 100))
    files["timeregex.properties"] = f"regex={regex}\n"
    before = emu.dump_scenario()
    r = m.put_mosaic(client, files)
    assert r.status_code == 400 and says in r.text, r.text
    assert emu.dump_scenario() == before
