"""On the live server, a request is in the journal by the time its client holds the answer,
whatever the answer's body length (an empty body included: docs/fixtures.md)."""

from __future__ import annotations

import httpx

from geoserver_emulator import Emulator

ADMIN = ("admin", "geoserver")
SLD = "application/vnd.ogc.sld+xml"


def test_every_answer_is_journaled_before_the_client_has_it():
    emu = Emulator("stock")
    with emu, emu.serve() as url, httpx.Client(base_url=url, auth=ADMIN) as client:
        sld = client.get("/rest/styles/polygon.sld").content
        for i in range(300):
            before = len(emu.journal)
            if i % 3 == 2:  # a body of some length between the empty ones
                r = client.get("/rest/about/version.json")
                assert r.content
            else:
                r = client.put("/rest/styles/polygon", content=sld, headers={"Content-Type": SLD})
                assert r.status_code == 200 and r.content == b"", r.text
            assert len(emu.journal) == before + 1, f"request {i} not journaled yet"
            assert emu.journal.last.status == r.status_code
        assert not emu.internal_errors
