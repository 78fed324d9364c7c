"""Scenario section ``catalog``: workspaces, stores with their resources and layers, groups.

    "catalog": {
      "defaultWorkspace": "topp",
      "workspaces": [{"name": "topp", "uri": "http://www.openplans.org/topp", "isolated": false}],
      "dataStores": [{"workspace": "topp", "name": "states_shapefile", "type": "Shapefile",
                      "connectionParameters": {"url": "file:data/shapefiles/states.shp"},
                      "featureTypes": [{"name": "states", "srs": "EPSG:4326",
                                        "nativeBoundingBox": {"minx": -124.7, "maxx": -66.9,
                                                              "miny": 24.9, "maxy": 49.4},
                                        "attributes": ["the_geom:MultiPolygon", "NAME:String"],
                                        "layer": {"defaultStyle": "population",
                                                  "styles": ["pophatch", "polygon"]}}]}],
      "coverageStores": [{"workspace": "nurc", "name": "mosaic", "type": "ImageMosaic",
                          "url": "file:coverages/mosaic_sample/mosaic.shp",
                          "coverages": [{"name": "mosaic", "srs": "EPSG:4326", ...}]}],
      "layerGroups": [{"name": "tasmania", "layers": ["topp:tasmania_roads"], "styles": [null]}]
    }

``defaultWorkspace`` may be ``null`` or absent: the first workspace listed is the default.
A style is ``name`` (global) or ``ws:name``. A bounding box without ``crs`` takes the
resource's ``srs`` (native) or ``EPSG:4326`` (lat/lon). ``"layer": false`` leaves a resource
unpublished. Attributes are ``"name:Binding"`` (``String``, ``Long``, ``MultiPolygon``… or a
full Java class name) or objects. Every layer and group gets its tile layer. WMS and WMTS
stores, with their cascaded layers, are the ``cascade`` section's.

The generic fields of each kind (``fields.py``: metadata links, attribution, a layer's WMS
interpolation, a coverage's grid…) travel as ``"fields": {tag: value}`` in their normal form
(workspaces add ``"namespaceFields"``; a layer's sit inside ``"layer"``); an EO layer group
gives ``"rootLayer"`` (``ws:name``) and ``"rootLayerStyle"``; a coverage band may give
``"nullValues"``, ``"unit"`` and ``"dimensionType"``.
"""

from __future__ import annotations

from typing import Any

from ...core.errors import EmulatorError, ScenarioError
from ...core.state import State
from ...scenarios.context import ScenarioContext
from ...scenarios.fields import Section
from . import bindings, fields
from .entities import (
    SPECIAL,
    Attribute,
    BBox,
    Coverage,
    CoverageDimension,
    CoverageStore,
    DataStore,
    FeatureType,
    Layer,
    LayerGroup,
    MetadataValue,
    PublishedRef,
    Resource,
    Store,
    StyleRef,
)
from .model import Catalog
from .scenario_dump import dump

__all__ = ["apply", "dump", "style_ref"]

STORE_KEYS = {
    "workspace",
    "name",
    "type",
    "description",
    "enabled",
    "default",
    "dateCreated",
    "dateModified",
    "disableOnConnFailure",
    "metadata",
    "available",
    "fields",
}
RESOURCE_KEYS = {
    "name",
    "nativeName",
    "title",
    "abstract",
    "description",
    "keywords",
    "srs",
    "nativeCrs",
    "nativeBoundingBox",
    "latLonBoundingBox",
    "projectionPolicy",
    "enabled",
    "advertised",
    "metadata",
    "dateCreated",
    "dateModified",
    "layer",
    "fields",
}
LAYER_KEYS = {
    "defaultStyle",
    "styles",
    "enabled",
    "advertised",
    "queryable",
    "opaque",
    "path",
    "dateCreated",
    "dateModified",
    "fields",
}


def generic_fields(
    s: Section, table: tuple[fields.Field, ...], key: str = "fields"
) -> dict[str, Any]:
    """A scenario object's generic fields (``fields.py``), checked as a REST body's are."""
    from .generic import from_normal

    try:
        return from_normal(table, s.dict(key))
    except EmulatorError as exc:
        raise ScenarioError(f"{s.where}.{key}: {exc.message}") from None


def apply(state: State, sec: Section, ctx: ScenarioContext) -> None:
    sec.only(
        {
            "defaultWorkspace",
            "workspaces",
            "dataStores",
            "coverageStores",
            "layerGroups",
        }
    )
    cat = state.catalog
    try:
        for w in sec.items("workspaces"):
            w.only(
                {
                    "name",
                    "uri",
                    "isolated",
                    "dateCreated",
                    "dateModified",
                    "fields",
                    "namespaceFields",
                }
            )
            ws = cat.add_workspace(
                w.str("name", required=True),
                isolated=w.bool("isolated", False),
                uri=w.str("uri"),
                when=w.str("dateCreated"),
            )
            ws.date_modified = w.str("dateModified")
            ws.extras = generic_fields(w, fields.WORKSPACE)
            cat.namespaces[ws.name].extras = generic_fields(w, fields.NAMESPACE, "namespaceFields")
        default = sec.str("defaultWorkspace")
        if default is not None:  # null (a dump of a catalog without workspaces): none
            cat.set_default_workspace(default)
        for s in sec.items("dataStores"):
            _data_store(cat, s)
        for s in sec.items("coverageStores"):
            _coverage_store(cat, s)
        for g in sec.items("layerGroups"):
            cat.add_layer_group(_group(g))
    except EmulatorError as exc:
        raise ScenarioError(f"{sec.where}: {exc.message}") from None


def _store_fields(store: Store, s: Section) -> Store:
    store.type = s.str("type")
    store.description = s.str("description")
    store.enabled = s.bool("enabled", True)
    store.default = s.bool("default", False)
    store.date_created = s.str("dateCreated")
    store.date_modified = s.str("dateModified")
    store.disable_on_conn_failure = s.bool("disableOnConnFailure")
    store.metadata = _metadata(s, "metadata")
    store.available = s.strings("available")
    store.extras = generic_fields(s, fields.STORE)
    return store


def _metadata(s: Section, key: str) -> dict[str, MetadataValue]:
    """A metadata map: text values, or objects for structured entries (``dimensionInfo``,
    ``virtualTable``) in the JSON shape the REST API writes."""
    out: dict[str, MetadataValue] = {}
    for k, v in s.dict(key).items():
        out[k] = v if isinstance(v, dict) else _scalar_text(s, key, k, v)
    return out


def _scalar_text(s: Section, key: str, k: str, v: Any) -> str:
    if isinstance(v, bool) or not isinstance(v, str | int | float):
        raise ScenarioError(f"{s.where}.{key}.{k}: expected a string or an object")
    return str(v)


def _band_value(d: Section, key: str, value: Any) -> float | None:
    """A band's bound or no-data value: a number, or ``"inf"``, ``"-inf"``, ``"NaN"``."""
    if value is None:
        return None
    if isinstance(value, str) and value in SPECIAL:
        return SPECIAL[value]
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ScenarioError(f'{d.where}.{key}: expected numbers (or "inf", "-inf", "NaN")')
    return float(value)


def _strings(s: Section, key: str) -> dict[str, str]:
    out = {}
    for k, v in s.dict(key).items():
        if isinstance(v, bool) or not isinstance(v, str | int | float):
            raise ScenarioError(f"{s.where}.{key}.{k}: expected a string")
        out[k] = str(v)
    return out


def _data_store(cat: Catalog, s: Section) -> None:
    s.only(STORE_KEYS | {"connectionParameters", "featureTypes"})
    store = _store_fields(
        DataStore(s.str("name", required=True), s.str("workspace", required=True)), s
    )
    assert isinstance(store, DataStore)
    store.connection_parameters = _strings(s, "connectionParameters")
    ns = cat.namespace(store.workspace)
    if "namespace" not in store.connection_parameters and ns is not None:
        store.connection_parameters["namespace"] = ns.uri
    cat.add_store(store)
    for f in s.items("featureTypes"):
        f.only(RESOURCE_KEYS | {"attributes", "maxFeatures", "numDecimals"})
        ft = FeatureType(f.str("name", required=True), store.workspace, store.name)
        ft.attributes = [_attribute(f, i, a) for i, a in enumerate(f.list("attributes"))]
        ft.max_features = f.int("maxFeatures", 0)
        ft.num_decimals = f.int("numDecimals", 0)
        _publish(cat, _resource_fields(ft, f), f)


def _coverage_store(cat: Catalog, s: Section) -> None:
    s.only(STORE_KEYS | {"url", "coverages", "connectionParameters"})
    store = _store_fields(
        CoverageStore(s.str("name", required=True), s.str("workspace", required=True)), s
    )
    assert isinstance(store, CoverageStore)
    store.url = s.str("url")
    store.connection_parameters = _strings(s, "connectionParameters")
    cat.add_store(store)
    for c in s.items("coverages"):
        c.only(
            RESOURCE_KEYS
            | {
                "nativeCoverageName",
                "nativeFormat",
                "supportedFormats",
                "interpolationMethods",
                "defaultInterpolationMethod",
                "dimensions",
                "requestSrs",
                "responseSrs",
                "parameters",
            }
        )
        cov = Coverage(c.str("name", required=True), store.workspace, store.name)
        cov.native_coverage_name = c.str("nativeCoverageName")
        cov.native_format = c.str("nativeFormat")
        cov.supported_formats = c.strings("supportedFormats")
        cov.interpolation_methods = c.strings("interpolationMethods")
        cov.default_interpolation_method = c.str("defaultInterpolationMethod")
        for d in c.items("dimensions"):
            d.only({"name", "description", "min", "max", "nullValues", "unit", "dimensionType"})
            nulls = [_band_value(d, "nullValues", v) for v in d.list("nullValues")]
            cov.dimensions.append(
                CoverageDimension(
                    d.str("name", required=True),
                    d.str("description"),
                    _band_value(d, "min", d.data.get("min")),
                    _band_value(d, "max", d.data.get("max")),
                    nulls,
                    d.str("unit"),
                    d.str("dimensionType"),
                )
            )
        cov.request_srs = c.strings("requestSrs")
        cov.response_srs = c.strings("responseSrs")
        cov.parameters = _strings(c, "parameters")
        _publish(cat, _resource_fields(cov, c), c)


def _resource_fields(res: Resource, r: Section) -> Resource:
    res.native_name = r.str("nativeName")
    res.title = r.str("title")
    res.abstract = r.str("abstract")
    res.description = r.str("description")
    res.keywords = r.strings("keywords")
    res.srs = r.str("srs")
    res.native_crs = r.str("nativeCrs")
    res.native_bbox = _bbox(r, "nativeBoundingBox", res.srs)
    res.latlon_bbox = _bbox(r, "latLonBoundingBox", "EPSG:4326") or (
        res.native_bbox if res.srs == "EPSG:4326" else None
    )
    res.projection_policy = r.str("projectionPolicy")
    res.enabled = r.bool("enabled", True)
    res.advertised = r.bool("advertised", True)
    res.metadata = _metadata(r, "metadata")
    res.date_created = r.str("dateCreated")
    res.date_modified = r.str("dateModified")
    res.extras = generic_fields(r, fields.TABLES[res.kind])
    return res


def _bbox(r: Section, key: str, default_crs: str | None) -> BBox | None:
    b = r.obj(key)
    if b is None:
        return None
    b.only({"minx", "maxx", "miny", "maxy", "crs"})
    minx, maxx, miny, maxy = (
        float(b.number(k, required=True)) for k in ("minx", "maxx", "miny", "maxy")
    )
    return BBox(minx, maxx, miny, maxy, b.str("crs", default_crs))


def _attribute(f: Section, i: int, raw: Any) -> Attribute:
    if isinstance(raw, str):
        name, _, binding = raw.partition(":")
        return Attribute(name, binding=bindings.java(binding) if binding else None)
    a = Section(raw, f"{f.where}.attributes[{i}]")
    a.only({"name", "binding", "nillable", "minOccurs", "maxOccurs", "length"})
    binding = a.str("binding")
    return Attribute(
        a.str("name", required=True),
        a.int("minOccurs", 0),
        a.int("maxOccurs", 1),
        a.bool("nillable", True),
        bindings.java(binding) if binding else None,
        a.int("length"),
    )


def _publish(cat: Catalog, res: Resource, r: Section) -> None:
    raw = r.data.get("layer", {})
    if raw is False:
        cat.add_resource(res, publish=False)
        return
    lyr = Section(raw, f"{r.where}.layer").only(LAYER_KEYS)
    cat.add_resource(res, publish=False)
    layer = Layer(res.name, res.workspace)
    default = lyr.str("defaultStyle")
    layer.default_style = style_ref(default) if default else None
    layer.styles = [style_ref(x) for x in lyr.strings("styles")]
    layer.enabled = lyr.bool("enabled", True)
    layer.advertised = lyr.bool("advertised", True)
    layer.queryable = lyr.bool("queryable", True)
    layer.opaque = lyr.bool("opaque", False)
    layer.path = lyr.str("path")
    layer.date_created = lyr.str("dateCreated")
    layer.date_modified = lyr.str("dateModified")
    layer.extras = generic_fields(lyr, fields.LAYER)
    cat.add_layer(layer)


def _group(g: Section) -> LayerGroup:
    g.only(
        {
            "name",
            "workspace",
            "mode",
            "title",
            "abstract",
            "layers",
            "styles",
            "bounds",
            "enabled",
            "advertised",
            "keywords",
            "dateCreated",
            "dateModified",
            "rootLayer",
            "rootLayerStyle",
            "fields",
        }
    )
    group = LayerGroup(
        g.str("name", required=True),
        g.str("workspace"),
        g.str("mode", "SINGLE"),
        g.str("title"),
        g.str("abstract"),
    )
    for item in g.strings("layers"):
        kind, _, name = item.rpartition("@") if "@" in item else ("layer", "", item)
        ws, sep, local = name.rpartition(":")
        group.publishables.append(
            PublishedRef("layerGroup" if kind == "group" else "layer", ws if sep else None, local)
        )
    styles = g.list("styles")
    group.styles = [style_ref(x) if isinstance(x, str) else None for x in styles]
    group.bounds = _bbox(g, "bounds", None)
    group.enabled = g.bool("enabled", True)
    group.advertised = g.bool("advertised", True)
    group.keywords = g.strings("keywords")
    group.date_created = g.str("dateCreated")
    group.date_modified = g.str("dateModified")
    root = g.str("rootLayer")
    if root:
        ws, sep, local = root.rpartition(":")
        group.root_layer = PublishedRef("layer", ws if sep else None, local)
    root_style = g.str("rootLayerStyle")
    group.root_layer_style = style_ref(root_style) if root_style else None
    group.extras = generic_fields(g, fields.LAYER_GROUP)
    return group


def style_ref(text: str) -> StyleRef:
    """``name`` → a global style; ``ws:name`` → a workspace style."""
    ws, sep, name = text.rpartition(":")
    return StyleRef(ws if sep else None, name)
