"""System-status samples from the machine: parsed from ``/proc``, never an error."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from geoserver_emulator.areas.about import host
from geoserver_emulator.areas.about.metrics import INFOS_BY_NAME, assemble

STAT_AFTER_COMM = " ".join(["S"] + ["0"] * 10 + ["300", "100"] + ["0"] * 6 + ["1000"] + ["0"] * 20)


@pytest.fixture
def fake_proc(tmp_path, monkeypatch):
    proc = tmp_path / "proc"
    (proc / "net").mkdir(parents=True)
    (proc / "self").mkdir()
    (proc / "17").mkdir()
    (proc / "18").mkdir()
    files = {
        "meminfo": "MemTotal: 1000 kB\nMemFree: 100 kB\nMemAvailable: 250 kB\n"
        "SwapTotal: 400 kB\nSwapFree: 100 kB\n",
        "uptime": "93784.52 100.0\n",
        "loadavg": "0.50 0.25 0.10 2/345 999\n",
        "stat": "cpu  30 0 10 60 0 0 0 0 0 0\ncpu0 10 0 0 90 0 0 0 0 0 0\n"
        "cpu1 50 0 0 50 0 0 0 0 0 0\nintr 1\n",
        "cpuinfo": "processor: 0\nphysical id: 0\ncore id: 0\n\n"
        "processor: 1\nphysical id: 0\ncore id: 0\n",
        "mounts": "proc /proc proc rw 0 0\n",
        "net/dev": "Inter-|hdr\n face |hdr\n    lo: 5 0 0 0 0 0 0 0 7 0 0 0 0 0 0 0\n"
        "  eth0: 2000 0 0 0 0 0 0 0 1000 0 0 0 0 0 0 0\n",
        "self/status": "Name: python\nThreads: 7\nVmRSS: 100 kB\n",
        "self/stat": f"42 (py thon) {STAT_AFTER_COMM}\n",
    }
    for name, text in files.items():
        (proc / name).write_text(text)
    monkeypatch.setattr(host, "PROC", proc)
    return proc


def values(samples):
    return {(s.metric, s.identifier): s for s in samples}


def test_samples_parsed_from_proc(fake_proc):
    got = values(host.sample())
    assert got[("SYSTEM_UPTIME", None)].value == 93784
    assert got[("PHYSICAL_CPUS", None)].value == 1
    assert got[("RUNNING_PROCESS", None)].value == 2
    assert got[("RUNNING_THREADS", None)].value == 345
    assert got[("CPU_LOAD", None)].value == pytest.approx(40.0)
    assert got[("PER_CPU_LOAD", "CPU 2")].value == pytest.approx(50.0)
    assert got[("PER_CPU_LOAD", "CPU 2")].priority == 106
    assert got[("MEMORY_TOTAL", None)].value == 1024000
    assert got[("MEMORY_USED", None)].value == pytest.approx(75.0)
    assert got[("SWAP_USED", None)].value == pytest.approx(75.0)
    assert got[("NETWORK_INTERFACES_SEND", None)].value == 1000.0
    assert got[("NETWORK_INTERFACE_RECEIVED", "eth0")].value == 2000
    assert got[("GEOSERVER_THREADS", None)].value == 7
    assert got[("GEOSERVER_JVM_MEMORY_USAGE", None)].value == pytest.approx(10.0)
    assert ("FILE_SYSTEM_TOTAL_USAGE", None) not in got  # only virtual mounts: no stores, no rows


def test_unreadable_groups_are_left_out(tmp_path, monkeypatch):
    monkeypatch.setattr(host, "PROC", tmp_path / "nothing")
    samples = host.sample()
    assert all(s.metric in INFOS_BY_NAME for s in samples)
    assert len(assemble(samples)) >= 31


@pytest.mark.skipif(not Path("/proc/meminfo").exists(), reason="needs Linux /proc")
def test_this_machine():
    samples = host.sample()
    got = values(samples)
    assert got[("LOGICAL_CPUS", None)].value == os.cpu_count()
    assert got[("MEMORY_TOTAL", None)].value > 0
    for s in samples:
        assert s.metric in INFOS_BY_NAME
        assert isinstance(s.value, str | int | float) and not isinstance(s.value, bool)
