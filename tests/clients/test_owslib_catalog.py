"""OWSLib reads the catalog back unchanged: for every layer, group, feature type, coverage
and tile layer, what WebMapService, WebFeatureService, WebCoverageService and
WebMapTileService parse equals what the catalog holds, for the stock catalog and for one
changed over REST (a new workspace, an uploaded property file, new styles, a layer group,
a disabled and an unadvertised layer, attribution, metadata links, a time dimension).

The expectations are computed here from the catalog entities (``emu.state.catalog``), not
from the emulator's capabilities code."""

from __future__ import annotations

import pytest

owslib_wms = pytest.importorskip("owslib.wms")
requests = pytest.importorskip("requests")

ADMIN = ("admin", "geoserver")
WGS84_CODES = {"EPSG:4326", "CRS:84", None}


# -- what the catalog says ------------------------------------------------------------------


def _keyword(text: str) -> str:
    """A catalog keyword's value (GeoServer encodes language and vocabulary after ``\\@``)."""
    return text.split("\\@")[0]


def _visible_layers(catalog):
    """Every layer GeoServer lists: enabled and advertised, with its resource and store."""
    out = {}
    for key, layer in catalog.layers.items():
        res = catalog.resources[key]
        store = next(
            (
                s
                for s in catalog.stores.values()
                if (s.workspace, s.name) == (res.workspace, res.store)
            ),
            None,
        )
        if not (layer.enabled and res.enabled and layer.advertised and res.advertised):
            continue
        if store is not None and not store.enabled:
            continue
        out[layer.prefixed] = (layer, res)
    return out


def _visible_groups(catalog):
    return {
        g.prefixed: g
        for g in catalog.layer_groups.values()
        if g.enabled and g.advertised and g.mode != "CONTAINER"
    }


def _box(b):
    return (b.minx, b.miny, b.maxx, b.maxy)


def _style_names(layer):
    refs = ([layer.default_style] if layer.default_style else []) + list(layer.styles)
    return {r.prefixed for r in refs}


def _dims(res):
    out = {}
    for key in ("time", "elevation"):
        entry = res.metadata.get(key)
        info = entry.get("dimensionInfo") if isinstance(entry, dict) else None
        if isinstance(info, dict) and str(info.get("enabled")).lower() == "true":
            out[key] = info
    return out


def check_wms(emu, base_url, version, path="/wms"):
    catalog = emu.state.catalog
    wms = owslib_wms.WebMapService(f"{base_url}{path}", version=version)
    layers, groups = _visible_layers(catalog), _visible_groups(catalog)
    assert set(wms.contents) == set(layers) | set(groups)
    for name, (layer, res) in layers.items():
        got = wms[name]
        assert got.title == res.title, name
        assert got.abstract == res.abstract, name
        assert got.keywords == [_keyword(k) for k in res.keywords], name
        assert res.srs in got.crsOptions, name
        assert got.boundingBoxWGS84 == pytest.approx(_box(res.latlon_bbox)), name
        if res.native_bbox is not None and version == "1.1.1":
            assert got.boundingBox[:4] == pytest.approx(_box(res.native_bbox)), name
            assert got.boundingBox[4] == res.srs, name
        # WMS styles are inherited: OWSLib adds a parent's (a group's default-style)
        inherited = set(got.parent.styles) if got.parent is not None else set()
        assert set(got.styles) - inherited == _style_names(layer) - inherited, name
        assert _style_names(layer) <= set(got.styles), name
        assert got.queryable == int(layer.queryable) and got.opaque == int(layer.opaque), name
        a = layer.extras.get("attribution") or {}
        if a.get("title") or a.get("href"):
            assert got.attribution.get("title") == a.get("title"), name
            assert got.attribution.get("url") == a.get("href"), name
        links = res.extras.get("metadataLinks") or []
        assert [(m["type"], m["format"], m["url"]) for m in got.metadataUrls] == [
            (link.get("metadataType"), link.get("type"), link["content"]) for link in links
        ], name
        dims = _dims(res)
        if version == "1.3.0":
            assert set(got.dimensions) == set(dims), name
            if "time" in dims:
                assert got.dimensions["time"]["units"] == "ISO8601"
    for name, group in groups.items():
        got = wms[name]
        assert got.title == (group.title or name), name
        assert got.abstract == (group.abstract or f"Layer-Group type layer: {name}"), name
        assert got.keywords == [_keyword(k) for k in group.keywords], name
        if group.bounds is not None and group.bounds.crs in WGS84_CODES:
            assert got.boundingBoxWGS84 == pytest.approx(_box(group.bounds)), name
    return wms


def _visible_resources(catalog, kind):
    """The resources of one kind (``featureType``, ``coverage``) of the listed layers."""
    return {name: res for name, (_, res) in _visible_layers(catalog).items() if res.kind == kind}


def check_wfs(emu, base_url, version):
    owslib_wfs = pytest.importorskip("owslib.wfs")
    catalog = emu.state.catalog
    wfs = owslib_wfs.WebFeatureService(f"{base_url}/wfs", version=version)
    types = _visible_resources(catalog, "featureType")
    assert set(wfs.contents) == set(types)
    for name, res in types.items():
        got = wfs.contents[name]
        assert got.title == res.title, name
        assert got.abstract == res.abstract, name
        if version != "1.0.0":  # OWSLib reads 1.0.0's comma-joined Keywords as one string
            assert got.keywords == [_keyword(k) for k in res.keywords], name
            assert got.boundingBoxWGS84 == pytest.approx(_box(res.latlon_bbox)), name
        else:
            assert got.boundingBox[:4] == pytest.approx(_box(res.latlon_bbox)), name
        code = res.srs.partition(":")[2]
        assert [c.code for c in got.crsOptions][:1] == [int(code)], name
        links = res.extras.get("metadataLinks") or []
        if version == "2.0.0":
            assert [m["url"] for m in got.metadataUrls] == [x["content"] for x in links], name
    return wfs


def check_wcs(emu, base_url, version):
    owslib_wcs = pytest.importorskip("owslib.wcs")
    catalog = emu.state.catalog
    wcs = owslib_wcs.WebCoverageService(f"{base_url}/wcs", version=version)
    covs = _visible_resources(catalog, "coverage")
    sep = "__" if version == "2.0.1" else ":"
    assert set(wcs.contents) == {n.replace(":", sep) for n in covs}
    if version == "2.0.1":  # OWSLib's 2.0 summary reads the id only
        return wcs
    for name, res in covs.items():
        got = wcs.contents[name]
        assert got.title == res.title, name
        assert got.keywords == [_keyword(k) for k in res.keywords], name
        assert got.boundingBoxWGS84 == pytest.approx(_box(res.latlon_bbox)), name
    return wcs


def check_wmts(emu, base_url):
    owslib_wmts = pytest.importorskip("owslib.wmts")
    catalog = emu.state.catalog
    wmts = owslib_wmts.WebMapTileService(f"{base_url}/gwc/service/wmts")
    layers, groups = _visible_layers(catalog), _visible_groups(catalog)
    tiled = {
        name: t
        for name, t in emu.state.seeding.tile_layers.items()
        if t.enabled and (name in layers or name in groups)
    }
    assert set(wmts.contents) == set(tiled)
    for name, tile_layer in tiled.items():
        got = wmts.contents[name]
        if name in layers:
            layer, res = layers[name]
            assert got.title == res.title, name
            assert got.abstract == res.abstract, name
            assert got.keywords == [_keyword(k) for k in res.keywords], name
            assert got.boundingBoxWGS84 == pytest.approx(_box(res.latlon_bbox)), name
            if layer.default_style is not None:
                default = [k for k, v in got.styles.items() if v.get("isDefault")]
                assert default == [layer.default_style.prefixed], name
        assert set(got.tilematrixsetlinks) == set(tile_layer.gridsets), name
        assert set(got.formats) == set(tile_layer.formats), name
        # GeoWebCache's dimensions: the parameter filters with legal values, but STYLES
        dims = {
            str(f["key"])
            for f in tile_layer.parameter_filters
            if str(f.get("key", "")).upper() != "STYLES" and f.get("type") != "regexParameterFilter"
        }
        assert set(got.dimensions) == dims, name
    return wmts


# -- the stock catalog ----------------------------------------------------------------------


@pytest.mark.parametrize("version", ["1.1.1", "1.3.0"])
def test_wms_reads_every_layer_of_the_stock_catalog(emu, base_url, version):
    check_wms(emu, base_url, version)


@pytest.mark.parametrize("version", ["1.0.0", "1.1.0", "2.0.0"])
def test_wfs_reads_every_feature_type_of_the_stock_catalog(emu, base_url, version):
    check_wfs(emu, base_url, version)


@pytest.mark.filterwarnings("ignore::FutureWarning")
@pytest.mark.parametrize("version", ["1.0.0", "1.1.1", "2.0.1"])
def test_wcs_reads_every_coverage_of_the_stock_catalog(emu, base_url, version):
    check_wcs(emu, base_url, version)


def test_wmts_reads_every_tile_layer_of_the_stock_catalog(emu, base_url):
    check_wmts(emu, base_url)


# -- a catalog changed over REST ---------------------------------------------------------------

PROPS = (
    b"_=name:String,founded:java.util.Date,geom:Point:srid=4326\n"
    b"towns.1=alpha|1900-01-01T00:00:00Z|POINT(1 2)\n"
    b"towns.2=beta|1950-06-01T00:00:00Z|POINT(3 4)\n"
)


def _call(method, base_url, path, **kw):
    r = requests.request(method, f"{base_url}{path}", auth=ADMIN, timeout=10, **kw)
    assert r.status_code < 300, (method, path, r.status_code, r.text)
    return r


def _change_catalog(base_url, sld):
    _call("POST", base_url, "/rest/workspaces", json={"workspace": {"name": "cities"}})
    _call(
        "PUT",
        base_url,
        "/rest/workspaces/cities/datastores/towns/file.properties",
        data=PROPS,
        headers={"Content-Type": "text/plain"},
    )
    for name, path in (("towny", "/rest/styles"), ("local", "/rest/workspaces/cities/styles")):
        _call(
            "POST",
            base_url,
            f"{path}?name={name}",
            data=sld.encode(),
            headers={"Content-Type": "application/vnd.ogc.sld+xml"},
        )
    ft = {
        "featureType": {
            "title": "Towns of the world",
            "abstract": "Where people live",
            "keywords": {"string": ["towns", "people\\@vocabulary=gemet\\;"]},
            "metadataLinks": {
                "metadataLink": [
                    {
                        "type": "text/xml",
                        "metadataType": "FGDC",
                        "content": "http://md.example/t.xml",
                    }
                ]
            },
            "metadata": {
                "entry": [
                    {
                        "@key": "time",
                        "dimensionInfo": {
                            "enabled": True,
                            "attribute": "founded",
                            "presentation": "LIST",
                        },
                    }
                ]
            },
        }
    }
    _call("PUT", base_url, "/rest/workspaces/cities/datastores/towns/featuretypes/towns", json=ft)
    layer = {
        "layer": {
            "defaultStyle": {"name": "towny"},
            "styles": {"style": [{"name": "point"}, {"name": "cities:local"}]},
            "attribution": {"title": "Town survey", "href": "http://survey.example/"},
        }
    }
    _call("PUT", base_url, "/rest/layers/cities:towns", json=layer)
    group = {
        "layerGroup": {
            "name": "towns_and_states",
            "title": "Towns and states",
            "keywords": {"string": ["combined"]},
            "publishables": {
                "published": [
                    {"@type": "layer", "name": "topp:states"},
                    {"@type": "layer", "name": "cities:towns"},
                ]
            },
            "styles": {"style": [{"name": "population"}, {"name": "towny"}]},
        }
    }
    _call("POST", base_url, "/rest/layergroups", json=group)
    _call("PUT", base_url, "/rest/layers/topp:tasmania_roads", json={"layer": {"enabled": False}})
    _call("PUT", base_url, "/rest/layers/sf:roads", json={"layer": {"advertised": False}})


@pytest.fixture
def changed(emu, base_url, sld):
    _change_catalog(base_url, sld)
    catalog = emu.state.catalog
    assert ("cities", "towns") in catalog.layers
    return emu


@pytest.mark.parametrize("version", ["1.1.1", "1.3.0"])
def test_wms_reads_a_catalog_changed_over_rest(changed, base_url, version):
    wms = check_wms(changed, base_url, version)
    assert "topp:tasmania_roads" not in wms.contents and "sf:roads" not in wms.contents
    towns = wms["cities:towns"]
    assert set(towns.styles) == {"towny", "point", "cities:local"}
    assert towns.attribution["title"] == "Town survey"
    # 1.3.0 Dimension, 1.1.1 Extent: OWSLib reads both into timepositions
    assert towns.timepositions == ["1900-01-01T00:00:00.000Z", "1950-06-01T00:00:00.000Z"]
    # a SINGLE group does not nest its layers
    assert wms["towns_and_states"].children == []
    # the workspace's own service names its layers unqualified
    ws = owslib_wms.WebMapService(f"{base_url}/cities/wms", version=version)
    assert "towns" in ws.contents and ws["towns"].title == "Towns of the world"


@pytest.mark.parametrize("version", ["1.0.0", "1.1.0", "2.0.0"])
def test_wfs_reads_a_catalog_changed_over_rest(changed, base_url, version):
    wfs = check_wfs(changed, base_url, version)
    assert "cities:towns" in wfs.contents and "sf:roads" not in wfs.contents
    if version == "1.1.0":
        assert wfs.contents["cities:towns"].metadataUrls == [
            {"type": "FGDC", "format": "text/xml", "url": "http://md.example/t.xml"}
        ]


@pytest.mark.filterwarnings("ignore::FutureWarning")
@pytest.mark.parametrize("version", ["1.0.0", "1.1.1", "2.0.1"])
def test_wcs_reads_a_catalog_changed_over_rest(changed, base_url, version):
    check_wcs(changed, base_url, version)


def test_wmts_reads_a_catalog_changed_over_rest(changed, base_url):
    body = (
        "<GeoServerLayer><enabled>true</enabled><name>cities:towns</name>"
        "<mimeFormats><string>image/png</string></mimeFormats><gridSubsets>"
        "<gridSubset><gridSetName>EPSG:4326</gridSetName></gridSubset></gridSubsets>"
        "<parameterFilters><stringParameterFilter><key>TIME</key>"
        "<defaultValue>1900-01-01T00:00:00.000Z</defaultValue><values>"
        "<string>1900-01-01T00:00:00.000Z</string><string>1950-06-01T00:00:00.000Z</string>"
        "</values></stringParameterFilter></parameterFilters></GeoServerLayer>"
    )
    headers = {"Content-Type": "application/xml"}
    _call("PUT", base_url, "/gwc/rest/layers/cities:towns.xml", data=body, headers=headers)
    wmts = check_wmts(changed, base_url)
    assert "topp:tasmania_roads" not in wmts.contents
    time = wmts.contents["cities:towns"].dimensions["TIME"]
    assert time["values"] == ["1900-01-01T00:00:00.000Z", "1950-06-01T00:00:00.000Z"]
    assert time["default"] == "1900-01-01T00:00:00.000Z"
