"""The built-in scenarios' baselines on disk (``emulator/scenarios/diskcache.py``): a hit gives
the state a fresh parse gives, without importing the areas' models; anything that does not
match, or cannot be read or written, falls back to parsing."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from geoserver_emulator.scenarios import diskcache, loader

CHILD = """
import json, sys
import geoserver_emulator
emu = geoserver_emulator.Emulator("stock")
models = sorted(m for m in sys.modules if m.startswith("geoserver_emulator.areas."))
print(json.dumps({"models": models, "dump": emu.dump_scenario()}))
"""


def _child(cache: str) -> dict:
    env = {**os.environ, diskcache.ENV: cache}
    out = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def _fresh_dump() -> dict:
    state, settings = loader.build(loader.resolve("stock"))
    return json.loads(json.dumps(loader.dump(state, settings)))


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("stock-*.pickle"))


def test_a_hit_gives_the_parsed_state_without_importing_the_models(tmp_path: Path) -> None:
    first = _child(str(tmp_path))  # a miss: parses, then writes the entry
    assert len(_entries(tmp_path)) == 1
    assert "geoserver_emulator.areas.sections" in first["models"]
    second = _child(str(tmp_path))  # a hit
    assert second["models"] == []
    assert second["dump"] == first["dump"]
    settings = second["dump"].pop("settings")
    fresh = _fresh_dump()
    fresh.pop("settings")
    assert second["dump"] == fresh and settings["clockOrigin"]


def test_off_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert "geoserver_emulator.areas.sections" in _child("off")["models"]
    assert not any(tmp_path.rglob("*.pickle"))
    monkeypatch.delenv(diskcache.ENV, raising=False)
    assert diskcache.folder() == tmp_path / "xdg" / "geoserver-emulator"


def test_a_damaged_or_stale_entry_is_parsed_again_and_rewritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(diskcache.ENV, str(tmp_path))
    path = loader.resolve("stock")
    loader._builtin_scenario(path)
    (entry,) = _entries(tmp_path)
    for damage in (b"", b"not a pickle", entry.read_bytes()[:100]):
        entry.write_bytes(damage)
        scenario = loader._builtin_scenario(path)
        assert scenario.state().users.services  # parsed
        assert diskcache.read("stock", diskcache.fingerprint()) is not None  # rewritten
    monkeypatch.setattr(diskcache, "fingerprint", lambda: b"another build")
    assert diskcache.read("stock", b"another build") is None  # stale
    loader._builtin_scenario(path)
    assert diskcache.read("stock", b"another build") is not None


def test_an_unwritable_folder_only_means_no_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where the folder would be")
    monkeypatch.setenv(diskcache.ENV, str(blocker / "cache"))
    scenario = loader._builtin_scenario(loader.resolve("stock"))
    assert scenario.state().catalog.list_workspaces()
    assert diskcache.read("stock", diskcache.fingerprint()) is None


def test_the_fingerprint_follows_every_package_file(tmp_path: Path) -> None:
    package = tmp_path / "emulator"
    shutil.copytree(diskcache.PACKAGE / "scenarios" / "empty", package / "scenarios" / "empty")
    (package / "module.py").write_text("x = 1\n")
    (package / "__pycache__").mkdir()
    before = diskcache.fingerprint(package)
    (package / "__pycache__" / "module.pyc").write_bytes(b"ignored")
    assert diskcache.fingerprint(package) == before
    (package / "module.py").write_text("x = 22\n")
    assert diskcache.fingerprint(package) != before
    changed = diskcache.fingerprint(package)
    (package / "scenarios" / "empty" / "new.json").write_text("{}")
    assert diskcache.fingerprint(package) != changed


def test_a_package_that_cannot_be_listed_only_means_no_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(diskcache.ENV, str(tmp_path))
    monkeypatch.setattr(diskcache, "PACKAGE", tmp_path / "not-a-folder.zip")
    monkeypatch.setattr(diskcache.fingerprint, "__defaults__", (diskcache.PACKAGE,))
    scenario = loader._builtin_scenario(loader.resolve("stock"))
    assert scenario.state().catalog.list_workspaces()
    assert not _entries(tmp_path)
