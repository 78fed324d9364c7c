"""Writes from many clients at once, against a live server: nothing lost, nothing doubled."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from provider_helpers import P, up_json

from geoserver_emulator import Emulator
from geoserver_emulator.http.server import LiveServer

ADMIN = ("admin", "geoserver")
THREADS = 8
PER_THREAD = 12


@pytest.fixture
def live(emu: Emulator) -> Iterator[str]:
    server = LiveServer(emu.asgi_app).start()
    try:
        yield server.url(emu.context_path)
    finally:
        server.stop()
    assert not emu.internal_errors, "\n".join(emu.internal_errors)


def _clients(live: str, work, count: int = THREADS) -> list:
    def run(t: int):
        with httpx.Client(base_url=live, auth=ADMIN, timeout=30) as c:
            return work(c, t)

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(run, range(count)))


def test_concurrent_creates_moves_and_deletes(emu, live):
    def work(c: httpx.Client, t: int) -> list[int]:
        statuses = []
        for i in range(PER_THREAD):
            query = "?position=0" if i % 2 else ""
            statuses.append(c.post(P + query, json=up_json(f"t{t}-{i}")).status_code)
        for i in range(0, PER_THREAD, 3):
            statuses.append(
                c.put(f"{P}/t{t}-{i}?position=0", json=up_json(f"t{t}-{i}")).status_code
            )
        for i in range(1, PER_THREAD, 3):
            statuses.append(c.delete(f"{P}/t{t}-{i}").status_code)
        return statuses

    results = _clients(live, work)
    creates, moves, deletes = PER_THREAD, len(range(0, PER_THREAD, 3)), len(range(1, PER_THREAD, 3))
    assert all(s == [201] * creates + [200] * (moves + deletes) for s in results)
    expected = {"default"} | {
        f"t{t}-{i}" for t in range(THREADS) for i in range(PER_THREAD) if i % 3 != 1
    }
    store = emu.state.auth_providers
    assert len(store.active) == len(set(store.active)) == len(expected)
    assert set(store.active) == set(store.configs) == expected
    assert len({cfg.id for cfg in store.configs.values()}) == len(expected)
    assert emu.state.security.reloads == THREADS * (creates + moves + deletes)
    with httpx.Client(base_url=live, auth=ADMIN) as c:
        assert [p["name"] for p in c.get(P + ".json").json()["authproviders"]] == store.active


def test_concurrent_orders_never_interleave(emu, live):
    names = [f"p{i}" for i in range(6)]
    with httpx.Client(base_url=live, auth=ADMIN) as c:
        for n in names:
            assert c.post(P, json=up_json(n)).status_code == 201
    submitted = {tuple(names[t % 6 :] + names[: t % 6])[: 3 + t % 4] for t in range(THREADS)}

    def work(c: httpx.Client, t: int) -> list[int]:
        mine = list(tuple(names[t % 6 :] + names[: t % 6])[: 3 + t % 4])
        return [c.put(P + "/order", json={"order": mine}).status_code for _ in range(10)]

    assert all(s == [200] * 10 for s in _clients(live, work))
    assert tuple(emu.state.auth_providers.active) in submitted
    assert set(emu.state.auth_providers.configs) == {"default", *names}


def test_concurrent_creates_of_one_name_make_exactly_one(emu, live):
    def work(c: httpx.Client, t: int) -> int:
        return c.post(P + "?position=0", json=up_json("same")).status_code

    statuses = _clients(live, work)
    assert sorted(statuses) == [201] + [400] * (THREADS - 1)
    assert emu.state.auth_providers.active.count("same") == 1
