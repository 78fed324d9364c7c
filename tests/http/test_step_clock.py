"""The ``step`` clock (each request moves simulated time before it is answered) and the hint
given when seed status is polled under a frozen manual clock."""

from __future__ import annotations

import warnings

import httpx
import pytest

from geoserver_emulator import Emulator
from geoserver_emulator.core.clock import FrozenClockWarning

BASE = "http://localhost:8080/geoserver"
ADMIN = ("admin", "geoserver")
SEED = """<seedRequest><name>topp:states</name><srs><number>4326</number></srs>
<zoomStart>0</zoomStart><zoomStop>3</zoomStop><format>image/png</format>
<type>seed</type><threadCount>1</threadCount></seedRequest>"""


def client_of(emu: Emulator) -> httpx.Client:
    return httpx.Client(transport=httpx.WSGITransport(app=emu.wsgi_app), base_url=BASE, auth=ADMIN)


def poll_until_done(client: httpx.Client, limit: int = 500) -> int:
    """A client's polling loop: how many polls until no task is listed."""
    for n in range(1, limit + 1):
        rows = client.get("/gwc/rest/seed/topp:states.json").json()["long-array-array"]
        if not rows:
            return n
    raise AssertionError("the seed tasks never finished")


def test_each_request_moves_time_by_the_step():
    emu = Emulator("stock", clock="step", clock_step=2.5)
    assert emu.clock.kind == "step" and emu.clock.now() == 0
    with client_of(emu) as c:
        c.get("/rest/about/version.json")
        c.get("/rest/workspaces.json")
    assert emu.clock.now() == 5.0
    assert [e.at for e in emu.journal] == [2.5, 5.0]  # moved before the answer


def test_control_plane_requests_do_not_move_time():
    emu = Emulator("stock", clock="step")
    with client_of(emu) as c:
        c.get("/__emulator/health")
        c.get("/__emulator/requests")
        assert c.post("/__emulator/clock/advance?seconds=3").json() == {"now": 3.0}
    assert emu.clock.now() == 3.0


def test_polling_loop_finishes_and_is_deterministic():
    def run() -> tuple[int, list[bytes]]:
        emu = Emulator("stock", clock="step", clock_step=1)
        with client_of(emu) as c:
            assert (
                c.post(
                    "/gwc/rest/seed/topp:states.xml",
                    content=SEED,
                    headers={"content-type": "text/xml"},
                ).status_code
                == 200
            )
            polls = poll_until_done(c)
        return polls, [e.response_body for e in emu.journal]

    first, second = run(), run()
    assert first[0] > 1  # the task took some simulated time
    assert first == second


@pytest.mark.parametrize("step", [0, -1, float("nan"), float("inf")])
def test_bad_step_refused(step):
    with pytest.raises(ValueError, match="positive number of seconds"):
        Emulator("stock", clock="step", clock_step=step)


def test_unknown_clock_names_the_choices():
    with pytest.raises(ValueError, match="manual, realtime, step"):
        Emulator("stock", clock="sundial")


def test_reset_takes_a_step_clock_back_to_zero():
    emu = Emulator("stock", clock="step")
    with client_of(emu) as c:
        c.get("/rest/about/version.json")
    emu.reset()
    assert emu.clock.now() == 0


# -- a frozen manual clock -----------------------------------------------------------------


def submit(c: httpx.Client) -> None:
    r = c.post("/gwc/rest/seed/topp:states.xml", content=SEED, headers={"content-type": "text/xml"})
    assert r.status_code == 200


def test_frozen_clock_polling_warns_once_with_a_diagnostic():
    emu = Emulator("stock", clock="manual")
    with client_of(emu) as c, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        submit(c)
        for _ in range(60):
            c.get("/gwc/rest/seed/topp:states.json")
        frozen = [w for w in caught if issubclass(w.category, FrozenClockWarning)]
        assert len(frozen) == 1
        text = str(frozen[0].message)
        assert "manual clock is frozen" in text and "clock/advance" in text and "step" in text
        assert emu.journal.diagnostics == [text]
        body = c.get("/__emulator/requests").json()
        assert body["diagnostics"] == [text]


def test_no_warning_while_time_moves_or_nothing_is_pending():
    emu = Emulator("stock", clock="manual")
    with client_of(emu) as c, warnings.catch_warnings():
        warnings.simplefilter("error", FrozenClockWarning)
        for _ in range(40):  # nothing pending
            c.get("/gwc/rest/seed.json")
        submit(c)
        for _ in range(40):  # time moves between polls
            c.get("/gwc/rest/seed.json")
            emu.clock.advance(0.001)
    assert emu.journal.diagnostics == []
    assert "diagnostics" not in client_of(emu).get("/__emulator/requests").json()


def test_step_clock_polling_never_warns():
    emu = Emulator("stock", clock="step", clock_step=0.001)
    with client_of(emu) as c, warnings.catch_warnings():
        warnings.simplefilter("error", FrozenClockWarning)
        submit(c)
        for _ in range(40):
            c.get("/gwc/rest/seed/topp:states.json")
