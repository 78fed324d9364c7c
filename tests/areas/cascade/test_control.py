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
    assert r.status_code == 404 and "No capabilities document" in r.json()["error"]
    assert client.get("/__emulator/remote", params={"url": same}).status_code == 404


def test_refusals(client, anon):
    r = client.put("/__emulator/remote", content=payload("wms130.xml"))
    assert r.status_code == 400 and r.json() == {"error": "Missing query parameter url"}
    r = client.put("/__emulator/remote", params={"url": "http://x/"}, content=b"<html/>")
    assert r.status_code == 400 and "root element <html>" in r.json()["error"]
    r = client.put("/__emulator/remote", params={"url": "http://x/"}, content=b"\xff\xfe")
    assert r.status_code == 400
    assert client.get("/__emulator/remote").json() == {"remotes": []}
    assert anon.get("/__emulator/remote").status_code == 401
    assert client.post("/__emulator/remote").status_code == 405


def test_reset_forgets_registered_documents(client, emu):
    client.put("/__emulator/remote", params={"url": WMS_URL}, content=payload("wms130.xml"))
    assert client.post("/__emulator/reset").status_code == 204
    assert client.get("/__emulator/remote").json() == {"remotes": []}
