"""Writing the ``catalog`` scenario section back from a state (see ``scenario.py``)."""

from __future__ import annotations

from typing import Any

from ...core.state import State
from ...scenarios.context import ScenarioContext
from .entities import (
    BBox,
    Coverage,
    CoverageStore,
    DataStore,
    FeatureType,
    LayerGroup,
    Resource,
    Store,
    special,
)
from .model import Catalog


def dump(state: State, ctx: ScenarioContext) -> dict[str, Any]:
    cat = state.catalog
    out: dict[str, Any] = {"defaultWorkspace": cat.default_workspace, "workspaces": []}
    for ws in cat.list_workspaces():
        ns = cat.namespaces.get(ws.name)
        out["workspaces"].append(
            _clean(
                {
                    "name": ws.name,
                    "uri": ns.uri if ns else None,
                    "isolated": ws.isolated,
                    "dateCreated": ws.date_created,
                    "dateModified": ws.date_modified,
                    "fields": ws.extras,
                    "namespaceFields": ns.extras if ns else None,
                }
            )
        )
    for key, kind in (
        ("dataStores", "dataStore"),
        ("coverageStores", "coverageStore"),
    ):
        out[key] = [
            _dump_store(cat, s)
            for w in cat.list_workspaces()
            for s in cat.list_stores(w.name, kind)
        ]
    groups = [
        g
        for w in [None, *(w.name for w in cat.list_workspaces())]
        for g in cat.list_layer_groups(w)
    ]
    out["layerGroups"] = [_dump_group(g) for g in _dependency_order(groups)]
    return out


def _clean(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if v is not None and v != [] and v != {}}


def _dump_store(cat: Catalog, s: Store) -> dict[str, Any]:
    d = _clean(
        {
            "workspace": s.workspace,
            "name": s.name,
            "type": s.type,
            "description": s.description,
            "enabled": s.enabled,
            "default": s.default or None,
            "dateCreated": s.date_created,
            "dateModified": s.date_modified,
            "disableOnConnFailure": s.disable_on_conn_failure,
            "metadata": s.metadata,
            "available": s.available,
            "fields": s.extras,
        }
    )
    if isinstance(s, DataStore):
        d["connectionParameters"] = dict(s.connection_parameters)
        d["featureTypes"] = [
            _dump_resource(cat, r) for r in cat.list_resources(s.workspace, store=s.name)
        ]
    elif isinstance(s, CoverageStore):
        d.update(_clean({"url": s.url, "connectionParameters": dict(s.connection_parameters)}))
        d["coverages"] = [
            _dump_resource(cat, r) for r in cat.list_resources(s.workspace, store=s.name)
        ]
    else:
        d.update(_clean({"capabilitiesUrl": getattr(s, "capabilities_url", None)}))
    return d


def _dump_bbox(b: BBox | None) -> dict[str, Any] | None:
    return (
        None
        if b is None
        else {"minx": b.minx, "maxx": b.maxx, "miny": b.miny, "maxy": b.maxy, "crs": b.crs}
    )


def _dump_resource(cat: Catalog, r: Resource) -> dict[str, Any]:
    d = _clean(
        {
            "name": r.name,
            "nativeName": r.native_name,
            "title": r.title,
            "abstract": r.abstract,
            "description": r.description,
            "keywords": r.keywords,
            "srs": r.srs,
            "nativeCrs": r.native_crs,
            "nativeBoundingBox": _dump_bbox(r.native_bbox),
            "latLonBoundingBox": _dump_bbox(r.latlon_bbox),
            "projectionPolicy": r.projection_policy,
            "enabled": r.enabled,
            "advertised": r.advertised,
            "metadata": r.metadata,
            "dateCreated": r.date_created,
            "dateModified": r.date_modified,
            "fields": r.extras,
        }
    )
    if isinstance(r, FeatureType):
        d["attributes"] = [
            _clean(
                {
                    "name": a.name,
                    "binding": a.binding,
                    "nillable": a.nillable,
                    "minOccurs": a.min_occurs,
                    "maxOccurs": a.max_occurs,
                    "length": a.length,
                }
            )
            for a in r.attributes
        ]
        for key, value in (("maxFeatures", r.max_features), ("numDecimals", r.num_decimals)):
            if value:  # 0 is the default the section reads
                d[key] = value
    if isinstance(r, Coverage):
        d.update(
            _clean(
                {
                    "nativeCoverageName": r.native_coverage_name,
                    "nativeFormat": r.native_format,
                    "supportedFormats": r.supported_formats,
                    "interpolationMethods": r.interpolation_methods,
                    "defaultInterpolationMethod": r.default_interpolation_method,
                    "dimensions": [
                        _clean(
                            {
                                "name": x.name,
                                "description": x.description,
                                "min": special(x.range_min),
                                "max": special(x.range_max),
                                "nullValues": [special(v) for v in x.null_values],
                                "unit": x.unit,
                                "dimensionType": x.dimension_type,
                            }
                        )
                        for x in r.dimensions
                    ],
                    "requestSrs": r.request_srs,
                    "responseSrs": r.response_srs,
                    "parameters": r.parameters,
                }
            )
        )
    layer = cat.layers.get((r.workspace, r.name))
    if layer is None:
        d["layer"] = False
    else:
        d["layer"] = _clean(
            {
                "defaultStyle": layer.default_style.prefixed if layer.default_style else None,
                "styles": [s.prefixed for s in layer.styles],
                "enabled": layer.enabled,
                "advertised": layer.advertised,
                "queryable": layer.queryable,
                "opaque": layer.opaque,
                "path": layer.path,
                "dateCreated": layer.date_created,
                "dateModified": layer.date_modified,
                "fields": layer.extras,
            }
        )
    return d


def _dump_group(g: LayerGroup) -> dict[str, Any]:
    return _clean(
        {
            "name": g.name,
            "workspace": g.workspace,
            "mode": g.mode,
            "title": g.title,
            "abstract": g.abstract,
            "layers": [
                ("group@" if m.kind == "layerGroup" else "") + m.prefixed for m in g.publishables
            ],
            "styles": [s.prefixed if s else None for s in g.styles],
            "bounds": _dump_bbox(g.bounds),
            "enabled": g.enabled,
            "advertised": g.advertised,
            "keywords": g.keywords,
            "dateCreated": g.date_created,
            "dateModified": g.date_modified,
            "rootLayer": g.root_layer.prefixed if g.root_layer else None,
            "rootLayerStyle": g.root_layer_style.prefixed if g.root_layer_style else None,
            "fields": g.extras,
        }
    )


def _dependency_order(groups: list[LayerGroup]) -> list[LayerGroup]:
    """Groups ordered so that a group comes after the groups it contains."""
    done: list[LayerGroup] = []
    pending = list(groups)
    while pending:
        ready = [
            g
            for g in pending
            if all(
                m.kind != "layerGroup"
                or any((d.workspace, d.name) == (m.workspace, m.name) for d in done)
                for m in g.publishables
            )
        ]
        if not ready:  # a loop cannot be in a valid catalog; keep what is left as it is
            ready = pending
        done.extend(ready)
        pending = [g for g in pending if g not in ready]
    return done
