"""The databases modes, the host policy, and failures answered as GeoServer answers them:
a refused connection, a statement past its time limit, an exhausted pool, a database that
stops mid-test and comes back."""

from __future__ import annotations

import socket
import threading

import pytest

from geoserver_emulator import Emulator
from geoserver_emulator.databases import errors
from geoserver_emulator.databases.params import read
from geoserver_emulator.databases.policy import Policy, is_loopback
from geoserver_emulator.databases.service import Databases, session

from .conftest import STORE, client_of, params_of
from .test_http_create import FT


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def down(pg):
    return params_of(pg, port=str(_closed_port()))


def test_auto_keeps_in_memory_tables_when_the_database_does_not_answer(make_emu, pg):
    emu = make_emu(down(pg))
    with client_of(emu) as c:
        assert c.post(f"{STORE}/featuretypes", json=FT).status_code == 201
        assert c.get(f"{STORE}/featuretypes/roads.json").status_code == 200
    assert emu.databases.backends[("ws", "pg")] == "memory"
    assert pg.execute("SELECT to_regclass('public.roads')").fetchone()[0] is None


def test_auto_uses_a_database_that_answers_and_the_journal_says_so(make_emu, pg):
    emu = make_emu()
    with client_of(emu) as c:
        c.post(f"{STORE}/featuretypes", json=FT)
        journal = c.get("/__emulator/requests").json()["requests"]
    assert emu.databases.backends[("ws", "pg")] == "postgis"
    assert journal[-1]["databases"] == {"ws:pg": "postgis"}


@pytest.mark.parametrize("fmt", ["json", "xml"])
def test_live_answers_geoservers_connection_error(make_emu, pg, fmt):
    params = down(pg)
    emu = make_emu(params, databases="live")
    with client_of(emu) as c:
        r = c.post(f"{STORE}/featuretypes", json=FT)
        assert r.status_code == 500
        assert r.text == (
            "Unable to obtain connection: Cannot create PoolableConnectionFactory (Connection"
            f" to {params['host']}:{params['port']} refused. Check that the hostname and port"
            " are correct and that the postmaster is accepting TCP/IP connections.)"
        )
        assert c.get(f"{STORE}/featuretypes/roads.{fmt}").status_code == 404  # nothing kept
        r = c.get(f"{STORE}/featuretypes.{fmt}", params={"list": "available"})
        assert r.status_code == 500 and "Unable to obtain connection" in r.text


def test_memory_never_connects(make_emu, pg):
    emu = make_emu(databases="memory")
    with client_of(emu) as c:
        assert c.post(f"{STORE}/featuretypes", json=FT).status_code == 201
    assert emu.databases.backends[("ws", "pg")] == "memory"
    assert pg.execute("SELECT to_regclass('public.roads')").fetchone()[0] is None


def test_other_hosts_are_not_contacted_unless_allowed():
    policy = Policy("auto")
    assert policy.may_contact("127.0.0.1") and policy.may_contact("localhost")
    assert policy.may_contact("::1") and policy.may_contact("[::1]")
    for host in ("10.0.0.1", "db.example", "169.254.169.254", "0.0.0.0", "127.0.0.1.nip.io"):
        assert not policy.may_contact(host), host
    assert Policy("auto", ("db.example",)).may_contact("DB.example")
    assert not Policy("memory").may_contact("127.0.0.1")
    assert not is_loopback("localhost.evil.com")


def test_a_rest_caller_cannot_make_the_emulator_probe_another_host(make_emu, pg, monkeypatch):
    import psycopg

    tried: list[str] = []
    real = psycopg.connect

    def spy(*args, **kwargs):
        tried.append(kwargs.get("host", ""))
        return real(*args, **kwargs)

    monkeypatch.setattr(psycopg, "connect", spy)
    emu = make_emu(params_of(pg, host="192.0.2.1"))
    with client_of(emu) as c:
        assert c.post(f"{STORE}/featuretypes", json=FT).status_code == 201  # auto: memory
    live = make_emu(params_of(pg, host="192.0.2.1"), databases="live")
    with client_of(live) as c:
        r = c.post(f"{STORE}/featuretypes", json=FT)
        assert r.status_code == 500 and "192.0.2.1:" in r.text
    assert "192.0.2.1" not in tried


def test_a_statement_past_its_time_limit_is_geoservers_error_not_a_hang(pg):
    dbs = Databases(Policy("auto"), statement_timeout=0.2)
    pool = dbs.pool(read(params_of(pg)))
    with pytest.raises(errors.StatementTimeout) as caught, session(pool) as conn:
        conn.execute("SELECT pg_sleep(5)")
    assert caught.value.message == "ERROR: canceling statement due to statement timeout"
    with session(pool) as conn:  # the pool goes on
        assert conn.execute("SELECT 1").fetchone() == (1,)
    dbs.close()


def test_an_exhausted_pool_waits_its_limit_then_answers_geoservers_error(pg):
    params = read(params_of(pg, **{"max connections": "1", "Connection timeout": "0"}))
    dbs = Databases()
    pool = dbs.pool(params)
    held = pool.acquire()
    try:
        with pytest.raises(errors.Unavailable) as caught:
            pool.acquire()
        assert caught.value.message == (
            "Unable to obtain connection: Cannot get a connection, pool error Timeout waiting"
            " for idle object"
        )
    finally:
        pool.release(held)
    pool.release(pool.acquire())  # free again
    dbs.close()


def test_the_pool_is_bounded_under_concurrent_use(pg):
    params = read(params_of(pg, **{"max connections": "2", "Connection timeout": "5"}))
    dbs = Databases()
    pool = dbs.pool(params)
    seen: list[int] = []
    lock = threading.Lock()

    def work() -> None:
        with session(pool) as conn:
            n = conn.execute(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE application_name = 'geoserver-emulator'"
            ).fetchone()[0]
            with lock:
                seen.append(n)

    threads = [threading.Thread(target=work) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert len(seen) == 6 and max(seen) <= 2
    dbs.close()


def test_a_database_that_stops_and_comes_back(make_emu, pg, postgresql_proc):
    emu = make_emu(databases="live")
    with client_of(emu) as c:
        assert c.get(f"{STORE}/featuretypes.json", params={"list": "available"}).status_code == 200
        postgresql_proc.stop()
        try:
            r = c.get(f"{STORE}/featuretypes.json", params={"list": "available"})
            assert r.status_code == 500
            assert r.text.startswith("Unable to obtain connection: ")
        finally:
            postgresql_proc.start()
            _until_it_accepts(pg)
        r = c.get(f"{STORE}/featuretypes.json", params={"list": "available"})
        assert r.status_code == 200, r.text  # recovered: the stale connection was replaced
    assert not emu.internal_errors


def _until_it_accepts(pg, tries: int = 100) -> None:
    """The restarted server may still be starting up: try for at most ~10 s."""
    import time

    import psycopg

    info = pg.info
    for _ in range(tries):
        try:
            psycopg.connect(
                host=info.host, port=info.port, user=info.user, dbname=info.dbname
            ).close()
            return
        except psycopg.OperationalError:
            time.sleep(0.1)
    raise AssertionError("the restarted database never accepted connections")


def test_an_emulator_is_closed_with_its_pools(pg):
    emu = Emulator("empty")
    pool = emu.databases.pool(read(params_of(pg)))
    pool.release(pool.acquire())
    emu.close()
    assert pool.closed
