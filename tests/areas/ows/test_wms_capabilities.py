"""WMS GetCapabilities 1.1.1 and 1.3.0: derived live from the catalog, as GeoServer writes it."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

NS = {"wms": "http://www.opengis.net/wms", "xlink": "http://www.w3.org/1999/xlink"}
BBOX = {"minx": 1, "maxx": 2, "miny": 3, "maxy": 4, "crs": "EPSG:4326"}


def _layer(root, name):
    for el in root.iterfind(".//wms:Layer", NS):
        if el.findtext("wms:Name", namespaces=NS) == name:
            return el
    raise AssertionError(f"no layer {name}")


def _layer_111(root, name):
    for el in root.iterfind(".//Layer"):
        if el.findtext("Name") == name:
            return el
    raise AssertionError(f"no layer {name}")


def add_feature_type(client, name: str, **extra) -> None:
    body = {
        "featureType": {
            "name": name,
            "nativeName": "states",
            "title": f"Title of {name}",
            "abstract": f"Abstract of {name}",
            "keywords": {"string": ["alpha", "beta"]},
            "srs": "EPSG:4326",
            "nativeBoundingBox": BBOX,
            "latLonBoundingBox": BBOX,
            **extra,
        }
    }
    r = client.post("/rest/workspaces/topp/datastores/states_shapefile/featuretypes", json=body)
    assert r.status_code == 201, r.text


def test_130_document_root_service_and_requests(emu, anon, h):
    r = anon.get("/ows", params={"service": "WMS", "request": "GetCapabilities"})
    assert r.status_code == 200
    assert r.headers["content-type"] == "text/xml;charset=UTF-8"
    assert r.text.startswith(
        '<?xml version="1.0" encoding="UTF-8"?><WMS_Capabilities version="1.3.0"'
    )
    root = etree.fromstring(r.content)
    assert root.get("updateSequence") == str(emu.state.settings.update_sequence)
    assert root.get("{http://www.w3.org/2001/XMLSchema-instance}schemaLocation") == (
        "http://www.opengis.net/wms "
        "http://localhost:8080/geoserver/schemas/wms/1.3.0/capabilities_1_3_0.xsd"
    )
    service = root.find("wms:Service", NS)
    assert [etree.QName(c).localname for c in service] == [
        "Name",
        "Title",
        "Abstract",
        "KeywordList",
        "OnlineResource",
        "ContactInformation",
        "Fees",
        "AccessConstraints",
    ]
    assert service.findtext("wms:Name", namespaces=NS) == "WMS"
    assert (
        service.findtext("wms:Title", namespaces=NS) == emu.state.settings.service("wms")["title"]
    )
    request = root.find("wms:Capability/wms:Request", NS)
    assert [etree.QName(c).localname for c in request] == [
        "GetCapabilities",
        "GetMap",
        "GetFeatureInfo",
    ]
    formats = [f.text for f in request.iterfind("wms:GetMap/wms:Format", NS)]
    assert formats[0] == "image/png" and "image/jpeg" in formats
    href = request.find(".//wms:Get/wms:OnlineResource", NS).get(f"{{{NS['xlink']}}}href")
    assert href == "http://localhost:8080/geoserver/ows?SERVICE=WMS&"
    exceptions = [f.text for f in root.iterfind("wms:Capability/wms:Exception/wms:Format", NS)]
    assert exceptions == ["XML", "INIMAGE", "BLANK", "JSON"]


def test_130_lists_every_enabled_layer_and_group_of_the_catalog(emu, anon, h):
    root = h.caps(anon, "/ows")
    names = h.layer_names(root)
    catalog = emu.state.catalog
    expected = {
        layer.prefixed
        for (ws, name), layer in catalog.layers.items()
        if catalog.resources[(ws, name)].enabled
    }
    expected |= {g.prefixed for g in catalog.layer_groups.values()}
    assert set(names) == expected
    assert "nurc:Pk50095" not in names  # its resource is disabled
    assert len(names) == len(set(names))  # a layer inside a named group is not repeated


def test_groups_come_first_by_name_then_layers_by_name(anon, h):
    root = h.caps(anon)
    top = root.find("wms:Capability/wms:Layer", NS)
    names = [el.findtext("wms:Name", namespaces=NS) for el in top.iterfind("wms:Layer", NS)]
    assert names[:4] == ["spearfish", "tasmania", "tiger-ny", "ne:world"]
    layers = names[4:]
    assert layers == sorted(layers, key=lambda n: n.split(":")[1])
    # a NAMED group nests its layers; a SINGLE group does not
    world = _layer(root, "ne:world")
    assert [e.findtext("wms:Name", namespaces=NS) for e in world.iterfind("wms:Layer", NS)] == [
        "ne:countries",
        "ne:coastlines",
        "ne:boundary_lines",
        "ne:populated_places",
    ]
    assert "ne:countries" not in layers and "topp:tasmania_roads" in layers


def test_130_layer_elements_in_geoserver_order_with_flipped_4326_bbox(anon, h):
    root = h.caps(anon)
    states = _layer(root, "topp:states")
    assert states.get("queryable") == "1" and states.get("opaque") == "0"
    assert [etree.QName(c).localname for c in states] == [
        "Name",
        "Title",
        "Abstract",
        "KeywordList",
        "CRS",
        "CRS",
        "EX_GeographicBoundingBox",
        "BoundingBox",
        "BoundingBox",
        "Style",
        "Style",
        "Style",
    ]
    assert [c.text for c in states.iterfind("wms:CRS", NS)] == ["EPSG:4326", "CRS:84"]
    crs84, epsg = states.iterfind("wms:BoundingBox", NS)
    assert crs84.attrib == {
        "CRS": "CRS:84",
        "minx": "-124.73364306703067",
        "miny": "24.51490854927549",
        "maxx": "-66.9819027206272",
        "maxy": "49.384686592055914",
    }
    assert epsg.get("CRS") == "EPSG:4326"
    assert (epsg.get("minx"), epsg.get("miny")) == ("24.51490854927549", "-124.73364306703067")
    geo = states.find("wms:EX_GeographicBoundingBox", NS)
    assert geo.findtext("wms:westBoundLongitude", namespaces=NS) == "-124.73364306703067"
    # a projected layer keeps easting first
    roads = _layer(root, "sf:roads")
    native = [b for b in roads.iterfind("wms:BoundingBox", NS) if b.get("CRS") == "EPSG:26713"][0]
    assert native.get("minx") == "589434.8564686741"


def test_styles_with_titles_from_the_sld_and_legend_urls(anon, h):
    root = h.caps(anon)
    states = _layer(root, "topp:states")
    styles = states.findall("wms:Style", NS)
    assert [s.findtext("wms:Name", namespaces=NS) for s in styles] == [
        "population",
        "pophatch",
        "polygon",
    ]
    assert styles[0].findtext("wms:Title", namespaces=NS) == "Population in the United States"
    legend = styles[0].find("wms:LegendURL", NS)
    assert legend.get("height") == "80"  # four rules of 20 pixels
    assert legend.findtext("wms:Format", namespaces=NS) == "image/png"
    href = legend.find("wms:OnlineResource", NS).get(f"{{{NS['xlink']}}}href")
    assert href == (
        "http://localhost:8080/geoserver/ows?service=WMS&version=1.3.0&request=GetLegendGraphic"
        "&format=image%2Fpng&width=20&height=20&layer=topp%3Astates"
    )
    second = styles[1].find("wms:LegendURL/wms:OnlineResource", NS).get(f"{{{NS['xlink']}}}href")
    assert second.endswith("&layer=topp%3Astates&style=pophatch")


def test_legend_url_size_is_the_size_of_the_legend_it_links_to(anon, h):
    from io import BytesIO

    from PIL import Image

    root = h.caps(anon)
    for name in ("topp:states", "sf:sfdem", "tiger:poi"):
        for style in _layer(root, name).findall("wms:Style", NS):
            legend = style.find("wms:LegendURL", NS)
            href = legend.find("wms:OnlineResource", NS).get(f"{{{NS['xlink']}}}href")
            r = anon.get(href)
            assert r.headers["content-type"] == "image/png", r.text
            size = Image.open(BytesIO(r.content)).size
            assert size == (int(legend.get("width")), int(legend.get("height"))), href


def test_layer_group_element(anon, h):
    root = h.caps(anon)
    group = _layer(root, "spearfish")
    assert group.get("queryable") == "1" and group.get("opaque") is None
    assert group.findtext("wms:Title", namespaces=NS) == "spearfish"
    assert group.findtext("wms:Abstract", namespaces=NS) == "Layer-Group type layer: spearfish"
    assert group.findtext("wms:CRS", namespaces=NS) == "EPSG:26713"
    style = group.find("wms:Style", NS)
    assert style.findtext("wms:Name", namespaces=NS) == "default-style"
    assert style.findtext("wms:Title", namespaces=NS) == "spearfish style"
    assert style.findtext("wms:Abstract", namespaces=NS) == "Default style for spearfish layer"
    assert group.find("wms:Layer", NS) is None  # SINGLE: members are not listed inside
    world = _layer(root, "ne:world")
    assert world.findtext("wms:Title", namespaces=NS) == "World Map"


def test_111_document(anon, h):
    r = anon.get("/wms", params={"request": "GetCapabilities", "version": "1.1.1"})
    assert r.status_code == 200
    assert r.headers["content-type"] == "application/vnd.ogc.wms_xml;charset=UTF-8"
    assert (
        '<!DOCTYPE WMT_MS_Capabilities SYSTEM "http://localhost:8080/geoserver/schemas/wms/1.1.1/WMS_MS_Capabilities.dtd">'
        in r.text
    )
    root = etree.fromstring(r.content)
    assert root.tag == "WMT_MS_Capabilities" and root.get("version") == "1.1.1"
    assert root.findtext("Service/Name") == "OGC:WMS"
    request = root.find("Capability/Request")
    assert [c.tag for c in request] == [
        "GetCapabilities",
        "GetMap",
        "GetFeatureInfo",
        "DescribeLayer",
        "GetLegendGraphic",
        "GetStyles",
    ]
    href = request.find("GetCapabilities/DCPType/HTTP/Get/OnlineResource").get(
        "{http://www.w3.org/1999/xlink}href"
    )
    assert href == "http://localhost:8080/geoserver/wms?SERVICE=WMS&"
    assert root.find("Capability/UserDefinedSymbolization").attrib == {
        "SupportSLD": "1",
        "UserLayer": "1",
        "UserStyle": "1",
        "RemoteWFS": "1",
    }
    states = _layer_111(root, "topp:states")
    assert [c.tag for c in states][:7] == [
        "Name",
        "Title",
        "Abstract",
        "KeywordList",
        "SRS",
        "LatLonBoundingBox",
        "BoundingBox",
    ]
    bbox = states.find("BoundingBox")
    assert bbox.get("SRS") == "EPSG:4326" and bbox.get("minx") == "-124.73364306703067"
    assert _layer_111(root, "spearfish").find("Style") is None  # 1.1.1 groups have no style


@pytest.mark.parametrize(
    "asked,answered",
    [
        (None, "1.3.0"),
        ("1.1.1", "1.1.1"),
        ("1.1.0", "1.1.1"),
        ("1.0.0", "1.1.1"),
        ("2.0.0", "1.3.0"),
        ("1.2.0", "1.1.1"),
    ],
)
def test_version_negotiation(anon, asked, answered):
    params = {"service": "WMS", "request": "GetCapabilities"}
    if asked:
        params["version"] = asked
    r = anon.get("/ows", params=params)
    assert etree.fromstring(r.content).get("version") == answered


def test_capabilities_follow_catalog_changes_live(client, anon, h):
    add_feature_type(client, "fresh")
    root = h.caps(anon)
    fresh = _layer(root, "topp:fresh")
    assert fresh.findtext("wms:Title", namespaces=NS) == "Title of fresh"
    assert fresh.findtext("wms:Abstract", namespaces=NS) == "Abstract of fresh"
    assert [k.text for k in fresh.iterfind("wms:KeywordList/wms:Keyword", NS)] == ["alpha", "beta"]
    assert fresh.findtext("wms:Style/wms:Name", namespaces=NS) == "generic"

    r = client.put("/rest/layers/topp:fresh", json={"layer": {"enabled": False}})
    assert r.status_code == 200, r.text
    assert "topp:fresh" not in h.layer_names(h.caps(anon))
    client.put("/rest/layers/topp:fresh", json={"layer": {"enabled": True, "advertised": False}})
    assert "topp:fresh" not in h.layer_names(h.caps(anon))
    client.put("/rest/layers/topp:fresh", json={"layer": {"advertised": True}})
    assert "topp:fresh" in h.layer_names(h.caps(anon))
    assert client.delete("/rest/layers/topp:fresh?recurse=true").status_code == 200
    assert "topp:fresh" not in h.layer_names(h.caps(anon))


def test_geometryless_feature_type_is_not_a_map_layer(client, anon, h):
    add_feature_type(
        client,
        "tabular",
        attributes={"attribute": [{"name": "label", "binding": "java.lang.String"}]},
    )
    assert "topp:tabular" not in h.layer_names(h.caps(anon))


def test_workspace_virtual_service_lists_its_layers_unqualified(anon, h):
    root = h.caps(anon, "/topp/wms")
    names = h.layer_names(root)
    assert set(names) == {
        "states",
        "tasmania_cities",
        "tasmania_roads",
        "tasmania_state_boundaries",
        "tasmania_water_bodies",
    }
    href = root.find(".//wms:GetCapabilities//wms:OnlineResource", NS).get(f"{{{NS['xlink']}}}href")
    assert href == "http://localhost:8080/geoserver/topp/ows?SERVICE=WMS&"
    legend = root.find(".//wms:LegendURL/wms:OnlineResource", NS).get(f"{{{NS['xlink']}}}href")
    assert legend.startswith("http://localhost:8080/geoserver/topp/ows?service=WMS&")
    ne = h.layer_names(h.caps(anon, "/ne/ows"))
    assert ne[0] == "world" and "countries" in ne


def test_layer_virtual_service_lists_one_layer(anon, h):
    root = h.caps(anon, "/topp/states/wms")
    assert h.layer_names(root) == ["states"]
    assert h.layer_names(h.caps(anon, "/tasmania/wms")) == ["tasmania"]
    assert h.layer_names(h.caps(anon, "/ne/world/wms"))[0] == "world"


@pytest.mark.parametrize("path", ["/nowhere/wms", "/topp/nothing/wms", "/nowhere/x/wms"])
def test_unknown_virtual_service_is_404(anon, path):
    r = anon.get(path, params={"service": "WMS", "request": "GetCapabilities"})
    assert r.status_code == 404


def test_namespace_parameter_filters(anon, h):
    names = h.layer_names(h.caps(anon, "/wms", namespace="sf"))
    assert names and all(n.startswith("sf:") for n in names)


def test_settings_drive_the_service_section_and_the_root_crs_list(settings, anon, h):
    settings.services[("wms", None)] = {
        "title": "My maps",
        "abstrct": "About my maps",
        "keywords": [{"value": "one", "vocabulary": "voc"}, {"value": "two"}],
        "fees": "free",
        "accessConstraints": None,
        "srs": ["EPSG:4326", "3857"],
        "rootLayerTitle": "Root title",
        "internationalTitle": {"it": "Le mie mappe"},
    }
    settings.global_settings[None] = {"contact": {"contactPerson": "Ann", "contactEmail": "a@b.c"}}
    root = h.caps(anon)
    assert root.get("updateSequence") == "7"
    service = root.find("wms:Service", NS)
    assert service.findtext("wms:Title", namespaces=NS) == "My maps"
    assert service.findtext("wms:Abstract", namespaces=NS) == "About my maps"
    keywords = service.findall("wms:KeywordList/wms:Keyword", NS)
    assert [(k.text, k.get("vocabulary")) for k in keywords] == [("one", "voc"), ("two", None)]
    assert service.findtext("wms:Fees", namespaces=NS) == "free"
    assert service.findtext("wms:AccessConstraints", namespaces=NS) == "NONE"
    contact = service.find("wms:ContactInformation", NS)
    assert contact.findtext(".//wms:ContactPerson", namespaces=NS) == "Ann"
    assert contact.findtext(".//wms:ContactOrganization", namespaces=NS) == ""
    top = root.find("wms:Capability/wms:Layer", NS)
    assert top.findtext("wms:Title", namespaces=NS) == "Root title"
    assert [c.text for c in top.iterfind("wms:CRS", NS)] == ["EPSG:4326", "EPSG:3857", "CRS:84"]
    italian = h.caps(anon, AcceptLanguages="it")
    assert italian.findtext("wms:Service/wms:Title", namespaces=NS) == "Le mie mappe"


def test_a_workspace_service_configuration_applies_to_its_virtual_service(settings, anon, h):
    settings.services[("wms", "topp")] = {"title": "Topp maps"}
    settings.services[("wms", None)] = {"title": "Global maps"}
    assert h.caps(anon, "/topp/wms").findtext("wms:Service/wms:Title", namespaces=NS) == "Topp maps"
    assert h.caps(anon, "/wms").findtext("wms:Service/wms:Title", namespaces=NS) == "Global maps"


def test_update_sequence_parameter(settings, anon, h):
    params = {"service": "WMS", "request": "GetCapabilities", "version": "1.3.0"}
    r = anon.get("/wms", params={**params, "updateSequence": "7"})
    assert h.exception(r)[0] == "CurrentUpdateSequence"
    r = anon.get("/wms", params={**params, "updateSequence": "8"})
    assert h.exception(r)[0] == "InvalidUpdateSequence"
    r = anon.get("/wms", params={**params, "updateSequence": "x"})
    assert h.exception(r)[:2] == ("InvalidParameterValue", "updateSequence")
    assert anon.get("/wms", params={**params, "updateSequence": "6"}).status_code == 200


def test_disabled_service_answers_an_exception(settings, anon, h):
    settings.services[("wms", None)] = {"enabled": False}
    r = anon.get("/wms", params={"service": "WMS", "request": "GetCapabilities"})
    code, _, text = h.exception(r)
    assert code == "ServiceUnavailable" and text == "Service WMS is disabled"


def test_same_requests_give_identical_bytes(anon):
    params = {"service": "WMS", "request": "GetCapabilities"}
    assert anon.get("/ows", params=params).content == anon.get("/ows", params=params).content


TEXT = st.text(
    st.characters(blacklist_categories=("Cs", "Cc", "Cn", "Co"), blacklist_characters="\r"),
    min_size=1,
    max_size=40,
).filter(lambda t: t.strip() == t)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(title=TEXT, abstract=TEXT, keyword=TEXT)
def test_titles_abstracts_and_keywords_round_trip_through_capabilities(
    emu, anon, h, title, abstract, keyword
):
    res = emu.state.catalog.resources[("topp", "states")]
    res.title, res.abstract, res.keywords = title, abstract, [keyword]
    for version in ("1.1.1", "1.3.0"):
        root = h.caps(anon, version=version)
        states = (
            _layer(root, "topp:states") if version == "1.3.0" else _layer_111(root, "topp:states")
        )
        ns = NS if version == "1.3.0" else {}
        p = "wms:" if version == "1.3.0" else ""
        assert states.findtext(f"{p}Title", namespaces=ns) == title
        assert states.findtext(f"{p}Abstract", namespaces=ns) == abstract
        assert [k.text for k in states.iterfind(f"{p}KeywordList/{p}Keyword", ns)] == [keyword]


def test_bbox_for_each_crs_of_the_settings(settings, anon, h):
    settings.services[("wms", None)] = {
        "srs": ["EPSG:4326", "EPSG:3857", "EPSG:2056"],
        "bboxForEachCRS": True,
    }
    root = h.caps(anon)
    states = _layer(root, "topp:states")
    crss = [b.get("CRS") for b in states.iterfind("wms:BoundingBox", NS)]
    assert crss == ["CRS:84", "EPSG:4326", "EPSG:3857", "EPSG:2056"]
    merc = states.findall("wms:BoundingBox", NS)[2]
    assert float(merc.get("minx")) == pytest.approx(-13885285.63, abs=1)
