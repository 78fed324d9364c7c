"""The OGC API Features documents over HTTP: landing page, conformance, OpenAPI, collections,
one collection, queryables, functions; in JSON, YAML and HTML; in the global service and the
virtual services; installed only with the extension."""

from __future__ import annotations

import re

import pytest
import yaml
from lxml import html as lxml_html

from geoserver_emulator import Emulator

BASE = "http://localhost:8080/geoserver"


def test_not_installed_is_404_as_on_a_stock_install(client_for):
    c = client_for(emulator=Emulator("stock"))
    assert c.get("/ogc/features/v1").status_code == 404
    assert c.get("/ogc/features/v1/collections").status_code == 404


@pytest.mark.parametrize(
    "path", ["/ogc/features/v1", "/ogc/features/v1/", "/ogc/features/v1?f=json"]
)
def test_landing_page(anon, emu, path):
    r = anon.get(path)
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    doc = r.json()
    assert list(doc) == ["title", "description", "links"]
    assert doc["title"] == emu.state.settings.service("wfs")["title"]
    assert len(doc["links"]) == 15
    own = [x for x in doc["links"] if re.search(r"ogc/features/v1/\?", x["href"])]
    assert [(x["rel"], x["type"]) for x in own] == [
        ("self", "application/json"),
        ("alternate", "application/yaml"),
        ("alternate", "text/html"),
    ]
    api = [x["rel"] for x in doc["links"] if "/openapi" in x["href"]]
    assert api == ["service-desc", "service-desc", "service-doc"]
    openapi = next(x for x in doc["links"] if x["type"].startswith("application/vnd.oai"))
    assert openapi["href"] == (
        f"{BASE}/ogc/features/v1/openapi?f=application%2Fvnd.oai.openapi%2Bjson%3Bversion%3D3.0"
    )
    assert [x["rel"] for x in doc["links"] if "/conformance" in x["href"]] == ["conformance"] * 3
    assert [x["rel"] for x in doc["links"] if "/collections" in x["href"]] == ["data"] * 3
    functions = [x["rel"] for x in doc["links"] if "/functions" in x["href"]]
    assert functions == ["http://www.opengis.net/def/rel/ogc/1.0/functions"] * 3
    links = r.headers.get_list("link")
    assert (
        f'<{BASE}/ogc/features/v1/?f=application%2Fyaml>; rel="alternate"; '
        'type="application/yaml"; title="This document as application/yaml"'
    ) in links
    assert (
        f'<{BASE}/ogc/features/v1/?f=application%2Fjson>; rel="self"; type="application/json"; '
        'title="This document"'
    ) in links


def test_landing_page_title_falls_back(anon, client):
    r = client.put("/rest/services/wfs/settings", json={"wfs": {"title": "", "abstrct": ""}})
    assert r.status_code == 200
    doc = anon.get("/ogc/features/v1").json()
    assert (doc["title"], doc["description"]) == ("Features 1.0 server", "")


def test_landing_page_yaml_and_html(anon):
    r = anon.get("/ogc/features/v1", params={"f": "application/yaml"})
    assert r.status_code == 200 and r.headers["content-type"] == "application/yaml"
    doc = yaml.safe_load(r.text)
    own = [x for x in doc["links"] if re.search(r"ogc/features/v1/\?", x["href"])]
    assert [x["rel"] for x in own if x["type"] == "application/yaml"] == ["self"]
    assert [x["rel"] for x in own if x["type"] != "application/yaml"] == ["alternate"] * 2
    page = lxml_html.fromstring(anon.get("/ogc/features/v1", params={"f": "html"}).content)
    assert page.get_element_by_id("htmlCollectionsLink").get("href") == (
        f"{BASE}/ogc/features/v1/collections?f=text%2Fhtml"
    )
    assert page.get_element_by_id("htmlApiLink").get("href") == (
        f"{BASE}/ogc/features/v1/openapi?f=text%2Fhtml"
    )
    assert page.get_element_by_id("htmlConformanceLink").get("href") == (
        f"{BASE}/ogc/features/v1/conformance?f=text%2Fhtml"
    )


def test_accept_header_chooses_html(anon):
    browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
    r = anon.get("/ogc/features/v1/conformance", headers={"Accept": browser})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    r = anon.get("/ogc/features/v1/conformance", headers={"Accept": "application/yaml"})
    assert r.headers["content-type"] == "application/yaml"


@pytest.mark.parametrize(
    ("params", "headers"),
    [({"f": "application/xml"}, {}), ({"f": "foo"}, {}), ({}, {"Accept": "image/png"})],
)
def test_unsupported_format_is_406(anon, params, headers):
    r = anon.get("/ogc/features/v1/conformance", params=params, headers=headers)
    assert r.status_code == 406 and r.headers["content-type"] == "application/json"
    assert set(r.json()) == {"code", "description"}


def test_workspace_and_layer_virtual_services(anon, prims):
    page = lxml_html.fromstring(anon.get("/sf/ogc/features/v1", params={"f": "html"}).content)
    assert page.get_element_by_id("htmlCollectionsLink").get("href") == (
        f"{BASE}/sf/ogc/features/v1/collections?f=text%2Fhtml"
    )
    ws = anon.get("/sf/ogc/features/v1/collections").json()
    assert "prims" in [c["id"] for c in ws["collections"]]
    assert all(":" not in c["id"] for c in ws["collections"])
    layer = anon.get("/sf/prims/ogc/features/v1/collections").json()
    assert [c["id"] for c in layer["collections"]] == ["prims"]
    assert layer["links"][0]["href"].startswith(f"{BASE}/sf/prims/ogc/features/v1/collections/?")
    assert anon.get("/sf/ogc/features/v1/collections/topp:states").status_code == 404
    assert anon.get("/nope/ogc/features/v1").status_code == 404
    assert anon.get("/sf/nope/ogc/features/v1").status_code == 404


def test_a_global_group_lists_its_feature_types(anon, emu):
    group = next(g for g in emu.state.catalog.layer_groups.values() if g.workspace is None)
    r = anon.get(f"/{group.name}/ogc/features/v1/collections")
    assert r.status_code == 200, r.text
    members = {f"{m.workspace}:{m.name}" for m in group.publishables if m.kind == "layer"}
    listed = {c["id"] for c in r.json()["collections"]}
    assert listed and listed <= members


def test_conformance_document(anon):
    r = anon.get("/ogc/features/v1/conformance")
    doc = r.json()
    assert list(doc) == ["links", "conformsTo"]
    assert "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core" in doc["conformsTo"]
    page = lxml_html.fromstring(anon.get("/ogc/features/v1/conformance?f=html").content)
    assert page.get_element_by_id("title").text_content() == (
        "GeoServer OGC API Features Conformance"
    )
    shown = [li.text_content() for li in page.get_element_by_id("content").iter("li")]
    assert shown == doc["conformsTo"]


def test_collections_document(anon, emu, prims):
    r = anon.get("/ogc/features/v1/collections")
    assert r.status_code == 200
    doc = r.json()
    assert list(doc) == ["links", "collections", "crs"]
    assert doc["links"][0]["href"] == f"{BASE}/ogc/features/v1/collections/?f=application%2Fjson"
    got = [c["id"] for c in doc["collections"]]
    assert got == sorted(got) and "sf:prims" in got and "topp:states" in got
    catalog = emu.state.catalog
    coverages = {
        f"{ws}:{n}" for (ws, n), res in catalog.resources.items() if res.kind == "coverage"
    }
    assert not coverages & set(got)
    assert doc["crs"][0] == "http://www.opengis.net/def/crs/OGC/1.3/CRS84"
    assert "http://www.opengis.net/def/crs/EPSG/0/3857" in doc["crs"]
    states = next(c for c in doc["collections"] if c["id"] == "topp:states")
    assert states["crs"] == ["#/crs"]
    assert states["storageCrs"] == "http://www.opengis.net/def/crs/OGC/1.3/CRS84"
    html = anon.get("/ogc/features/v1/collections", params={"f": "html"})
    assert html.status_code == 200 and 'id="topp__states"' in html.text


def test_one_collection(anon, emu):
    r = anon.get("/ogc/features/v1/collections/topp:states")
    assert r.status_code == 200
    doc = r.json()
    assert list(doc)[:5] == ["id", "title", "description", "extent", "links"]
    res = emu.state.catalog.resources[("topp", "states")]
    assert (doc["id"], doc["title"], doc["description"]) == ("topp:states", res.title, res.abstract)
    box = res.latlon_bbox
    west, south, east, north = doc["extent"]["spatial"]["bbox"][0]
    assert west <= box.minx and south <= box.miny and east >= box.maxx and north >= box.maxy
    assert east - box.maxx < 1e-8 and box.minx - west < 1e-8
    assert doc["extent"]["spatial"]["crs"] == "http://www.opengis.net/def/crs/OGC/1.3/CRS84"
    items = [x for x in doc["links"] if x["rel"] == "items"]
    assert items[0]["type"] == "application/geo+json"
    assert items[0]["href"] == (
        f"{BASE}/ogc/features/v1/collections/topp:states/items?f=application%2Fgeo%2Bjson"
    )
    described = next(x for x in doc["links"] if x["rel"] == "describedBy")
    assert described["href"] == (
        f"{BASE}/wfs?service=WFS&version=2.0&request=DescribeFeatureType&typenames=topp%3Astates"
    )
    queryables = [x for x in doc["links"] if x["rel"].endswith("/queryables")]
    assert [x["type"] for x in queryables] == [
        "application/schema+json",
        "application/yaml",
        "text/html",
    ]
    assert doc["crs"][0] == "http://www.opengis.net/def/crs/OGC/1.3/CRS84"
    assert len(doc["crs"]) > 1000  # the EPSG database: the WFS settings list no SRS
    yaml_doc = yaml.safe_load(anon.get(r.url, params={"f": "yaml"}).text)
    assert yaml_doc == {**doc, "links": yaml_doc["links"]}


def test_the_wfs_srs_list_is_the_crs_list(anon, client):
    r = client.put("/rest/services/wfs/settings", json={"wfs": {"srs": {"string": ["3857"]}}})
    assert r.status_code == 200, r.text
    doc = anon.get("/ogc/features/v1/collections/topp:states").json()
    assert doc["crs"] == [
        "http://www.opengis.net/def/crs/OGC/1.3/CRS84",
        "http://www.opengis.net/def/crs/EPSG/0/3857",
    ]


def test_time_extent_from_the_time_dimension(anon, client, prims):
    dim = {"dimensionInfo": {"enabled": True, "attribute": "dateProperty"}}
    body = {"featureType": {"metadata": {"entry": [{"@key": "time", **dim}]}}}
    r = client.put("/rest/workspaces/sf/datastores/prims/featuretypes/prims", json=body)
    assert r.status_code == 200, r.text
    doc = anon.get("/ogc/features/v1/collections/sf:prims").json()
    assert doc["extent"]["temporal"] == {
        "interval": [["2006-09-01T00:00:00Z", "2007-01-01T00:00:00Z"]],
        "trs": "http://www.opengis.net/def/uom/ISO-8601/0/Gregorian",
    }


def test_unknown_collection_is_404(anon):
    for path in ("", "/items", "/queryables", "/items/x.1"):
        r = anon.get(f"/ogc/features/v1/collections/NonExistentCollection{path}")
        assert r.status_code == 404
        assert r.json() == {
            "code": "NotFound",
            "description": "Unknown collection NonExistentCollection",
        }
    assert anon.get("/ogc/features/v1/collections/nurc:Arc_Sample").status_code == 404


def test_unknown_resource_is_404(anon):
    r = anon.get("/ogc/features/v1/notThere")
    assert r.status_code == 404
    assert r.json() == {
        "code": "ResourceNotFound",
        "description": "No mapping for GET /geoserver/ogc/features/v1/notThere",
    }
    assert anon.post("/ogc/features/v1/collections").status_code == 405


def test_queryables(anon, prims):
    for query in ({}, {"f": "application/schema+json"}):
        r = anon.get(f"/ogc/features/v1/collections/{prims}/queryables", params=query)
        assert r.status_code == 200 and r.headers["content-type"] == "application/schema+json"
        doc = r.json()
        assert doc["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert doc["$id"] == f"{BASE}/ogc/features/v1/collections/sf%3Aprims/queryables"
        assert doc["type"] == "object"
        props = doc["properties"]
        assert props["pointProperty"] == {"title": "Point", "format": "geometry-point"}
        assert (props["name"]["type"], props["name"]["title"]) == ("string", "string")
        assert props["intProperty"]["type"] == "integer"
        assert props["booleanProperty"]["type"] == "boolean"
        assert props["dateProperty"]["format"] == "date-time"
        rels = sorted((x["rel"], x["type"]) for x in doc["links"])
        assert rels == [
            ("alternate", "application/yaml"),
            ("alternate", "text/html"),
            ("self", "application/schema+json"),
        ]
    r = anon.get(
        f"/ogc/features/v1/collections/{prims}/queryables",
        headers={"Accept": "application/schema+json"},
    )
    assert r.status_code == 200
    page = lxml_html.fromstring(
        anon.get("/sf/ogc/features/v1/collections/prims/queryables?f=html").content
    )
    first = page.get_element_by_id("queryables").find("li")
    assert first.text_content() == "name: string"


def test_queryables_of_a_shapefile_carry_lengths(anon, emu):
    doc = anon.get("/ogc/features/v1/collections/topp:states/queryables").json()
    assert doc["properties"]["the_geom"]["format"] == "geometry-multipolygon"
    assert doc["title"] == emu.state.catalog.resources[("topp", "states")].title


def test_functions(anon, client, h):
    doc = anon.get("/ogc/features/v1/functions").json()
    assert "strToLowerCase" in [f["name"] for f in doc["functions"]]
    assert anon.get("/ogc/features/v1/functions?f=html").status_code == 200
    h.put_wfs_metadata(
        client, '<entry key="cql2"><cql2><functions>false</functions></cql2></entry>'
    )
    r = anon.get("/ogc/features/v1/functions")
    assert r.status_code == 404
    assert r.json()["description"] == "Functions not supported by the service."
    links = anon.get("/ogc/features/v1").json()["links"]
    assert not [x for x in links if "/functions" in x["href"]]


def test_openapi(anon, client, h, prims):
    r = anon.get("/ogc/features/v1/openapi")
    assert r.status_code == 200
    assert r.headers["content-type"] == "application/vnd.oai.openapi+json;version=3.0"
    doc = r.json()
    assert doc["openapi"].startswith("3.0")
    assert "/collections/{collectionId}/items" in doc["paths"]
    assert "/collections/{collectionId}/search" not in doc["paths"]
    assert "sf:prims" in doc["components"]["parameters"]["collectionId"]["schema"]["enum"]
    limit = doc["components"]["parameters"]["limit"]["schema"]
    assert limit["maximum"] == limit["default"] == 1000000
    params = [
        p["$ref"].rsplit("/", 1)[-1]
        for p in doc["paths"]["/collections/{collectionId}/items"]["get"]["parameters"]
    ]
    assert "filter" in params and "sortby" not in params
    assert yaml.safe_load(anon.get("/ogc/features/v1/openapi.yaml").text) == doc
    assert anon.get("/ogc/features/v1/openapi.json").json() == doc
    assert (
        anon.get("/ogc/features/v1/openapi?f=html").headers["content-type"].startswith("text/html")
    )
    h.put_wfs_metadata(client, h.switch(search=True, sortBy=True))
    doc = anon.get("/ogc/features/v1/openapi").json()
    assert "/collections/{collectionId}/search" in doc["paths"]
    params = [
        p["$ref"].rsplit("/", 1)[-1]
        for p in doc["paths"]["/collections/{collectionId}/items"]["get"]["parameters"]
    ]
    assert "sortby" in params


def test_disabled_wfs_answers_404(anon, client):
    r = client.put("/rest/services/wfs/settings", json={"wfs": {"enabled": False}})
    assert r.status_code == 200
    r = anon.get("/ogc/features/v1")
    assert r.status_code == 404 and "Service Features is disabled" in r.text


def test_a_layer_disabling_the_service_hides_it(anon, client, prims):
    assert anon.get("/sf/prims/ogc/features/v1?f=html").status_code == 200
    body = {
        "featureType": {"serviceConfiguration": True, "disabledServices": {"string": ["features"]}}
    }
    r = client.put("/rest/workspaces/sf/datastores/prims/featuretypes/prims", json=body)
    assert r.status_code == 200, r.text
    assert anon.get("/sf/prims/ogc/features/v1?f=html").status_code == 404
    ids = [c["id"] for c in anon.get("/ogc/features/v1/collections").json()["collections"]]
    assert "sf:prims" not in ids
    assert anon.get("/ogc/features/v1/collections/sf:prims").status_code == 404
