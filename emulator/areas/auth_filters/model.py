"""Filter configurations and the store that creates, reads, replaces and removes them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...core.errors import Gone, Invalid, NotFound
from ...core.record import field, record
from .schema import NON_AUTHENTICATION_FILTERS, check_required, filter_class, type_fields

PROTECTED = frozenset({"anonymous", "basic", "form", "rememberme"})
"""filters GeoServer refuses to delete"""


@record
class FilterConfig:
    id: str
    """server-assigned; empty on a configuration that is not stored yet"""
    name: str
    class_name: str
    """canonical implementation class (see core.vendor); empty when the client sent none"""
    config_class: str
    """canonical config class name: the XML root element, the JSON key"""
    fields: dict[str, Any] = field(default_factory=dict)
    """the class's own fields, typed (see schema)"""

    @property
    def is_authentication(self) -> bool:
        """Whether the list shows it (GeoServer lists only authentication filters)."""
        return self.class_name not in NON_AUTHENTICATION_FILTERS


def draft(name: str, class_name: str, config_class: str, raw: dict[str, Any]) -> FilterConfig:
    """A configuration as a client sent it, fields typed for its class; not validated yet."""
    fc = filter_class(config_class)
    return FilterConfig("", name, class_name, config_class, type_fields(fc, raw))


def validate(cfg: FilterConfig) -> None:
    """What GeoServer's filter validator checks, answered as 400 (see docs/fidelity.md)."""
    if not cfg.class_name:
        raise Invalid(f"Cannot save the config {cfg.name} because it has no className")
    check_required(filter_class(cfg.config_class), cfg.fields)


@record
class FilterStore:
    configs: dict[str, FilterConfig] = field(default_factory=dict)
    deleted: set[str] = field(default_factory=set)
    """names removed since the start, so that a second DELETE can say 'gone'"""

    def find(self, name: str) -> FilterConfig | None:
        return self.configs.get(name)

    def listed(self) -> list[FilterConfig]:
        """The authentication filters, by name (GeoServer reads them into a sorted set)."""
        return sorted((c for c in self.configs.values() if c.is_authentication), key=_by_name)

    def create(self, cfg: FilterConfig, new_id: Callable[[], str]) -> FilterConfig:
        """Store a new configuration under a fresh id (drawn only when it is accepted)."""
        if not cfg.name:
            raise Invalid("Cannot create the config has no name parameter")
        if "/" in cfg.name or "\\" in cfg.name:
            raise Invalid(f"Cannot create the config {cfg.name}: a name cannot contain a slash")
        if cfg.name in self.configs:
            raise Invalid(f"Cannot create the config {cfg.name} because the name is already in use")
        validate(cfg)
        cfg.id = new_id()
        self.configs[cfg.name] = cfg
        self.deleted.discard(cfg.name)
        return cfg

    def update(self, path_name: str, cfg: FilterConfig) -> FilterConfig:
        """Replace a configuration whole (its class may change); the stored id is kept."""
        if cfg.name != path_name:
            body = cfg.name or "null"
            raise Invalid(
                f"Cannot modify the config {path_name} because the name {body} "
                "in the body does not match"
            )
        current = self.configs.get(path_name)
        if current is None:
            raise NotFound(f"Cannot update {path_name} because it does not exist")
        validate(cfg)
        cfg.id = current.id
        self.configs[path_name] = cfg
        return cfg

    def delete(self, name: str, missing_status: int = 410) -> None:
        """Remove a filter; a missing or already removed one answers ``missing_status``."""
        if name in PROTECTED:
            raise Invalid(f"Cannot delete {name} because it is a required authentication filter")
        if name not in self.configs:
            error = Gone if missing_status == Gone.status else NotFound
            raise error(f"Cannot find filter {name}", status=missing_status)
        del self.configs[name]
        self.deleted.add(name)


def _by_name(cfg: FilterConfig) -> str:
    return cfg.name
