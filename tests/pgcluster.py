"""A throwaway PostgreSQL + PostGIS cluster for the test session, on pytest-postgresql.

pytest-postgresql's executor (``PostgreSQLExecutor``) and janitor (``DatabaseJanitor``) do
the work: ``pg_ctl initdb``/``start`` on a free loopback port, a template database with
PostGIS, a fresh database per test cloned from it (its ``postgresql`` fixture). Two things
are ours: PostgreSQL refuses to run as root, so when the tests run as root (CI does) pg_ctl
runs as the ``postgres`` system user (through ``setpriv``) and the cluster lives in a
directory that user owns; and when no PostgreSQL binaries or no PostGIS extension are
installed, the fixture skips, saying why (``.ci/install-postgis`` installs them).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

SYSTEM_USER = "postgres"
SKIP = "database tests need PostgreSQL and PostGIS ({why}; .ci/install-postgis installs them)"


def find_pg_ctl(configured: str | None) -> str | None:
    """``--postgresql-exec`` / ``postgresql_exec`` when it names a program; else Debian's
    newest, else PATH (pytest-postgresql's default names one Debian version's path, which
    may not be the one installed)."""
    if configured and os.access(configured, os.X_OK):
        return configured
    if configured and not configured.startswith("/usr/lib/postgresql/"):
        return None
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=_version)
    return found[-1] if found else shutil.which("pg_ctl")


def _version(path: str) -> tuple[int, ...]:
    part = Path(path).parents[1].name
    return tuple(int(x) for x in part.split(".") if x.isdigit())


def missing(pg_ctl: str | None) -> str | None:
    """Why the cluster cannot run here, or None."""
    if pg_ctl is None:
        return "no pg_ctl found"
    share = Path(pg_ctl).parents[2] / "share" if "/usr/lib/postgresql/" not in pg_ctl else None
    version = Path(pg_ctl).parents[1].name
    controls = glob.glob(f"/usr/share/postgresql/{version}/extension/postgis.control")
    if share is not None:
        controls += glob.glob(str(share / "**" / "postgis.control"), recursive=True)
    if not controls:
        return f"the PostGIS extension is not installed for {pg_ctl}"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam(SYSTEM_USER)
        except KeyError:
            return f"running as root, and there is no {SYSTEM_USER!r} user to run PostgreSQL as"
        if shutil.which("setpriv") is None:
            return "running as root, and setpriv is missing"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_system_user(pg_ctl: str, folder: Path) -> str:
    """A pg_ctl that runs the real one as the ``postgres`` user (PostgreSQL refuses root)."""
    wrapper = folder / "pg_ctl"
    wrapper.write_text(
        "#!/bin/sh\ncd /\n"
        f'exec setpriv --reuid={SYSTEM_USER} --regid={SYSTEM_USER} --init-groups "{pg_ctl}" "$@"\n'
    )
    wrapper.chmod(0o755)
    return str(wrapper)


def cluster(pg_ctl: str) -> Iterator[object]:
    """Start the cluster (and its PostGIS template), yield the executor, stop it."""
    from pytest_postgresql.executors import PostgreSQLExecutor
    from pytest_postgresql.janitor import DatabaseJanitor

    base = Path(tempfile.mkdtemp(prefix="geoserver-emulator-pg-"))
    base.chmod(0o755)
    executable = pg_ctl
    if os.geteuid() == 0:
        owner = pwd.getpwnam(SYSTEM_USER)
        home = base / "cluster"
        home.mkdir()
        os.chown(home, owner.pw_uid, owner.pw_gid)
        executable = _as_system_user(pg_ctl, base)
    else:
        home = base
    executor = PostgreSQLExecutor(
        executable=executable,
        host="127.0.0.1",
        port=_free_port(),
        datadir=str(home / "data"),
        unixsocketdir=str(home),
        logfile=str(home / "postgresql.log"),
        startparams="-w",
        dbname="tests",
        user="postgres",
        postgres_options="-c fsync=off -c full_page_writes=off -c synchronous_commit=off",
    )
    try:
        executor.start()
        janitor = DatabaseJanitor(
            user="postgres",
            host=executor.host,
            port=executor.port,
            dbname=executor.template_dbname,
            as_template=True,
        )
        janitor.init()
        with janitor.cursor(executor.template_dbname) as cur:
            cur.execute("CREATE EXTENSION IF NOT EXISTS postgis")
        yield executor
    finally:
        try:
            if executor.running():
                executor.stop()
        finally:
            shutil.rmtree(base, ignore_errors=True)


def skip_reason(config: pytest.Config) -> tuple[str | None, str | None]:
    """(pg_ctl, None) when the cluster can run, else (None, the skip message)."""
    configured = config.getoption("postgresql_exec", None) or config.getini("postgresql_exec")
    pg_ctl = find_pg_ctl(configured or None)
    why = missing(pg_ctl)
    return (pg_ctl, None) if why is None else (None, SKIP.format(why=why))
