def test_publish(geoserver_client, geoserver_emulator):
    geoserver_client.post("/rest/workspaces.json", json={"workspace": {"name": "w"}})
    view = geoserver_emulator.view
    assert view.workspaces["w"].uri is not None
    assert view.layers["topp:states"].default_style == "population"
