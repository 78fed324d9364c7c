"""Feature types and coverages (FeatureTypeController, CoverageController).

Both are reachable under the store (``…/datastores/{ds}/featuretypes``) and directly under
the workspace (``…/featuretypes``). Creating one also publishes it as a layer, as GeoServer
does. A PostGIS store whose database answers is used for real (``database.py``: tables
created and described, bounds from the data, ``list=available`` from the schema); for other
stores a store's ``available`` names (set by a scenario or another area) stand for what it
holds; a store with none accepts any name.
"""

from __future__ import annotations

import copy
from typing import Any
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core.errors import Forbidden, Invalid, NotFound, ServerError
from ...core.hooks import call as call_hook
from ...http import context
from ...http.routing import Route
from . import database, hooks, web
from .codec import resource_node
from .entities import COVERAGE, FEATURE_TYPE, Coverage, FeatureType, Resource, Store
from .model import Catalog
from .parse import apply_fields, parse_resource
from .tree import Node

# The first type each GeoServer controller declares, answered to a bare GET or ``*/*``:
# FeatureTypeController lists HTML first, CoverageController text/xml.
DEFAULT_FORMAT = {FEATURE_TYPE: "html", COVERAGE: "xml"}

SPECS = {
    FEATURE_TYPE: ("datastores", "featuretypes", "data store", "feature type", "featureTypeName"),
    COVERAGE: ("coveragestores", "coverages", "coverage store", "coverage", "coverageName"),
}


def _seg(name: str) -> str:
    return quote(name, safe=":@!$&'()*+,;=")


AVAILABLE = ("available", "available_with_geom")
"""the feature type ``list`` values that ask the store for its types (``all`` too)"""


def _store(cat: Catalog, kind: str, ws: str, name: str | None) -> Store:
    store_kind = "dataStore" if kind == FEATURE_TYPE else "coverageStore"
    found = cat.store(ws, name, store_kind) if name is not None else None
    if found is None:
        raise NotFound(f"No such {SPECS[kind][2]}: {ws},{'null' if name is None else name}")
    return found


def _strings_list(names: list[str], item: str, fmt: str) -> Response:
    node = Node("list", children=[Node(item, n) for n in names], arrays=frozenset({item}))
    if fmt == "json":
        from ...wire.json import dumps

        return context.respond(dumps({"list": {"string": names}}), "json")
    return web.answer(node, fmt, "Available")


def _existing(cat: Catalog, kind: str, ws: str, store: str | None, name: str) -> Resource:
    if store is not None:
        _store(cat, kind, ws, store)
    found = cat.resource(ws, name, kind, store)
    if found is None:
        where = f"{ws},{store},{name}" if store is not None else f"{ws},{name}"
        raise NotFound(f"No such {SPECS[kind][3]}: {where}")
    return found


async def collection(request: Request, kind: str, with_store: bool) -> Response:
    cat = web.catalog(request)
    ws = web.param(request, "workspace")
    store = web.param(request, "store") if with_store else None
    if request.method == "POST":
        return await _post(request, cat, kind, ws, store)
    fmt = web.out_format(request, None, DEFAULT_FORMAT[kind])
    listing = (request.query_params.get("list") or "configured").lower()
    if listing == "all" or (kind == FEATURE_TYPE and listing in AVAILABLE):
        return await _available(request, cat, kind, ws, store, listing, fmt)
    if store is not None:
        _store(cat, kind, ws, store)
    elif cat.namespace(ws) is None:
        what = (
            f"Name space not found for workspace '{ws}'."
            if kind == COVERAGE
            else f"No such namespace: {ws}"
        )
        raise NotFound(what)
    names = [r.name for r in cat.list_resources(ws, kind, store)]
    return web.answer_list(request, kind, names, fmt, f"{SPECS[kind][3].capitalize()}s in {ws}")


async def _available_in_database(cat: Catalog, store: Store, pool: Any, listing: str) -> list[str]:
    """GeoServer's loop over ``getTypeNames()``: the unpublished ones (``all``: every one),
    ``available_with_geom`` leaving out those without a geometry."""
    found = await database.off_loop(lambda: database.available_sync(pool, store))
    configured = {
        r.native_name or r.name
        for r in cat.list_resources(store.workspace, FEATURE_TYPE, store.name)
    }
    names = []
    for name, has_geometry in found:
        if name in configured:
            if listing == "all":
                names.append(name)
        elif has_geometry or listing != "available_with_geom":
            names.append(name)
    return names


async def _available(
    request: Request, cat: Catalog, kind: str, ws: str, store: str | None, listing: str, fmt: str
) -> Response:
    if kind == FEATURE_TYPE:
        found = _store(cat, kind, ws, store)
        pool = await database.off_loop(lambda: database.reach(web.databases(request), found))
        web.note_database(request, found)
        if pool is not None:
            return _strings_list(
                await _available_in_database(cat, found, pool, listing), SPECS[kind][4], fmt
            )
        stores = [found]
    elif store is not None:
        stores = [_store(cat, kind, ws, store)]
    else:
        if cat.namespace(ws) is None:
            raise NotFound(f"Name space not found for workspace '{ws}'.")
        stores = [
            s for w in cat.list_workspaces() for s in cat.list_stores(w.name, "coverageStore")
        ]
    names: list[str] = []
    for s in stores:
        configured = {
            r.native_name or r.name for r in cat.list_resources(s.workspace, kind, s.name)
        }
        offered = list(s.available)
        if kind == COVERAGE:
            offered += [n for n in hooks.reader_names(web.state(request), s) if n not in offered]
        offered = [n for n in offered if n not in configured]
        if listing == "available_with_geom":
            skip = hooks.geometryless(web.state(request), s, offered)
            offered = [n for n in offered if n not in skip]
        names.extend(offered)
        if listing == "all":
            names.extend(sorted(configured))
    return _strings_list(names, SPECS[kind][4], fmt)


async def _post(
    request: Request, cat: Catalog, kind: str, ws: str, store_name: str | None
) -> Response:
    _, data = await web.body(request, kind)
    fields = parse_resource(data, kind)
    database.check_metadata(fields.get("metadata"))
    given = set(fields)
    given_store = fields.pop("store", None)
    given_ns = fields.pop("namespace", None)
    if given_store and store_name and given_store.rpartition(":")[2] != store_name:
        raise Forbidden(
            f"Expected {'datastore' if kind == FEATURE_TYPE else 'coverage store'} "
            f"{store_name} but client specified {given_store}"
        )
    if kind == FEATURE_TYPE and given_ns is not None and given_ns != ws:
        raise Forbidden(f"Expected workspace {ws} but client specified {given_ns}")
    store = _store(
        cat,
        kind,
        ws,
        store_name
        or (given_store.rpartition(":")[2] if given_store else None)
        or _default_store(cat, kind, ws),
    )
    if not fields.get("name"):
        raise Invalid(
            f"Trying to create new {SPECS[kind][3]} inside the store, but no name was specified"
        )
    res = _build(kind, store, fields)
    pool = None
    if isinstance(res, FeatureType):
        pool = await database.off_loop(lambda: database.reach(web.databases(request), store))
        web.note_database(request, store)
    if pool is not None and isinstance(res, FeatureType):
        state, table = web.state(request), res
        await database.off_loop(lambda: database.prepare_sync(state, pool, store, table, given))
    else:
        call_hook("catalog.resource_posted", web.state(request), res, fields)  # upload data
        _check_native(store, res, fields)
    cat.add_resource(res, when=web.now(request))
    segs = [f"workspaces/{_seg(ws)}"] + (
        [f"{SPECS[kind][0]}/{_seg(store_name)}"] if store_name else []
    )
    path = "/".join([*segs, SPECS[kind][1], _seg(res.name)])
    response = web.created(request, path, res.name if kind == COVERAGE else "")
    return response


def _default_store(cat: Catalog, kind: str, ws: str) -> str | None:
    stores = cat.list_stores(ws, "dataStore" if kind == FEATURE_TYPE else "coverageStore")
    chosen = next((s for s in stores if s.default), stores[0] if stores else None)
    return chosen.name if chosen else None


def _build(kind: str, store: Store, fields: dict[str, Any]) -> Resource:
    cls: type[Resource] = FeatureType if kind == FEATURE_TYPE else Coverage
    res = cls(fields.pop("name"), store.workspace, store.name)
    apply_fields(res, fields, kind)
    res.enabled = True
    res.srs = res.srs or (
        res.native_bbox.crs if res.native_bbox and res.native_bbox.crs else "EPSG:4326"
    )
    res.projection_policy = res.projection_policy or "FORCE_DECLARED"
    if res.latlon_bbox is None and res.native_bbox is not None and res.srs == "EPSG:4326":
        res.latlon_bbox = res.native_bbox
    if isinstance(res, Coverage):
        res.native_coverage_name = res.native_coverage_name or res.native_name or res.name
    return res


def _check_native(store: Store, res: Resource, fields: dict[str, Any]) -> None:
    native = (
        res.native_coverage_name if isinstance(res, Coverage) else (res.native_name or res.name)
    )
    if not store.available or native in store.available:
        return
    if isinstance(res, FeatureType):
        if not res.attributes:
            raise Invalid(
                "Trying to create new feature type inside the store, "
                "but no attributes were specified"
            )
        store.available.append(native or res.name)
        return
    raise ServerError(f"Error getting coverages from coverage reader: no coverage named {native}")


async def item(request: Request, kind: str, with_store: bool) -> Response:
    cat = web.catalog(request)
    ws = web.param(request, "workspace")
    store = web.param(request, "store") if with_store else None
    name, ext = web.last(request, "name")
    if (
        request.method == "DELETE"
        and kind == COVERAGE
        and cat.resource(ws, name, kind, store) is None
    ):
        raise NotFound(f"Coverage '{name}' not found.")
    current = _existing(cat, kind, ws, store, name)
    if request.method == "GET":
        fmt = web.out_format(request, ext, DEFAULT_FORMAT[kind])
        node = resource_node(current, web.links(request, fmt))
        return web.answer(
            node, fmt, f"{SPECS[kind][3].capitalize()} {current.workspace}:{current.name}"
        )
    if request.method == "DELETE":
        cat.delete_resource(current.workspace, current.name, recurse=web.flag(request, "recurse"))
        return Response(status_code=200)
    _, data = await web.body(request, kind)
    fields = parse_resource(data, kind)
    database.check_metadata(fields.get("metadata"))
    fields.pop("store", None)
    fields.pop("namespace", None)
    updated = copy.deepcopy(current)
    apply_fields(updated, fields, kind)
    await _recalculate(request, cat, updated, request.query_params.get("recalculate"))
    cat.replace_resource(current.workspace, current.name, updated, when=web.now(request))
    return Response(status_code=200)


async def _recalculate(request: Request, cat: Catalog, res: Resource, which: str | None) -> None:
    """``recalculate=nativebbox,latlonbbox``: bounds from the data (a reachable PostGIS
    store's), lat/lon bounds from the native ones."""
    wanted = {w.strip().lower() for w in (which or "").split(",") if w.strip()}
    if not wanted or not isinstance(res, FeatureType):
        return
    store = cat.store(res.workspace, res.store, "dataStore")
    pool = None
    if store is not None:
        pool = await database.off_loop(lambda: database.reach(web.databases(request), store))
        web.note_database(request, store)
    if pool is not None and store is not None:
        await database.off_loop(lambda: database.recalculate_sync(pool, store, res, wanted))
    elif "latlonbbox" in wanted and res.native_bbox is not None:
        res.latlon_bbox = database.latlon_of(res.native_bbox)


async def reset(request: Request, kind: str, with_store: bool) -> Response:
    store = web.param(request, "store") if with_store else None
    _existing(
        web.catalog(request),
        kind,
        web.param(request, "workspace"),
        store,
        web.param(request, "name"),
    )
    return Response(status_code=200)


def _routes(kind: str, with_store: bool, item_methods: list[str]) -> list[BaseRoute]:
    store_seg, child, *_ = SPECS[kind]
    base = (
        f"/rest/workspaces/{{workspace}}/{store_seg}/{{store}}/{child}"
        if with_store
        else f"/rest/workspaces/{{workspace}}/{child}"
    )

    async def list_endpoint(request: Request) -> Response:
        return await collection(request, kind, with_store)

    async def item_endpoint(request: Request) -> Response:
        return await item(request, kind, with_store)

    async def reset_endpoint(request: Request) -> Response:
        return await reset(request, kind, with_store)

    return [
        Route(base, list_endpoint, methods=["GET", "POST"]),
        Route(base + ".{ext}", list_endpoint, methods=["GET", "POST"]),
        Route(base + "/{name}", item_endpoint, methods=item_methods),
        Route(base + "/{name}/reset", reset_endpoint, methods=["POST", "PUT"]),
    ]


routes: list[BaseRoute] = [
    *_routes(FEATURE_TYPE, True, ["GET", "PUT", "DELETE"]),
    *_routes(FEATURE_TYPE, False, ["GET", "PUT", "DELETE"]),
    *_routes(COVERAGE, True, ["GET", "PUT", "DELETE"]),
    *_routes(COVERAGE, False, ["GET"]),
]
