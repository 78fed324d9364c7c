"""What one OGC API Features request sees: ``Api`` (the caller's view of the catalog through
the one security decision point, the WFS configuration of the virtual service, its
conformance, the URLs), the collections it lists and the one it names, and what a
collection's document says of its extent and CRSs.

The collections are the feature types of the enabled, advertised layers in the virtual
service's scope that the caller may list (``ows.model.View`` under the catalog mode); a
collection named is found as GeoServer's secure catalog finds it: hidden (404 ``Unknown
collection``) or a challenge (401/403) when the rules refuse it, and in ``CHALLENGE`` mode
described to anyone and read only by those the rules let read it. Pure domain logic.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from datetime import UTC, datetime
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal
from typing import TYPE_CHECKING, Any

from ...core.record import record
from ...features import resolver
from ..catalog.entities import FeatureType, Layer, LayerGroup
from ..ows.errors import Denied, OwsError
from ..ows.model import View
from . import crs as crsmod
from .conformance import Conformance
from .errors import not_found

if TYPE_CHECKING:
    from ...core.state import State

SERVICE = "Features"
"""the service's id, as the service security rules (``features.getFeatures``) name it"""
ROOT = "ogc/features/v1"
TITLE = "Features 1.0 server"
"""the landing page's title when the WFS settings have none"""


@record
class Api:
    """One request's service: the caller's view, the WFS settings, the URLs."""

    state: State
    view: View
    site: str
    """``scheme://host[:port]/context`` as the client addressed the server"""
    base: str
    """the service base URL: ``site`` (and ``/<ws>[/<layer>]`` of a virtual service)"""
    wfs: Mapping[str, Any]
    conformance: Conformance
    decimals: int
    """``numDecimals`` of the settings in scope"""
    now: str
    """the simulated clock, as GeoServer writes ``timeStamp``"""

    def path(self, *segments: str) -> str:
        """``ogc/features/v1/<segments>`` (joined with ``/``)."""
        return "/".join((ROOT, *segments))

    def collection_id(self, layer: Layer) -> str:
        """``workspace:name``, or the name alone inside a virtual service."""
        return self.view.name_of(layer)

    @property
    def max_features(self) -> int:
        return int(self.wfs.get("maxFeatures") or 0)


# -- collections -----------------------------------------------------------------------------


def collections(api: Api) -> list[tuple[Layer, FeatureType]]:
    """The collections the caller may list, by id."""
    view = api.view
    if isinstance(view.only, LayerGroup):
        layers = {(lyr.workspace, lyr.name): lyr for lyr in view.member_layers(view.only)}
        candidates = [lyr for lyr in layers.values() if view.advertised(lyr)]
    else:
        candidates = view.layers(maps=False)
    out = []
    for layer in candidates:
        res = view.catalog.resources.get((layer.workspace, layer.name))
        if isinstance(res, FeatureType):
            out.append((layer, res))
    return sorted(out, key=lambda pair: api.collection_id(pair[0]))


def collection(api: Api, cid: str, describe: bool) -> tuple[Layer, FeatureType]:
    """The collection ``cid`` names, for a description (``describe``) or its data:
    ``ApiError`` 404 when there is none or it is hidden, ``Denied`` for a challenge."""
    view = api.view
    item: Any
    if isinstance(view.only, LayerGroup):
        item = next(
            (lyr for lyr in _members(view, view.only) if cid in (lyr.name, lyr.prefixed)), None
        )
        if item is not None:
            seen = view.visibility(item, "describe" if describe else "read")
            if seen == "challenge":
                raise Denied(view.principal.anonymous)
            item = item if seen == "shown" else None
    else:
        try:
            item = view.find(cid, "collectionId", metadata=describe)
        except OwsError:
            item = None
    res = None
    if isinstance(item, Layer):
        res = view.catalog.resources.get((item.workspace, item.name))
    if not isinstance(res, FeatureType):
        raise not_found(f"Unknown collection {cid}")
    return item, res


def _members(view: View, group: LayerGroup, depth: int = 0) -> list[Layer]:
    """Every enabled layer of a group and of the groups in it, readable or not (whether the
    caller may see one is the catalog mode's to say)."""
    out: list[Layer] = []
    for ref in group.publishables:
        item = view.catalog.published(ref)
        if isinstance(item, LayerGroup) and depth < 32:
            out += _members(view, item, depth + 1)
        elif isinstance(item, Layer) and view.enabled(item):
            out.append(item)
    return out


# -- a collection's description --------------------------------------------------------------


def _round(value: float, places: int, mode: str) -> float:
    return float(Decimal(repr(float(value))).quantize(Decimal(1).scaleb(-places), rounding=mode))


def spatial_extent(ft: FeatureType, decimals: int) -> list[float] | None:
    """The lon/lat box rounded outwards to ``decimals`` places, within the world (GeoServer's
    ``roundLonLatBbox``); a box of no width or height keeps it."""
    box = ft.latlon_bbox
    if box is None:
        return None
    places = max(0, decimals)
    minx = max(-180.0, _round(box.minx, places, ROUND_FLOOR))
    miny = max(-90.0, _round(box.miny, places, ROUND_FLOOR))
    maxx = min(180.0, _round(box.maxx, places, ROUND_CEILING))
    maxy = min(90.0, _round(box.maxy, places, ROUND_CEILING))
    if box.maxx - box.minx == 0:
        maxx = minx
    if box.maxy - box.miny == 0:
        maxy = miny
    return [minx, miny, maxx, maxy]


def _time_info(ft: FeatureType) -> Mapping[str, Any] | None:
    entry = ft.metadata.get("time")
    info = entry.get("dimensionInfo", entry) if isinstance(entry, Mapping) else None
    if not isinstance(info, Mapping) or str(info.get("enabled")).lower() != "true":
        return None
    return info if info.get("attribute") else None


def time_extent(state: State, ft: FeatureType) -> tuple[str, str] | None:
    """The first and last instants of the enabled time dimension's attribute (and end
    attribute), as ISO instants; None without a time dimension or values."""
    info = _time_info(ft)
    source = resolver.source_for(state, ft) if info is not None else None
    if info is None or source is None:
        return None
    from ...filters.expressions import instant

    found = [instant(v) for v in source.values(str(info["attribute"]))]
    if info.get("endAttribute"):
        found += [instant(v) for v in source.values(str(info["endAttribute"]))]
    times = [t for t in found if t is not None]
    if not times:
        return None
    return iso_instant(min(times)), iso_instant(max(times))


def iso_instant(t: datetime) -> str:
    """Java's ``ISO_INSTANT``: UTC, fractions of a second only when there are some."""
    utc = t.astimezone(UTC)
    text = utc.strftime("%Y-%m-%dT%H:%M:%S")
    if utc.microsecond:
        fraction = f"{utc.microsecond:06d}"
        text += "." + (fraction[:3] if fraction.endswith("000") else fraction)
    return text + "Z"


def storage_crs(state: State, ft: FeatureType) -> str | None:
    """The OGC URI of the data's CRS (the declared one; ``EPSG:4326`` is CRS84)."""
    return crsmod.uri_of(ft.srs or resolver.schema(state, ft)[1].srs)


@functools.cache
def _database_crs() -> tuple[str, ...]:
    from ...crs import registry

    return tuple(crsmod.EPSG_URI + code for code in registry.codes("EPSG"))


def _uris(codes: list[str]) -> list[str]:
    out = []
    for code in codes:
        text = str(code).strip()
        number = text.rpartition(":")[2]
        out.append(crsmod.EPSG_URI + number if number.isdigit() else text)
    return out


def service_crs(wfs: Mapping[str, Any]) -> list[str]:
    """The CRSs the service answers in, CRS84 first: the WFS ``srs`` list, else every code of
    the EPSG database (GeoServer's ``CRSURIs.serviceList``)."""
    configured = [s for s in wfs.get("srs") or [] if str(s).strip()]
    uris = _uris(configured) if configured else list(_database_crs())
    return [crsmod.CRS84, *[u for u in uris if u != crsmod.CRS84]]


def collection_crs(
    ft: FeatureType, service: list[str], storage: str | None, in_list: bool
) -> list[str]:
    """A collection's ``crs``: its own list when it overrides the service's, else the
    service's (``["#/crs"]`` inside the collections document), the storage CRS first when
    the list lacks it."""
    if ft.extras.get("overridingServiceSRS"):
        own = _uris([str(s) for s in ft.extras.get("responseSRS") or []])
        listed = [crsmod.CRS84, *[u for u in own if u != crsmod.CRS84]]
    else:
        listed = ["#/crs"] if in_list else list(service)
    contained = storage in listed or ("#/crs" in listed and storage in service)
    if storage is not None and not contained:
        listed = [storage, *listed]
    return listed
