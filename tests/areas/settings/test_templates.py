"""Black-box: Freemarker templates at every level, listed in HTML, XML and JSON, and seen
through the resource API."""

from __future__ import annotations

import pytest

PATHS = [
    "/rest/templates/aTemplate.ftl",
    "/rest/workspaces/topp/templates/aTemplate.ftl",
    "/rest/workspaces/topp/datastores/states_shapefile/templates/aTemplate.ftl",
    "/rest/workspaces/topp/datastores/states_shapefile/featuretypes/states/templates/aTemplate.ftl",
    "/rest/workspaces/nurc/coveragestores/mosaic/templates/aTemplate.ftl",
    "/rest/workspaces/nurc/coveragestores/mosaic/coverages/mosaic/templates/aTemplate.ftl",
]
FILES = [
    "templates/aTemplate.ftl",
    "workspaces/topp/aTemplate.ftl",
    "workspaces/topp/states_shapefile/aTemplate.ftl",
    "workspaces/topp/states_shapefile/states/aTemplate.ftl",
    "workspaces/nurc/mosaic/aTemplate.ftl",
    "workspaces/nurc/mosaic/mosaic/aTemplate.ftl",
]


def _index(path, fmt=None):
    base = path.rsplit("/", 1)[0]
    return base + (f".{fmt}" if fmt else "")


@pytest.mark.parametrize(("path", "file"), list(zip(PATHS, FILES, strict=True)))
def test_get_put_get_delete_get(client, emu, path, file):
    name = "aTemplate.ftl"
    assert client.get(path + "?quietOnNotFound=true").status_code == 404
    assert name not in client.get(_index(path)).text
    r = client.put(path, content=b"hello world", headers={"Content-Type": "text/plain"})
    assert r.status_code == 201
    assert emu.state.datadir.read(file) == b"hello world"
    html = client.get(_index(path))
    assert html.headers["content-type"].startswith("text/html")
    assert f'geoserver{path}">{name}</a></li>' in html.text
    assert f"<name>{name}</name>" in client.get(_index(path, "xml")).text
    assert f'{{"name":"{name}"' in client.get(_index(path, "json")).text
    got = client.get(path)
    assert got.status_code == 200 and got.text == "hello world"
    assert client.get("/rest/resource/" + file).content == b"hello world"
    assert client.delete(path).status_code == 200
    assert client.get(path).status_code == 404
    assert name not in client.get(_index(path, "json")).text


def test_update_replaces_the_text(client):
    client.put("/rest/templates/foo.ftl", content=b"hello foo - longer")
    client.put("/rest/templates/bar.ftl", content=b"hello bar")
    client.put("/rest/templates/foo.ftl", content=b"goodbye foo")
    assert client.get("/rest/templates/foo.ftl").text == "goodbye foo"
    assert client.get("/rest/templates/bar.ftl").text == "hello bar"
    listing = client.get("/rest/templates.json").json()
    assert [t["name"] for t in listing["templates"]["template"]] == ["bar.ftl", "foo.ftl"]


@pytest.mark.parametrize(
    "path",
    [
        "/rest/workspaces/nope/templates/a.ftl",
        "/rest/workspaces/topp/datastores/nope/templates/a.ftl",
        "/rest/workspaces/topp/datastores/states_shapefile/featuretypes/nope/templates/a.ftl",
        "/rest/workspaces/nurc/coveragestores/nope/templates/a.ftl",
        "/rest/workspaces/nurc/coveragestores/mosaic/coverages/nope/templates/a.ftl",
        "/rest/templates/a.txt",
    ],
)
def test_missing_parent_or_bad_name_is_404(client, emu, path):
    assert client.put(path, content=b"x").status_code == 404
    assert client.get(path).status_code == 404
    assert not [p for p in emu.state.datadir.files if p.endswith("a.ftl")]


def test_delete_missing_template_is_404(client):
    assert client.delete("/rest/templates/none.ftl").status_code == 404


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE"])
def test_listing_other_methods_405(client, method):
    assert client.request(method, "/rest/templates").status_code == 405


def test_template_post_is_405(client):
    assert client.post("/rest/templates/a.ftl", content=b"x").status_code == 405


def test_templates_survive_a_scenario_dump(client, emu):
    from geoserver_emulator.scenarios import loader

    stock = loader.dump(emu.state)["serverSettings"]["templates"]
    client.put("/rest/workspaces/topp/templates/content.ftl", content=b"${features}")
    doc = loader.dump(emu.state)
    assert doc["serverSettings"]["templates"] == {
        **stock,
        "workspaces/topp/content.ftl": "${features}",
    }
    state = loader.load_document(doc).state()
    assert state.datadir.read("workspaces/topp/content.ftl") == b"${features}"


def test_stock_templates_are_the_release_data_directorys(client):
    """The release data directory ships title.ftl and description.ftl for topp:states."""
    base = "/rest/workspaces/topp/datastores/states_shapefile/featuretypes/states/templates"
    listed = client.get(f"{base}.json").json()["templates"]["template"]
    assert [t["name"] for t in listed] == ["description.ftl", "title.ftl"]
    assert client.get(f"{base}/title.ftl").content == b"${STATE_NAME.value}\n"
    description = client.get(f"{base}/description.ftl").content
    assert description.startswith(b"This is the state of ${STATE_NAME.value}.  \n")
    assert len(description) == 309
    r = client.get("/rest/resource/workspaces/topp/states_shapefile/states/title.ftl")
    assert r.status_code == 200 and r.content == b"${STATE_NAME.value}\n"
