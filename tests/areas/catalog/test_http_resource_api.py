"""``/rest/resource`` over the emulated data directory."""

from __future__ import annotations

import pytest
from lxml import etree

BASE = "http://localhost:8080/geoserver/rest"
ATOM = "{http://www.w3.org/2005/Atom}link"


@pytest.fixture
def files(emu):
    dd = emu.state.datadir
    dd.write("mydir/myres", b"This is my test.", 0.0)
    dd.write("mydir2/fake.png", b"This is not a real png file.", 0.0)
    dd.write("mydir2/myres.xml", b"<a/>", 0.0)
    dd.write("mydir2/myres.json", b"{}", 0.0)
    dd.write("mydir2/imagewithoutextension", b"\x89PNG\r\n\x1a\n...", 0.0)
    dd.write("mydir3/test.html", b"<html/>", 0.0)
    dd.mkdir("emptyDir")
    return dd


def test_file_contents_and_headers(client, files):
    r = client.get("/rest/resource/mydir/myres")
    assert r.status_code == 200 and r.text == "This is my test."
    r = client.get("/rest/resource/mydir2/fake.png")
    assert r.headers["content-type"] == "image/png"
    assert r.headers["location"] == f"{BASE}/resource/mydir2/fake.png"
    assert r.headers["resource-parent"] == f"{BASE}/resource/mydir2"
    assert r.headers["resource-type"] == "resource"
    assert r.headers["content-disposition"] == 'attachment; filename="fake.png"'
    assert r.headers["last-modified"].endswith(" GMT")
    assert (
        client.get("/rest/resource/mydir3/test.html")
        .headers["content-type"]
        .startswith("text/plain")
    )


def test_head(client, files):
    r = client.head("/rest/resource/mydir2/fake.png")
    assert r.status_code == 200 and r.content == b""
    assert r.headers["resource-type"] == "resource"


def test_directory_xml(client, files):
    r = client.get("/rest/resource/mydir?format=xml")
    assert r.headers["content-type"].startswith("application/xml")
    assert r.headers["resource-type"] == "directory"
    assert r.headers["resource-parent"] == f"{BASE}/resource/"
    root = etree.fromstring(r.content)
    assert root.tag == "ResourceDirectory"
    assert root.findtext("name") == "mydir"
    assert root.find("parent").findtext("path") == ""
    assert root.find("parent").find(ATOM).get("href") == f"{BASE}/resource/"
    child = root.find("children").find("child")
    assert child.findtext("name") == "myres"
    assert child.find(ATOM).get("href") == f"{BASE}/resource/mydir/myres"
    assert child.find(ATOM).get("type") == "application/octet-stream"


def test_directory_json_shapes(client, files):
    doc = client.get("/rest/resource/mydir?format=json").json()["ResourceDirectory"]
    assert doc["parent"] == {
        "path": "",
        "link": {"href": f"{BASE}/resource/", "rel": "alternate", "type": "application/json"},
    }
    assert doc["children"]["child"] == [
        {
            "name": "myres",
            "link": {
                "href": f"{BASE}/resource/mydir/myres",
                "rel": "alternate",
                "type": "application/octet-stream",
            },
        }
    ]
    types = {
        c["name"]: c["link"]["type"]
        for c in client.get("/rest/resource/mydir2?format=json").json()["ResourceDirectory"][
            "children"
        ]["child"]
    }
    assert types == {
        "fake.png": "image/png",
        "imagewithoutextension": "image/png",
        "myres.json": "application/json",
        "myres.xml": "application/xml",
    }
    empty = client.get("/rest/resource/emptyDir?format=json").json()["ResourceDirectory"]
    assert "children" not in empty and empty["name"] == "emptyDir"


def test_root_and_html(client, files):
    root = etree.fromstring(client.get("/rest/resource?format=xml").content)
    assert root.findtext("name") == "" and root.find("parent") is None
    names = [c.findtext("name") for c in root.find("children")]
    assert {"mydir", "mydir2", "emptyDir"} <= set(names)
    r = client.get("/rest/resource/mydir")
    assert r.headers["content-type"].startswith("text/html")
    assert "Name: 'mydir'" in r.text and f"{BASE}/resource/mydir/myres" in r.text


def test_metadata(client, files):
    doc = client.get("/rest/resource/mydir/myres?operation=METADATA&format=json").json()[
        "ResourceMetadata"
    ]
    assert doc["name"] == "myres" and doc["type"] == "resource"
    assert doc["parent"]["path"] == "mydir"
    assert doc["parent"]["link"]["href"] == f"{BASE}/resource/mydir"
    root = etree.fromstring(
        client.get("/rest/resource/mydir2/myres.xml?operation=metadata&format=xml").content
    )
    assert root.tag == "ResourceMetadata"


def test_put_copy_move_delete(client, files):
    r = client.put("/rest/resource/mydir/new", content=b"hello")
    assert r.status_code == 201
    assert client.put("/rest/resource/mydir/new", content=b"again").status_code == 200
    assert client.get("/rest/resource/mydir/new").text == "again"
    assert (
        client.put("/rest/resource/mydir/copy?operation=copy", content=b"/mydir/myres").status_code
        == 201
    )
    assert client.get("/rest/resource/mydir/copy").text == "This is my test."
    assert client.put("/rest/resource/moved?operation=move", content=b"/mydir2").status_code == 201
    assert client.get("/rest/resource/moved/fake.png").status_code == 200
    assert client.get("/rest/resource/mydir2/fake.png").status_code == 404
    assert client.delete("/rest/resource/moved").status_code == 200
    assert client.get("/rest/resource/moved?format=json").status_code == 404


def test_errors(client, files):
    r = client.get("/rest/resource/doesntexist")
    assert r.status_code == 404 and r.text == "Undefined resource path."
    r = client.delete("/rest/resource/doesntexist")
    assert r.status_code == 404 and r.text == "Resource 'doesntexist' not found"
    r = client.put("/rest/resource/mydir", content=b"x")
    assert r.status_code == 405 and r.text == "Attempting to write data to a directory."
    r = client.put("/rest/resource/newdir?operation=copy", content=b"/mydir")
    assert r.status_code == 405 and r.text == "Cannot copy directory."
    r = client.put("/rest/resource/x?operation=move", content=b"/doesntexist")
    assert r.status_code == 404 and r.text == "Unable to locate 'doesntexist'."
    assert client.post("/rest/resource/mydir", content=b"x").status_code == 405
    assert client.get("/rest/resource/../etc/passwd").status_code in (400, 404)


def test_files_written_by_other_areas_show_up(client, emu):
    emu.state.datadir.write("workspaces/ne/styles/orphan.sld", b"<StyledLayerDescriptor/>", 0.0)
    doc = client.get("/rest/resource/workspaces/ne/styles?format=json").json()["ResourceDirectory"]
    names = [c["name"] for c in doc["children"]["child"]]
    assert "orphan.sld" in names and names == sorted(names)
    assert (
        client.get("/rest/resource/workspaces/ne/styles/orphan.sld").content
        == b"<StyledLayerDescriptor/>"
    )


def test_anonymous_is_refused(anon, files):
    assert anon.get("/rest/resource/mydir/myres").status_code == 401
