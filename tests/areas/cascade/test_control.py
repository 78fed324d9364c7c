"""``/__emulator/remote``: registering the documents remote servers answer with."""

from __future__ import annotations

from .conftest import WMS_URL, payload


def test_register_list_read_forget(client):
    assert client.get("/__emulator/remote").json() == {"remotes": []}
    r = client.put("/__emulator/remote", params={"url": WMS_URL}, content=payload("wms130.xml"))
    assert r.status_code == 204
    assert client.get("/__emulator/remote").json() == {
        "remotes": [
            {
                "url": WMS_URL,
                "size": len(payload("wms130.xml")),
                "service": "WMS",
                "version": "1.3.0",
                "layers": ["topp:states", "world4326", "anotherLayer"],
            }
        ]
    }
    same = "HTTP://MAPS.example.com/geoserver/wms?service=wms"
    r = client.get("/__emulator/remote", params={"url": same})
    assert r.status_code == 200 and r.content == payload("wms130.xml")
    assert client.delete("/__emulator/remote", params={"url": same}).status_code == 204
    r = client.delete("/__emulator/remote", params={"url": same})
    assert r.status_code == 404 and "Nothing is registered" in r.json()["error"]
    assert client.get("/__emulator/remote", params={"url": same}).status_code == 404


def test_refusals(client, anon):
    r = client.put("/__emulator/remote", content=payload("wms130.xml"))
    assert r.status_code == 400 and r.json() == {"error": "Missing query parameter url"}
    broken = b"<WMS_Capabilities version='1.3.0'><Capability>"  # a capabilities root, cut off
    r = client.put("/__emulator/remote", params={"url": "http://x/"}, content=broken)
    assert r.status_code == 400
    r = client.put(
        "/__emulator/remote", params={"url": "http://x/"}, content=b"<WMS_Capabilities>\xff"
    )
    assert r.status_code == 400
    assert client.get("/__emulator/remote").json() == {"remotes": []}
    assert anon.get("/__emulator/remote").status_code == 401
    assert client.post("/__emulator/remote").status_code == 405


def test_reset_forgets_registered_documents(client, emu):
    client.put("/__emulator/remote", params={"url": WMS_URL}, content=payload("wms130.xml"))
    assert client.post("/__emulator/reset").status_code == 204
    assert client.get("/__emulator/remote").json() == {"remotes": []}


def test_other_content_is_kept_for_url_uploads_and_listed_beside(client):
    """A body that is no capabilities document is what ``url.`` uploads of that exact URL
    read; a cascaded store's server does not answer with it."""
    client.put("/__emulator/remote", params={"url": WMS_URL}, content=payload("wms130.xml"))
    r = client.put("/__emulator/remote", params={"url": "http://x/data.zip"}, content=b"<html/>")
    assert r.status_code == 204
    listed = client.get("/__emulator/remote").json()["remotes"]
    assert [e["url"] for e in listed] == sorted(["http://x/data.zip", WMS_URL])
    assert {"url": "http://x/data.zip", "size": 7} in listed
    assert (
        client.get("/__emulator/remote", params={"url": "http://x/data.zip"}).content == b"<html/>"
    )
    assert client.get("/__emulator/remote", params={"url": "http://X/data.zip"}).status_code == 404
    assert client.delete("/__emulator/remote").status_code == 204
    assert client.get("/__emulator/remote").json() == {"remotes": []}
