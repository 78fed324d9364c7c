"""Scenario name or path → a baseline ``State`` (pickled), parsed once per process.

A scenario document is JSON: an object with optional ``extends`` (a built-in name or a path
relative to the file), optional ``settings`` and one section per area (see
``areas/sections.py``). A directory is a scenario too: its ``*.json`` files are read in name
order and their sections merged (a section may appear in only one file); the built-ins
``stock`` and ``empty`` are such directories inside the package. A document can also be
given in memory (``load_document``; ``geoserver_emulator.scenarios.builder`` writes them in code).
A cassette (``*.jsonl``, see ``replay.py``) stands for the state its writes build.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from ..core import extensions, root
from ..core.clock import DEFAULT_ORIGIN, LAST_INSTANT
from ..core.errors import ScenarioError
from ..core.gcpause import paused
from ..core.profile import PROFILES
from ..core.record import field, record
from ..core.state import Snapshot, State
from ..core.vendor import VendorNames
from ..wire import text as wtext
from .context import ScenarioContext
from .fields import Section

BUILTIN_DIR = Path(__file__).parent
BUILTINS = ("stock", "empty")


class SupportsDocument(Protocol):
    """Something that makes a scenario document, such as ``ScenarioBuilder``."""

    def document(self) -> dict[str, Any]: ...


@record(frozen=True)
class Settings:
    profile: str | None = None
    vendor_prefix: str | None = None
    clock_origin: datetime = DEFAULT_ORIGIN
    extras: dict[str, Any] = field(default_factory=dict)
    journal_limit: int | None = None
    """requests the journal keeps (``journalLimit``); None: all"""
    journal_max_bytes: int | None = None
    """bytes of bodies the journal keeps in all (``journalMaxBytes``); None: no bound"""
    host_read: bool | None = None
    """whether external paths and ``file:`` URLs may read the host (``hostRead``); None:
    the process decides (on in-process and on a loopback-bound server)"""
    databases: str | None = None
    """the databases mode, ``auto``/``live``/``memory`` (``databases``); None: ``auto``"""
    database_hosts: tuple[str, ...] = ()
    """hosts beyond loopback a database store may contact (``databaseHosts``)"""
    extensions: frozenset[str] = frozenset()
    """GeoServer extensions installed (``extensions``, see ``core/extensions.py``)"""


@record(frozen=True)
class Scenario:
    name: str
    settings: Settings
    baseline: Snapshot
    """the pickled ``State`` this scenario starts from"""

    def state(self) -> State:
        return State.restore(self.baseline)


ScenarioRef = str | Path | Mapping[str, Any] | SupportsDocument | Scenario
"""A built-in name, a file or folder path (a cassette, ``*.jsonl``, too), an in-memory
scenario document, or a ``Scenario`` already loaded."""


def resolve(ref: str | Path, relative_to: Path | None = None) -> Path:
    """The file or folder a scenario reference names."""
    text = str(ref)
    if text in BUILTINS:
        return BUILTIN_DIR / text
    path = Path(text)
    if not path.is_absolute() and relative_to is not None:
        path = relative_to / path
    if not path.exists():
        raise ScenarioError(missing(text, [path]))
    return path.resolve()


def missing(text: str, looked: list[Path]) -> str:
    """The message for a scenario reference that names nothing: where it was looked for."""
    where = " and ".join(dict.fromkeys(str(p.absolute()) for p in looked))
    return f"{text}: no such scenario: looked for {where} (built-ins: {', '.join(BUILTINS)})"


def read_document(path: Path) -> tuple[dict[str, Any], dict[str, Path]]:
    """The merged JSON document of a scenario file or folder, and the file each top-level
    key came from (for error messages)."""
    if not path.is_dir():
        single = _read_json(path)
        return single, dict.fromkeys(single, path)
    doc: dict[str, Any] = {}
    origin: dict[str, Path] = {}
    for file in sorted(path.glob("*.json")):
        part = _read_json(file)
        for key, value in part.items():
            if key == "settings" and isinstance(value, dict) and isinstance(doc.get(key, {}), dict):
                doc.setdefault("settings", {}).update(value)
                origin.setdefault(key, file)
                continue
            if key in doc:
                raise ScenarioError(f"{_name(file)}: {key}: already given by {_name(origin[key])}")
            doc[key] = value
            origin[key] = file
    return doc, origin


INLINE = "<scenario document>"
"""the file name an in-memory document's keys are given as origin (no such file exists)"""


def _name(file: Path) -> str:
    """How errors name a file: relative for the built-ins, as given otherwise; an in-memory
    document is named as such (it has no file)."""
    if file.name == INLINE:
        return "scenario document"
    try:
        return str(file.relative_to(BUILTIN_DIR))
    except ValueError:
        return str(file)


def _read_json(file: Path) -> dict[str, Any]:
    try:
        data = json.loads(file.read_bytes().decode("utf-8"))
    except OSError as exc:
        raise ScenarioError(f"{_name(file)}: cannot read: {exc.strerror}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ScenarioError(f"{_name(file)}: not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ScenarioError(f"{_name(file)}: a scenario must be a JSON object")
    check_text(data, _name(file))
    return data


def check_text(doc: Any, name: str) -> None:
    """Raise ``ScenarioError`` at the first key or string of a scenario document that XML 1.0
    cannot carry (``wire/text.py``): the state it would build could not be answered in XML."""
    stack: list[tuple[Any, str]] = [(doc, "")]
    while stack:
        item, where = stack.pop()
        if isinstance(item, str):
            bad = wtext.unsafe_in(item)
            if bad is not None:
                raise ScenarioError(f"{name}: {wtext.refusal(bad, where or 'the document')}")
        elif isinstance(item, dict):
            for key, child in item.items():
                bad = wtext.unsafe_in(str(key))
                if bad is not None:
                    at = f"a key of {where or 'the document'}"
                    raise ScenarioError(f"{name}: {wtext.refusal(bad, at)}")
                stack.append((child, f"{where}.{key}" if where else str(key)))
        elif isinstance(item, list):
            stack.extend((child, f"{where}[{i}]") for i, child in enumerate(item))


def _settings(doc: dict[str, Any], where: str, base: Settings) -> Settings:
    if "settings" not in doc:
        return base
    sec = Section(doc["settings"], f"{where}: settings")
    sec.only(
        {"profile", "vendorPrefix", "clockOrigin", "extras", "journalLimit", "journalMaxBytes"}
        | {"hostRead"}
        | {"databases", "databaseHosts"}
        | {"extensions"}
    )
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
        if origin >= LAST_INSTANT:
            raise ScenarioError(
                f"{sec.where}.clockOrigin: expected an instant before"
                f" {LAST_INSTANT.date().isoformat()} (simulated time ends there)"
            )
    extras = {**base.extras, **sec.dict("extras")}
    bounds = {}
    for key, default in (
        ("journalLimit", base.journal_limit),
        ("journalMaxBytes", base.journal_max_bytes),
    ):
        bounds[key] = sec.int(key, default)
        if bounds[key] is not None and bounds[key] <= 0:
            raise ScenarioError(f"{sec.where}.{key}: expected a positive integer")
    return Settings(
        profile,
        sec.str("vendorPrefix", base.vendor_prefix),
        origin,
        extras,
        bounds["journalLimit"],
        bounds["journalMaxBytes"],
        _host_read(sec, base.host_read),
        *_database_settings(sec, base),
        _extensions(sec, base.extensions),
    )


def _database_settings(sec: Section, base: Settings) -> tuple[str | None, tuple[str, ...]]:
    """``databases`` (a mode) and ``databaseHosts`` (a list, or one comma-separated text)."""
    from ..databases.policy import MODES, parse_hosts

    mode = sec.str("databases", base.databases)
    if mode is not None and mode not in MODES:
        raise ScenarioError(f"{sec.where}.databases: expected one of {', '.join(MODES)}")
    if not sec.has("databaseHosts"):
        return mode, base.database_hosts
    raw = sec.data["databaseHosts"]
    if isinstance(raw, str):
        return mode, parse_hosts(raw)
    return mode, parse_hosts(sec.strings("databaseHosts"))


def _host_read(sec: Section, default: bool | None) -> bool | None:
    value: bool | None = sec.bool("hostRead", default)
    return value


def _extensions(sec: Section, default: frozenset[str]) -> frozenset[str]:
    if not sec.has("extensions"):
        return default
    names = sec.strings("extensions")
    try:
        return extensions.check(names, f"{sec.where}.extensions")
    except ValueError as exc:
        raise ScenarioError(str(exc)) from None


def build(
    path: Path, chain: tuple[Path, ...] = (), files: list[Path] | None = None
) -> tuple[State, Settings]:
    """Read a scenario (and what it extends) into a fresh state; ``files`` collects every
    file read."""
    if path in chain:
        raise ScenarioError(
            f"{_name(chain[-1])}: extends: {_name(path)} extends itself"
            f" through {len(chain)} step(s)"
        )
    if path.suffix == ".jsonl":  # a cassette: the state its writes build (see replay.py)
        if files is not None:
            files.append(path)
        state, settings = root.emulator_class().state_of_cassette(path)
        return state, settings
    doc, origin = read_document(path)
    if files is not None:
        files.extend([path] if not path.is_dir() else [path, *sorted(set(origin.values()))])
    base_dir = path if path.is_dir() else path.parent
    return build_document(doc, origin, base_dir, (*chain, path), files)


def build_document(
    doc: dict[str, Any],
    origin: dict[str, Path],
    base_dir: Path,
    chain: tuple[Path, ...] = (),
    files: list[Path] | None = None,
) -> tuple[State, Settings]:
    """A scenario document into a fresh state; ``origin`` names the file each key came from,
    ``base_dir`` is where ``extends`` paths are relative to, ``chain`` what extends it."""
    from ..areas.sections import SECTIONS, TOP_LEVEL_KEYS  # every area's scenario module

    unknown = sorted(set(doc) - TOP_LEVEL_KEYS)
    if unknown:
        raise ScenarioError(f"{_name(origin[unknown[0]])}: {unknown[0]}: unknown top-level key")
    if doc.get("extends") is not None:
        where = _name(origin["extends"])
        if not isinstance(doc["extends"], str):
            raise ScenarioError(f"{where}: extends: expected a scenario name or path")
        try:
            parent = resolve(doc["extends"], base_dir)
        except ScenarioError as exc:
            raise ScenarioError(f"{where}: extends: {exc}") from None
        state, settings = build(parent, chain, files)
    else:
        state, settings = State(), Settings()
    if "settings" in doc:
        settings = _settings(doc, _name(origin["settings"]), settings)
    for key, module in SECTIONS:
        if key in doc:
            where = _name(origin[key])
            ctx = ScenarioContext(VendorNames(), origin[key].parent, where)
            module.apply(state, Section(doc[key], f"{where}: {key}"), ctx)
    return state, settings


class _ParseCache:
    """Parsed scenarios, process-wide: immutable results keyed by path and checked against
    the bytes of every file they were read from (the built-ins, shipped in the package, are
    not re-checked). Holds no emulator state."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self.entries: dict[Path, tuple[tuple[tuple[Path, bytes], ...], Scenario]] = {}

    def get(self, path: Path) -> Scenario:
        hit = self.entries.get(path)
        if hit is not None and (_builtin(path) or all(_digest(f) == d for f, d in hit[0])):
            return hit[1]
        files: list[Path] = []
        scenario = _builtin_scenario(path) if _builtin(path) else _parse(path, files)
        if len(self.entries) >= self.size:
            self.entries.pop(next(iter(self.entries)))
        self.entries[path] = (tuple((f, _digest(f)) for f in files), scenario)
        return scenario


def _builtin(path: Path) -> bool:
    return path.parent == BUILTIN_DIR and path.name in BUILTINS


def _parse(path: Path, files: list[Path] | None = None) -> Scenario:
    state, settings = build(path, files=files)
    return Scenario(str(path), settings, state.snapshot())


def _builtin_scenario(path: Path) -> Scenario:
    """A built-in scenario, from the disk cache when an entry matches (``diskcache.py``)."""
    from . import diskcache

    try:
        key: bytes | None = diskcache.fingerprint()
    except OSError:  # the package cannot be listed (a zip, say): no cache
        key = None
    cached = diskcache.read(path.name, key) if key is not None else None
    if isinstance(cached, tuple) and len(cached) == 2:
        settings, baseline = cached
        if isinstance(settings, Settings) and isinstance(baseline, Snapshot):
            return Scenario(str(path), settings, baseline)
    scenario = _parse(path)
    if key is not None:
        diskcache.write(path.name, key, (scenario.settings, scenario.baseline))
    return scenario


def _digest(file: Path) -> bytes:
    """A file's content hash; for a folder, the hash of the names of its ``*.json`` files."""
    try:
        if file.is_dir():
            data = "\n".join(sorted(p.name for p in file.glob("*.json"))).encode()
        else:
            data = file.read_bytes()
    except OSError:
        return b""
    return hashlib.blake2b(data, digest_size=16).digest()


_CACHE = _ParseCache()


def load(ref: ScenarioRef) -> Scenario:
    """The scenario a name, path or in-memory document refers to; parsed once per process
    while unchanged (files) or per distinct content (documents)."""
    if isinstance(ref, Scenario):
        return ref
    if isinstance(ref, Mapping):
        return load_document(ref)
    document = getattr(ref, "document", None)
    if callable(document):
        return load_document(document())
    if not isinstance(ref, str | Path):
        raise ScenarioError(f"{ref!r}: not a scenario name, path or document")
    path = resolve(ref)
    scenario = _CACHE.get(path)
    name = str(ref) if str(ref) in BUILTINS else scenario.name
    return Scenario(name, scenario.settings, scenario.baseline)


def load_document(doc: Mapping[str, Any], base_dir: str | Path | None = None) -> Scenario:
    """The scenario of an in-memory document (a dict shaped like a scenario file).

    ``extends`` paths are relative to ``base_dir`` (default: the working directory). The
    document is parsed once per process for each distinct content (key order included: the
    order of REST access rules matters).
    """
    try:
        text = json.dumps(doc, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise ScenarioError(f"scenario document: not JSON-serialisable: {exc}") from None
    base = Path(base_dir).resolve() if base_dir is not None else Path.cwd()
    return _DOCUMENTS.get(text, base)


class _DocumentCache:
    """Parsed in-memory documents, process-wide, keyed by their JSON text (immutable results)."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self.entries: dict[tuple[str, Path], Scenario] = {}

    def get(self, text: str, base_dir: Path) -> Scenario:
        hit = self.entries.get((text, base_dir))
        if hit is not None:
            return hit
        doc = json.loads(text)
        if not isinstance(doc, dict):
            raise ScenarioError("scenario document: a scenario must be a JSON object")
        check_text(doc, "scenario document")
        name = "document-" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]
        origin = dict.fromkeys(doc, base_dir / INLINE)
        with paused():
            state, settings = build_document(doc, origin, base_dir)
            scenario = Scenario(name, settings, state.snapshot())
        if len(self.entries) >= self.size:
            self.entries.pop(next(iter(self.entries)))
        self.entries[(text, base_dir)] = scenario
        return scenario


_DOCUMENTS = _DocumentCache()


def dump(state: State, settings: Settings | None = None) -> dict[str, Any]:
    """A self-contained scenario document (no ``extends``) for this state."""
    from ..areas.sections import SECTIONS

    ctx = ScenarioContext(VendorNames(), None, "dump")
    doc: dict[str, Any] = {}
    if settings is not None:
        s: dict[str, Any] = {
            "clockOrigin": settings.clock_origin.isoformat().replace("+00:00", "Z")
        }
        if settings.profile:
            s["profile"] = settings.profile
        if settings.vendor_prefix:
            s["vendorPrefix"] = settings.vendor_prefix
        if settings.extras:
            s["extras"] = settings.extras
        if settings.journal_limit is not None:
            s["journalLimit"] = settings.journal_limit
        if settings.journal_max_bytes is not None:
            s["journalMaxBytes"] = settings.journal_max_bytes
        if settings.databases:
            s["databases"] = settings.databases
        if settings.database_hosts:
            s["databaseHosts"] = list(settings.database_hosts)
        if settings.host_read is not None:
            s["hostRead"] = settings.host_read
        if settings.extensions:
            s["extensions"] = [e.name for e in extensions.installed(settings.extensions)]
        doc["settings"] = s
    for key, module in SECTIONS:
        doc[key] = module.dump(state, ctx)
    return doc
