"""Routes of the styles area: style lists, style records and bodies, a layer's styles.

    /rest/styles[.xml|.json|.html]                          GET, POST
    /rest/workspaces/<ws>/styles[.ext]                      GET, POST
    /rest/<ws>/styles[.ext]                                 GET, POST (the spec's form)
    /rest/styles/<style>[.xml|.json|.html|.sld|.css|.zip]   GET, PUT, DELETE
    /rest/workspaces/<ws>/styles/<style>[.ext]              GET, PUT, DELETE
    /rest/layers/<layer>/styles[.ext]                       GET, POST

A style GET answers the record (``.xml``, ``.json``, ``.html``) or the body (``.sld`` as SLD
1.0, ``.css``, or by ``Accept``: ``application/vnd.ogc.sld+xml``, ``application/vnd.ogc.se+xml``,
the CSS types); with neither, HTML, GeoServer's default. ``.zip`` has no writer in
GeoServer: 406. Bodies come back byte for byte when the stored format and version are the
ones asked for; otherwise SLD is converted between 1.0 and 1.1 (see ``sld.convert``).
"""

from __future__ import annotations

from urllib.parse import quote_plus

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Match
from starlette.types import Scope

from ...core.errors import Invalid, NotAcceptable, NotFound, ServerError
from ...core.lazy import LazyModule
from ...http import context as ctx
from ...http.routing import Route
from ...wire import negotiate
from ...wire.geoserver.dates import catalog_timestamp
from ..catalog.model import copy_of
from . import codec
from .formats import CSS, SLD_10_TYPE, SLD_11_TYPE, V10, V11
from .model import Env, Style, StyleStore, not_found_message

sld = LazyModule("geoserver_emulator.areas.styles.sld")
uploads = LazyModule("geoserver_emulator.areas.styles.uploads")
"""SLD handling and style uploads (with the CSS and ZIP package readers): imported by the
first style request that needs them, not at start-up"""

LIST_FORMATS = ("xml", "json", "html")
ITEM_EXTENSIONS = ("xml", "json", "html", "sld", "css", "zip")
ITEM_OFFERS = ("html", "xml", "json", "sld", "se", "css", "zip")
RESERVED = frozenset(
    {
        "about",
        "fonts",
        "imports",
        "layergroups",
        "layers",
        "logging",
        "namespaces",
        "resource",
        "security",
        "services",
        "settings",
        "styles",
        "templates",
        "urlchecks",
        "workspaces",
    }
)
"""first segments of other REST resources, which ``/rest/<ws>/styles`` must not shadow"""


def _store(request: Request) -> StyleStore:
    return ctx.emulator(request).state.styles


def stamp(request: Request) -> str:
    """The emulated time in GeoServer's catalog date format."""
    dt = ctx.emulator(request).clock.datetime()
    return catalog_timestamp(dt)


def _env(request: Request) -> Env:
    emu = ctx.emulator(request)
    return Env(
        emu.state.datadir,
        emu.state.catalog,
        emu.state.ids,
        stamp(request),
        emu.clock.now(),
        sld.icons,
    )


def _workspace(request: Request) -> str | None:
    """The workspace of the path (``default`` names the default one), or 404."""
    name = request.path_params.get("workspace")
    if name is None:
        return None
    found = ctx.emulator(request).state.catalog.workspace(name)
    if found is None:
        raise NotFound(f"Workspace {name} not found")
    return found.name


def _list_ext(request: Request) -> str | None:
    ext = request.path_params.get("ext")
    if ext is not None and ext.lower() not in LIST_FORMATS:
        raise NotFound(f"No such resource: {request.method} {request.url.path}")
    return None if ext is None else str(ext).lower()


def _name(store: StyleStore, workspace: str | None, raw: str) -> str:
    """A style name from the path: ``+`` also reads as a space, as GeoServer's old code did."""
    if store.get(workspace, raw) is None and "+" in raw:
        spaced = raw.replace("+", " ")
        if store.get(workspace, spaced) is not None:
            return spaced
    return raw


def _href(request: Request, workspace: str | None, name: str, fmt: str) -> str:
    leaf = f"styles/{quote_plus(name)}.{fmt}"
    if workspace is not None:
        leaf = f"workspaces/{quote_plus(workspace)}/{leaf}"
    return ctx.rest_url(request, leaf)


# -- lists ----------------------------------------------------------------------------------


async def styles(request: Request) -> Response:
    """GET: the global or a workspace's styles; POST: create a style (see ``uploads``)."""
    workspace = _workspace(request)
    ext = _list_ext(request)
    store = _store(request)
    if request.method == "POST":
        return await uploads.create(request, store, _env(request), workspace)
    fmt = ctx.response_format(request, ext, LIST_FORMATS, default="html")
    items = [(s.name, _href(request, workspace, s.name, fmt)) for s in store.list_styles(workspace)]
    return ctx.respond(codec.dump_list(items, fmt), fmt)


async def layer_styles(request: Request) -> Response:
    """A layer's alternate styles: GET lists them, POST adds an existing style to them."""
    catalog = ctx.emulator(request).state.catalog
    layer_name = request.path_params["layer"]
    layer = catalog.find_layer(layer_name)
    if layer is None:
        raise NotFound(f"No such layer: {layer_name}")
    ext = _list_ext(request)
    if request.method == "POST":
        fields = codec.parse_style(await ctx.body(request), ctx.body_format(request))
        ws = fields.workspace if isinstance(fields.workspace, str) else None
        style = _store(request).find(fields.name or "", ws) if fields.name else None
        if style is None:
            raise NotFound(f"No such style: {fields.name}")
        updated = copy_of(layer)
        if style.ref not in updated.styles:
            updated.styles.append(style.ref)
        if uploads.flag(request, "default"):
            updated.default_style = style.ref
        catalog.replace_layer(layer.workspace, layer.name, updated, when=stamp(request))
        return Response(style.name, status_code=201, media_type="text/plain")
    fmt = ctx.response_format(request, ext, LIST_FORMATS, default="html")
    base = f"layers/{quote_plus(layer.prefixed, safe=':')}/styles"
    items = [
        (ref.name, ctx.rest_url(request, f"{base}/{quote_plus(ref.name)}.{fmt}"))
        for ref in layer.styles
    ]
    return ctx.respond(codec.dump_list(items, fmt), fmt)


# -- one style ------------------------------------------------------------------------------


async def style(request: Request) -> Response:
    workspace = _workspace(request)
    store = _store(request)
    raw, ext = negotiate.split_ext(request.path_params["style"], ITEM_EXTENSIONS)
    name = _name(store, workspace, raw)
    if request.method == "DELETE":
        store.delete(
            _env(request),
            workspace,
            name,
            recurse=uploads.flag(request, "recurse"),
            purge=uploads.flag(request, "purge"),
        )
        return Response(status_code=200)
    if request.method == "PUT":
        return await uploads.replace(request, store, _env(request), workspace, name)
    found = store.get(workspace, name)
    if found is None:
        raise NotFound(not_found_message(workspace, name))
    fmt = ctx.response_format(request, ext, ITEM_OFFERS, default="html")
    if fmt in ("xml", "json", "html"):
        link = _href(request, workspace, name, "css" if found.format == CSS else "sld")
        return ctx.respond(codec.dump_style(found, fmt, link), fmt)
    return _body(request, store, found, fmt)


def _body(request: Request, store: StyleStore, found: Style, fmt: str) -> Response:
    """The style body in ``fmt`` (``sld``: SLD 1.0, ``se``: SLD 1.1, ``css``)."""
    if fmt == "zip":
        raise NotAcceptable("Styles cannot be downloaded as a ZIP package; use .sld or .css")
    data = store.body(ctx.emulator(request).state.datadir, found)
    if data is None:
        raise NotFound(f"Style {found.name} has no style file yet: PUT its body first")
    if fmt == "css":
        if found.format != CSS:
            raise NotAcceptable(
                f"Style {found.name} is {found.format}; it cannot be written as css"
            )
        return ctx.respond(data, media_type=_css_type(request))
    version = V11 if fmt == "se" else V10
    media_type = SLD_11_TYPE if fmt == "se" else SLD_10_TYPE
    if found.format == CSS:
        return ctx.respond(
            sld.css_shell(found.name, data.decode("utf-8", "replace"), version),
            media_type=media_type,
        )
    if found.version not in (None, version):
        try:
            data = sld.convert(data, version)
        except Invalid as exc:
            raise ServerError(
                f"Cannot write style {found.name} as SLD {version}: {exc.message}"
            ) from None
    return ctx.respond(data, media_type=media_type)


def _css_type(request: Request) -> str:
    """The CSS media type with the configured vendor (``vnd.geoserver`` or ``vnd.service``)."""
    vendor = ctx.emulator(request).vendor.prefix.rsplit(".", 1)[-1]
    return f"application/vnd.{vendor}.geocss+css"


class _SpecRoute(Route):
    """``/rest/<ws>/styles``, which must not shadow another resource's ``/rest/<x>/styles``."""

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        match, child = super().matches(scope)
        if match != Match.NONE and child.get("path_params", {}).get("workspace") in RESERVED:
            return Match.NONE, {}
        return match, child


LIST_METHODS = ["GET", "POST"]
ITEM_METHODS = ["GET", "PUT", "DELETE"]

routes: list[BaseRoute] = [
    Route("/rest/styles", styles, methods=LIST_METHODS, name="styles"),
    Route("/rest/styles.{ext}", styles, methods=LIST_METHODS, name="styles_ext"),
    Route("/rest/styles/{style}", style, methods=ITEM_METHODS, name="style"),
    Route("/rest/workspaces/{workspace}/styles", styles, methods=LIST_METHODS, name="ws_styles"),
    Route(
        "/rest/workspaces/{workspace}/styles.{ext}",
        styles,
        methods=LIST_METHODS,
        name="ws_styles_ext",
    ),
    Route(
        "/rest/workspaces/{workspace}/styles/{style}", style, methods=ITEM_METHODS, name="ws_style"
    ),
    Route("/rest/layers/{layer}/styles", layer_styles, methods=LIST_METHODS, name="layer_styles"),
    Route(
        "/rest/layers/{layer}/styles.{ext}",
        layer_styles,
        methods=LIST_METHODS,
        name="layer_styles_ext",
    ),
    _SpecRoute("/rest/{workspace}/styles", styles, methods=LIST_METHODS, name="spec_ws_styles"),
    _SpecRoute(
        "/rest/{workspace}/styles.{ext}", styles, methods=LIST_METHODS, name="spec_ws_styles_ext"
    ),
]
