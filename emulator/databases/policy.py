"""Which databases the emulator may contact: the mode and the allowed hosts.

``auto`` (the default) uses a store's database when it answers and keeps in-memory tables
when it does not; ``live`` makes an unreachable database an error where GeoServer reports
one; ``memory`` never connects. Only loopback hosts are contacted unless the allow-list
(``serve --database-hosts``, the scenario's ``databaseHosts``, ``Emulator(database_hosts=)``)
names others, so that a REST caller cannot make the emulator probe arbitrary hosts. The
check reads the host as written: no name is resolved to decide it.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

from ..core.record import record

MODES = ("auto", "live", "memory")
DEFAULT_MODE = "auto"
LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})


def check_mode(mode: str) -> str:
    if mode not in MODES:
        raise ValueError(f"unknown databases mode {mode!r}: expected one of {', '.join(MODES)}")
    return mode


def parse_hosts(text: str | Iterable[str] | None) -> tuple[str, ...]:
    """``HOST,HOST`` (or a list) as a normalised tuple: trimmed, lower case, no empties."""
    if text is None:
        return ()
    items = text.split(",") if isinstance(text, str) else list(text)
    out: list[str] = []
    for item in items:
        host = str(item).strip().lower().strip("[]")
        if host and host not in out:
            out.append(host)
    return tuple(out)


def is_loopback(host: str) -> bool:
    """A loopback address or name, as written (``127.0.0.0/8``, ``::1``, ``localhost``)."""
    name = host.strip().lower().strip("[]")
    if name in LOOPBACK_NAMES or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


@record(frozen=True)
class Policy:
    """The databases mode and the hosts beyond loopback that may be contacted."""

    mode: str = DEFAULT_MODE
    hosts: tuple[str, ...] = ()

    def may_contact(self, host: str) -> bool:
        if self.mode == "memory":
            return False
        return is_loopback(host) or host.strip().lower().strip("[]") in self.hosts
