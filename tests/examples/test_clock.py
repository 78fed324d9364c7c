def test_time_moves_only_when_told(geoserver_emulator, geoserver_client):
    clock = geoserver_emulator.clock
    assert clock.kind == "manual" and clock.now() == 0
    clock.advance(60)  # the seed scheduler does the work that a minute allows
    geoserver_emulator.scheduler.drain()  # ...or all of it
    assert geoserver_client.get("/__emulator/health").json()["now"] == 60
