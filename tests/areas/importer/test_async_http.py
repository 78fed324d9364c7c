"""Asynchronous imports (``async=true``) on the simulated clock: nothing moves until the
clock does (or the scheduler is drained); reading never moves work forward."""

from __future__ import annotations

import pytest

from geoserver_emulator import Emulator

from .files import (
    ADMIN,
    BASE,
    client,
    emulator,
    lanes_import,
    new_import,
    shapefile_zip,
    upload_zip,
)


@pytest.fixture
def emu():
    return emulator()


@pytest.fixture
def c(emu):
    return client(emu)


def state(c, i: int) -> tuple[str, list[str]]:
    doc = c.get(f"/rest/imports/{i}", params={"expand": "1"}).json()["import"]
    return doc["state"], [t["state"] for t in doc["tasks"]]


def test_an_async_run_completes_only_as_the_clock_moves(emu, c):
    i = lanes_import(c)
    assert c.post(f"/rest/imports/{i}", params={"async": "true"}).status_code == 204
    assert state(c, i) == ("RUNNING", ["RUNNING"])
    for _ in range(3):  # reading changes nothing
        assert state(c, i) == ("RUNNING", ["RUNNING"])
    assert c.get("/rest/layers/topp:lanes.json").status_code == 404
    emu.clock.advance(0.5)
    assert state(c, i) == ("RUNNING", ["RUNNING"])
    emu.clock.advance(1.0)
    assert state(c, i) == ("COMPLETE", ["COMPLETE"])
    assert c.get("/rest/layers/topp:lanes.json").status_code == 200


def test_async_create_initialises_on_the_clock_then_runs_with_exec(emu, c, tmp_path):
    (tmp_path / "lanes.zip").write_bytes(shapefile_zip("lanes"))
    body = {"import": {"targetWorkspace": {"workspace": {"name": "topp"}},
                       "data": {"type": "file", "file": str(tmp_path / "lanes.zip")}}}  # fmt: skip
    r = c.post("/rest/imports", params={"async": "true", "exec": "true"}, json=body)
    assert r.status_code == 201 and r.json()["import"]["state"] == "INIT"
    i = r.json()["import"]["id"]
    assert c.post(f"/rest/imports/{i}").status_code == 412
    emu.clock.advance(1.0)
    assert state(c, i) == ("RUNNING", ["RUNNING"])
    emu.clock.advance(1.5)
    assert state(c, i) == ("COMPLETE", ["COMPLETE"])


def test_async_create_without_exec_stops_pending(emu, c, tmp_path):
    (tmp_path / "lanes.zip").write_bytes(shapefile_zip("lanes"))
    body = {"import": {"data": {"type": "file", "file": str(tmp_path / "lanes.zip")}}}
    i = c.post("/rest/imports", params={"async": "true"}, json=body).json()["import"]["id"]
    emu.clock.advance(5)
    assert state(c, i) == ("PENDING", ["READY"])


def test_progress_counts_the_features_of_an_indirect_import(emu, c):
    body = {"import": {"targetStore": {"dataStore": {"name": "taz_shapes"}}}}
    i = new_import(c, body)
    rows = [(f"r{n}", n, 1.0, "20200101", (float(n), 1.0)) for n in range(3000)]
    upload_zip(c, i, "lanes.zip", shapefile_zip("lanes", records=rows))
    c.post(f"/rest/imports/{i}", params={"async": "true"})
    emu.clock.advance(2.5)  # 1 s to start, then 1000 features a second
    doc = c.get(f"/rest/imports/{i}/tasks/0/progress").json()
    assert doc == {"progress": 1500, "total": 3000, "state": "RUNNING"}
    emu.clock.advance(10)
    assert c.get(f"/rest/imports/{i}/tasks/0/progress").json() == {"state": "COMPLETE"}
    assert len(emu.state.features.get("topp", "taz_shapes", "lanes").features) == 3000


def test_tasks_run_one_after_the_other(emu, c):
    i = new_import(c, {"import": {"targetWorkspace": {"workspace": {"name": "topp"}}}})
    upload_zip(c, i, "a.zip", shapefile_zip("a", "b"))
    c.post(f"/rest/imports/{i}", params={"async": "true"})
    assert state(c, i) == ("RUNNING", ["RUNNING", "READY"])
    emu.clock.advance(1.01)
    assert state(c, i) == ("RUNNING", ["COMPLETE", "RUNNING"])
    emu.clock.advance(1.01)
    assert state(c, i) == ("COMPLETE", ["COMPLETE", "COMPLETE"])


def test_the_control_plane_advances_and_drains(emu, c):
    i = lanes_import(c)
    c.post(f"/rest/imports/{i}", params={"async": "true"})
    r = c.post("/__emulator/scheduler/drain", auth=ADMIN)
    assert r.status_code == 200 and r.json() == {"now": 0.0}
    assert state(c, i) == ("COMPLETE", ["COMPLETE"])
    i = lanes_import(c)
    c.post(f"/rest/imports/{i}", params={"async": "true"})
    c.post("/__emulator/clock/advance", params={"seconds": "2"}, auth=ADMIN)
    assert state(c, i)[0] == "COMPLETE"


def test_a_step_clock_lets_a_polling_client_finish(emu):
    emu = Emulator("stock", extensions=["importer"], clock="step")
    c = client(emu)
    rows = [(f"r{n}", n, 1.0, "20200101", (float(n), 1.0)) for n in range(2500)]
    i = lanes_import(c, records=rows)
    c.post(f"/rest/imports/{i}", params={"async": "true"})
    polls = 0
    while state(c, i)[0] != "COMPLETE":  # each poll moves the clock one second
        polls += 1
        assert polls < 10
    assert polls == 3


def test_deleting_a_running_import_drops_its_job(emu, c):
    i = lanes_import(c)
    c.post(f"/rest/imports/{i}", params={"async": "true"})
    assert c.delete(f"/rest/imports/{i}").status_code == 204
    assert emu.state.importer.jobs == []
    emu.clock.advance(10)
    assert c.get("/rest/layers/topp:lanes.json").status_code == 404


def test_reset_forgets_jobs(emu, c):
    i = lanes_import(c)
    c.post(f"/rest/imports/{i}", params={"async": "true"})
    emu.reset()
    emu.clock.advance(10)
    assert c.get("/rest/imports").json() == {"imports": []}
    assert BASE
