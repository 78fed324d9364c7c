"""Coverage store uploads over HTTP: GeoTIFF, world images, ArcGrid."""

from __future__ import annotations

import httpx
import pytest
from lxml import etree

from geoserver_emulator import Emulator

from .conftest import TEXT, WGS84_PRJ, WS, ZIP, arcgrid, geotiff, make_zip, png

TIFF = {"Content-Type": "image/tiff"}


def test_geotiff_upload_answers_201_with_the_store(client, emu: Emulator) -> None:
    r = client.put(f"{WS}/sf/coveragestores/dem/file.geotiff", content=geotiff(), headers=TIFF)
    assert r.status_code == 201, r.text
    assert r.headers["content-type"].startswith("application/xml")
    doc = etree.fromstring(r.content)
    assert doc.tag == "coverageStore"
    assert doc.findtext("name") == "dem"
    assert doc.findtext("type") == "GeoTIFF"
    assert doc.findtext("url") == "file:data/sf/dem/dem.geotiff"
    cov = client.get(f"{WS}/sf/coveragestores/dem/coverages/dem.json").json()["coverage"]
    assert cov["nativeFormat"] == "GeoTIFF"
    assert cov["srs"] == "EPSG:4326"
    box = cov["nativeBoundingBox"]
    assert (box["minx"], box["maxx"], box["miny"], box["maxy"]) == (10.0, 12.0, 48.5, 50.0)
    dims = cov["dimensions"]["coverageDimension"]
    dims = dims if isinstance(dims, list) else [dims]
    assert [d["name"] for d in dims] == ["GRAY_INDEX"]
    grid = emu.state.features.grids[("sf", "dem", "dem")]
    assert (grid.width, grid.height) == (4, 3)
    assert grid.transform == (0.5, -0.5, 10.25, 49.75)
    assert grid.bands[0].data_type == "UNSIGNED_8BITS"
    assert client.get(f"{WS}/sf/layers/dem.json").status_code == 200
    assert "data/sf/dem/dem.geotiff" in emu.state.datadir.files


def test_geotiff_nodata_float_and_json(client, emu: Emulator) -> None:
    body = geotiff(mode="F", nodata="-9999", epsg=3857, origin=(0.0, 1000.0), pixel=100.0)
    r = client.put(
        f"{WS}/sf/coveragestores/f/file.geotiff?coverageName=elev",
        content=body,
        headers={**TIFF, "Accept": "application/json"},
    )
    assert r.status_code == 201
    assert r.json()["coverageStore"]["name"] == "f"
    grid = emu.state.features.grids[("sf", "f", "f")]
    assert grid.bands[0].data_type == "REAL_32BITS"
    assert grid.bands[0].nodata == -9999.0
    cov = client.get(f"{WS}/sf/coveragestores/f/coverages/elev.json").json()["coverage"]
    assert cov["nativeCoverageName"] == "f"
    assert cov["srs"] == "EPSG:3857"


def test_configure_none_stores_only(client, emu: Emulator) -> None:
    r = client.put(
        f"{WS}/sf/coveragestores/dem/file.geotiff?configure=none", content=geotiff(), headers=TIFF
    )
    assert r.status_code == 201
    assert r.content == b""
    assert emu.state.catalog.coverage_store("sf", "dem") is not None
    assert emu.state.catalog.list_resources("sf", store="dem") == []


def test_world_image_zip(client) -> None:
    body = make_zip({"usa.png": png(), "usa.pgw": b"0.5\n0\n0\n-0.5\n-120.25\n50.25\n",
                     "usa.prj": WGS84_PRJ.encode()})  # fmt: skip
    r = client.put(f"{WS}/sf/coveragestores/usa/file.worldimage", content=body, headers=ZIP)
    assert r.status_code == 201, r.text
    doc = etree.fromstring(r.content)
    assert doc.findtext("type") == "WorldImage"
    assert doc.findtext("url") == "file:data/sf/usa/usa.png"
    cov = client.get(f"{WS}/sf/coveragestores/usa/coverages/usa.json").json()["coverage"]
    box = cov["nativeBoundingBox"]
    assert (box["minx"], box["maxy"]) == (-120.5, 50.5)
    assert cov["srs"] == "EPSG:4326"


def test_arcgrid(client, emu: Emulator) -> None:
    r = client.put(f"{WS}/sf/coveragestores/grid/file.arcgrid", content=arcgrid(), headers=TEXT)
    assert r.status_code == 201, r.text
    grid = emu.state.features.grids[("sf", "grid", "grid")]
    assert grid.envelope == (100.0, 200.0, 130.0, 220.0)
    assert grid.bands[0].nodata == -9999.0


@pytest.mark.parametrize(
    ("path", "body", "headers", "words"),
    [
        ("file.geotiff", b"II*\x00" + b"\x00" * 4, TIFF, "truncated"),
        ("file.geotiff", b"hello", TIFF, "not a TIFF"),
        ("file.geotiff", geotiff()[:-20], TIFF, "truncated"),
        ("file.worldimage", make_zip({"usa.png": png()}), ZIP, "no georeferencing"),
        ("file.worldimage", make_zip({"x.txt": b"x"}), ZIP, "Could not find appropriate"),
        ("file.worldimage", make_zip({"a.elf": b"\x7fELF...."}), ZIP, "executable"),
        ("file.arcgrid", arcgrid(cells=4), TEXT, "truncated"),
        ("file.gtopo30", b"x", TEXT, "not emulated"),
        ("file.nope", b"x", TEXT, "Unsupported format"),
    ],
)
def test_refusals_store_nothing(client, emu: Emulator, path, body, headers, words) -> None:
    before = (dict(emu.state.catalog.stores), set(emu.state.datadir.files))
    r = client.put(f"{WS}/sf/coveragestores/bad/{path}", content=body, headers=headers)
    assert r.status_code == 400, r.text
    assert words in r.text
    assert (dict(emu.state.catalog.stores), set(emu.state.datadir.files)) == before


def test_unreadable_is_500_in_geoserver_profile(client_for) -> None:
    emu = Emulator("stock", profile="geoserver")
    c = client_for(emulator=emu)
    r = c.put(f"{WS}/sf/coveragestores/bad/file.geotiff", content=b"hello", headers=TIFF)
    assert r.status_code == 500
    assert emu.state.catalog.coverage_store("sf", "bad") is None
    emu.internal_errors.clear()


def test_purge_all_removes_the_file(client, emu: Emulator) -> None:
    client.put(f"{WS}/sf/coveragestores/dem/file.geotiff", content=geotiff(), headers=TIFF)
    r = client.delete(f"{WS}/sf/coveragestores/dem?recurse=true&purge=all")
    assert r.status_code == 200
    assert not any(p.startswith("data/sf/dem") for p in emu.state.datadir.files)
    assert ("sf", "dem", "dem") not in emu.state.features.grids


def test_delete_without_purge_keeps_the_file(client, emu: Emulator) -> None:
    client.put(f"{WS}/sf/coveragestores/dem/file.geotiff", content=geotiff(), headers=TIFF)
    assert client.delete(f"{WS}/sf/coveragestores/dem?recurse=true").status_code == 200
    assert "data/sf/dem/dem.geotiff" in emu.state.datadir.files


def test_reupload_updates_the_coverage(client, emu: Emulator) -> None:
    url = f"{WS}/sf/coveragestores/dem/file.geotiff"
    client.put(url, content=geotiff(), headers=TIFF)
    r = client.put(url, content=geotiff(origin=(0.0, 0.0)), headers=TIFF)
    assert r.status_code == 201
    cov = client.get(f"{WS}/sf/coveragestores/dem/coverages/dem.json").json()["coverage"]
    assert cov["nativeBoundingBox"]["minx"] == 0.0
    assert len(emu.state.catalog.list_resources("sf", store="dem")) == 1


def test_harvest_on_a_geotiff_store_is_405(client) -> None:
    client.put(f"{WS}/sf/coveragestores/dem/file.geotiff", content=geotiff(), headers=TIFF)
    r = client.post(f"{WS}/sf/coveragestores/dem/file.geotiff", content=geotiff(), headers=TIFF)
    assert r.status_code == 405


def test_from_grid_builds_what_an_upload_would(client, emu: Emulator) -> None:
    from geoserver_emulator.areas.uploads.coverages import from_grid

    client.put(
        f"{WS}/sf/coveragestores/dem/file.geotiff?configure=none", content=geotiff(), headers=TIFF
    )
    store = emu.state.catalog.coverage_store("sf", "dem")
    cov = from_grid(emu.state, store, "dem", "elevation")
    assert cov is not None and cov.name == "elevation" and cov.native_format == "GeoTIFF"
    assert from_grid(emu.state, store, "other", "x") is None
    listed = client.get(f"{WS}/sf/coveragestores/dem/coverages.json?list=all").json()
    assert "dem" in str(listed)


def test_coverage_posted_by_name_is_filled_from_the_grid(client) -> None:
    client.put(
        f"{WS}/sf/coveragestores/dem/file.geotiff?configure=none", content=geotiff(), headers=TIFF
    )
    body = {"coverage": {"name": "elevation", "nativeCoverageName": "dem"}}
    r = client.post(f"{WS}/sf/coveragestores/dem/coverages", json=body)
    assert r.status_code == 201, r.text
    cov = client.get(f"{WS}/sf/coveragestores/dem/coverages/elevation.json").json()["coverage"]
    assert cov["nativeFormat"] == "GeoTIFF"
    assert cov["nativeBoundingBox"]["maxx"] == 12.0


# -- the coverage document describes the file (CatalogBuilder.buildCoverage) ----------------


def test_uploaded_coverage_grid_is_the_files(client) -> None:
    """The ``<grid>``: the file's size, its pixel-centre transform and the declared CRS."""
    body = geotiff(width=5, height=2, origin=(100.0, 20.0), pixel=2.0)
    assert client.put(f"{WS}/sf/coveragestores/g/file.geotiff", content=body, headers=TIFF)
    doc = etree.fromstring(client.get(f"{WS}/sf/coveragestores/g/coverages/g.xml").content)
    grid = doc.find("grid")
    assert grid.get("dimension") == "2"
    assert (grid.findtext("range/low"), grid.findtext("range/high")) == ("0 0", "5 2")
    transform = {c.tag: c.text for c in grid.find("transform")}
    assert transform == {"scaleX": "2.0", "scaleY": "-2.0", "shearX": "0.0", "shearY": "0.0",
                         "translateX": "101.0", "translateY": "19.0"}  # fmt: skip
    assert grid.findtext("crs") == "EPSG:4326"
    cov = client.get(f"{WS}/sf/coveragestores/g/coverages/g.json").json()["coverage"]
    assert cov["grid"]["range"] == {"low": "0 0", "high": "5 2"}
    assert cov["grid"]["transform"]["translateX"] == 101.0


def test_world_image_grid_and_bands(client) -> None:
    world = b"1.0\n0.0\n0.0\n-1.0\n0.5\n1.5\n"
    body = make_zip({"usa.png": png(4, 2), "usa.pgw": world})
    assert client.put(f"{WS}/sf/coveragestores/usa/file.worldimage", content=body, headers=ZIP)
    cov = client.get(f"{WS}/sf/coveragestores/usa/coverages/usa.json").json()["coverage"]
    assert cov["grid"]["range"]["high"] == "4 2"
    assert cov["grid"]["transform"]["translateY"] == 1.5
    dims = cov["dimensions"]["coverageDimension"]
    assert [d["name"] for d in dims] == ["RED_BAND", "GREEN_BAND", "BLUE_BAND"]
    for d in dims:  # GeoServer gives colour bands the radiance unit
        assert d["unit"] == "W.m-2.Sr-1"
        assert d["dimensionType"] == {"name": "UNSIGNED_8BITS"}
        assert d["range"] == {"min": "-inf", "max": "inf"}
        assert d["description"] == "GridSampleDimension[-Infinity,Infinity]"


def test_band_no_data_and_type_as_geoserver_writes_them(client) -> None:
    body = geotiff(mode="F", nodata="-9999")
    assert client.put(f"{WS}/sf/coveragestores/f/file.geotiff", content=body, headers=TIFF)
    doc = etree.fromstring(client.get(f"{WS}/sf/coveragestores/f/coverages/f.xml").content)
    (dim,) = doc.findall("dimensions/coverageDimension")
    assert [c.tag for c in dim] == ["name", "description", "range", "nullValues", "dimensionType"]
    assert (dim.findtext("range/min"), dim.findtext("range/max")) == ("-inf", "inf")
    assert [d.text for d in dim.findall("nullValues/double")] == ["-9999.0"]
    assert dim.findtext("dimensionType/name") == "REAL_32BITS"
    # a gray band has no unit
    assert dim.find("unit") is None


def test_band_details_survive_the_scenario_dump(client, emu: Emulator, tmp_path) -> None:
    body = geotiff(mode="F", nodata="-9999")
    assert client.put(f"{WS}/sf/coveragestores/f/file.geotiff", content=body, headers=TIFF)
    path = f"{WS}/sf/coveragestores/f/coverages/f.xml"
    before = client.get(path).content
    emu.save_scenario(tmp_path / "s.json")
    again = Emulator(tmp_path / "s.json")
    with httpx.Client(
        transport=httpx.WSGITransport(app=again.wsgi_app),
        base_url="http://localhost:8080/geoserver",
        auth=("admin", "geoserver"),
    ) as other:
        assert other.get(path).content == before


def test_a_coverage_put_keeps_infinite_ranges(client) -> None:
    body = geotiff(mode="F")
    assert client.put(f"{WS}/sf/coveragestores/f/file.geotiff", content=body, headers=TIFF)
    path = f"{WS}/sf/coveragestores/f/coverages/f"
    sent = client.get(f"{path}.json").json()
    assert client.put(f"{path}.json", json=sent).status_code == 200
    got = client.get(f"{path}.json").json()["coverage"]
    assert got.pop("dateModified") == "2026-01-01 00:00:00.000 UTC"
    assert got == sent["coverage"]
