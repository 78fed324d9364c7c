"""``State``: everything the emulated server holds, one store per area (which stores: the
composition above the areas, ``geoserver_emulator/composition.py``).

A snapshot is the pickled state: restoring it is a structural copy, much cheaper than
re-reading a scenario, and complete by construction (nothing can be forgotten).

The snapshot is pickled in parts, one per group of stores that share objects (the catalog
and the tile layers it keeps, for one), and a restored state unpickles a part only when one
of its stores is first used. A reset is then nearly free, and a test pays only for the
areas it touches; stores that share objects still come back together, sharing them. A
handler that only reads (a catalog list) asks for ``State.view``: until the state's own copy
is loaded, that is one read-only copy of the snapshot's part per process, so a reset followed
by a list unpickles nothing.
"""

from __future__ import annotations

import datetime
import enum
import gc
import importlib
import pickle
import re
import threading
import types
from pathlib import PurePath
from typing import TYPE_CHECKING, Any

from . import root
from .gcpause import paused
from .record import record
from .rollback import GUARD, Rollback
from .tracking import unrecorded

if TYPE_CHECKING:
    from ..areas.about.model import AboutStore
    from ..areas.appschema.model import AppSchemaStore
    from ..areas.auth_filters.model import FilterStore
    from ..areas.auth_providers.model import ProviderStore
    from ..areas.cascade.model import Remotes
    from ..areas.catalog.model import Catalog
    from ..areas.filter_chains.model import FilterChainStore
    from ..areas.importer.model import ImportStore
    from ..areas.mosaics.model import MosaicStore
    from ..areas.security.model import SecurityStore
    from ..areas.seeding.model import SeedingStore
    from ..areas.settings.model import SettingsStore
    from ..areas.styles.model import StyleStore
    from ..areas.urlchecks.model import UrlCheckStore
    from ..areas.users.model import UsersStore
    from ..features.model import FeatureStore
    from .datadir import DataDir
    from .ids import Ids

STORES: dict[str, str] = dict(root.composition().STORES)
"""Each store's name and class (``module:Class``), as the composition above the areas declares
them (``geoserver_emulator/composition.py``). The classes are imported when an empty state is
made (to build a scenario); a restored state imports a store's module when its part is
unpickled, so a process loads only the models of the areas it uses."""


class State:
    """One store per area (see ``STORES``), each an attribute of the same name; ``dir()``
    lists them (a restored state loads each on first use)."""

    ids: Ids
    """deterministic counters: ids, task ids, timestamps"""
    datadir: DataDir
    """files of the data directory (style bodies, uploads, side files)"""
    users: UsersStore
    """user/group services and role services (``/rest/security/usergroup``, ``…/roles``)"""
    auth_providers: ProviderStore
    """authentication providers and their order (``/rest/security/authproviders``)"""
    auth_filters: FilterStore
    """authentication filters (``/rest/security/authfilters``)"""
    filter_chains: FilterChainStore
    """authentication filter chains, in order (``/rest/security/filterchain``)"""
    security: SecurityStore
    """keystore password, catalog mode, layer/service/REST rules (``/rest/security/acl``)"""
    catalog: Catalog
    """workspaces, namespaces, stores, resources, layers, layer groups"""
    styles: StyleStore
    """styles and their bodies (``/rest/styles``)"""
    seeding: SeedingStore
    """tile layers, gridsets, seed tasks and cached tiles (``/gwc/rest``)"""
    urlchecks: UrlCheckStore
    """URL checks (``/rest/urlchecks``)"""
    about: AboutStore
    """versions, manifests, module and system status (``/rest/about``)"""
    mosaics: MosaicStore
    """image mosaic indexes and granules"""
    appschema: AppSchemaStore
    """app-schema mappings, document databases and their schemas"""
    settings: SettingsStore
    """global, workspace and OWS service settings, logging, fonts (``/rest/settings``…)"""
    features: FeatureStore
    """the data behind uploaded stores: feature tables, grids, remote content"""
    cascade: Remotes
    """the capabilities documents of cascaded stores' remote servers"""
    importer: ImportStore
    """the importer extension's imports, their tasks and the clock's jobs (``/rest/imports``)"""

    def __dir__(self) -> list[str]:
        return sorted({*super().__dir__(), *STORES} - {_PENDING, _GROUPS, GUARD})

    def __init__(self) -> None:
        """An empty state: every store as its class makes it."""
        for name, where in STORES.items():
            module, _, cls = where.partition(":")
            setattr(self, name, getattr(importlib.import_module(module), cls)())
        root.composition().link(self)  # the stores' links (the catalog keeps the tile layers)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in STORES)

    __hash__ = None  # type: ignore[assignment]  # mutable and comparable

    def snapshot(self) -> Snapshot:
        names = list(STORES)
        parts = []
        for group in _linked_groups({name: getattr(self, name) for name in names}):
            blob = pickle.dumps({n: getattr(self, n) for n in group}, pickle.HIGHEST_PROTOCOL)
            parts.append((group, blob))
        return Snapshot(tuple(parts))

    @staticmethod
    def restore(snapshot: Snapshot) -> State:
        """A new state equal to the snapshot's; each part is unpickled on first use."""
        state = object.__new__(State)
        pending: dict[str, tuple[bytes, dict[str, Any]]] = {}
        for names, blob in snapshot.parts:
            box: dict[str, Any] = {}  # shared by the part's stores: filled once
            for name in names:
                pending[name] = (blob, box)
        state.__dict__[_PENDING] = pending
        state.__dict__[_GROUPS] = [names for names, _ in snapshot.parts]
        return state

    def begin(self) -> Rollback:
        """Start a write in the current context: until ``commit()`` or ``undo()`` on the
        answer, what the write changes is recorded as it changes it (``core/rollback.py``);
        ``close()`` ends it."""
        return Rollback(self)

    def view(self, name: str) -> Any:
        """Store ``name`` for reading only: this state's own once it is loaded; until then
        the snapshot's, unpickled once per process and shared by every state restored from
        it (copy on write: the first ``state.<name>`` unpickles this state's own copy).

        The caller must not change what it gets, nor keep it beyond the request."""
        own = self.__dict__.get(name)
        if own is not None:
            return own
        pending = self.__dict__.get(_PENDING)
        if not pending or name not in pending:
            return getattr(self, name)
        return _shared(pending[name][0])[name]

    def __getattr__(self, name: str) -> Any:
        """Unpickle the part holding store ``name`` (called only while it is missing).

        Safe when two threads get there at once: the first unpickled copy wins for every
        store of the part (``dict.setdefault`` is atomic), so the stores stay linked. During
        a write, the fresh objects are saved as the write reaches them, like any others."""
        pending = self.__dict__.get(_PENDING)
        if not pending or name not in pending:
            raise AttributeError(name)
        blob, box = pending[name]
        values = box.get("values")
        if values is None:
            with paused(), unrecorded():
                values = box.setdefault("values", pickle.loads(blob))
        for key, value in values.items():
            self.__dict__.setdefault(key, value)
        return self.__dict__[name]


_PENDING = "_pending_parts"
_GROUPS = "_linked_groups"

_SHARED: dict[int, tuple[bytes, dict[str, Any]]] = {}
"""read-only copies of snapshot parts, by the part's pickle (kept alive with it, so its id
is not reused), the most recently used last"""
_SHARED_SIZE = 8


_SHARED_LOCK = threading.Lock()
"""guards ``_SHARED`` (states of several emulators are read from several threads)"""


def _shared(blob: bytes) -> dict[str, Any]:
    """The stores of a snapshot part, unpickled once and shared (for ``State.view``)."""
    with _SHARED_LOCK:
        hit = _SHARED.pop(id(blob), None)
        if hit is None:
            with paused(), unrecorded():
                hit = (blob, pickle.loads(blob))
            while len(_SHARED) >= _SHARED_SIZE:
                _SHARED.pop(next(iter(_SHARED)), None)
        _SHARED[id(blob)] = hit
        return hit[1]


@record(frozen=True)
class Snapshot:
    """A pickled ``State``: (store names, pickle of those stores) per group of linked stores."""

    parts: tuple[tuple[tuple[str, ...], bytes], ...]


_SKIP = (
    # immutable, or pickled by reference: sharing them between stores is unobservable
    str, bytes, int, float, bool, type(None), complex, range, re.Pattern, enum.Enum,
    datetime.date, datetime.time, datetime.timedelta, datetime.tzinfo, PurePath, type,
    types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.CodeType,
)  # fmt: skip


def _linked_groups(stores: dict[str, object]) -> list[tuple[str, ...]]:
    """The stores grouped so that no mutable object is reachable from two groups.

    A mutable object is walked once, by the first store that reaches it; a store that
    reaches it later joins that store's group and goes no further (whatever lies beyond is
    the group's already). Tuples, frozensets and bound methods are walked through without
    linking stores (the empty tuple is shared by the whole interpreter)."""
    owner: dict[int, str] = {}
    parent = {name: name for name in stores}
    atoms: dict[type, bool] = {}

    def find(name: str) -> str:
        while parent[name] != name:
            name = parent[name]
        return name

    for name, store in stores.items():
        stack: list[object] = [store]
        through: set[int] = set()  # the tuples, frozensets and methods this store walked
        while stack:
            obj = stack.pop()
            kind = type(obj)
            atom = atoms.get(kind)
            if atom is None:
                atom = atoms[kind] = issubclass(kind, _SKIP)
            if atom:
                continue
            key = id(obj)
            if kind is types.MethodType or issubclass(kind, tuple | frozenset):
                if key not in through:
                    through.add(key)
                    stack.extend(_referents(obj))
                continue
            other = owner.get(key)
            if other is None:
                owner[key] = name
                stack.extend(gc.get_referents(obj))
            elif find(other) != find(name):
                parent[find(other)] = find(name)
    groups: dict[str, list[str]] = {}
    for name in stores:
        groups.setdefault(find(name), []).append(name)
    return [tuple(g) for g in groups.values()]


def _referents(obj: object) -> list[object]:
    """What a tuple or frozenset holds; a bound method's object (not its function)."""
    if isinstance(obj, types.MethodType):
        return [obj.__self__]
    return gc.get_referents(obj)
