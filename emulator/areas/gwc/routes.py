"""HTTP routes of GWC's configuration REST under ``/gwc/rest``: mass truncation, gridsets,
blob stores, disk quota, global settings, reload, bounds, request filter updates, the web
resources and the index page.

Errors are GWC's ``RestException`` answers (``seeding.layers.rest_error``).
"""

from __future__ import annotations

import struct
import zlib
from html import escape
from urllib.parse import unquote

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core.errors import Invalid, ServerError
from ...http.context import base_url, body, emulator, respond, response_format
from ...http.routing import Route
from ...wire.negotiate import split_ext
from ..seeding import codec as seeding_codec
from ..seeding import config, truncate
from ..seeding.gridsets import layer_extent
from ..seeding.layers import find, rest_error
from ..seeding.model import SeedingStore
from ..seeding.routes import METHODS, _refuse
from ..seeding.tiles import subset_coverages
from . import codec

XML_JSON = ("xml", "json")


def _fmt(request: Request, ext: str | None) -> str:
    return response_format(request, ext, XML_JSON, "xml")


def _body_fmt(request: Request, ext: str | None) -> str:
    if ext in XML_JSON:
        return ext  # type: ignore[return-value]
    ct = (request.headers.get("content-type") or "").split(";")[0].strip().lower()
    return "json" if ct.endswith("json") else "xml"


async def _read(request: Request) -> bytes:
    return await body(request)


def _bad(exc: Invalid, whole: bool = False) -> Exception:
    return rest_error(exc.status if exc.status in (400, 404) else 400, exc.message, whole)


# -- mass truncation ----------------------------------------------------------------------


async def masstruncate(request: Request) -> Response:
    _refuse(request, ["GET", "POST"])
    emu = emulator(request)
    if request.method in ("GET", "HEAD"):
        href = f"{base_url(request)}/gwc/rest/masstruncate"
        return respond(codec.dump_mass_truncate_types(href), media_type="application/xml")
    given = request.headers.get("content-type")
    ct = (given or "").strip().lower()  # compared whole, as GWC does (equalsIgnoreCase)
    raw = await _read(request)
    form = ct == "application/x-www-form-urlencoded"
    if ct in ("", "text/xml") or form:
        fmt = "xml"
    elif ct == "json":
        fmt = "json"
    else:
        raise rest_error(400, f"Format extension unknown or not specified: {given}", True)
    try:
        if form and raw.strip().startswith(b"<truncateAll"):
            req = truncate.MassTruncate("truncateAll")
        else:
            req = codec.parse_mass_truncate(raw, fmt)
        store = emu.state.seeding
        sched = emu.scheduler

        def submit(layer: str, seed: object) -> None:
            sched.submit(layer, seed, one_truncate_task=emu.decisions.truncate_one_task)  # type: ignore[arg-type]

        sched.commit()
        names = truncate.run(store, req, submit)
    except Invalid as exc:
        raise _bad(exc, whole=True) from None
    except ServerError as exc:
        raise rest_error(500, exc.message, True) from None
    if form and req.kind == "truncateAll":
        return respond(truncate_all_page(names), media_type="text/plain")
    return respond(b"", media_type="text/plain")


def truncate_all_page(names: list[str]) -> str:
    """``TruncateAllRequest.getResponsePage``: the page a form's truncate-all answers."""
    listed = escape(",".join(names)) if names else "No Layers were truncated"
    content = f"<p>Truncated All Layers</p>\n<p>Truncated Layers:{listed}</p>"
    return (
        "<html>\n<head>\n<title>GWC Seed Form</title>\n"
        '<link rel="stylesheet" href="../rest/web/gwc.css" type="text/css"/>\n</head>\n'
        '<body>\n<div id="pageHeader"><a id="logo" href="../">'
        '<img src="../rest/web/geowebcache_logo.png"/></a></div>\n'
        f'<p>{content}</p> <p><a href="../demo">Go back</a></p>'
    )


# -- gridsets -----------------------------------------------------------------------------


async def gridsets(request: Request) -> Response:
    _refuse(request, ["GET"])
    fmt = _fmt(request, request.path_params.get("ext"))
    names = emulator(request).state.seeding.all_gridset_names()
    if fmt == "json":
        return respond(codec.dump_names_json(names), "json")
    href = f"{base_url(request)}/gwc/rest/gridsets"
    return respond(codec.dump_names_xml("gridSets", "gridSet", names, href), "xml")


async def gridset(request: Request) -> Response:
    _refuse(request, ["GET", "PUT", "DELETE"])
    name, ext = split_ext(request.path_params["name"], XML_JSON)
    store = emulator(request).state.seeding
    found = store.gridset(name)
    if request.method in ("GET", "HEAD"):
        fmt = _fmt(request, ext)
        if found is None:
            raise rest_error(
                404, f'Failed to get GridSet. A GridSet with name "{name}" does not exist.'
            )
        if fmt == "json":
            return respond(codec.dump_gridset_json(found), "json")
        return respond(codec.dump_gridset_xml(found), "xml")
    if request.method == "DELETE":
        if found is None:
            raise rest_error(
                404, f'Failed to remove GridSet. A GridSet with name "{name}" does not exist.'
            )
        if store.is_builtin_gridset(name):
            raise rest_error(400, f"GridSet {name} is a built-in gridset and can't be removed")
        _remove_gridset(emulator(request).state.seeding, name)
        return respond(b"", media_type="text/plain")
    raw = await _read(request)
    try:
        parsed = codec.parse_gridset(raw, _body_fmt(request, ext))
    except Invalid as exc:
        raise _bad(exc) from None
    if parsed.name != name:
        raise rest_error(
            400, f"The gridset name in the body ({parsed.name}) does not match the URL ({name})"
        )
    if store.is_builtin_gridset(name):
        raise rest_error(400, f"GridSet {name} is a built-in gridset and can't be changed")
    existed = name in store.gridsets
    store.gridsets[name] = parsed
    if existed:
        for key in [k for k in store.cache.entries if k[1] == name]:
            del store.cache.entries[key]
        return respond(b"", media_type="text/plain")
    return respond(b"", status=201, media_type="text/plain")


def _remove_gridset(store: object, name: str) -> None:
    """GeoServer's ``GWC.removeGridSets``: the layers lose their subset, the cache its tiles."""
    from ..seeding.model import SeedingStore

    assert isinstance(store, SeedingStore)
    for layer in store.tile_layers.values():
        if name in layer.gridsets:
            layer.gridsets = [g for g in layer.gridsets if g != name]
            layer.subsets.pop(name, None)
    for key in [k for k in store.cache.entries if k[1] == name]:
        del store.cache.entries[key]
    del store.gridsets[name]


# -- blob stores --------------------------------------------------------------------------


async def blobstores(request: Request) -> Response:
    _refuse(request, ["GET"])
    fmt = _fmt(request, request.path_params.get("ext"))
    names = list(emulator(request).state.seeding.blob_stores)  # a List: in the order added
    if fmt == "json":
        return respond(codec.dump_names_json(names), "json")
    href = f"{base_url(request)}/gwc/rest/blobstores"
    return respond(codec.dump_names_xml("blobStores", "blobStore", names, href), "xml")


async def blobstore(request: Request) -> Response:
    _refuse(request, ["GET", "PUT", "DELETE"])
    name, ext = split_ext(request.path_params["name"], XML_JSON)
    store = emulator(request).state.seeding
    found = store.blob_stores.get(name)
    if request.method in ("GET", "HEAD"):
        if found is None:
            raise rest_error(
                404,
                f'Failed to get BlobStoreInfo. A BlobStoreInfo with name "{name}" does not exist.',
            )
        if _fmt(request, ext) == "json":
            return respond(codec.dump_blob_store_json(found), "json")
        return respond(codec.dump_blob_store_xml(found), "xml")
    if request.method == "DELETE":
        if found is None:
            raise rest_error(
                404,
                "Failed to remove BlobStoreInfo."
                f' A BlobStoreInfo with name "{name}" does not exist.',
            )
        users = sorted(n for n, t in store.tile_layers.items() if t.blob_store_id == name)
        if users:
            raise rest_error(400, f"BlobStore {name} is in use by layers: {', '.join(users)}")
        del store.blob_stores[name]
        return respond(b"", media_type="text/plain")
    raw = await _read(request)
    try:
        parsed = codec.parse_blob_store(
            raw, _body_fmt(request, ext), tuple(config.BLOB_STORE_TYPES)
        )
        config.check_blob_store(parsed)
    except Invalid as exc:
        raise _bad(exc) from None
    if parsed.id != name:
        raise rest_error(
            400, f"The blob store id in the body ({parsed.id}) does not match the URL ({name})"
        )
    if found is not None and found.default and not parsed.default:
        parsed.default = True  # GWC keeps a default: another must take the flag first
    if parsed.default:
        for other in store.blob_stores.values():
            other.default = False
    store.blob_stores[name] = parsed
    return respond(b"", status=200 if found is not None else 201, media_type="text/plain")


# -- disk quota, global -------------------------------------------------------------------


async def diskquota(request: Request) -> Response:
    """``DiskQuotaController``: JSON when the path says ``json``, else XML (``Accept`` is not
    read); a PUT applies the fields given and answers the whole configuration."""
    _refuse(request, ["GET", "PUT"])
    fmt = "json" if request.path_params.get("ext") == "json" else "xml"
    store = emulator(request).state.seeding
    if request.method == "PUT":
        raw = await _read(request)
        try:
            _, given = codec.parse_tree(raw, fmt, ("gwcQuotaConfiguration",), "disk quota")
            config.check_quota(given)
        except Invalid as exc:
            raise _bad(exc) from None
        merged = list(store.disk_quota.fields)
        for tag, value in given:
            merged = config.put(merged, tag, value)
        store.disk_quota.fields = merged
    shown = quota_out(store.disk_quota.fields)
    if fmt == "json":
        return respond(codec.dump_tree_json(QUOTA_CLASS, shown), "json")
    doc = codec.dump_tree_xml(QUOTA_CLASS, shown)
    return respond(b'<?xml version="1.0" encoding="UTF-8"?>\n' + doc, "xml")


QUOTA_CLASS = "org.geowebcache.diskquota.DiskQuotaConfig"
"""the root ``DiskQuotaController`` writes (its XStream has no alias for the class; the
``gwcQuotaConfiguration`` alias is the configuration file's, read on PUT)"""
UNITS = {"B": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40}


def quota_out(fields: list[tuple[str, object]]) -> list[tuple[str, object]]:
    """The configuration as the controller writes it: a quota is a ``Quota`` bean, ``id``
    and ``bytes`` (the file's ``value``/``units`` is its converter's form)."""
    out: list[tuple[str, object]] = []
    for tag, value in fields:
        if tag in ("globalQuota", "quota") and isinstance(value, list):
            given = dict(value)
            units = UNITS.get(str(given.get("units", "B")), 1)
            try:
                size = round(float(str(given.get("value", "0"))) * units)
            except ValueError:
                size = 0
            value = [("id", "0"), ("bytes", str(size))]
        elif isinstance(value, list) and value and isinstance(value[0], tuple):
            value = quota_out(value)  # type: ignore[arg-type]
        out.append((tag, value))
    return out


async def global_config(request: Request) -> Response:
    _refuse(request, ["GET", "PUT"])
    ext = request.path_params.get("ext")
    store = emulator(request).state.seeding
    if request.method == "PUT":
        raw = await _read(request)
        try:
            _, given = codec.parse_tree(raw, _body_fmt(request, ext), ("global",), "global")
            store.global_config.fields = config.merge_global(store.global_config.fields, given)
        except Invalid as exc:
            raise _bad(exc) from None
        return respond(b"", media_type="text/plain")
    if _fmt(request, ext) == "json":
        return respond(codec.dump_tree_json("global", store.global_config.fields), "json")
    return respond(codec.dump_tree_xml("global", store.global_config.fields), "xml")


# -- reload, bounds, index ----------------------------------------------------------------


async def reload(request: Request) -> Response:
    """``ReloadController``: ``reload_configuration`` in the query or the form body."""
    _refuse(request, ["POST"])
    raw = await _read(request)
    params = dict(request.query_params)
    if raw.strip():
        try:
            params.update(seeding_codec.parse_form(raw, decode=False))
        except Invalid as exc:
            raise _bad(exc, whole=True) from None
    if "reload_configuration" not in params:
        raise rest_error(
            400,
            "Unknown or malformed request. Please try again, somtimes the form is not properly"
            " received. This frequently happens on the first POST after a restart. The POST"
            f" was to {request.url.path}",
            True,
        )
    count = len(emulator(request).state.seeding.tile_layers)
    page = (
        "<html>\n<head>\n<title>GWC Reload</title>\n</head>\n<body>\n"
        f"<p>TileLayerConfiguration reloaded. Read {count} layers from configuration"
        " resources.</p><p>Note that this functionality has not been rigorously tested, please"
        " reload the servlet if you run into any problems. Also note that you must truncate"
        ' the tiles of any layers that have changed.</p><p><a href="../demo">Go back</a></p>\n'
        "</body></html>"
    )
    return respond(page, media_type="text/plain")


async def bounds(request: Request) -> Response:
    _refuse(request, ["GET"])
    p = request.path_params
    store = emulator(request).state.seeding
    if p["layer"] not in store.tile_layers:
        raise rest_error(404, f"Unknown layer: {p['layer']}", True)
    layer = find(store, p["layer"])
    srs = p["srs"]
    gridset = store.gridset(srs) if srs in layer.gridsets else None
    if gridset is None:
        raise rest_error(404, f"{layer.name} does not support {srs}", True)
    if p["type"].lower() != "java":
        raise rest_error(400, f"Unknown or missing format extension : {p['type']}", True)
    opts = layer.subset(srs)
    extent = opts.extent if opts.extent is not None else layer_extent(gridset, layer.bounds)
    cov = subset_coverages(gridset, extent, opts.zoom_start, opts.zoom_stop)
    rows = [(*rect, z) for z, rect in sorted(cov.items())]
    return respond(codec.dump_coverages(rows), media_type="text/plain")


STATISTICS = (
    ("hitCount", 0), ("missCount", 0), ("evictionCount", 0), ("totalCount", 0),
    ("hitRate", 100.0), ("missRate", 0.0), ("currentMemoryOccupation", 0.0),
    ("totalSize", 0), ("actualSize", 0),
)  # fmt: skip
"""the in-memory cache statistics of a cache that has served nothing (no tile is served)"""


async def statistics(request: Request) -> Response:
    """``MemoryCacheController``: JSON when the path says ``json``, else XML."""
    _refuse(request, ["GET"])
    if request.path_params.get("ext") == "json":
        return respond(codec.dump_statistics_json(STATISTICS), "json")
    return respond(codec.dump_statistics_xml(STATISTICS), "xml")


async def index(request: Request) -> Response:
    """``GWCIndexController``: the page as GeoWebCache writes it, links from the request's
    path."""
    _refuse(request, ["GET"])
    uri = escape(request.url.path)
    page = (
        f'<html><body>\n<a id="logo" href="{uri}"><img src="{uri}/web/geowebcache_logo.png"'
        ' alt="" height="100" width="353" border="0"/></a>\n'
        f'<h3>Resources available from here:</h3><ul><li><h4><a href="{uri}/layers/">layers</a>'
        "</h4>Lets you see the configured layers. You can also view a specific layer  by"
        " appending the name of the layer to the URL, DELETE an existing layer  or POST a new"
        " one. Note that the latter operations only make sense when GeoWebCache has been"
        " configured through geowebcache.xml. You can POST either XML or JSON.</li>\n"
        "<li><h4>seed</h4></li>\n</ul></body></html>"
    )
    return respond(page, media_type="text/html;charset=utf-8")


# -- request filter updates and web resources ----------------------------------------------


def _request_filter(store: SeedingStore, name: str) -> bool:
    """Whether a tile layer has a request filter called ``name`` (GWC looks through every
    layer's ``requestFilters``; here the ``wmsLayer``s that declared some)."""
    for layer in store.tile_layers.values():
        for tag, value in layer.extras:
            if tag != "requestFilters" or not isinstance(value, dict):
                continue
            for item in value.values():
                if isinstance(item, dict) and item.get("name") == name:
                    return True
    return False


async def filter_update(request: Request) -> Response:
    """``FilterUpdateController``: the filter must exist on some tile layer; ``xml`` and
    ``zip`` updates are accepted (the emulator keeps no raster filter matrices to change)."""
    _refuse(request, ["POST"])
    name, kind = request.path_params["name"], request.path_params["type"]
    if not _request_filter(emulator(request).state.seeding, name):
        raise rest_error(400, f"No filter by the name {name} was found.")
    if kind.lower() not in ("xml", "zip"):
        raise rest_error(400, f"Unknow update type {kind}\n")
    await _read(request)
    return respond("Filter update completed, no problems encountered.\n", media_type="text/plain")


def _blank_png() -> bytes:
    """A 1 x 1 transparent PNG (the emulator's stand-in for GWC's logo)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", 1, 1, 8, 6, 0, 0, 0)
    pixels = zlib.compress(b"\x00\x00\x00\x00\x00", 9)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


WEB_RESOURCES: dict[str, tuple[str, bytes | str]] = {
    "gwc.css": (
        "text/css",
        "/* GeoWebCache pages of the emulator */\nbody { font-family: sans-serif; }\n",
    ),
    "seed.js": (
        "text/javascript",
        "/* The seed form's script: the emulator's form needs none. */\n",
    ),
    "demo.js": (
        "text/javascript",
        "/* The demo page's script: the emulator has no demo page. */\n",
    ),
    "geowebcache_logo.png": ("image/png", _blank_png()),
}
"""the top-level files of GWC's web resource bundle (the pages' style sheet, scripts and logo),
with contents of the emulator's own; the bundled OpenLayers copy is not served"""


async def web_resource(request: Request) -> Response:
    """``ByteStreamController``: ``/gwc/rest/web/<file>`` from the web resource bundle; a
    path that could leave the bundle (absolute, ``..``, a ``.class``) is 403."""
    _refuse(request, ["GET"])
    prefix = "/gwc/rest/web/"
    path = request.url.path
    at = path.find(prefix)
    filename = unquote(path[at + len(prefix) :])
    if filename.startswith(("/", "../")) or "/../" in filename or filename.endswith(".class"):
        return Response(status_code=403)
    found = WEB_RESOURCES.get(filename)
    if found is None:
        return Response(status_code=404)
    media_type, text = found
    return respond(text, media_type=media_type)


routes: list[BaseRoute] = [
    Route("/gwc/rest", index, methods=METHODS),
    Route("/gwc/rest/index", index, methods=METHODS),
    Route("/gwc/rest/masstruncate", masstruncate, methods=METHODS),
    Route("/gwc/rest/gridsets", gridsets, methods=METHODS),
    Route("/gwc/rest/gridsets.{ext}", gridsets, methods=METHODS),
    Route("/gwc/rest/gridsets/{name}", gridset, methods=METHODS),
    Route("/gwc/rest/blobstores", blobstores, methods=METHODS),
    Route("/gwc/rest/blobstores.{ext}", blobstores, methods=METHODS),
    Route("/gwc/rest/blobstores/{name}", blobstore, methods=METHODS),
    Route("/gwc/rest/diskquota", diskquota, methods=METHODS),
    Route("/gwc/rest/diskquota.{ext}", diskquota, methods=METHODS),
    Route("/gwc/rest/global", global_config, methods=METHODS),
    Route("/gwc/rest/global.{ext}", global_config, methods=METHODS),
    Route("/gwc/rest/reload", reload, methods=METHODS),
    Route("/gwc/rest/statistics", statistics, methods=METHODS),
    Route("/gwc/rest/statistics.{ext}", statistics, methods=METHODS),
    Route("/gwc/rest/bounds/{layer}/{srs}/{type}", bounds, methods=METHODS),
    Route("/gwc/rest/filter/{name}/update/{type}", filter_update, methods=METHODS, answers="POST"),
    Route("/gwc/rest/web/{path:path}", web_resource, methods=METHODS, answers="GET"),
]
