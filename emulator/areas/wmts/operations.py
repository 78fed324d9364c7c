"""WMTS 1.0.0 at ``/gwc/service/wmts``: GetCapabilities from the tile layers and gridsets
of the seeding area, GetTile as an image of the gridset's tile size drawn like a WMS map,
and the RESTful tile URL the capabilities advertise."""

from __future__ import annotations

from ...core.record import replace
from ..catalog.entities import Layer, LayerGroup, StyleRef
from ..ows import exceptions, published, sources
from ..ows.dispatch import Operation, Service
from ..ows.errors import INVALID, MISSING, OwsError
from ..ows.kvp import Call
from ..ows.model import Published, View
from ..ows.results import Document, Image, Report
from ..seeding.gridsets import GridSet
from ..wms import maps as wms_map
from ..wms import paint, render, styles
from ..wms.legend import style_ref
from ..wms.symbolizers import rules
from . import capabilities
from . import dimensions as wmts_dimensions

V100 = "1.0.0"
INFO_FORMATS = capabilities.INFO_FORMATS


def tile_layers(view: View) -> list[tuple[str, Published]]:
    """(tile layer name, the catalog item) of the enabled tile layers the caller sees."""
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
        call.base,
        sources.service(view.state, sources.WMTS, view.workspace),
        sources.contact(view.state, view.workspace),
    )
    seeding = view.state.seeding
    entries = [_entry(view, name, item) for name, item in tile_layers(view)]
    return Document(capabilities.write(ctx, entries, seeding.gridsets), "text/xml")


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
    name = call.require("LAYER")
    fmt = call.require("FORMAT")
    matrix_set = call.require("TILEMATRIXSET")
    matrix = call.require("TILEMATRIX")
    row = call.integer("TILEROW")
    col = call.integer("TILECOL")
    if row is None or col is None:
        raise OwsError(
            "Missing TileRow or TileCol", MISSING, "TileRow" if row is None else "TileCol"
        )
    tile = view.state.seeding.tile_layers.get(name)
    visible = dict(tile_layers(view))
    if tile is None or name not in visible:
        if tile is not None:
            view.find(name, "LAYER")  # a challenge when hidden in MIXED/CHALLENGE mode
        raise OwsError(f"Unknown layer: {name}", INVALID, "LAYER")
    if not view.readable(visible[name]):
        view.find(name, "LAYER")  # listed in CHALLENGE mode, but reading it is a challenge
    if fmt not in tile.formats or fmt not in paint.FORMATS:
        raise OwsError(f"Unknown format: {fmt}", INVALID, "FORMAT")
    gs = view.state.seeding.gridsets.get(matrix_set)
    if gs is None or matrix_set not in tile.gridsets:
        raise OwsError(f"Unknown TILEMATRIXSET {matrix_set}", INVALID, "TILEMATRIXSET")
    z_text = matrix.rsplit(":", 1)[-1]
    if not z_text.isdigit() or int(z_text) >= gs.levels:
        raise OwsError(f"Unknown TILEMATRIX {matrix}", INVALID, "TILEMATRIX")
    z = int(z_text)
    if not 0 <= row < gs.tiles_high[z]:
        raise OwsError(
            f"Row {row} is out of range, min: 0 max:{gs.tiles_high[z] - 1}",
            "TileOutOfRange",
            "TILEROW",
        )
    if not 0 <= col < gs.tiles_wide[z]:
        raise OwsError(
            f"Column {col} is out of range, min: 0 max:{gs.tiles_wide[z] - 1}",
            "TileOutOfRange",
            "TILECOL",
        )
    return visible[name], gs, z, row, col, fmt, call.get("STYLE") or ""


def _dimension_call(view: View, call: Call) -> Call:
    """``call`` with ``TIME``/``ELEVATION`` as the tile layer's parameter filters pass them."""
    tile = view.state.seeding.tile_layers[call.require("LAYER")]
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
    canvas = paint.Canvas(width, height, (255, 255, 255, 0 if fmt == "image/png" else 255))
    painter = render.MapPainter(canvas, bbox, srs)
    scale = res * gs.meters_per_unit / gs.pixel_size
    layers: list[tuple[Layer, StyleRef]]
    if isinstance(item, LayerGroup):
        layers = [
            (m, m.default_style or StyleRef(None, "generic")) for m in view.member_layers(item)
        ]
    else:
        ref = item.default_style or StyleRef(None, "generic")
        if style and style not in (ref.name, ref.prefixed):
            ref = style_ref(view, item, style)
        layers = [(item, ref)]
    for layer, ref in layers:
        found = wms_map.layer_source(view, layer)
        geometry = found[1].schema.geometry if found is not None else None
        if found is None or geometry is None:
            continue
        ftype, source = found
        held = wms_map.map_features(view, ftype, source, call, bbox, srs)
        if held:
            rule_list = rules(styles.body(view.state, ref) or b"")
            painter.draw_layer(held, geometry, srs, rule_list, scale)
    body = canvas.encode(fmt, fmt == "image/png")
    return Image(body, fmt)


def report(err: OwsError, call: Call) -> Report:
    """GeoWebCache's OWS 1.1 exception report (HTTP status by code)."""
    return exceptions.report(err, "wmts", err.version or V100, call.base)


TILE = ("LAYER", "FORMAT", "TILEMATRIXSET", "TILEMATRIX")
SERVICE = Service(
    "wmts",
    (V100,),
    (
        Operation("GetCapabilities", get_capabilities),
        Operation("GetTile", get_tile, required=TILE),
        Operation("GetFeatureInfo", get_feature_info, required=("LAYER", *TILE[2:])),
    ),
    report,
)
