"""System-status samples read from the machine the emulator runs on (standard library and
``/proc`` only; anything that cannot be read is simply not sampled, so its metric reads
``NOT AVAILABLE``).

Where GeoServer's OSHI collector compares CPU ticks between two calls, this reads one
snapshot and reports the averages since boot (system) or since process start (own CPU), so
that a read never changes anything. "GeoServer" metrics describe the emulator's process.
"""

from __future__ import annotations

import os
import platform
from collections.abc import Callable
from pathlib import Path

from .metrics import MetricSample

PROC = Path("/proc")
VIRTUAL_FS = frozenset(
    {
        "proc",
        "sysfs",
        "tmpfs",
        "devtmpfs",
        "devpts",
        "cgroup",
        "cgroup2",
        "mqueue",
        "securityfs",
        "debugfs",
        "tracefs",
        "pstore",
        "bpf",
        "autofs",
        "hugetlbfs",
        "configfs",
        "fusectl",
        "binfmt_misc",
        "nsfs",
        "ramfs",
        "rpc_pipefs",
        "squashfs",
        "efivarfs",
    }
)


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")


def _meminfo() -> dict[str, int]:
    out: dict[str, int] = {}
    for line in _read(PROC / "meminfo").splitlines():
        key, _, rest = line.partition(":")
        parts = rest.split()
        if parts and parts[0].isdigit():
            out[key] = int(parts[0]) * (1024 if parts[1:] == ["kB"] else 1)
    return out


def _cpu_ticks() -> list[list[int]]:
    """``/proc/stat`` CPU lines: the total first, then one per logical CPU."""
    return [
        [int(x) for x in line.split()[1:]]
        for line in _read(PROC / "stat").splitlines()
        if line.startswith("cpu")
    ]


def _busy_percent(ticks: list[int]) -> float:
    total = sum(ticks[:8])
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)
    return 100.0 * (total - idle) / total if total else 0.0


def _system() -> list[MetricSample]:
    try:
        release = platform.freedesktop_os_release()
        version = release.get("VERSION", release.get("VERSION_ID", ""))
        os_name = f"{release.get('NAME', 'Linux')} {version}"
    except OSError:
        os_name = f"{platform.system()} {platform.release()}"
    out = [MetricSample("OPERATING_SYSTEM", os_name.strip())]
    out.append(MetricSample("SYSTEM_UPTIME", int(float(_read(PROC / "uptime").split()[0]))))
    for name, load in zip(("1", "5", "15"), os.getloadavg(), strict=True):
        if load > 0:
            out.append(MetricSample(f"SYSTEM_AVERAGE_LOAD_{name}", load))
    return out


def _cpu() -> list[MetricSample]:
    cpuinfo = _read(PROC / "cpuinfo")
    cores = {
        block
        for block in (
            "".join(
                line for line in part.splitlines() if line.startswith(("physical id", "core id"))
            )
            for part in cpuinfo.split("\n\n")
        )
        if block
    }
    logical = os.cpu_count() or 0
    loadavg = _read(PROC / "loadavg").split()
    out = [
        MetricSample("PHYSICAL_CPUS", len(cores) or logical),
        MetricSample("LOGICAL_CPUS", logical),
        MetricSample("RUNNING_PROCESS", sum(1 for p in PROC.iterdir() if p.name.isdigit())),
        MetricSample("RUNNING_THREADS", int(loadavg[3].split("/")[1])),
    ]
    ticks = _cpu_ticks()
    out.append(MetricSample("CPU_LOAD", _busy_percent(ticks[0]), description="CPU load average"))
    for i, per_cpu in enumerate(ticks[1:]):
        out.append(
            MetricSample(
                "PER_CPU_LOAD",
                _busy_percent(per_cpu),
                description=f"CPU {i + 1} load",
                identifier=f"CPU {i + 1}",
                priority=105 + i,
            )
        )
    return out


def _memory() -> list[MetricSample]:
    mem = _meminfo()
    total, available = mem["MemTotal"], mem.get("MemAvailable", mem.get("MemFree", 0))
    swap_total, swap_free = mem.get("SwapTotal", 0), mem.get("SwapFree", 0)
    return [
        MetricSample("MEMORY_USED", (total - available) / total * 100 if total else 0),
        MetricSample("MEMORY_TOTAL", total),
        MetricSample("MEMORY_FREE", available),
        MetricSample("SWAP_USED", (swap_total - swap_free) / swap_total * 100 if swap_total else 0),
        MetricSample("SWAP_TOTAL", swap_total),
        MetricSample("SWAP_FREE", swap_free),
    ]


PARTITION_ROWS: tuple[tuple[str, str, int, Callable[[int, int], float | int]], ...] = (
    (
        "PARTITION_USED",
        "used space",
        503,
        lambda total, free: (total - free) / total * 100 if total else 0,
    ),
    ("PARTITION_TOTAL", "total space", 504, lambda total, free: total),
    ("PARTITION_FREE", "free space", 505, lambda total, free: free),
)
"""per store: metric, description, priority (OSHI's ``prio + 3``), value from (total, free)"""


def _stores() -> list[tuple[str, int, int]]:
    """(mount point, total bytes, usable bytes) of each real file system."""
    stores: list[tuple[str, int, int]] = []
    for line in _read(PROC / "mounts").splitlines():
        parts = line.split()
        if len(parts) < 3 or parts[2] in VIRTUAL_FS or any(s[0] == parts[1] for s in stores):
            continue
        try:
            st = os.statvfs(parts[1])
        except OSError:
            continue
        stores.append((parts[1], st.f_blocks * st.f_frsize, st.f_bavail * st.f_frsize))
    return stores


def _file_systems() -> list[MetricSample]:
    stores = _stores()
    if not stores:
        return []
    total = sum(t for _, t, _ in stores)
    used = sum(t - f for _, t, f in stores)
    out = [MetricSample("FILE_SYSTEM_TOTAL_USAGE", used / total * 100 if total else 0)]
    for metric, text, priority, value in PARTITION_ROWS:
        out += [
            MetricSample(
                metric,
                value(t, f),
                description=f"Partition [{name}] {text}",
                identifier=name,
                priority=priority,
            )
            for name, t, f in stores
        ]
    return out


def _network() -> list[MetricSample]:
    nics: list[tuple[str, int, int]] = []
    for line in _read(PROC / "net" / "dev").splitlines()[2:]:
        name, _, rest = line.partition(":")
        fields = rest.split()
        if name.strip() != "lo" and len(fields) >= 9:
            nics.append((name.strip(), int(fields[0]), int(fields[8])))
    if not nics:
        return []
    out = [
        MetricSample("NETWORK_INTERFACES_SEND", float(sum(n[2] for n in nics))),
        MetricSample("NETWORK_INTERFACES_RECEIVED", float(sum(n[1] for n in nics))),
    ]
    out += [
        MetricSample(
            "NETWORK_INTERFACE_SEND",
            sent,
            description=f"Network interface [{n}] send",
            identifier=n,
            priority=903,
        )
        for n, _, sent in nics
    ]
    out += [
        MetricSample(
            "NETWORK_INTERFACE_RECEIVED",
            recv,
            description=f"Network interface [{n}] received",
            identifier=n,
            priority=901 + 3 * i,
        )
        for i, (n, recv, _) in enumerate(nics)
    ]
    return out


def _sensors() -> list[MetricSample]:
    out: list[MetricSample] = []
    zone = Path("/sys/class/thermal/thermal_zone0/temp")
    if zone.exists():
        celsius = int(_read(zone).strip()) / 1000.0
        if celsius > 0:
            out.append(MetricSample("TEMPERATURE", celsius))
    fans = sorted(Path("/sys/class/hwmon").glob("hwmon*/fan*_input"))
    for i, fan in enumerate(fans):
        rpm = int(_read(fan).strip())
        if rpm > 0:
            out.append(
                MetricSample(
                    "FAN_SPEED", rpm, name=f"FAN_SPEED_{i + 1}", description=f"Speed fan {i + 1}"
                )
            )
    return out


def _process() -> list[MetricSample]:
    status = {
        k: v.split()
        for k, _, v in (
            line.partition(":") for line in _read(PROC / "self" / "status").splitlines()
        )
    }
    stat = _read(PROC / "self" / "stat").rsplit(")", 1)[1].split()
    hz = os.sysconf("SC_CLK_TCK")
    uptime = float(_read(PROC / "uptime").split()[0])
    alive = uptime - int(stat[19]) / hz
    cpu = (int(stat[11]) + int(stat[12])) / hz
    mem = _meminfo()["MemTotal"]
    out = [MetricSample("GEOSERVER_THREADS", int(status["Threads"][0]))]
    if alive > 0:
        out.insert(
            0, MetricSample("GEOSERVER_CPU_USAGE", 100.0 * cpu / alive / (os.cpu_count() or 1))
        )
    out.append(
        MetricSample("GEOSERVER_JVM_MEMORY_USAGE", 100.0 * int(status["VmRSS"][0]) * 1024 / mem)
    )
    return out


READERS: tuple[Callable[[], list[MetricSample]], ...] = (
    _system,
    _cpu,
    _memory,
    _file_systems,
    _network,
    _sensors,
    _process,
)


def sample() -> list[MetricSample]:
    """Whatever this machine tells; a group that cannot be read is left out."""
    out: list[MetricSample] = []
    for reader in READERS:
        try:
            out.extend(reader())
        except (OSError, ValueError, KeyError, IndexError, ZeroDivisionError, AttributeError):
            continue
    return out
