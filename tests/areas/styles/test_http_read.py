"""Black-box reads: style lists, records, bodies, negotiation and every read error."""

from __future__ import annotations

import pytest
from lxml import etree

ATOM = "{http://www.w3.org/2005/Atom}link"
STOCK_GLOBAL = [
    "burg",
    "capitals",
    "cite_lakes",
    "dem",
    "generic",
    "giant_polygon",
    "grass",
    "green",
    "line",
    "poi",
    "point",
    "poly_landmarks",
    "polygon",
    "pophatch",
    "population",
    "rain",
    "raster",
    "restricted",
    "simple_roads",
    "simple_streams",
    "tiger_roads",
]
NE = [
    "boundary_lines",
    "coastline",
    "countries",
    "countries_basemap",
    "disputed",
    "populated_places",
]
BASE = "http://localhost:8080/geoserver/rest"


def names_of(r, fmt: str) -> list[str]:
    if fmt == "json":
        data = r.json()["styles"]
        return [] if data == "" else [s["name"] for s in data["style"]]
    return [el.findtext("name") for el in etree.fromstring(r.content).findall("style")]


@pytest.mark.parametrize("fmt", ["xml", "json"])
def test_global_list_has_the_release_styles(client, fmt):
    r = client.get(f"/rest/styles.{fmt}")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith(f"application/{fmt}")
    assert names_of(r, fmt) == STOCK_GLOBAL


def test_list_links_in_xml_and_json(client):
    first = etree.fromstring(client.get("/rest/styles.xml").content).find("style")
    link = first.find(ATOM)
    assert (link.get("rel"), link.get("href"), link.get("type")) == (
        "alternate",
        f"{BASE}/styles/burg.xml",
        "application/atom+xml",
    )
    assert client.get("/rest/styles.json").json()["styles"]["style"][0] == {
        "name": "burg",
        "href": f"{BASE}/styles/burg.json",
    }


@pytest.mark.parametrize("fmt", ["xml", "json"])
@pytest.mark.parametrize(
    "path", ["/rest/workspaces/ne/styles", "/rest/ne/styles", "/rest/workspaces/default/styles"]
)
def test_workspace_list(client, fmt, path):
    r = client.get(f"{path}.{fmt}")
    assert r.status_code == 200
    assert names_of(r, fmt) == NE


def test_workspace_list_links_point_at_the_workspace_style(client):
    href = client.get("/rest/ne/styles.json").json()["styles"]["style"][0]["href"]
    assert href == f"{BASE}/workspaces/ne/styles/boundary_lines.json"


@pytest.mark.parametrize("fmt", ["xml", "json"])
def test_empty_workspace_list(client, fmt):
    r = client.get(f"/rest/workspaces/topp/styles.{fmt}")
    assert r.status_code == 200
    if fmt == "json":
        assert r.json() == {"styles": ""}
    else:
        assert r.content == b"<styles/>"


def test_list_by_accept_and_default_html(client):
    assert names_of(client.get("/rest/styles", headers={"Accept": "application/json"}), "json")
    r = client.get("/rest/styles")
    assert r.headers["content-type"].startswith("text/html")
    links = etree.fromstring(r.content, etree.HTMLParser()).findall(".//a")
    assert [a.get("href") for a in links][:2] == [
        f"{BASE}/styles/burg.html",
        f"{BASE}/styles/capitals.html",
    ]


@pytest.mark.parametrize(
    "path",
    [
        "/rest/workspaces/nope/styles.xml",
        "/rest/nope/styles.json",
        "/rest/workspaces/nope/styles/x.xml",
    ],
)
def test_missing_workspace_is_404(client, path):
    r = client.get(path)
    assert (r.status_code, r.text) == (404, "Workspace nope not found")


def test_unknown_list_suffix_is_404(client):
    assert client.get("/rest/styles.yaml").status_code == 404


def test_unacceptable_list_format_is_406(client):
    assert client.get("/rest/styles", headers={"Accept": "image/png"}).status_code == 406


@pytest.mark.parametrize("method", ["PUT", "DELETE"])
@pytest.mark.parametrize(
    "path", ["/rest/styles", "/rest/workspaces/ne/styles.xml", "/rest/ne/styles"]
)
def test_list_refuses_put_and_delete(client, method, path):
    r = client.request(method, path)
    assert r.status_code == 405
    assert set(r.headers["allow"].split(", ")) >= {"GET", "POST"}


def test_item_refuses_post(client, h):
    r = h.post(client, "/rest/styles/burg", h.sld(), h.SLD_10)
    assert r.status_code == 405


# -- records ------------------------------------------------------------------------------


def test_record_xml(client):
    r = client.get("/rest/styles/burg.xml")
    assert r.status_code == 200
    assert r.content == (
        b"<style><name>burg</name><format>sld</format><languageVersion>"
        b"<version>1.0.0</version></languageVersion><filename>burg.sld</filename></style>"
    )


def test_record_json(client):
    assert client.get("/rest/styles/population.json").json() == {
        "style": {
            "name": "population",
            "format": "sld",
            "languageVersion": {"version": "1.0.0"},
            "filename": "popshade.sld",
        }
    }


@pytest.mark.parametrize("fmt", ["xml", "json"])
def test_workspace_record_names_its_workspace(client, fmt):
    r = client.get(f"/rest/workspaces/ne/styles/countries.{fmt}")
    if fmt == "json":
        assert r.json()["style"]["workspace"] == {"name": "ne"}
    else:
        assert etree.fromstring(r.content).findtext("workspace/name") == "ne"


def test_global_record_has_no_workspace(client):
    assert etree.fromstring(client.get("/rest/styles/point.xml").content).find("workspace") is None
    assert "workspace" not in client.get("/rest/styles/point.json").json()["style"]


def test_record_by_accept_and_html_default(client):
    assert (
        client.get("/rest/styles/burg", headers={"Accept": "application/json"}).json()["style"][
            "name"
        ]
        == "burg"
    )
    r = client.get("/rest/styles/burg")
    assert r.headers["content-type"].startswith("text/html")
    assert b"burg.sld" in r.content


def test_global_path_does_not_find_a_workspace_style(client):
    r = client.get("/rest/styles/countries.xml")
    assert (r.status_code, r.text) == (404, "No such style: countries")


@pytest.mark.parametrize("fmt", ["xml", "json", "html", "sld"])
def test_missing_style_messages(client, fmt):
    assert client.get(f"/rest/styles/nope.{fmt}").text == "No such style: nope"
    r = client.get(f"/rest/workspaces/ne/styles/nope.{fmt}")
    assert (r.status_code, r.text) == (404, "No such style nope in workspace ne")


def test_quiet_on_not_found(client):
    r = client.get("/rest/styles/nope.xml", params={"quietOnNotFound": "true"})
    assert (r.status_code, r.content) == (404, b"")


# -- bodies -------------------------------------------------------------------------------


def test_body_by_extension_is_the_stored_file(client, emu):
    r = client.get("/rest/styles/simple_roads.sld")
    assert r.status_code == 200
    assert r.headers["content-type"] == "application/vnd.ogc.sld+xml"
    assert r.content == emu.state.datadir.read("styles/simpleRoads.sld")
    assert etree.fromstring(r.content).tag == "{http://www.opengis.net/sld}StyledLayerDescriptor"


def test_body_by_accept(client, emu, h):
    r = client.get("/rest/workspaces/ne/styles/countries", headers={"Accept": h.SLD_10})
    assert r.content == emu.state.datadir.read("workspaces/ne/styles/countries.sld")


def test_sld_10_style_asked_as_se_is_converted(client, h):
    r = client.get("/rest/styles/green", headers={"Accept": h.SLD_11})
    assert r.status_code == 200
    assert r.headers["content-type"] == h.SLD_11
    root = etree.fromstring(r.content)
    assert root.get("version") == "1.1.0"
    assert root.find(".//{http://www.opengis.net/se}SvgParameter") is not None


def test_extension_wins_over_accept(client, h):
    r = client.get("/rest/styles/green.sld", headers={"Accept": h.SLD_11})
    assert etree.fromstring(r.content).get("version") == "1.0.0"


def test_body_as_zip_is_406(client):
    r = client.get("/rest/styles/burg.zip")
    assert r.status_code == 406
    assert client.get("/rest/styles/burg", headers={"Accept": "application/zip"}).status_code == 406


def test_sld_style_as_css_is_406(client, h):
    assert client.get("/rest/styles/burg.css").status_code == 406
    assert client.get("/rest/styles/burg", headers={"Accept": h.CSS}).status_code == 406


def test_unacceptable_item_format_is_406(client):
    assert client.get("/rest/styles/burg", headers={"Accept": "image/png"}).status_code == 406


def test_record_without_a_file_has_no_body(client, h):
    h.post(client, "/rest/styles", h.record("xml", name="empty", filename="empty.sld"), "text/xml")
    r = client.get("/rest/styles/empty.sld")
    assert r.status_code == 404
    assert "no style file" in r.text


# -- a layer's styles -----------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["xml", "json"])
def test_layer_styles(client, fmt):
    r = client.get(f"/rest/layers/topp:states/styles.{fmt}")
    assert r.status_code == 200
    assert names_of(r, fmt) == ["pophatch", "polygon"]


def test_layer_styles_links(client):
    style = client.get("/rest/layers/topp:states/styles.json").json()["styles"]["style"][0]
    assert style["href"] == f"{BASE}/layers/topp:states/styles/pophatch.json"


def test_layer_styles_of_a_missing_layer(client):
    r = client.get("/rest/layers/topp:nope/styles.json")
    assert (r.status_code, r.text) == (404, "No such layer: topp:nope")


# -- access -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path", ["/rest/styles.json", "/rest/styles/burg.sld", "/rest/ne/styles.xml"]
)
def test_anonymous_is_401_and_non_admin_403(anon, reader, path):
    assert anon.get(path).status_code == 401
    assert reader.get(path).status_code == 403


@pytest.mark.parametrize(
    "path",
    [
        "/rest/layers/styles",
        "/rest/resource/styles",
        "/rest/workspaces/styles",
        "/rest/layergroups/styles.xml",
    ],
)
def test_spec_route_does_not_shadow_other_resources(client, path):
    r = client.get(path)
    assert "Workspace" not in r.text  # the spec's /rest/<ws>/styles did not take the request
