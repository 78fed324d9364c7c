"""WMS GetMap and GetFeatureInfo: the request checked as GeoServer checks it, then the
features the emulator holds drawn (``render``) or queried at a pixel."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from ...core.errors import EmulatorError
from ...crs import geometries
from ...crs import names as crs_names
from ...crs.transform import between
from ...features.grids import grid_for
from ...features.model import Feature
from ...features.query import Bounds, Query
from ...features.resolver import source_for
from ...features.source import FeatureSource
from ..catalog.entities import Coverage, FeatureType, Layer, LayerGroup, StyleRef
from ..ows import dimensions, sources, viewparams
from ..ows.errors import INVALID_FORMAT, LAYER_NOT_DEFINED, NOT_SUPPORTED, OwsError
from ..ows.kvp import Call
from ..ows.model import View
from ..ows.results import Document, Image
from . import feature_info as feature_info_codec
from . import map_formats, map_request, paint, render, styles
from .symbolizers import rules

FEATURE_INFO_FORMATS = (
    "text/plain",
    "application/vnd.ogc.gml",
    "text/xml",
    "application/vnd.ogc.gml/3.1.1",
    "text/xml; subtype=gml/3.1.1",
    "text/html",
    "application/json",
)
MapRequest = map_request.MapRequest


def layer_source(view: View, layer: Layer) -> tuple[FeatureType, FeatureSource] | None:
    """The feature type of a layer and the source of its data; None for a coverage or a
    feature type without data."""
    res = view.resource(layer)
    if not isinstance(res, FeatureType):
        return None
    source = source_for(view.state, res)
    return None if source is None else (res, source)


def data_srs(res: FeatureType, source: FeatureSource) -> str:
    """The CRS the layer's geometries are read in: the declared one, else the data's."""
    return res.srs or source.schema.srs


def held_features(
    view: View,
    res: FeatureType,
    source: FeatureSource,
    call: Call,
    bbox: Bounds | None = None,
    count: int | None = None,
    params: Mapping[str, str] | None = None,
) -> list[Feature]:
    """The features of a layer's data within ``bbox`` (in the data's CRS; None: all) that
    the request's ``TIME``/``ELEVATION`` (or the dimensions' default values) select, the
    first ``count`` of them (None: all); ``params``: the layer's ``viewparams``. The whole
    selection is one query, which a database source answers in SQL."""
    selection = dimensions.feature_filter(
        view.state, res, call.get("TIME"), call.get("ELEVATION"), call.instant()
    )
    query = Query(bbox=bbox, filter=selection, count=count, params=dict(params or {}))
    return list(source.read(query))


MAP_MARGIN = 1.0
"""how far around a map its features are read, in map widths and heights: a symbol or label
of a feature just outside the map may reach into it (GeoServer grows the area by the
style's estimated symbol size)"""


def map_area(bbox: tuple[float, float, float, float], srs: str, data_srs: str) -> Bounds | None:
    """The area a map of ``bbox`` (in ``srs``) reads, grown by ``MAP_MARGIN``, in the data's
    CRS (the grown outline transformed); None when it cannot be said (an unknown CRS, a box
    with no image in the data's CRS, numbers past a float's range)."""
    minx, miny, maxx, maxy = bbox
    dx, dy = abs(maxx - minx) * MAP_MARGIN, abs(maxy - miny) * MAP_MARGIN
    grown = (minx - dx, miny - dy, maxx + dx, maxy + dy)
    if not all(math.isfinite(v) for v in grown):
        return None
    try:
        t = between(srs, data_srs)
    except EmulatorError:
        return None
    out = t.bounds(grown) if not t.identity else grown
    if out is None and t.domain() is not None:
        out = t.domain()  # the map reaches past the data's CRS: read what the CRS can hold
    return out if out is not None and all(math.isfinite(v) for v in out) else None


def map_features(
    view: View,
    res: FeatureType,
    source: FeatureSource,
    call: Call,
    bbox: tuple[float, float, float, float],
    srs: str,
    params: Mapping[str, str] | None = None,
) -> list[Feature]:
    """The features of a layer a map of ``bbox`` in ``srs`` draws (``held_features`` of its
    area; ``params``: its ``viewparams``), their default geometries transformed into the
    map's CRS (``crs.geometries``); none when the data's CRS has no transformation into the
    map's."""
    geometry = source.schema.geometry
    data = data_srs(res, source)
    held = held_features(view, res, source, call, map_area(bbox, srs, data), params=params)
    if not held or geometry is None:
        return held
    try:
        t = between(data, srs)
    except EmulatorError:
        return []
    if t.identity:
        return held
    moved = geometries.transformed([f.properties.get(geometry) for f in held], t)
    return [
        Feature(f.fid, {**f.properties, geometry: g})
        for f, g in zip(held, moved, strict=True)
        if g is not None or f.properties.get(geometry) is None
    ]


def get_map(view: View, call: Call) -> Document | Image:
    req = map_request.parse(view, call)
    if req.format in map_formats.OPENLAYERS:
        page = map_formats.openlayers_page(
            f"{call.service_base}/wms",
            call.base,
            call.params,
            req.bbox,
            req.srs,
            (req.width, req.height),
        )
        return Document(page, "text/html", map_request.filename(call, req.format))
    canvas: paint.Canvas | map_formats.SvgCanvas
    if req.format in map_formats.SVG:
        canvas = map_formats.SvgCanvas(req.width, req.height, req.background)
    else:
        canvas = paint.Canvas.for_map(req.width, req.height, req.background)
    painter = render.MapPainter(canvas, req.bbox, req.srs, {"language": call.get("LANGUAGE")})
    scale = render.scale_denominator(req.bbox, req.width, req.srs)
    params = viewparams.per_layer(call.get("VIEWPARAMS"), len(req.layers), "layers")
    draw_layers(view, call, painter, req.layers, scale, params)
    name = map_request.filename(call, req.format)
    if isinstance(canvas, map_formats.SvgCanvas):
        return Image(canvas.encode(req.transparent), "image/svg+xml", name)
    if req.format in map_formats.FORMATS:
        body = map_formats.tiff(canvas.final(), req.format, req.transparent, req.bbox, req.srs)
        return Image(body, map_formats.media_type(req.format), name)
    body = canvas.encode(req.format, req.transparent)
    media = "image/png" if req.format.startswith("image/png") else req.format
    return Image(body, media, name)


def draw_layers(
    view: View,
    call: Call,
    painter: render.MapPainter,
    layers: list[tuple[Layer, StyleRef]],
    scale: float,
    params: Sequence[Mapping[str, str]] | None = None,
) -> None:
    """Draw each layer with its style (features, or a coverage's pixels), then the labels
    over all of them (GetMap, WMTS GetTile); ``params``: each layer's ``viewparams``."""
    bbox, srs = painter.bbox, painter.srs
    per_layer = params if params is not None else [{} for _ in layers]
    for (layer, ref), values in zip(layers, per_layer, strict=True):
        rule_list = rules(styles.body(view.state, ref) or b"")
        painter.graphics = graphics(view, ref)
        res = view.resource(layer)
        if isinstance(res, Coverage):
            grid = grid_for(view.state, res)
            if grid is not None:
                painter.draw_grid(grid, rule_list, scale)
            continue
        found = layer_source(view, layer)
        geometry = found[1].schema.geometry if found is not None else None
        if found is None or geometry is None:
            continue
        res, source = found
        held = map_features(view, res, source, call, bbox, srs, values)
        if held:
            painter.draw_layer(held, geometry, srs, rule_list, scale)
    painter.finish()


GRAPHIC_SIDE = 2048
"""the largest external graphic read (pixels a side)"""


def graphics(view: View, ref: StyleRef) -> render.Graphics:
    """What a style's external graphics read: a file beside the style in the data directory
    (a relative URL, as the stock styles' ``burg02.svg`` and ``grass_fill.png``), decoded by
    Pillow; None for anything else (a remote URL, an SVG, a file too large)."""
    folder = "styles" if ref.workspace is None else f"workspaces/{ref.workspace}/styles"
    seen: dict[str, Any] = {}

    def load(url: str) -> Any:
        if url in seen:
            return seen[url]
        seen[url] = None
        name = url.removeprefix("file:")
        if "://" in name or ".." in name.split("/") or name.startswith("/"):
            return None
        data = view.state.datadir.read(f"{folder}/{name}")
        if data is None:
            return None
        import io

        from PIL import Image as PILImage
        from PIL import UnidentifiedImageError

        try:
            image = PILImage.open(io.BytesIO(data))
            if max(image.size) > GRAPHIC_SIDE:
                return None
            seen[url] = image.convert("RGBA")
        except (UnidentifiedImageError, OSError, ValueError):
            return None
        return seen[url]

    return load


def get_feature_info(view: View, call: Call) -> Document:
    """GetFeatureInfo, read as GeoServer's ``GetFeatureInfoKvpReader`` reads it: the map
    part as GetMap's, then ``QUERY_LAYERS``, ``INFO_FORMAT``, ``FEATURE_COUNT`` and the
    pixel."""
    pairs, named = map_request.read(view, call, map_request.FEATURE_INFO_READER)
    version = map_request.version_of(call)
    names = _query_layers(view, call, version, [layer for layer, _ in pairs or []])
    fmt = call.get("INFO_FORMAT") or "text/plain"
    if fmt not in FEATURE_INFO_FORMATS:
        known = ", ".join(FEATURE_INFO_FORMATS)
        raise OwsError(
            f"Invalid format '{fmt}', supported formats are [{known}]",
            INVALID_FORMAT,
            "info_format",
        )
    try:
        count = int(call.get("FEATURE_COUNT") or "1")
    except ValueError:
        count = 1
    width = map_request.java_integer(call, "WIDTH") or 0
    height = map_request.java_integer(call, "HEIGHT") or 0
    i, j = _pixel(call, version, width, height)
    map_request.check_size(width, height)  # GeoServer fails further on, without a word
    bbox = map_request.request_box(call, named)
    srs = map_request.DEFAULT_CRS if named is None else named.id
    req = MapRequest(
        version, pairs or [], srs, bbox, width, height,
        "image/png", *map_request.transparency(call), named,
    )  # fmt: skip
    return feature_info(view, call, req, names, fmt, (i, j), max(count, 1))


def _query_layers(view: View, call: Call, version: str, drawn: list[Layer]) -> list[str]:
    """The queryable layers ``QUERY_LAYERS`` names (groups expanded), as GeoServer's reader
    finds them: each must exist, the layers that are not queryable are left out (none left
    is refused), and each must be one of the map's."""
    names = (
        [n for n in (call.get("QUERY_LAYERS") or "").split(",")] if call.get("QUERY_LAYERS") else []
    )
    found: list[Layer] = []
    for name in names:
        try:
            item = view.find(name, "query_layers")
        except OwsError:
            item = None
        if item is None or (isinstance(item, LayerGroup) and item.mode == "CONTAINER"):
            message = f"{name}: no such layer on this server"
            raise OwsError(message, LAYER_NOT_DEFINED, "GetFeatureInfoKvpParser")
        layers = list(view.member_layers(item)) if isinstance(item, LayerGroup) else [item]
        found += [layer for layer in layers if layer.queryable]
    if not found:
        code = "LayerNotQueryable" if version == "1.3.0" else NOT_SUPPORTED
        raise OwsError(
            "Either no layer was queryable, or no layers were specified using QUERY_LAYERS",
            code,
            "QUERY_LAYERS",
        )
    if any(layer not in drawn for layer in found):
        raise OwsError(
            "QUERY_LAYERS contains layers not cited in LAYERS. It should be a proper subset "
            "of those instead"
        )
    return [view.name_of(layer) for layer in found]


def _pixel(call: Call, version: str, width: int, height: int) -> tuple[int, int]:
    """``I``/``J`` (1.3.0; ``X``/``Y`` when neither is given) or ``X``/``Y`` (1.1.1), within
    the map (its very edge included, as GeoServer checks it)."""
    ikey, jkey = ("I", "J") if version == "1.3.0" else ("X", "Y")
    if ikey == "I" and call.get("I") is None and call.get("J") is None:
        if call.get("X") is not None and call.get("Y") is not None:
            ikey, jkey = "X", "Y"
    try:
        i = int((call.get(ikey) or "").strip(), 10)
        j = int((call.get(jkey) or "").strip(), 10)
    except ValueError:
        raise OwsError(f"{ikey} and {jkey} incorrectly specified", "InvalidPoint") from None
    if i < 0 or i > width or j < 0 or j > height:
        raise OwsError(f"{i}, {j} not in dimensions of image: {width}, {height}", "InvalidPoint")
    return i, j


def feature_info(
    view: View,
    call: Call,
    req: MapRequest,
    names: list[str],
    fmt: str,
    pixel: tuple[int, int],
    count: int,
) -> Document:
    """The features of ``names`` within 3 pixels of ``pixel`` of the map ``req``, in
    ``fmt`` (WMS GetFeatureInfo, and WMTS GetFeatureInfo on a tile)."""
    i, j = pixel
    minx, miny, maxx, maxy = req.bbox
    px = (maxx - minx) / req.width
    py = (maxy - miny) / req.height
    radius = 3
    settings = sources.service(view.state, sources.WMS, view.workspace)
    reproject = not settings.get("featuresReprojectionDisabled")
    found: list[tuple[FeatureType, str | None, list[Any]]] = []
    params = viewparams.per_layer(call.get("VIEWPARAMS"), len(req.layers), "layers")
    by_layer = {
        (lay.workspace, lay.name): p for (lay, _), p in zip(req.layers, params, strict=True)
    }
    for name in names:
        item = view.find(name, "query_layers")
        layers = list(view.member_layers(item)) if isinstance(item, LayerGroup) else [item]
        for layer in layers:
            if not layer.queryable:
                raise OwsError(
                    f"Layer {name} is not queryable", "LayerNotQueryable", "query_layers"
                )
            res = view.resource(layer)
            if not isinstance(res, FeatureType):
                continue
            source = source_for(view.state, res)
            geometry = source.schema.geometry if source is not None else None
            if source is None or geometry is None:
                found.append((res, geometry, []))
                continue
            pixels = (
                minx + (i - radius) * px,
                maxy - (j + radius + 1) * py,
                minx + (i + radius + 1) * px,
                maxy - (j - radius) * py,
            )
            values = by_layer.get((layer.workspace, layer.name))
            area = (req.srs, pixels)
            hits = _features_at(view, call, res, source, area, count, reproject, values)
            found.append((res, geometry, hits))
    decimals = int(sources.global_settings(view.state, view.workspace).get("numDecimals") or 8)
    crs_out = (req.crs or crs_names.read(req.srs)) if reproject else None
    return feature_info_codec.encode(view, call, found, fmt, decimals, crs_out)


def _features_at(
    view: View,
    call: Call,
    res: FeatureType,
    source: FeatureSource,
    area: tuple[str, tuple[float, float, float, float]],
    count: int,
    reproject: bool,
    params: Mapping[str, str] | None = None,
) -> list[Feature]:
    """The first ``count`` features of a layer within ``area`` (a CRS and a box in it), in
    the map's CRS when ``reproject`` (GeoServer's default; the WMS setting
    ``featuresReprojectionDisabled`` keeps them in the data's); ``params``: its
    ``viewparams``."""
    srs, pixels = area
    data = data_srs(res, source)
    try:
        t = between(srs, data)
    except EmulatorError:
        return []
    box = t.bounds(pixels, densify=2)
    if box is None:
        return []
    held = held_features(view, res, source, call, box, count, params)
    geometry = source.schema.geometry
    if not reproject or geometry is None or not held or t.identity:
        return held
    moved = geometries.transformed([f.properties.get(geometry) for f in held], between(data, srs))
    return [Feature(f.fid, {**f.properties, geometry: g}) for f, g in zip(held, moved, strict=True)]
