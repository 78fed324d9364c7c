"""Scenario name or path → a baseline ``State`` (pickled), parsed once per process.

A scenario document is JSON: an object with optional ``extends`` (a built-in name or a path
relative to the file), optional ``settings`` and one section per area (see
``areas/sections.py``). A directory is a scenario too: its ``*.json`` files are read in name
order and their sections merged (a section may appear in only one file); the built-ins
``stock`` and ``empty`` are such directories inside the package.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..areas.sections import SECTIONS, TOP_LEVEL_KEYS
from ..core.clock import DEFAULT_ORIGIN
from ..core.errors import ScenarioError
from ..core.profile import PROFILES
from ..core.vendor import VendorNames
from ..state import State
from .context import ScenarioContext
from .fields import Section

BUILTIN_DIR = Path(__file__).parent
BUILTINS = ("stock", "empty")


@dataclass(frozen=True)
class Settings:
    profile: str | None = None
    vendor_prefix: str | None = None
    clock_origin: datetime = DEFAULT_ORIGIN
    extras: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Scenario:
    name: str
    settings: Settings
    baseline: bytes
    """the pickled ``State`` this scenario starts from"""

    def state(self) -> State:
        return State.restore(self.baseline)


def resolve(ref: str | Path, relative_to: Path | None = None) -> Path:
    """The file or folder a scenario reference names."""
    text = str(ref)
    if text in BUILTINS:
        return BUILTIN_DIR / text
    path = Path(text)
    if not path.is_absolute() and relative_to is not None:
        path = relative_to / path
    if not path.exists():
        raise ScenarioError(f"{text}: no such scenario (built-ins: {', '.join(BUILTINS)})")
    return path.resolve()


def read_document(path: Path) -> dict[str, Any]:
    """The merged JSON document of a scenario file or folder."""
    if path.is_dir():
        doc: dict[str, Any] = {}
        for file in sorted(path.glob("*.json")):
            part = _read_json(file)
            for key, value in part.items():
                if key in doc and key != "settings":
                    raise ScenarioError(f"{file}: section {key} already given by another file")
                if key == "settings":
                    doc.setdefault("settings", {}).update(value)
                else:
                    doc[key] = value
        return doc
    return _read_json(path)


def _read_json(file: Path) -> dict[str, Any]:
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ScenarioError(f"{file}: cannot read: {exc.strerror}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ScenarioError(f"{file}: not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ScenarioError(f"{file}: a scenario must be a JSON object")
    return data


def _settings(doc: dict[str, Any], where: str, base: Settings) -> Settings:
    if "settings" not in doc:
        return base
    sec = Section(doc["settings"], f"{where}: settings")
    sec.only({"profile", "vendorPrefix", "clockOrigin", "extras"})
    profile = sec.str("profile", base.profile)
    if profile is not None and profile not in PROFILES:
        raise ScenarioError(f"{sec.where}.profile: expected one of {', '.join(PROFILES)}")
    origin = base.clock_origin
    if sec.has("clockOrigin"):
        try:
            origin = datetime.fromisoformat(sec.str("clockOrigin").replace("Z", "+00:00"))
        except ValueError:
            raise ScenarioError(f"{sec.where}.clockOrigin: expected an ISO 8601 instant") from None
        if origin.tzinfo is None:
            origin = origin.replace(tzinfo=UTC)
    extras = {**base.extras, **sec.dict("extras")}
    return Settings(profile, sec.str("vendorPrefix", base.vendor_prefix), origin, extras)


def build(path: Path, depth: int = 0) -> tuple[State, Settings]:
    """Read a scenario (and what it extends) into a fresh state."""
    if depth > 8:
        raise ScenarioError(f"{path}: extends nests too deeply")
    doc = read_document(path)
    where = path.name if path.parent == BUILTIN_DIR else str(path)
    unknown = sorted(set(doc) - TOP_LEVEL_KEYS)
    if unknown:
        raise ScenarioError(f"{where}: {unknown[0]}: unknown top-level key")
    base_dir = path if path.is_dir() else path.parent
    if doc.get("extends") is not None:
        if not isinstance(doc["extends"], str):
            raise ScenarioError(f"{where}: extends: expected a scenario name or path")
        try:
            parent = resolve(doc["extends"], base_dir)
        except ScenarioError as exc:
            raise ScenarioError(f"{where}: extends: {exc}") from None
        state, settings = build(parent, depth + 1)
    else:
        state, settings = State(), Settings()
    settings = _settings(doc, where, settings)
    ctx = ScenarioContext(VendorNames(), base_dir, where)
    for key, module in SECTIONS:
        if key in doc:
            module.apply(state, Section(doc[key], f"{where}: {key}"), ctx)
    return state, settings


@lru_cache(maxsize=64)
def _load_cached(path: Path, mtime: float) -> Scenario:
    state, settings = build(path)
    return Scenario(str(path), settings, state.snapshot())


def load(ref: str | Path) -> Scenario:
    """The scenario a name or path refers to; parsed once per process while unchanged."""
    path = resolve(ref)
    stamp = max((p.stat().st_mtime for p in path.rglob("*")), default=0.0) if path.is_dir() else path.stat().st_mtime
    scenario = _load_cached(path, stamp)
    name = str(ref) if str(ref) in BUILTINS else scenario.name
    return Scenario(name, scenario.settings, scenario.baseline)


def dump(state: State, settings: Settings | None = None) -> dict[str, Any]:
    """A self-contained scenario document (no ``extends``) for this state."""
    ctx = ScenarioContext(VendorNames(), None, "dump")
    doc: dict[str, Any] = {}
    if settings is not None:
        s: dict[str, Any] = {"clockOrigin": settings.clock_origin.isoformat().replace("+00:00", "Z")}
        if settings.profile:
            s["profile"] = settings.profile
        if settings.vendor_prefix:
            s["vendorPrefix"] = settings.vendor_prefix
        if settings.extras:
            s["extras"] = settings.extras
        doc["settings"] = s
    for key, module in SECTIONS:
        doc[key] = module.dump(state, ctx)
    return doc
