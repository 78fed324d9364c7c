"""Provider configurations and the active list that orders and enables them.

The active list (GeoServer's ``authProviderNames``) is both the order in which providers
are asked and the set that is enabled: a configuration whose name is not in it is kept
but disabled. Every write checks everything first and then changes the store in one go, so
a refused request leaves it as it was. Writes are serialized by the caller (the HTTP
endpoints run on one event loop, the WSGI adapter holds a lock), and none of these methods
yields in the middle.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterator
from typing import Any

from ...core.errors import EmulatorError, Gone, Invalid, NotFound, ServerError
from ...core.record import field, record
from .classes import (
    KNOWN_NAMES,
    USER_GROUP_SERVICE,
    USERNAME_PASSWORD_CONFIG,
    USERNAME_PASSWORD_PROVIDER,
    FieldSpec,
    ProviderClass,
    coerce,
    known_class,
    known_provider,
    typed_fields,
)

__all__ = [
    "USERNAME_PASSWORD_CONFIG",
    "USERNAME_PASSWORD_PROVIDER",
    "ProviderConfig",
    "ProviderDraft",
    "ProviderStore",
    "config_fields",
    "normalize_name",
]

RESERVED_NAMES = frozenset({"order"})
Canon = Callable[[str], str]
"""turns a class name as sent into its canonical form (see ``codec.canonical_class``)"""
CANNOT_SAVE = "Cannot save security configuration"


@record
class ProviderConfig:
    id: str
    name: str
    class_name: str
    """canonical class name (see core.vendor)"""
    config_class: str
    """canonical config class name: the XML root element"""
    user_group_service: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    """the other fields, in order: typed for known classes, as given for the others"""


@record
class ProviderDraft:
    """A provider configuration as a request body gave it, before the store's rules.

    Class names are as sent (the store canonicalizes them with the function it is given);
    ``fields`` holds every field but id, name and className, with raw values (JSON values,
    or strings and nested dicts from XML).
    """

    source: str
    """``JSON`` or ``XML``, for messages"""
    name: str | None = None
    class_name: str | None = None
    """the className field, or None when omitted"""
    config_class: str | None = None
    """the XML root element, or None for JSON"""
    id: str | None = None
    fields: dict[str, Any] = field(default_factory=dict)


def normalize_name(name: str) -> str:
    """A provider name from a path or an order list, without a ``.xml``/``.json`` suffix."""
    base, dot, ext = name.rpartition(".")
    return base if dot and ext.lower() in ("xml", "json") else name


def config_fields(cfg: ProviderConfig, pclass: ProviderClass) -> list[tuple[str, Any]]:
    """The fields after id, name and className, in the order GeoServer writes them."""
    if pclass.fields is None:
        return [(USER_GROUP_SERVICE, cfg.user_group_service), *cfg.extra.items()]
    return [
        (f.name, cfg.user_group_service if f.name == USER_GROUP_SERVICE else cfg.extra.get(f.name))
        for f in pclass.fields
    ]


@record
class ProviderStore:
    configs: dict[str, ProviderConfig] = field(default_factory=dict)
    active: list[str] = field(default_factory=list)
    deleted: set[str] = field(default_factory=set)
    """names deleted since the start: deleting one again is 410, not 404"""

    # -- reads ---------------------------------------------------------------------------

    def active_configs(self) -> list[ProviderConfig]:
        """The enabled configurations, in the active order (what GET lists)."""
        return list(self.iter_active())

    def iter_active(self) -> Iterator[ProviderConfig]:
        """The enabled configurations in the active order, one at a time: authentication
        stops at the first that accepts, whatever the number behind it."""
        configs = self.configs
        return (configs[n] for n in self.active if n in configs)

    def get(self, name: str) -> ProviderConfig:
        """A configuration by name, enabled or not."""
        try:
            return self.configs[name]
        except KeyError:
            raise NotFound(f"Provider '{name}' not found") from None

    def class_of(self, cfg: ProviderConfig) -> ProviderClass:
        return known_provider(cfg.class_name) or ProviderClass(cfg.class_name, cfg.config_class)

    def resolve(self, name: str, kind: str = "any") -> ProviderClass | None:
        """The class a canonical class name names: a known one, or one a stored provider uses
        (installed, evidently). ``kind="config"`` accepts only configuration class names."""
        found = known_class(name, kind)
        if found is not None:
            return found
        for cfg in self.configs.values():
            if name == cfg.config_class or (kind == "any" and name == cfg.class_name):
                return self.class_of(cfg)
        return None

    def class_names(self) -> set[str]:
        """Every canonical class name ``resolve`` would recognise."""
        return {
            n for c in self.configs.values() for n in (c.class_name, c.config_class)
        } | KNOWN_NAMES

    # -- writes --------------------------------------------------------------------------

    def create(
        self,
        draft: ProviderDraft,
        position: int | None,
        canon: Canon,
        new_id: Callable[[], str],
        user_group_services: Container[str],
    ) -> ProviderConfig:
        """Save a new provider and enable it at ``position`` (appended when None)."""
        pclass = self._draft_class(draft, canon, required=True)
        assert pclass is not None
        name = _checked_name(draft.name)
        if name in self.configs:
            raise Invalid(f"Provider '{name}' already exists")
        pos = len(self.active) if position is None else position
        _check_position(pos, len(self.active))
        cfg = self._build(name, "", pclass, draft, user_group_services)
        cfg.id = new_id()
        self.configs[name] = cfg
        self.active.insert(pos, name)
        self.deleted.discard(name)
        return cfg

    def update(
        self,
        path_name: str,
        draft: ProviderDraft,
        position: int | None,
        canon: Canon,
        user_group_services: Container[str],
    ) -> ProviderConfig:
        """Replace an enabled provider's configuration (id and class kept); maybe move it."""
        given = self._draft_class(draft, canon, required=False)
        name = _checked_name(draft.name)
        if name != path_name:
            raise Invalid("path name and payload name differ")
        existing = self.get(name)
        if given is not None and given.provider != existing.class_name:
            raise Invalid("className cannot change")
        if name not in self.active:
            # GeoServer: the name must be in the active list, else its generic catch → 500
            raise ServerError(CANNOT_SAVE)
        if position is not None:
            _check_position(position, len(self.active) - 1)
        cfg = self._build(
            name, existing.id, given or self.class_of(existing), draft, user_group_services
        )
        cfg.class_name, cfg.config_class = existing.class_name, existing.config_class
        self.configs[name] = cfg
        if position is not None:
            self.active.remove(name)
            self.active.insert(position, name)
        return cfg

    def delete(self, name: str, unknown_status: int = 404, gone_status: int = 410) -> None:
        """Remove a provider, enabled or disabled. The two statuses are the profile's."""
        if name not in self.configs:
            if name in self.deleted:
                raise _missing(Gone, f"Provider '{name}' was already deleted", gone_status)
            raise _missing(NotFound, f"Provider '{name}' not found", unknown_status)
        del self.configs[name]
        if name in self.active:
            self.active.remove(name)
        self.deleted.add(name)

    def reorder(self, names: list[str]) -> None:
        """Make ``names`` the whole active list; providers left out are disabled, not removed."""
        if not names:
            raise Invalid("`order` array required")
        wanted = [normalize_name(n) for n in names]
        if len(set(wanted)) != len(wanted):
            raise Invalid("Duplicate entries in order")
        for n in wanted:
            if n not in self.configs:
                raise Invalid(f"Unknown provider: {n}")
        self.active = wanted

    # -- helpers -------------------------------------------------------------------------

    def _draft_class(
        self, draft: ProviderDraft, canon: Canon, required: bool
    ) -> ProviderClass | None:
        """The class a body names (XML root and/or className), checked."""
        root = None
        if draft.config_class is not None:
            root = self.resolve(canon(draft.config_class), "config")
            if root is None:
                raise Invalid(f"Unsupported className: {draft.config_class}")
        if draft.class_name is None or not draft.class_name.strip():
            if required:
                raise Invalid(f"Missing 'className' in {draft.source} payload")
            return root
        pclass = self.resolve(canon(draft.class_name))
        if pclass is None:
            raise Invalid(f"Unsupported className: {draft.class_name}")
        if root is not None and root != pclass:
            raise Invalid(f"className {draft.class_name} does not belong to {draft.config_class}")
        return pclass

    def _build(
        self,
        name: str,
        id_: str,
        pclass: ProviderClass,
        draft: ProviderDraft,
        user_group_services: Container[str],
    ) -> ProviderConfig:
        fields = typed_fields(pclass, draft.fields)
        ugs = coerce(FieldSpec(USER_GROUP_SERVICE), fields.pop(USER_GROUP_SERVICE, None))
        if pclass.requires_user_group_service and not (ugs or "").strip():
            raise Invalid("User/group service name is required")
        if ugs and ugs not in user_group_services:
            raise Invalid(f"User/group service {ugs} does not exist")
        return ProviderConfig(id_, name, pclass.provider, pclass.config, ugs, fields)


def _checked_name(name: str | None) -> str:
    if name is None or not name.strip():
        raise Invalid("name required")
    if name.lower() in RESERVED_NAMES:
        raise Invalid(f"'{name}' is reserved")
    return name


def _check_position(position: int, last: int) -> None:
    if not 0 <= position <= last:
        raise Invalid("position out of range")


def _missing(kind: type[EmulatorError], message: str, status: int) -> EmulatorError:
    """A 404/410, or GeoServer's catch-all 500 when the profile says so."""
    if status == 500:
        return ServerError(CANNOT_SAVE)
    return kind(message, status=status)
