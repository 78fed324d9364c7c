import pytest

SLD = "application/vnd.ogc.sld+xml"


def upload_style(client, name, sld):  # the code under test
    client.put(f"/rest/styles/{name}.xml", content=sld, headers={"Content-Type": SLD})


def test_upload_style(geoserver_client, geoserver_emulator):
    upload_style(geoserver_client, "roads", b"<StyledLayerDescriptor/>")
    journal = geoserver_emulator.journal
    (put,) = journal.assert_called("PUT", "/rest/styles/*", times=1, content_type=SLD)
    assert put.body == b"<StyledLayerDescriptor/>"
    journal.assert_not_called("DELETE", "/rest/styles/**")


def test_near_misses(geoserver_client, geoserver_emulator):
    upload_style(geoserver_client, "roads", b"<StyledLayerDescriptor/>")
    with pytest.raises(AssertionError) as failure:
        geoserver_emulator.journal.assert_called("PUT", "/rest/styles/roads")
    assert (
        "Closest requests made:\n  PUT /rest/styles/roads.xml [application/vnd.ogc.sld+xml]"
        in str(failure.value)
    )


def test_bodies_and_order(geoserver_client, geoserver_emulator):
    geoserver_client.post("/rest/workspaces.json", json={"workspace": {"name": "w1"}})
    geoserver_client.get("/rest/workspaces.json", params={"quietOnNotFound": "true"})
    journal = geoserver_emulator.journal
    journal.assert_called("POST", "/rest/workspaces.json", json={"workspace": {"name": "w1"}})
    journal.assert_called("POST", "/rest/*", json_contains={"workspace": {"name": "w1"}})
    journal.assert_called("GET", "/rest/workspaces.json", query={"quietOnNotFound": "true"})
    journal.assert_called("POST", "/rest/**", headers={"Content-Type": "application/json"})
    journal.assert_called_in_order(
        [("POST", "/rest/workspaces.json", {"status": 201}), ("GET", "/rest/workspaces.json")]
    )
