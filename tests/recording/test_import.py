"""Import: a live server's configuration read through REST and written as a scenario."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from geoserver_emulator import Emulator
from geoserver_emulator.areas.seeding.model import GridSubsetOptions
from geoserver_emulator.http.server import LiveServer
from geoserver_emulator.recording.importer import ImportFailed, import_scenario

from .conftest import ADMIN, CLIENT_SECRET, MASTER_PASSWORD, OAUTH_FILTER


@pytest.fixture
def configured(upstream: tuple[Emulator, str]) -> tuple[Emulator, str]:
    """The upstream with some configuration of its own."""
    emu, url = upstream
    with httpx.Client(base_url=url, auth=ADMIN) as c:
        c.post(
            "/rest/urlchecks",
            json={
                "regexUrlCheck": {
                    "name": "icons",
                    "regex": "^https://i/.*$",
                    "description": "d",
                    "enabled": False,
                }
            },
        )
        c.post("/rest/security/acl/layers.json", json={"topp.*.r": "ROLE_AUTHOR"})
        c.put("/rest/security/acl/catalog.json", json={"mode": "CHALLENGE"})
        c.post("/rest/security/authfilters.json", json=OAUTH_FILTER)
        c.put(
            "/rest/security/masterpw.json",
            json={"oldMasterPassword": "geoserver", "newMasterPassword": MASTER_PASSWORD},
        )
    layer = emu.state.seeding.tile_layers["ne:coastlines"]  # GWC layer updates are not served yet
    layer.enabled, layer.formats, layer.metatiling = False, ["image/png"], (2, 2)
    layer.subsets["EPSG:4326"] = GridSubsetOptions(None, 1, 5)
    return emu, url


def test_import_from_a_live_emulator_loads_back(
    configured: tuple[Emulator, str], tmp_path: Path
) -> None:
    emu, url = configured
    result = import_scenario(url, "admin", "geoserver", tmp_path / "imported.json")
    doc = json.loads((tmp_path / "imported.json").read_text())
    assert doc["extends"] == "empty" and doc == result.document
    loaded = Emulator(tmp_path / "imported.json").dump_scenario()
    theirs = emu.dump_scenario()
    for key in ("urlChecks", "about"):
        assert loaded[key] == theirs[key], key
    assert loaded["security"] == {**theirs["security"], "keystorePassword": "geoserver"}
    by_name = {t["name"]: t for t in loaded["seeding"]["tileLayers"]}
    assert by_name == {t["name"]: t for t in theirs["seeding"]["tileLayers"]}
    assert by_name["ne:coastlines"]["enabled"] is False
    assert by_name["ne:coastlines"]["gridsets"][0] == {
        "name": "EPSG:4326",
        "zoomStart": 1,
        "zoomStop": 5,
    }
    filters = {f["name"]: f for f in loaded["authFilters"]["filters"]}
    assert filters["oauth"]["fields"]["clientSecret"] == "scrubbed"
    real = {f["name"]: f for f in theirs["authFilters"]["filters"]}
    assert filters["basic"] == real["basic"]
    assert MASTER_PASSWORD not in (tmp_path / "imported.json").read_text()
    assert CLIENT_SECRET not in (tmp_path / "imported.json").read_text()
    for key in ("catalog", "styles", "users", "authProviders"):
        assert loaded[key] == theirs[key], key
    # mosaic indexes are not imported (the stock nurc:mosaic has one)
    assert {k for k in theirs if loaded[k] != theirs[k]} == {"security", "authFilters", "mosaics"}
    assert loaded["mosaics"] == {"stores": []}
    assert (tmp_path / "imported.styles" / "ne" / "countries.sld").is_file()
    assert result.summary().endswith(f"wrote {tmp_path / 'imported.json'}\n")


def test_import_with_secrets(configured: tuple[Emulator, str], tmp_path: Path) -> None:
    _, url = configured
    import_scenario(url, "admin", "geoserver", tmp_path / "s.json", include_secrets=True)
    loaded = Emulator(tmp_path / "s.json")
    assert loaded.state.security.keystore_password == MASTER_PASSWORD
    assert loaded.state.auth_filters.configs["oauth"].fields["clientSecret"] == CLIENT_SECRET


def test_import_needs_the_server_and_the_credentials(
    upstream: tuple[Emulator, str], tmp_path: Path
) -> None:
    _, url = upstream
    with pytest.raises(ImportFailed, match="refused the credentials of admin"):
        import_scenario(url, "admin", "wrong", tmp_path / "x.json")
    with pytest.raises(ImportFailed, match="ConnectError"):
        import_scenario("http://127.0.0.1:9/geoserver", "admin", "geoserver", tmp_path / "x.json")
    with pytest.raises(ValueError, match="base URL"):
        import_scenario("not a url", "admin", "geoserver", tmp_path / "x.json")
    assert not (tmp_path / "x.json").exists()


# -- GeoServer-shaped answers for the areas the emulator does not serve yet ----------------

H = "http://gs:8080/geoserver/rest"
CANNED: dict[str, object] = {
    "/rest/workspaces.json": {
        "workspaces": {"workspace": [{"name": "topp", "href": f"{H}/workspaces/topp.json"}]}
    },
    "/rest/workspaces/default.json": {"workspace": {"name": "topp"}},
    "/rest/workspaces/topp.json": {"workspace": {"name": "topp", "isolated": False}},
    "/rest/namespaces/topp.json": {
        "namespace": {"prefix": "topp", "uri": "http://www.openplans.org/topp"}
    },
    "/rest/workspaces/topp/datastores.json": {"dataStores": {"dataStore": {"name": "pg"}}},
    "/rest/workspaces/topp/datastores/pg.json": {
        "dataStore": {
            "name": "pg",
            "type": "PostGIS",
            "enabled": True,
            "_default": False,
            "connectionParameters": {
                "entry": [
                    {"@key": "host", "$": "db"},
                    {"@key": "passwd", "$": "dbpw"},
                    {"@key": "dbtype", "$": "postgis"},
                ]
            },
        }
    },
    "/rest/workspaces/topp/datastores/pg/featuretypes.json": {
        "featureTypes": {"featureType": [{"name": "roads"}]}
    },
    "/rest/workspaces/topp/datastores/pg/featuretypes/roads.json": {
        "featureType": {
            "name": "roads",
            "nativeName": "roads",
            "title": "Roads",
            "keywords": {"string": "roads"},
            "srs": "EPSG:26713",
            "nativeCRS": {"@class": "projected", "$": 'PROJCS["NAD27 / UTM 13N"]'},
            "nativeBoundingBox": {
                "minx": 589434.0,
                "maxx": 609527.0,
                "miny": 4914006.0,
                "maxy": 4928063.0,
                "crs": {"@class": "projected", "$": "EPSG:26713"},
            },
            "latLonBoundingBox": {
                "minx": -103.9,
                "maxx": -103.6,
                "miny": 44.3,
                "maxy": 44.5,
                "crs": "EPSG:4326",
            },
            "projectionPolicy": "FORCE_DECLARED",
            "enabled": True,
            "maxFeatures": 10,
            "attributes": {
                "attribute": {
                    "name": "the_geom",
                    "minOccurs": 0,
                    "maxOccurs": 1,
                    "nillable": True,
                    "binding": "org.locationtech.jts.geom.MultiLineString",
                }
            },
        }
    },
    "/rest/layers/topp:roads.json": {
        "layer": {
            "name": "roads",
            "defaultStyle": {"name": "topp:roads_style", "workspace": "topp"},
            "styles": {"@class": "linked-hash-set", "style": {"name": "line"}},
            "enabled": True,
            "queryable": True,
        }
    },
    "/rest/workspaces/topp/coveragestores.json": {"coverageStores": ""},
    "/rest/workspaces/topp/wmsstores.json": {"wmsStores": {"wmsStore": [{"name": "remote"}]}},
    "/rest/workspaces/topp/wmsstores/remote.json": {
        "wmsStore": {
            "name": "remote",
            "type": "WMS",
            "enabled": True,
            "capabilitiesURL": "http://example.com/wms?",
        }
    },
    "/rest/workspaces/topp/wmsstores/remote/wmslayers.json": {
        "wmsLayers": {"wmsLayer": [{"name": "relief"}]}
    },
    "/rest/workspaces/topp/wmsstores/remote/wmslayers/relief.json": {
        "wmsLayer": {
            "name": "relief",
            "nativeName": "topo:relief",
            "srs": "EPSG:4326",
            "latLonBoundingBox": {
                "minx": -10,
                "maxx": 10,
                "miny": 40,
                "maxy": 50,
                "crs": "EPSG:4326",
            },
            "projectionPolicy": "FORCE_DECLARED",
            "enabled": True,
            "preferredFormat": "image/jpeg",
            "selectedRemoteStyles": {"string": ["hillshade"]},
            "allAvailableRemoteStyles": {"style": {"name": "hillshade", "format": "sld"}},
        }
    },
    "/rest/layers/topp:relief.json": {
        "layer": {"name": "relief", "type": "WMS", "defaultStyle": {"name": "raster"}}
    },
    "/rest/workspaces/topp/wmtsstores.json": {"wmtsStores": ""},
    "/rest/layergroups.json": {"layerGroups": {"layerGroup": [{"name": "base"}]}},
    "/rest/layergroups/base.json": {
        "layerGroup": {
            "name": "base",
            "mode": "SINGLE",
            "abstractTxt": "all",
            "publishables": {"published": {"@type": "layer", "name": "topp:roads"}},
            "styles": {"style": ""},
            "bounds": {
                "minx": 589434.0,
                "maxx": 609527.0,
                "miny": 4914006.0,
                "maxy": 4928063.0,
                "crs": {"@class": "projected", "$": "EPSG:26713"},
            },
        }
    },
    "/rest/workspaces/topp/layergroups.json": {"layerGroups": ""},
    "/rest/styles.json": {"styles": {"style": [{"name": "line"}]}},
    "/rest/styles/line.json": {
        "style": {
            "name": "line",
            "format": "sld",
            "languageVersion": {"version": "1.0.0"},
            "filename": "line.sld",
        }
    },
    "/rest/styles/line": ("application/vnd.ogc.sld+xml", b"<StyledLayerDescriptor/>"),
    "/rest/workspaces/topp/styles.json": {"styles": {"style": {"name": "roads_style"}}},
    "/rest/workspaces/topp/styles/roads_style.json": {
        "style": {"name": "roads_style", "format": "css", "filename": "roads_style.css"}
    },
    "/rest/workspaces/topp/styles/roads_style": (
        "application/vnd.geoserver.geocss+css",
        b"* { stroke: red; }",
    ),
    "/rest/resource/styles": {
        "ResourceDirectory": {
            "name": "styles",
            "children": {
                "child": [{"name": "line.sld"}, {"name": "line.xml"}, {"name": "icon.svg"}]
            },
        }
    },
    "/rest/resource/styles/icon.svg": ("image/svg+xml", b"<svg/>"),
    "/rest/security/usergroup/users.json": {
        "users": [{"userName": "admin", "enabled": True}, {"userName": "bob", "enabled": False}]
    },
    "/rest/security/usergroup/groups.json": {"groups": ["editors"]},
    "/rest/security/usergroup/group/editors/users.json": {"users": [{"userName": "bob"}]},
    "/rest/security/roles.json": {"roles": ["ADMIN", "GROUP_ADMIN", "ROLE_EDITOR"]},
    "/rest/security/roles/user/admin.json": {"roles": ["ADMIN"]},
    "/rest/security/roles/user/bob.json": {"roles": []},
    "/rest/security/roles/group/editors.json": {"roles": ["ROLE_EDITOR"]},
    "/gwc/rest/layers.json": ["topp:roads"],
    "/gwc/rest/layers/topp:roads.json": {
        "GeoServerLayer": {
            "name": "topp:roads",
            "enabled": True,
            "mimeFormats": ["image/png"],
            "metaWidthHeight": [4, 4],
            "gridSubsets": [
                {"gridSetName": "UTM13"},
                {"gridSetName": "Unknown"},
                {"gridSetName": "EPSG:4326", "extent": {"coords": [-104.0, 44.0, -103.0, 45.0]}},
            ],
        }
    },
    "/gwc/rest/gridsets.xml": (
        "application/xml",
        b"<gridSets><gridSet><name>UTM13</name></gridSet>"
        b"<gridSet><name>EPSG:4326</name></gridSet><gridSet><name>Unknown</name></gridSet></gridSets>",
    ),
    "/gwc/rest/gridsets/UTM13.xml": (
        "application/xml",
        b"""<gridSet><name>UTM13</name><srs><number>26713</number></srs>
        <extent><coords><double>589980</double><double>4913700</double><double>609000</double>
        <double>4928010</double></coords></extent><alignTopLeft>false</alignTopLeft>
        <resolutions><double>100</double><double>50</double><double>25</double></resolutions>
        <metersPerUnit>1.0</metersPerUnit><pixelSize>2.8E-4</pixelSize><tileHeight>256</tileHeight>
        <tileWidth>256</tileWidth></gridSet>""",
    ),
    "/gwc/rest/gridsets/Unknown.xml": (
        "application/xml",
        b"<gridSet><name>Unknown</name></gridSet>",
    ),
    "/rest/security/acl/services.json": (403, b"Access denied"),
}


def _canned(request: httpx.Request) -> httpx.Response:
    assert request.method == "GET"
    if request.headers.get("authorization") != httpx.BasicAuth(*ADMIN)._auth_header:
        return httpx.Response(401)
    found = CANNED.get(request.url.path.removeprefix("/geoserver"))
    if found is None:
        return httpx.Response(404, text="No such resource")
    if isinstance(found, tuple):
        if isinstance(found[0], int):
            return httpx.Response(found[0], content=found[1])
        return httpx.Response(200, content=found[1], headers={"content-type": found[0]})
    return httpx.Response(200, json=found)


def test_import_of_geoserver_shaped_answers(tmp_path: Path) -> None:
    out = tmp_path / "gs.json"
    result = import_scenario(
        "http://gs:8080/geoserver", *ADMIN, out, transport=httpx.MockTransport(_canned)
    )
    emu = Emulator(out)
    cat = emu.dump_scenario()["catalog"]
    assert cat["defaultWorkspace"] == "topp"
    assert cat["workspaces"] == [
        {"name": "topp", "uri": "http://www.openplans.org/topp", "isolated": False}
    ]
    [store] = cat["dataStores"]
    assert store["connectionParameters"] == {
        "host": "db",
        "passwd": "scrubbed",
        "dbtype": "postgis",
        "namespace": "http://www.openplans.org/topp",
    }
    [roads] = store["featureTypes"]
    assert roads["layer"]["defaultStyle"] == "topp:roads_style" and roads["layer"]["styles"] == [
        "line"
    ]
    assert roads["nativeBoundingBox"]["crs"] == "EPSG:26713" and roads["keywords"] == ["roads"]
    assert roads["attributes"][0]["name"] == "the_geom"
    written = result.document["catalog"]["dataStores"][0]["featureTypes"][0]
    assert written["maxFeatures"] == 10 and written["nativeCrs"] == 'PROJCS["NAD27 / UTM 13N"]'
    [remote] = emu.dump_scenario()["cascade"]["wmsStores"]
    assert remote["capabilitiesUrl"] == "http://example.com/wms?"
    [relief] = remote["layers"]
    assert relief["nativeName"] == "topo:relief" and relief["preferredFormat"] == "image/jpeg"
    assert relief["selectedRemoteStyles"] == ["hillshade"]
    assert relief["remoteStyles"] == [{"name": "hillshade"}]
    assert relief["layer"]["defaultStyle"] == "raster"
    assert emu.state.catalog.layer("topp", "relief").type == "WMS"
    assert (
        cat["layerGroups"][0]["layers"] == ["topp:roads"]
        and cat["layerGroups"][0]["abstract"] == "all"
    )
    users = emu.dump_scenario()["users"]
    [service] = users["services"]
    assert {u["name"]: u["enabled"] for u in service["users"]} == {"admin": True, "bob": False}
    assert service["groups"][0]["members"] == ["bob"]
    assert users["roleServices"][0]["groupRoles"] == {"editors": ["ROLE_EDITOR"]}
    seeding = emu.dump_scenario()["seeding"]
    assert [g["name"] for g in seeding["gridsets"]] == ["UTM13"]
    layer = next(t for t in seeding["tileLayers"] if t["name"] == "topp:roads")
    assert layer["gridsets"] == [
        "UTM13",
        {"name": "EPSG:4326", "extent": [-104.0, 44.0, -103.0, 45.0]},
    ]
    styles = tmp_path / "gs.styles"
    assert (styles / "line.sld").read_bytes() == b"<StyledLayerDescriptor/>"
    assert (styles / "topp" / "roads_style.css").read_bytes() == b"* { stroke: red; }"
    section = result.document["styles"]
    assert section["styles"] == [
        {"name": "roads_style", "workspace": "topp", "filename": "roads_style.css",
         "format": "css", "file": "gs.styles/topp/roads_style.css"},
    ]  # fmt: skip
    assert section["files"] == [
        {"path": "styles/icon.svg", "file": "gs.styles/files/styles/icon.svg"}
    ]
    assert (styles / "files" / "styles" / "icon.svg").read_bytes() == b"<svg/>"
    notes = result.summary()
    assert "GET /rest/security/acl/services.json: 403, left out" in notes
    assert "gridset Unknown: could not be read, left out" in notes
    assert "tile layer topp:roads: gridset Unknown is not known here, left out" in notes
    assert (
        "catalog: 1 workspaces, 1 data stores, 0 coverage stores, 1 resources, 1 layer groups"
        in notes
    )
    assert "styles: 1 styles (1 bodies) and 1 other files saved" in notes


def test_a_section_the_emulator_refuses_is_left_out(tmp_path: Path) -> None:
    def transport(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/rest/security/acl/catalog.json"):
            return httpx.Response(200, json={"mode": "SOMETIMES"})
        return _canned(request)

    result = import_scenario(
        "http://gs:8080/geoserver",
        *ADMIN,
        tmp_path / "x.json",
        transport=httpx.MockTransport(transport),
    )
    assert "security" not in result.document and "catalog" in result.document
    assert any(n.startswith("security: the emulator does not accept it") for n in result.notes)
    Emulator(tmp_path / "x.json")


def test_the_imported_scenario_serves(configured: tuple[Emulator, str], tmp_path: Path) -> None:
    _, url = configured
    import_scenario(url, "admin", "geoserver", tmp_path / "i.json")
    emu = Emulator(tmp_path / "i.json")
    server = LiveServer(emu.asgi_app).start()
    try:
        answer = httpx.get(server.url("/geoserver") + "/rest/urlchecks/icons.json", auth=ADMIN)
    finally:
        server.stop()
    assert answer.json()["regexUrlCheck"]["enabled"] is False


def test_import_reads_settings_services_and_templates(
    upstream: tuple[Emulator, str], tmp_path: Path
) -> None:
    emu, url = upstream
    with httpx.Client(base_url=url, auth=ADMIN) as c:
        c.put("/rest/settings/contact", json={"contact": {"contactPerson": "Imported"}})
        c.put("/rest/services/wms/settings", json={"wms": {"srs": {"string": ["EPSG:4326"]}}})
        c.put("/rest/services/wfs/workspaces/topp/settings", json={"wfs": {"maxFeatures": 7}})
        c.post("/rest/workspaces/sf/settings", json={"settings": {"numDecimals": 3}})
        c.put("/rest/logging", json={"logging": {"level": "VERBOSE_LOGGING"}})
        c.put("/rest/templates/header.ftl", content=b"<b>hi</b>")
        c.put("/rest/workspaces/topp/templates/content.ftl", content=b"${x}")
        c.put("/rest/workspaces/sf/datastores/sf/templates/s.ftl", content=b"store")
        cov = "/rest/workspaces/nurc/coveragestores/arcGridSample/coverages/Arc_Sample"
        c.put(f"{cov}/templates/c.ftl", content=b"coverage")
    result = import_scenario(url, "admin", "geoserver", tmp_path / "imported.json")
    section = result.document["serverSettings"]
    assert set(section["workspaces"]) == {"topp", "sf"}
    loaded = Emulator(tmp_path / "imported.json").state.settings
    theirs = emu.state.settings
    assert loaded.settings()["contact"]["contactPerson"] == "Imported"
    assert loaded.service("wms")["srs"] == ["EPSG:4326"]
    assert loaded.service("wfs", "topp")["maxFeatures"] == 7
    assert loaded.settings("sf")["numDecimals"] == 3
    assert loaded.logging == theirs.logging
    assert loaded.update_sequence == theirs.update_sequence
    for kind in ("wms", "wfs", "wcs", "wmts"):
        assert {k: v for k, v in loaded.services[kind].items() if k != "id"} == {
            k: v for k, v in theirs.services[kind].items() if k != "id"
        }
    stock = "workspaces/topp/states_shapefile/states"
    assert section["templates"] == {
        "templates/header.ftl": "<b>hi</b>",
        "workspaces/topp/content.ftl": "${x}",
        "workspaces/sf/sf/s.ftl": "store",
        "workspaces/nurc/arcGridSample/Arc_Sample/c.ftl": "coverage",
        # the release data directory's, on a feature type
        f"{stock}/description.ftl": emu.state.datadir.read(f"{stock}/description.ftl").decode(),
        f"{stock}/title.ftl": "${STATE_NAME.value}\n",
    }
