"""Flows that cross areas on the stock scenario: the catalog with styles, tile layers, seeding."""

from __future__ import annotations

SEED_XML = (
    "<seedRequest><name>{layer}</name><gridSetId>{gridset}</gridSetId>"
    "<zoomStart>{z0}</zoomStart><zoomStop>{z1}</zoomStop><format>image/png</format>"
    "<type>seed</type><threadCount>1</threadCount></seedRequest>"
)


def seed(client, layer: str, gridset: str = "EPSG:4326", z0: int = 0, z1: int = 3):
    body = SEED_XML.format(layer=layer, gridset=gridset, z0=z0, z1=z1)
    r = client.post(
        f"/gwc/rest/seed/{layer}.xml", content=body, headers={"Content-Type": "text/xml"}
    )
    assert r.status_code == 200, r.text
    return client.get(f"/gwc/rest/seed/{layer}.json").json()["long-array-array"]


def test_whole_world_layer_seeds_the_worked_example_total(client):
    rows = seed(client, "ne:world")
    assert [row[1] for row in rows] == [178]


def test_stock_layer_bounds_limit_the_seed(client):
    (states,) = seed(client, "topp:states")
    assert 0 < states[1] < 178


def test_seed_runs_to_the_end_and_is_dropped(client, emu):
    seed(client, "ne:world")
    assert client.post("/__emulator/scheduler/drain").status_code == 200
    rows = client.get("/gwc/rest/seed.json").json()["long-array-array"]
    assert [row[4] for row in rows] == [2]
    assert client.get("/gwc/rest/seed.json").json()["long-array-array"] == []


def test_new_layer_gets_a_tile_layer_with_its_bounds(client, emu):
    r = client.post(
        "/rest/workspaces/topp/datastores/states_shapefile/featuretypes.json",
        json={
            "featureType": {
                "name": "states_copy",
                "nativeName": "states",
                "srs": "EPSG:4326",
                "latLonBoundingBox": {
                    "minx": 0,
                    "maxx": 10,
                    "miny": 0,
                    "maxy": 10,
                    "crs": "EPSG:4326",
                },
            }
        },
    )
    assert r.status_code == 201, r.text
    assert client.get("/gwc/rest/layers/topp:states_copy.json").status_code == 200
    assert emu.state.seeding.tile_layers["topp:states_copy"].bounds == (0, 0, 10, 10)


def test_recursive_workspace_delete_takes_its_styles_and_folder(client, emu):
    assert client.get("/rest/workspaces/ne/styles/countries.json").status_code == 200
    assert client.delete("/rest/workspaces/ne?recurse=true").status_code == 200
    assert emu.state.styles.list_styles("ne") == []
    assert not emu.state.datadir.exists("workspaces/ne")
    assert client.get("/rest/styles/point.json").status_code == 200


def test_workspace_rename_moves_its_styles_and_folder(client, emu):
    r = client.put("/rest/workspaces/ne.json", json={"workspace": {"name": "ne2"}})
    assert r.status_code == 200, r.text
    assert client.get("/rest/workspaces/ne2/styles/countries.json").status_code == 200
    assert client.get("/rest/workspaces/ne/styles/countries.json").status_code == 404
    assert emu.state.datadir.exists("workspaces/ne2/styles")
    assert not emu.state.datadir.exists("workspaces/ne")


def _resource_names(client, folder: str) -> list[str]:
    doc = client.get(f"/rest/resource/{folder}?format=json").json()["ResourceDirectory"]
    children = doc["children"]["child"]
    return [c["name"] for c in (children if isinstance(children, list) else [children])]


SLD = (
    '<StyledLayerDescriptor version="1.0.0" xmlns="http://www.opengis.net/sld" '
    'xmlns:ogc="http://www.opengis.net/ogc"><NamedLayer><Name>x</Name><UserStyle>'
    "<Name>orphan</Name><FeatureTypeStyle><Rule><PointSymbolizer/></Rule></FeatureTypeStyle>"
    "</UserStyle></NamedLayer></StyledLayerDescriptor>"
)


def _new_style(client) -> None:
    r = client.post(
        "/rest/styles?name=orphan",
        content=SLD,
        headers={"Content-Type": "application/vnd.ogc.sld+xml"},
    )
    assert r.status_code == 201, r.text
    assert "orphan.sld" in _resource_names(client, "styles")


def test_style_deleted_without_purge_stays_as_an_orphan_file(client):
    _new_style(client)
    assert client.delete("/rest/styles/orphan").status_code == 200
    assert client.get("/rest/styles/orphan.json").status_code == 404
    names = _resource_names(client, "styles")
    assert "orphan.sld" not in names and any(n.startswith("orphan.sld.bak") for n in names)


def test_style_deleted_with_purge_leaves_no_file(client):
    _new_style(client)
    assert client.delete("/rest/styles/orphan?purge=true").status_code == 200
    assert not [n for n in _resource_names(client, "styles") if n.startswith("orphan.sld")]


def test_style_in_use_cannot_be_deleted_without_recurse(client):
    assert client.delete("/rest/styles/burg").status_code == 403
    assert client.get("/rest/styles/burg.json").status_code == 200
