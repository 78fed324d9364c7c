"""Fields GeoServer keeps and writes back, one test per behaviour (issue: the catalog keeps
every field GeoServer keeps). Bodies are written as GeoServer's docs and controller tests
write them."""

from __future__ import annotations

import hashlib

import pytest
from lxml import etree

BASE = "http://localhost:8080/geoserver/rest"
XML = {"Content-Type": "application/xml"}
JSON = {"Content-Type": "application/json"}


def xml(client, path):
    r = client.get(path)
    assert r.status_code == 200, r.text
    return etree.fromstring(r.content)


# -- workspace metadata ------------------------------------------------------------------------


def test_workspace_keeps_its_metadata_map(client):
    body = (
        "<workspace><name>meta</name><metadata>"
        '<entry key="owner">team-a</entry><entry key="contact">a@example.org</entry>'
        "</metadata></workspace>"
    )
    assert client.post("/rest/workspaces", content=body, headers=XML).status_code == 201
    root = xml(client, "/rest/workspaces/meta.xml")
    assert [(e.get("key"), e.text) for e in root.findall("metadata/entry")] == [
        ("owner", "team-a"),
        ("contact", "a@example.org"),
    ]
    assert [c.tag for c in root][:3] == ["name", "isolated", "metadata"]
    got = client.get("/rest/workspaces/meta.json").json()["workspace"]["metadata"]
    assert got == {
        "entry": [{"@key": "owner", "$": "team-a"}, {"@key": "contact", "$": "a@example.org"}]
    }
    # a PUT replaces the map; one without metadata leaves it alone
    put = {"workspace": {"metadata": {"entry": {"@key": "owner", "$": "team-b"}}}}
    assert client.put("/rest/workspaces/meta", json=put).status_code == 200
    assert client.put("/rest/workspaces/meta", json={"workspace": {}}).status_code == 200
    got = client.get("/rest/workspaces/meta.json").json()["workspace"]["metadata"]
    assert got == {"entry": {"@key": "owner", "$": "team-b"}}


def test_namespace_keeps_its_metadata_map(client):
    body = {
        "namespace": {
            "prefix": "nsmeta",
            "uri": "http://example.org/nsmeta",
            "metadata": {"entry": [{"@key": "k", "$": "v"}]},
        }
    }
    assert client.post("/rest/namespaces", json=body).status_code == 201
    got = client.get("/rest/namespaces/nsmeta.json").json()["namespace"]
    assert got["metadata"] == {"entry": {"@key": "k", "$": "v"}}


# -- layers --------------------------------------------------------------------------------


def test_layer_keeps_default_wms_interpolation_method(client):
    body = "<layer><defaultWMSInterpolationMethod>Bicubic</defaultWMSInterpolationMethod></layer>"
    assert client.put("/rest/layers/topp:states", content=body, headers=XML).status_code == 200
    root = xml(client, "/rest/layers/topp:states.xml")
    assert root.findtext("defaultWMSInterpolationMethod") == "Bicubic"
    tags = [c.tag for c in root]
    assert tags.index("attribution") < tags.index("defaultWMSInterpolationMethod")
    got = client.get("/rest/layers/topp:states.json").json()["layer"]
    assert got["defaultWMSInterpolationMethod"] == "Bicubic"
    # XStream's enum converter: an unknown constant is refused, nothing changes
    bad = "<layer><defaultWMSInterpolationMethod>Lanczos</defaultWMSInterpolationMethod></layer>"
    assert client.put("/rest/layers/topp:states", content=bad, headers=XML).status_code == 400
    assert xml(client, "/rest/layers/topp:states.xml").findtext(
        "defaultWMSInterpolationMethod"
    ) == ("Bicubic")


def test_layer_attribution_keeps_logo_width_and_height(client):
    before = xml(client, "/rest/layers/topp:states.xml")
    assert [(c.tag, c.text) for c in before.find("attribution")] == [
        ("logoWidth", "0"),
        ("logoHeight", "0"),
    ]
    body = (
        "<layer><attribution><title>States</title><href>http://example.org</href>"
        "<logoURL>http://example.org/logo.png</logoURL><logoWidth>101</logoWidth>"
        "<logoHeight>102</logoHeight><logoType>image/png</logoType></attribution></layer>"
    )
    assert client.put("/rest/layers/topp:states", content=body, headers=XML).status_code == 200
    after = xml(client, "/rest/layers/topp:states.xml").find("attribution")
    assert [(c.tag, c.text) for c in after] == [
        ("title", "States"),
        ("href", "http://example.org"),
        ("logoURL", "http://example.org/logo.png"),
        ("logoWidth", "101"),
        ("logoHeight", "102"),
        ("logoType", "image/png"),
    ]
    got = client.get("/rest/layers/topp:states.json").json()["layer"]["attribution"]
    assert (got["logoWidth"], got["logoHeight"]) == (101, 102)


def test_layer_group_keeps_attribution_and_metadata_links(client):
    # LayerGroupControllerTest.testPut
    body = (
        "<layerGroup><attribution><logoWidth>101</logoWidth><logoHeight>102</logoHeight>"
        "</attribution><metadataLinks>"
        "<metadataLink><id>1</id><type>text/html</type><metadataType>FGDC</metadataType>"
        "<content>http://my/metadata/link/1</content></metadataLink>"
        "<metadataLink><id>2</id><type>text/html</type><metadataType>FGDC</metadataType>"
        "<content>http://my/metadata/link/2</content></metadataLink>"
        "</metadataLinks></layerGroup>"
    )
    assert client.put("/rest/layergroups/tasmania", content=body, headers=XML).status_code == 200
    root = xml(client, "/rest/layergroups/tasmania.xml")
    assert root.findtext("attribution/logoWidth") == "101"
    assert root.findtext("attribution/logoHeight") == "102"
    assert [m.findtext("content") for m in root.findall("metadataLinks/metadataLink")] == [
        "http://my/metadata/link/1",
        "http://my/metadata/link/2",
    ]


# -- metadata links on resources ----------------------------------------------------------------

LINKS = (
    "<metadataLinks><metadataLink><type>text/xml</type><metadataType>ISO19115:2003</metadataType>"
    "<content>http://example.org/md.xml</content></metadataLink></metadataLinks>"
)


def test_feature_type_keeps_metadata_links(client):
    path = "/rest/workspaces/topp/datastores/states_shapefile/featuretypes/states"
    body = f"<featureType>{LINKS}</featureType>"
    assert client.put(path, content=body, headers=XML).status_code == 200
    root = xml(client, f"{path}.xml")
    link = root.find("metadataLinks/metadataLink")
    assert [(c.tag, c.text) for c in link] == [
        ("type", "text/xml"),
        ("metadataType", "ISO19115:2003"),
        ("content", "http://example.org/md.xml"),
    ]
    tags = [c.tag for c in root]
    assert tags.index("keywords") < tags.index("metadataLinks") < tags.index("nativeCRS")
    got = client.get(f"{path}.json").json()["featureType"]["metadataLinks"]
    assert got == {
        "metadataLink": {
            "type": "text/xml",
            "metadataType": "ISO19115:2003",
            "content": "http://example.org/md.xml",
        }
    }


def test_coverage_keeps_metadata_links(client):
    path = "/rest/workspaces/nurc/coveragestores/mosaic/coverages/mosaic"
    assert client.put(path, content=f"<coverage>{LINKS}</coverage>", headers=XML).status_code == 200
    root = xml(client, f"{path}.xml")
    assert root.findtext("metadataLinks/metadataLink/content") == "http://example.org/md.xml"


# -- namespaces and workspaces go together ----------------------------------------------------


def test_namespace_delete_removes_its_workspace(client):
    body = {"namespace": {"prefix": "gone", "uri": "http://example.org/gone"}}
    assert client.post("/rest/namespaces", json=body).status_code == 201
    assert client.get("/rest/workspaces/gone.json").status_code == 200
    assert client.delete("/rest/namespaces/gone").status_code == 200
    assert client.get("/rest/namespaces/gone.json").status_code == 404
    assert client.get("/rest/workspaces/gone.json").status_code == 404
    assert "gone" not in client.get("/rest/workspaces.json").text


def test_namespace_delete_refused_while_its_workspace_holds_stores(client):
    # a namespace with resources: 401 "Namespace not empty", both stay
    assert client.delete("/rest/namespaces/topp").status_code == 401
    client.post("/rest/workspaces", json={"workspace": {"name": "keep"}})
    store = {"dataStore": {"name": "s", "connectionParameters": {"entry": []}}}
    assert client.post("/rest/workspaces/keep/datastores", json=store).status_code == 201
    r = client.delete("/rest/namespaces/keep")
    assert r.status_code == 500 and "non-empty workspace" in r.text
    assert client.get("/rest/namespaces/keep.json").status_code == 200
    assert client.get("/rest/workspaces/keep.json").status_code == 200


# -- layer groups ---------------------------------------------------------------------------


def test_layer_group_members_written_as_element_text(client):
    body = (
        "<layerGroup><name>texts</name><publishables>"
        '<published type="layer">topp:states</published>'
        '<published type="layerGroup">tasmania</published>'
        "</publishables><styles><style>population</style><style/></styles></layerGroup>"
    )
    r = client.post("/rest/layergroups", content=body, headers=XML)
    assert r.status_code == 201, r.text
    root = xml(client, "/rest/layergroups/texts.xml")
    assert [
        (p.get("type"), p.findtext("name")) for p in root.findall("publishables/published")
    ] == [
        ("layer", "topp:states"),
        ("layerGroup", "tasmania"),
    ]


def test_layer_group_in_eo_mode_keeps_its_root_layer(client):
    # LayerGroupControllerTest.testPostWithTypeEO: root layer and style as element text
    body = (
        "<layerGroup><name>eo</name><mode>EO</mode><rootLayer>topp:states</rootLayer>"
        "<rootLayerStyle>polygon</rootLayerStyle><layers><layer>tasmania_roads</layer></layers>"
        "<styles><style>line</style></styles></layerGroup>"
    )
    r = client.post("/rest/layergroups", content=body, headers=XML)
    assert r.status_code == 201, r.text
    root = xml(client, "/rest/layergroups/eo.xml")
    assert root.findtext("mode") == "EO"
    assert root.findtext("rootLayer/name") == "topp:states"
    assert root.find("rootLayer/{http://www.w3.org/2005/Atom}link").get("href") == (
        f"{BASE}/workspaces/topp/layers/states.xml"
    )
    assert root.findtext("rootLayerStyle/name") == "polygon"
    tags = [c.tag for c in root]
    assert tags.index("rootLayer") < tags.index("rootLayerStyle") < tags.index("publishables")
    got = client.get("/rest/layergroups/eo.json").json()["layerGroup"]
    assert got["rootLayer"]["name"] == "topp:states"
    # the JSON form, with the root as a reference object
    body = {
        "layerGroup": {
            "name": "eo2",
            "mode": "EO",
            "rootLayer": {"name": "topp:states"},
            "rootLayerStyle": {"name": "polygon"},
            "publishables": {"published": {"@type": "layer", "name": "topp:tasmania_roads"}},
        }
    }
    assert client.post("/rest/layergroups", json=body).status_code == 201
    # the root layer cannot go while the group needs it
    assert client.delete("/rest/layers/topp:states").status_code == 500


def test_layer_group_root_layer_rules_follow_the_mode(client):
    # validateModeMatchesStructure: only EO has a root, and EO needs one and its style
    single = (
        "<layerGroup><name>s</name><rootLayer>topp:states</rootLayer>"
        "<layers><layer>topp:states</layer></layers></layerGroup>"
    )
    r = client.post("/rest/layergroups", content=single, headers=XML)
    assert r.status_code == 500
    assert r.text == "Layer group in mode Single must not have a root layer"
    no_style = (
        "<layerGroup><name>e</name><mode>EO</mode><rootLayer>topp:states</rootLayer>"
        "<layers><layer>topp:states</layer></layers></layerGroup>"
    )
    r = client.post("/rest/layergroups", content=no_style, headers=XML)
    assert r.status_code == 500
    assert r.text == "Layer group in mode Earth Observation Tree must have a root layer style"
    assert client.get("/rest/layergroups/e.json").status_code == 404


# -- xsi:nil --------------------------------------------------------------------------------


def test_xsi_nil_unsets_the_field(client):
    path = "/rest/workspaces/topp/datastores/states_shapefile/featuretypes/states"
    assert xml(client, f"{path}.xml").findtext("abstract")
    body = (
        '<featureType xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">'
        '<abstract xsi:nil="true"/><title>T</title></featureType>'
    )
    assert client.put(path, content=body, headers=XML).status_code == 200
    root = xml(client, f"{path}.xml")
    assert root.find("abstract") is None and root.findtext("title") == "T"
    assert "abstract" not in client.get(f"{path}.json").json()["featureType"]


def test_undeclared_xsi_prefix_is_accepted(client):
    path = "/rest/layers/topp:states"
    client.put(path, content="<layer><path>/a</path></layer>", headers=XML)
    assert xml(client, f"{path}.xml").findtext("path") == "/a"
    body = '<layer><path xsi:nil="true"/><opaque>true</opaque></layer>'
    r = client.put(path, content=body, headers=XML)
    assert r.status_code == 200, r.text
    root = xml(client, f"{path}.xml")
    assert root.find("path") is None and root.findtext("opaque") == "true"


# -- coverages -----------------------------------------------------------------------------


def test_coverage_xml_has_a_grid(client):
    root = xml(
        client, "/rest/workspaces/nurc/coveragestores/arcGridSample/coverages/Arc_Sample.xml"
    )
    grid = root.find("grid")
    assert grid is not None and grid.get("dimension") == "2"
    assert grid.findtext("range/low") == "0 0"
    assert [c.tag for c in grid.find("transform")] == [
        "scaleX",
        "scaleY",
        "shearX",
        "shearY",
        "translateX",
        "translateY",
    ]
    assert grid.findtext("crs") == "EPSG:4326"
    tags = [c.tag for c in root]
    assert tags.index("nativeFormat") < tags.index("grid") < tags.index("supportedFormats")
    cov = client.get(
        "/rest/workspaces/nurc/coveragestores/arcGridSample/coverages/Arc_Sample.json"
    ).json()["coverage"]
    assert cov["grid"]["@dimension"] == "2" and isinstance(
        cov["grid"]["transform"]["scaleX"], float
    )


@pytest.mark.parametrize(
    ("path", "high", "scale", "origin", "crs"),
    [
        ("sf/coveragestores/sfdem/coverages/sfdem", "634 477", ("30.0", "-30.0"),
         ("589995.0", "4927995.0"), "EPSG:26713"),
        ("nurc/coveragestores/arcGridSample/coverages/Arc_Sample", "720 360", ("0.5", "-0.5"),
         ("-179.75", "89.75"), "EPSG:4326"),
        ("nurc/coveragestores/worldImageSample/coverages/Img_Sample", "983 598",
         ("0.07003690742624616", "-0.05586772575250837"),
         ("-130.81666154628687", "54.08616613712375"), "EPSG:4326"),
        ("nurc/coveragestores/img_sample2/coverages/Pk50095", "545 490",
         ("42.34136799999989", "-42.34136800000026"),
         ("347671.1015525911", "5196940.182175256"), "EPSG:32633"),
        ("nurc/coveragestores/mosaic/coverages/mosaic", "250 250",
         ("0.057934032977228433", "-0.04039598061277999"),
         ("6.375141924963005", "46.570568984828704"), "EPSG:4326"),
    ],
)  # fmt: skip
def test_stock_coverages_have_the_release_data_grids(client, path, high, scale, origin, crs):
    """The grids of the release data directory's coverage.xml files, not a made-up size."""
    grid = xml(client, f"/rest/workspaces/{path}.xml").find("grid")
    assert grid.findtext("range/high") == high
    assert (grid.findtext("transform/scaleX"), grid.findtext("transform/scaleY")) == scale
    t = (grid.findtext("transform/translateX"), grid.findtext("transform/translateY"))
    assert t == origin
    assert grid.findtext("crs") == crs


def test_coverage_keeps_a_grid_it_is_given(client):
    path = "/rest/workspaces/nurc/coveragestores/arcGridSample/coverages/Arc_Sample"
    grid = (
        '<grid dimension="2"><range><low>0 0</low><high>634 477</high></range>'
        "<transform><scaleX>30.0</scaleX><scaleY>-30.0</scaleY><shearX>0.0</shearX>"
        "<shearY>0.0</shearY><translateX>589995.0</translateX><translateY>4927995.0</translateY>"
        "</transform><crs>EPSG:26713</crs></grid>"
    )
    assert client.put(path, content=f"<coverage>{grid}</coverage>", headers=XML).status_code == 200
    assert etree.tostring(xml(client, f"{path}.xml").find("grid")).decode() == grid


# -- the workspace page --------------------------------------------------------------------


def test_workspace_html_page_lists_its_stores(client):
    r = client.get("/rest/workspaces/nurc.html")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    for store in ("arcGridSample", "img_sample2", "mosaic", "worldImageSample"):
        assert f'href="{BASE}/workspaces/nurc/coveragestores/{store}.html">{store}</a>' in r.text
    r = client.get("/rest/workspaces/topp.html")
    assert f"{BASE}/workspaces/topp/datastores/states_shapefile.html" in r.text


# -- the stock styles --------------------------------------------------------------------------


def test_stock_popshade_is_the_release_data_directory_copy(client):
    r = client.get("/rest/styles/population.sld")
    assert r.status_code == 200
    assert hashlib.sha256(r.content).hexdigest() == (
        "2236d8882d4f71a94b4748766d367ec8947b2baf697c27b900121bd47063217c"
    )


# -- more of the same: bands, nulls, refusals, scenarios ----------------------------------------


def test_coverage_dimensions_keep_null_values_unit_and_type(client):
    path = "/rest/workspaces/nurc/coveragestores/arcGridSample/coverages/Arc_Sample"
    body = (
        "<coverage><dimensions><coverageDimension><name>precip</name>"
        "<description>GridSampleDimension[-9999.0,-9999.0]</description>"
        "<range><min>-9999.0</min><max>-9999.0</max></range>"
        "<nullValues><double>-9999.0</double></nullValues><unit>mm</unit>"
        "<dimensionType><name>REAL_32BITS</name></dimensionType>"
        "</coverageDimension></dimensions></coverage>"
    )
    assert client.put(path, content=body, headers=XML).status_code == 200
    band = xml(client, f"{path}.xml").find("dimensions/coverageDimension")
    assert [c.tag for c in band] == [
        "name",
        "description",
        "range",
        "nullValues",
        "unit",
        "dimensionType",
    ]
    assert band.findtext("nullValues/double") == "-9999.0"
    got = client.get(f"{path}.json").json()["coverage"]["dimensions"]["coverageDimension"]
    assert got["nullValues"] == {"double": -9999.0}
    assert got["dimensionType"] == {"name": "REAL_32BITS"} and got["unit"] == "mm"


def test_json_null_unsets_like_xsi_nil(client):
    path = "/rest/layers/topp:states"
    body = {"layer": {"attribution": {"title": "x", "logoWidth": 5}, "path": "/p"}}
    assert client.put(path, json=body).status_code == 200
    got = client.get(f"{path}.json").json()["layer"]
    assert got["attribution"] == {"title": "x", "logoWidth": 5, "logoHeight": 0}
    assert client.put(path, json={"layer": {"attribution": None, "path": None}}).status_code == 200
    got = client.get(f"{path}.json").json()["layer"]
    assert got["attribution"] == {"logoWidth": 0, "logoHeight": 0} and "path" not in got


def test_bad_field_value_is_refused_and_nothing_stored(client):
    path = "/rest/layers/topp:states"
    body = (
        "<layer><path>/changed</path><attribution><logoWidth>wide</logoWidth></attribution></layer>"
    )
    r = client.put(path, content=body, headers=XML)
    assert r.status_code == 400 and "logoWidth" in r.text
    root = xml(client, f"{path}.xml")
    assert root.find("path") is None or root.findtext("path") != "/changed"
    r = client.put(
        "/rest/layergroups/tasmania",
        json={"layerGroup": {"metadataLinks": {"metadataLink": "not an object"}}},
    )
    assert r.status_code == 400


def test_eo_group_and_layer_fields_survive_the_scenario_dump(emu, client):
    from geoserver_emulator import Emulator

    body = (
        "<layerGroup><name>eo</name><mode>EO</mode><rootLayer>topp:states</rootLayer>"
        "<rootLayerStyle>polygon</rootLayerStyle><layers><layer>tasmania_roads</layer></layers>"
        "</layerGroup>"
    )
    assert client.post("/rest/layergroups", content=body, headers=XML).status_code == 201
    layer = "<layer><defaultWMSInterpolationMethod>Nearest</defaultWMSInterpolationMethod></layer>"
    assert client.put("/rest/layers/topp:states", content=layer, headers=XML).status_code == 200
    before = (
        client.get("/rest/layergroups/eo.xml").content,
        client.get("/rest/layers/topp:states.xml").content,
    )
    again = Emulator(emu.dump_scenario())
    import httpx

    with httpx.Client(
        transport=httpx.WSGITransport(app=again.wsgi_app),
        base_url="http://localhost:8080/geoserver",
        auth=("admin", "geoserver"),
    ) as other:
        after = (
            other.get("/rest/layergroups/eo.xml").content,
            other.get("/rest/layers/topp:states.xml").content,
        )
    assert after == before


def test_workspace_rename_moves_a_root_layer_reference(client):
    body = (
        "<layerGroup><name>eo</name><mode>EO</mode><rootLayer>topp:states</rootLayer>"
        "<rootLayerStyle>polygon</rootLayerStyle><layers><layer>topp:tasmania_roads</layer>"
        "</layers></layerGroup>"
    )
    assert client.post("/rest/layergroups", content=body, headers=XML).status_code == 201
    r = client.put("/rest/workspaces/topp", json={"workspace": {"name": "topp2"}})
    assert r.status_code == 200
    assert xml(client, "/rest/layergroups/eo.xml").findtext("rootLayer/name") == "topp2:states"


def test_data_links_are_named_after_their_class_with_the_vendor_prefix(client_for):
    from geoserver_emulator import Emulator

    path = "/rest/workspaces/topp/datastores/states_shapefile/featuretypes/states"
    body = (
        "<featureType><dataLinks><org.geoserver.catalog.impl.DataLinkInfoImpl>"
        "<type>text/html</type><content>http://example.org/data</content>"
        "</org.geoserver.catalog.impl.DataLinkInfoImpl></dataLinks></featureType>"
    )
    for prefix in ("org.geoserver", "org.service"):
        client = client_for(emulator=Emulator("stock", vendor_prefix=prefix))
        assert client.put(path, content=body, headers=XML).status_code == 200
        (link,) = xml(client, f"{path}.xml").find("dataLinks")
        assert link.tag == f"{prefix}.catalog.impl.DataLinkInfoImpl"
        assert link.findtext("content") == "http://example.org/data"
        got = client.get(f"{path}.json").json()["featureType"]["dataLinks"]
        assert got == {
            f"{prefix}.catalog.impl.DataLinkInfoImpl": {
                "type": "text/html",
                "content": "http://example.org/data",
            }
        }
        # read back under the other prefix (any single item element)
        other = body.replace("org.geoserver.", "org.service.")
        assert client.put(path, content=other, headers=XML).status_code == 200
        (again,) = xml(client, f"{path}.xml").find("dataLinks")
        assert again.tag == link.tag


def test_coverage_parameters_with_null_values(client):
    path = "/rest/workspaces/nurc/coveragestores/mosaic/coverages/mosaic"
    body = (
        "<coverage><parameters><entry><string>InputTransparentColor</string><null/></entry>"
        "<entry><string>SUGGESTED_TILE_SIZE</string><string>256,256</string></entry>"
        "</parameters></coverage>"
    )
    assert client.put(path, content=body, headers=XML).status_code == 200
    entries = xml(client, f"{path}.xml").findall("parameters/entry")
    assert [[s.text or "" for s in e.findall("string")] for e in entries] == [
        ["InputTransparentColor", ""],
        ["SUGGESTED_TILE_SIZE", "256,256"],
    ]
