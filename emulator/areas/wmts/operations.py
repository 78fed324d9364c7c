"""WMTS 1.0.0 at ``/gwc/service/wmts``: GetCapabilities from the tile layers and gridsets
of the seeding area, GetTile as an image of the gridset's tile size drawn like a WMS map,
and the RESTful tile URL the capabilities advertise."""

from __future__ import annotations

from ...core.record import replace
from ...wire.geoserver.java import parse_int
from ..catalog.entities import Layer, LayerGroup, StyleRef
from ..ows import exceptions, published, sources
from ..ows.dispatch import Operation, Service
from ..ows.errors import INVALID, MISSING, NO_CODE, OwsError
from ..ows.kvp import Call
from ..ows.model import Published, View
from ..ows.results import Document, Image, Report
from ..seeding.gridsets import GridSet
from ..wms import maps as wms_map
from ..wms import paint, render
from ..wms.legend import style_ref
from . import capabilities
from . import dimensions as wmts_dimensions

V100 = "1.0.0"
INFO_FORMATS = capabilities.INFO_FORMATS


def tile_layers(view: View) -> list[tuple[str, Published]]:
    """(tile layer name, the catalog item) of the enabled tile layers the caller sees, in the
    virtual service's scope (a workspace's, a layer's or a group's)."""
    visible: dict[str, Published] = {}
    for layer in view.layers():
        visible[layer.prefixed] = layer
    for group in view.groups():
        visible[group.prefixed] = group
    out = []
    for name, tile in sorted(view.state.seeding.tile_layers.items()):
        if tile.enabled and name in visible:
            out.append((name, visible[name]))
    return out


def get_capabilities(view: View, call: Call) -> Document:
    ctx = capabilities.Context(
        call.service_base,
        sources.service(view.state, sources.WMTS, view.workspace),
        sources.contact(view.state, view.workspace),
    )
    seeding = view.state.seeding
    entries = [_entry(view, name, item) for name, item in tile_layers(view)]
    return Document(capabilities.write(ctx, entries, seeding.gridsets), "text/xml")


def tile_name(view: View, layer: str) -> str:
    """The tile layer a request's ``LAYER`` names: in a workspace's (or a layer's) virtual
    service, an unqualified name is the workspace's layer."""
    if view.workspace is not None and ":" not in layer:
        return f"{view.workspace}:{layer}"
    return layer


def _entry(view: View, name: str, item: Published) -> capabilities.Entry:
    """What the capabilities say of tile layer ``name`` (of catalog ``item``)."""
    seeding = view.state.seeding
    tile = seeding.tile_layers[name]
    if isinstance(item, Layer):
        res = view.resource(item)
        title, abstract, keywords = res.title, res.abstract, res.keywords
    else:
        title, abstract, keywords = item.title or item.name, item.abstract, item.keywords
    default = item.default_style.prefixed if isinstance(item, Layer) and item.default_style else ""
    return capabilities.Entry(
        view.name_of(item),
        name,
        title,
        abstract,
        published.keyword_values(keywords),
        view.latlon(item),
        default,
        tile.formats,
        wmts_dimensions.dimensions(tile),
        sorted(g for g in tile.gridsets if g in seeding.gridsets),
    )


def _tile(view: View, call: Call) -> tuple[Published, GridSet, int, int, int, str, str]:
    """The tile a GetTile (or GetFeatureInfo) names, checked in GeoWebCache's order and
    words (``WMTSService``)."""
    given = call.get("LAYER")
    if given is None:
        raise OwsError("Missing LAYER parameter", MISSING, "LAYER")
    name = tile_name(view, given)
    tile = view.state.seeding.tile_layers.get(name)
    visible = dict(tile_layers(view))
    if tile is None or name not in visible:
        if tile is not None:
            try:
                view.find(given, "LAYER")  # a challenge when hidden in MIXED/CHALLENGE mode
            except OwsError:
                pass  # HIDE: as if there were no such tile layer
        raise OwsError(f"LAYER {given} is not known.", INVALID, "LAYER")
    if not view.readable(visible[name]):
        view.find(given, "LAYER")  # listed in CHALLENGE mode, but reading it is a challenge
    style = tile_style(visible[name], call.get("STYLE") or "")
    fmt = call.get("FORMAT")
    if call.request == "GetTile" and (fmt is None or fmt not in paint.FORMATS):
        raise OwsError(
            f"Unable to determine requested FORMAT, {'null' if fmt is None else fmt}",
            MISSING if fmt is None else INVALID,
            "FORMAT",
        )
    gs, z = _matrix(view, tile.gridsets, call)
    row, col = _cell(call, gs, z)
    if fmt is not None and fmt not in tile.formats:
        raise OwsError(f"Unknown format: {fmt}", INVALID, "FORMAT")
    return visible[name], gs, z, row, col, fmt or "image/png", style


def tile_style(item: Published, style: str) -> str:
    """The style a tile is drawn with, as GeoServer's style parameter filter reads
    ``STYLE``: empty for the default, else one of the layer's styles (any case); a group has
    no such filter."""
    if not style or not isinstance(item, Layer):
        return ""
    for ref in [r for r in (item.default_style, *item.styles) if r is not None]:
        if style.lower() in (ref.name.lower(), ref.prefixed.lower()):
            return ref.prefixed
    raise OwsError(f"Style '{style}' is invalid.", INVALID, "Style")


def _matrix(view: View, allowed: list[str], call: Call) -> tuple[GridSet, int]:
    matrix_set = call.get("TILEMATRIXSET")
    if matrix_set is None:
        raise OwsError("No TILEMATRIXSET specified", MISSING, "TILEMATRIXSET")
    gs = view.state.seeding.gridsets.get(matrix_set)
    if gs is None or matrix_set not in allowed:
        raise OwsError(
            f"Unable to match requested TILEMATRIXSET {matrix_set} to those supported by layer",
            INVALID,
            "TILEMATRIXSET",
        )
    matrix = call.get("TILEMATRIX")
    if matrix is None:
        raise OwsError("No TILEMATRIX specified", MISSING, "TILEMATRIX")
    z_text = matrix.rsplit(":", 1)[-1]
    if matrix != f"{matrix_set}:{z_text}" or not z_text.isdigit() or int(z_text) >= gs.levels:
        raise OwsError(f"Unknown TILEMATRIX {matrix}", INVALID, "TILEMATRIX")
    return gs, int(z_text)


def _cell(call: Call, gs: GridSet, z: int) -> tuple[int, int]:
    found: list[int] = []
    for key in ("TILEROW", "TILECOL"):
        text = call.get(key)
        if text is None:
            raise OwsError(f"No {key} specified", MISSING, key)
        try:
            found.append(parse_int(text.strip(), 64))
        except ValueError:
            raise OwsError(f'For input string: "{text}"', NO_CODE, key) from None
    row, col = found
    if not 0 <= col < gs.tiles_wide[z]:
        raise OwsError(
            f"Column {col} is out of range, min: 0 max:{gs.tiles_wide[z] - 1}",
            "TileOutOfRange",
            "TILECOL",
        )
    if not 0 <= row < gs.tiles_high[z]:
        raise OwsError(
            f"Row {row} is out of range, min: 0 max:{gs.tiles_high[z] - 1}",
            "TileOutOfRange",
            "TILEROW",
        )
    return row, col


def _dimension_call(view: View, call: Call) -> Call:
    """``call`` with ``TIME``/``ELEVATION`` as the tile layer's parameter filters pass them."""
    tile = view.state.seeding.tile_layers[tile_name(view, call.require("LAYER"))]
    return replace(call, params=wmts_dimensions.tile_parameters(tile, call.params))


def _tile_bbox(gs: GridSet, z: int, row: int, col: int) -> tuple[float, float, float, float]:
    res = gs.resolutions[z]
    minx = gs.extent[0] + col * gs.tile_width * res
    maxy = capabilities.top(gs, z) - row * gs.tile_height * res
    return (minx, maxy - gs.tile_height * res, minx + gs.tile_width * res, maxy)


def get_feature_info(view: View, call: Call) -> Document:
    """GetFeatureInfo on pixel ``I``/``J`` of a tile (``INFOFORMAT``), as WMS answers it."""
    call.params.setdefault("FORMAT", "image/png")
    _, gs, z, row, col, _, _ = _tile(view, call)
    fmt = call.get("INFOFORMAT") or "text/plain"
    if fmt not in INFO_FORMATS:
        raise OwsError(f"Unknown INFOFORMAT {fmt}", INVALID, "INFOFORMAT")
    i, j = call.integer("I"), call.integer("J")
    if i is None or j is None or not (0 <= i < gs.tile_width and 0 <= j < gs.tile_height):
        raise OwsError("I and J must lie within the tile", "PointIJOutOfRange", "I")
    name = call.require("LAYER")
    call = _dimension_call(view, call)
    req = wms_map.MapRequest(
        "1.1.1",
        [],
        f"EPSG:{gs.srs}",
        _tile_bbox(gs, z, row, col),
        gs.tile_width,
        gs.tile_height,
        "image/png",
        False,
        (255, 255, 255, 255),
    )
    return wms_map.feature_info(view, call, req, [name], fmt, (i, j), 50)


def get_tile(view: View, call: Call) -> Image:
    item, gs, z, row, col, fmt, style = _tile(view, call)
    call = _dimension_call(view, call)
    res = gs.resolutions[z]
    width, height = gs.tile_width, gs.tile_height
    bbox = _tile_bbox(gs, z, row, col)
    srs = f"EPSG:{gs.srs}"
    canvas = paint.Canvas.for_map(width, height, (255, 255, 255, 0 if fmt == "image/png" else 255))
    painter = render.MapPainter(canvas, bbox, srs)
    scale = res * gs.meters_per_unit / gs.pixel_size
    layers: list[tuple[Layer, StyleRef]]
    if isinstance(item, LayerGroup):
        layers = [
            (m, m.default_style or StyleRef(None, "generic")) for m in view.member_layers(item)
        ]
    else:
        ref = item.default_style or StyleRef(None, "generic")
        if style:
            ref = style_ref(view, item, style)
        layers = [(item, ref)]
    wms_map.draw_layers(view, call, painter, layers, scale)
    body = canvas.encode(fmt, fmt == "image/png")
    return Image(body, fmt)


def report(err: OwsError, call: Call) -> Report:
    """GeoWebCache's exception report (``OWSException``): OWS 1.1, ``text/xml``, the HTTP
    status by code."""
    return exceptions.gwc_report(err)


SERVICE = Service(
    "wmts",
    (V100,),
    (
        Operation("GetCapabilities", get_capabilities),
        Operation("GetTile", get_tile),
        Operation("GetFeatureInfo", get_feature_info),
    ),
    report,
    gwc=True,
)
