"""What a caller of an OGC service sees of the catalog: the published layers and groups
in scope (global, one workspace, or one layer), filtered by the security settings.

Security follows GeoServer's ``DefaultResourceAccessManager`` and ``SecureCatalogImpl``:
``access.py`` decides who may call an operation and read or write an item (the rules, and
the hook an access-rule extension plugs into), and what a refused item looks like under the
catalog mode (``HIDE``: absent; ``MIXED``: absent from capabilities, a challenge when named;
``CHALLENGE``: listed and described, a challenge when read). ``View`` asks it for every
item, in the name of the call's service and operation.

Pure domain logic: no HTTP, no XML.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, NamedTuple

from ...crs.envelope import Envelope, to_lonlat
from ..catalog.entities import (
    BBox,
    FeatureType,
    Layer,
    LayerGroup,
    Resource,
    is_projected,
)
from . import access
from .access import Access, Intent, Visibility, visibility
from .containment import Containment
from .errors import LAYER_NOT_DEFINED, NO_CODE, Denied, OwsError

if TYPE_CHECKING:
    from ...core.state import State
    from ..access import Principal
    from ..catalog.model import Catalog

Published = Layer | LayerGroup

RESERVED = frozenset(
    {"rest", "gwc", "web", "__emulator", "schemas", "www", "j_spring_security_check"}
)
"""first path segments that are never a workspace's virtual service"""

WORLD = BBox(-180.0, 180.0, -90.0, 90.0, "EPSG:4326")


def disabled_services(res: Resource) -> set[str]:
    """The services a resource switches off for itself (upper case), when its own service
    configuration is on."""
    if not res.extras.get("serviceConfiguration"):
        return set()
    return {str(s).upper() for s in res.extras.get("disabledServices") or []}


class View:
    """The catalog as one service call sees it.

    ``workspace`` narrows to a workspace's virtual service; ``only`` to one layer or group
    (a layer's virtual service). Names are written unqualified inside a workspace service.
    """

    def __init__(
        self,
        state: State,
        principal: Principal,
        workspace: str | None = None,
        only: Published | None = None,
        service: str | None = None,
        operation: str = "",
    ) -> None:
        self.state = state
        self.service = (service or "").upper()
        """the service called (``WMS``…): a resource may disable it for itself"""
        self.operation = operation
        """the request called (``GetMap``…), which the access rules may consider"""

        self.catalog = state.catalog
        self.principal = principal
        self.admin = principal.is_admin
        """an administrator sees and changes every item: no rule is asked about one
        (``SecureCatalogImpl``); the rules still answer about operations"""
        self.workspace = workspace
        self.only = only
        self.mode = state.security.catalog_mode
        self.containment = Containment(state.catalog)
        """the catalog's groups, which the layer-group rules read (built when first asked)"""

    # -- naming -----------------------------------------------------------------------

    def name_of(self, item: Published) -> str:
        if self.workspace is not None or item.workspace is None:
            return item.name
        return f"{item.workspace}:{item.name}"

    # -- state of one item -------------------------------------------------------------

    def resource(self, layer: Layer) -> Resource:
        return self.catalog.resources[(layer.workspace, layer.name)]

    def enabled(self, item: Published) -> bool:
        """Enabled with its resource and store, and its resource does not disable the
        service called (``serviceConfiguration`` with ``disabledServices``: GeoServer's
        ``DisabledServiceResourceFilter`` hides it from that service as if absent)."""
        if isinstance(item, LayerGroup):
            return item.enabled
        res = self.catalog.resources.get((item.workspace, item.name))
        store = res and self.catalog.stores.get((res.workspace, res.store))
        if not (item.enabled and res and res.enabled and store and store.enabled):
            return False
        return not (self.service and self.service in disabled_services(res))

    def advertised(self, item: Published) -> bool:
        """Advertised, or the very item of a layer's virtual service (GeoServer's
        ``AdvertisedCatalog`` shows its own layer to a layer service)."""
        if item is self.only:
            return True
        if isinstance(item, LayerGroup):
            return item.advertised
        res = self.catalog.resources.get((item.workspace, item.name))
        return item.advertised and (res is None or res.advertised)

    def exposable(self, layer: Layer) -> bool:
        """GeoServer's ``WMS.isWmsExposable``: a feature type needs a geometry."""
        res = self.resource(layer)
        if isinstance(res, FeatureType) and res.attributes:
            return res.geometry_binding is not None
        return True

    # -- security (``access.py``) -------------------------------------------------------

    def permitted(
        self,
        item: Published | None,
        intent: Intent,
        operation: str | None = None,
        direct: bool = True,
    ) -> bool:
        """Whether the access rules let the caller do ``intent`` on ``item`` (None: call the
        operation) through ``operation`` (the call's own by default); ``direct``: the item is
        named or listed itself, not reached through a group."""
        if item is None:
            return self.ask(None, None, intent, operation)
        group = isinstance(item, LayerGroup)
        return self.ask(item.workspace, item.name, intent, operation, group, direct)

    def ask(
        self,
        workspace: str | None,
        name: str | None,
        intent: Intent,
        operation: str | None = None,
        group: bool = False,
        direct: bool = True,
    ) -> bool:
        """``permitted`` for a name (a resource without a layer, too)."""
        if self.admin and name is not None:  # the catalog's rule; operations ask the rules
            return True
        op = self.operation if operation is None else operation
        # ``access.allowed`` inline, and ``Access(...)`` without its Python-level
        # constructor: asked for every item a document lists
        question = tuple.__new__(
            Access,
            (
                self.principal,
                self.service,
                op,
                workspace,
                name,
                intent,
                group,
                direct,
                self.containment,
            ),
        )
        for rule in access.RULES:
            decision = rule(self.state, question)
            if decision is not None:
                return decision
        return True

    def readable(self, item: Published, operation: str | None = None) -> bool:
        """Whether the caller may read ``item``'s data."""
        group = isinstance(item, LayerGroup)
        return self.ask(item.workspace, item.name, "read", operation, group)

    def visibility(self, item: Published, intent: Intent) -> Visibility:
        """``shown``, ``hidden`` or ``challenge``: the rules' answer under the catalog mode."""
        permitted = self.permitted(item, "write" if intent == "write" else "read")
        return visibility(self.mode, permitted, intent)

    def listed(self, item: Published, direct: bool = True) -> bool:
        """Shown in capabilities: readable, or unreadable in CHALLENGE mode (``visibility``
        for ``list``, asked for every item of a document: the short way); ``direct``: listed
        itself, not as a member of a group."""
        group = isinstance(item, LayerGroup)
        return self.mode == "CHALLENGE" or self.ask(
            item.workspace, item.name, "read", None, group, direct
        )

    def check_service(self) -> None:
        """Raise ``Denied`` when the rules refuse the call's operation to the caller."""
        if not self.permitted(None, "call"):
            raise Denied(self.principal.anonymous)

    def in_scope(self, item: Published) -> bool:
        if self.only is not None:
            return item is self.only
        return self.workspace is None or item.workspace == self.workspace

    # -- listing ------------------------------------------------------------------------

    def layers(self, maps: bool = True) -> list[Layer]:
        """Enabled, advertised layers in scope the caller may see, by name; ``maps`` keeps
        only those WMS can draw (a feature type needs a geometry)."""
        out = [
            layer
            for layer in self.catalog.layers.values()
            if self.in_scope(layer)
            and self.enabled(layer)
            and self.advertised(layer)
            and (not maps or self.exposable(layer))
            and self.listed(layer)
        ]
        return sorted(out, key=lambda layer: (layer.name, layer.workspace))

    def groups(self) -> list[LayerGroup]:
        out = [
            group
            for group in self.catalog.layer_groups.values()
            if self.in_scope(group)
            and self.enabled(group)
            and self.advertised(group)
            and self.listed(group)
            and any(True for _ in self.members(group))
        ]
        return sorted(out, key=lambda g: (g.name, g.workspace or ""))

    def members(self, group: LayerGroup) -> Iterator[Published]:
        """The members the caller may see, in the group's order."""
        for ref in group.publishables:
            item = self.catalog.published(ref)
            if item is None or not self.listed(item, direct=False) or not self.enabled(item):
                continue
            if isinstance(item, Layer) and not self.exposable(item):
                continue
            yield item

    def member_layers(self, group: LayerGroup) -> Iterator[Layer]:
        for item in self.members(group):
            if isinstance(item, LayerGroup):
                yield from self.member_layers(item)
            else:
                yield item

    def top_groups(self, groups: list[LayerGroup]) -> list[LayerGroup]:
        nested = {
            (ref.workspace, ref.name)
            for g in groups
            for ref in g.publishables
            if ref.kind == "layerGroup"
        }
        return [g for g in groups if (g.workspace, g.name) not in nested]

    def nested_layers(self, groups: list[LayerGroup]) -> set[tuple[str, str]]:
        """Layers shown inside a top-level group (not repeated at the root)."""
        out: set[tuple[str, str]] = set()

        def walk(group: LayerGroup) -> None:
            if group.mode == "SINGLE":
                return
            for item in self.members(group):
                if isinstance(item, LayerGroup):
                    walk(item)
                else:
                    out.add((item.workspace, item.name))

        for group in self.top_groups(groups):
            if group.mode == "OPAQUE_CONTAINER":
                out.update((m.workspace, m.name) for m in self.member_layers(group))
            else:
                walk(group)
        return out

    # -- lookup by name -----------------------------------------------------------------

    def find(self, name: str, locator: str = "layers", metadata: bool = False) -> Published:
        """The layer or group a request names; hidden ones as GeoServer hides them.

        ``metadata``: the request reads only the description (DescribeLayer,
        GetLegendGraphic, DescribeFeatureType, DescribeCoverage), which ``CHALLENGE`` mode
        serves to anyone; data requests and every request in ``MIXED`` mode are a
        challenge."""
        item = self._lookup(name)
        if item is None or not self.enabled(item):
            raise OwsError(f"Could not find layer {name}", LAYER_NOT_DEFINED, locator)
        seen = self.visibility(item, "describe" if metadata else "read")
        if seen == "hidden":
            raise OwsError(f"Could not find layer {name}", LAYER_NOT_DEFINED, locator)
        if seen == "challenge":
            raise Denied(self.principal.anonymous)
        return item

    def check_write(self, item: Published) -> None:
        """Refuse a write to a layer the caller may read but not write: in ``HIDE`` mode the
        layer is read-only (an OGC error), in the other modes a challenge."""
        seen = self.visibility(item, "write")
        if seen == "hidden":
            raise OwsError(f"{item.name} is read only", NO_CODE, "typeName")
        if seen == "challenge":
            raise Denied(self.principal.anonymous)

    def _lookup(self, name: str) -> Published | None:
        ws, sep, local = name.partition(":")
        if not sep:
            ws, local = (self.workspace or ""), name
        elif self.workspace is not None and ws != self.workspace:
            return None
        candidates: list[Published | None]
        if ws:
            candidates = [self.catalog.layer(ws, local), self.catalog.layer_group(ws, local)]
        else:
            candidates = [self.catalog.layer_group(None, local), self.catalog.find_layer(local)]
        for item in candidates:
            if item is not None and self.in_scope(item):
                return item
        return None

    # -- geometry -----------------------------------------------------------------------

    def latlon(self, item: Published) -> BBox | None:
        if isinstance(item, Layer):
            return self.resource(item).latlon_bbox
        bounds = item.bounds
        if bounds is not None and not is_projected(bounds.crs):
            return bounds
        if bounds is not None:
            env = to_lonlat(
                Envelope(bounds.minx, bounds.miny, bounds.maxx, bounds.maxy), bounds.crs
            )
            if env is not None:
                return BBox(env.minx, env.maxx, env.miny, env.maxy, "EPSG:4326")
        boxes = [b for b in (self.resource(m).latlon_bbox for m in self.member_layers(item)) if b]
        if not boxes:
            return None
        out = boxes[0]
        for b in boxes[1:]:
            out = out.union(b)
        return BBox(out.minx, out.maxx, out.miny, out.maxy, "EPSG:4326")

    def native(self, item: Published) -> BBox | None:
        if isinstance(item, Layer):
            return self.resource(item).native_bbox
        return item.bounds


class Scope(NamedTuple):
    """What a service path (``/ows``, ``/{ws}/ows``, ``/{ws}/{layer}/ows``) publishes."""

    workspace: str | None
    """the workspace of a workspace's (or a layer's) virtual service"""
    only: Published | None
    """the one layer or group of a layer's (or a global group's) virtual service"""
    path: str
    """the path of the virtual service below the context root (``""``, ``/ws``…)"""

    def base(self, base: str) -> str:
        """The base of the virtual service's URLs, below ``base``."""
        return base + self.path


def scope(catalog: Catalog, workspace: str | None, layer: str | None) -> Scope | None:
    """The virtual service of a path's workspace and layer segments; None when they name
    nothing (a 404)."""
    if workspace is None:
        return Scope(None, None, "")
    if workspace in RESERVED:
        return None
    if workspace not in catalog.workspaces:
        group = catalog.layer_group(None, workspace)
        if group is None or layer is not None:
            return None
        return Scope(None, group, f"/{workspace}")
    if layer is None:
        return Scope(workspace, None, f"/{workspace}")
    item: Published | None = catalog.layer(workspace, layer) or catalog.layer_group(
        workspace, layer
    )
    if item is None:
        return None
    return Scope(workspace, item, f"/{workspace}/{layer}")
