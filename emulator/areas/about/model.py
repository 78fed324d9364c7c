"""What the server says about itself: component versions, jar manifests, module statuses
and the system-status metrics.

Resources (versions and manifests) are kept sorted by name, as GeoServer's ``TreeSet``.
Filtering follows ``AboutController``/``ManifestLoader``: ``manifest`` (full-match regex on
the name), then ``from``..``to`` (inclusive name range, only with both), then the property
filters (``key`` and ``value`` must match the same entry; alone, any entry).

The property that marks GeoServer's own jars is ``GeoServerModule``; the interface spec
writes it ``ServiceModule``. It is emitted under the vendor's spelling and a ``key`` filter
matches either spelling.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...core import extensions
from ...core.budget import Budget
from ...core.errors import Invalid, NotFound
from ...core.record import field, record
from ..urlchecks import regexes
from .metrics import MetricSample, MetricValue, assemble

MODULE_PROPERTY = "GeoServerModule"
MODULE_PROPERTY_ALIASES = ("GeoServerModule", "ServiceModule")


def module_property(vendor_prefix: str) -> str:
    """The module property's name as this vendor writes it."""
    return "ServiceModule" if vendor_prefix == "org.service" else MODULE_PROPERTY


@record
class Resource:
    """A ``ManifestModel``: a named set of manifest properties."""

    name: str
    properties: dict[str, str] = field(default_factory=dict)

    def emitted(self, vendor_prefix: str) -> list[tuple[str, str]]:
        """The properties with the module property under the vendor's name."""
        own = module_property(vendor_prefix)
        return [(own if k == MODULE_PROPERTY else k, v) for k, v in self.properties.items()]


@record
class ModuleStatus:
    """A ``ModuleStatus`` bean: an installed module and whether it works."""

    module: str
    name: str
    component: str | None = None
    version: str | None = None
    documentation: str | None = None
    message: str | None = None
    enabled: bool = True
    available: bool = True


@record(frozen=True)
class Filters:
    """The query of ``/about/version`` and ``/about/manifest``."""

    manifest: str | None = None
    from_: str | None = None
    to: str | None = None
    key: str | None = None
    value: str | None = None


@record
class AboutStore:
    versions: list[Resource] = field(default_factory=list)
    manifests: list[Resource] = field(default_factory=list)
    modules: list[ModuleStatus] = field(default_factory=list)
    metrics: list[MetricSample] = field(default_factory=list)
    metrics_source: str = "scenario"
    """``scenario`` (the samples above) or ``host`` (read from the machine on each request)"""

    def module_statuses(self, target: str | None = None) -> list[ModuleStatus]:
        """All modules, or those whose ``module`` equals ``target`` ignoring case (404 if none)."""
        return module_statuses(self.modules, target)

    def metric_values(
        self, elapsed: float, host: list[MetricSample] | None = None
    ) -> list[MetricValue]:
        """The system-status rows: from the host samples when given, else the scenario's
        (with ``SYSTEM_UPTIME`` advanced by ``elapsed`` emulated seconds)."""
        if host is not None:
            return assemble(host)
        return assemble(self.metrics, elapsed)


def module_statuses(modules: list[ModuleStatus], target: str | None) -> list[ModuleStatus]:
    """All modules, or those whose ``module`` equals ``target`` ignoring case (404 if none)."""
    if target is None:
        return list(modules)
    found = [m for m in modules if m.module.lower() == target.lower()]
    if not found:
        raise NotFound(f"No such module: {target}")
    return found


def with_extensions(
    store: AboutStore, names: frozenset[str]
) -> tuple[list[Resource], list[ModuleStatus]]:
    """The manifests and module statuses with those of the installed extensions added, as
    GeoServer lists an extension's jars (``<artifact>-<version>``, ``GeoServerModule:
    extension``) and its ``ModuleStatusImpl`` beans."""
    if not names:
        return store.manifests, store.modules
    version = _release(store)
    template = next((r for r in store.manifests if r.name.startswith("gs-main-")), None)
    manifests, modules = list(store.manifests), list(store.modules)
    known = {r.name for r in manifests}
    for ext in extensions.installed(names):
        for jar in ext.jars:
            props = dict(template.properties) if template is not None else {}
            props.update(
                {
                    "Specification-Title": jar.title,
                    "Implementation-Title": jar.title,
                    "Implementation-Version": version,
                    MODULE_PROPERTY: "extension",
                    "Application-Name": jar.artifact,
                    "Project-Version": version,
                }
            )
            name = f"{jar.artifact}-{version}"
            if name not in known:
                manifests.append(Resource(name, props))
        for m in ext.modules:
            if not any(x.module == m.module for x in modules):
                modules.append(ModuleStatus(m.module, m.name, m.component, version))
    return manifests, modules


def _release(store: AboutStore) -> str:
    """The GeoServer version the scenario states (``versions``' ``GeoServer`` resource)."""
    for r in store.versions:
        if r.name == "GeoServer":
            return r.properties.get("Version", "")
    return ""


def select(resources: Iterable[Resource], filters: Filters) -> list[Resource]:
    """The resources that pass the filters, sorted by name."""
    budget = Budget("manifest filters", regexes.TOTAL_TIMEOUT)
    out = sorted(resources, key=lambda r: r.name)
    if filters.manifest is not None:
        out = [
            r
            for r in out
            if regexes.checked_fullmatch(filters.manifest, r.name, "manifest", budget)
        ]
    if filters.from_ is not None and filters.to is not None:
        if filters.from_ > filters.to:
            raise Invalid(f"from ({filters.from_}) must not sort after to ({filters.to})")
        out = [r for r in out if filters.from_ <= r.name <= filters.to]
    if filters.key is None and filters.value is None:
        return out
    return [r for r in out if _has_property(r, filters.key, filters.value, budget)]


def _has_property(r: Resource, key: str | None, value: str | None, budget: Budget) -> bool:
    for k, v in r.properties.items():
        if key is not None and not _key_matches(key, k, budget):
            continue
        if value is not None and not regexes.checked_fullmatch(value, v, "value", budget):
            continue
        return True
    return False


def _key_matches(pattern: str, key: str, budget: Budget) -> bool:
    names = MODULE_PROPERTY_ALIASES if key == MODULE_PROPERTY else (key,)
    return any(regexes.checked_fullmatch(pattern, n, "key", budget) for n in names)
