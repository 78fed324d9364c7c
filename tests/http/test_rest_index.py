"""``/rest`` and ``/rest/index``: GeoServer's REST index page."""

from __future__ import annotations

import pytest
from lxml import html


@pytest.mark.parametrize(
    "path", ["/rest", "/rest.html", "/rest/index", "/rest/index.html", "/rest/"]
)
def test_the_index_page(client, path):
    r = client.get(path)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert "<title> GeoServer Configuration API </title>" in r.text
    page = html.fromstring(r.content)
    entries = [a.text for a in page.iter("a")]
    assert {"layers", "layergroups", "styles", "workspaces", "crs"} <= set(entries)
    assert "reset" not in entries and "reload" not in entries  # GET endpoints only
    assert entries == sorted(entries)
    assert all("{" not in e for e in entries)
    own = "/rest/index" if "index" in path else "/rest"
    assert (
        page.iter("a").__next__().get("href").startswith(f"http://localhost:8080/geoserver{own}/")
    )


def test_anonymous_gets_401(anon):
    assert anon.get("/rest").status_code == 401
    assert anon.get("/rest/index").status_code == 401


def test_other_formats(client):
    assert client.get("/rest.json").status_code == 404
    assert client.get("/rest", headers={"Accept": "application/json"}).status_code == 406
    assert client.post("/rest").status_code == 405
