"""WMS GetMap and GetFeatureInfo: the request checked as GeoServer checks it, then the
features the emulator holds drawn (``render``) or queried at a pixel."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ...core.record import record
from ...features.model import Feature
from ...features.query import Bounds, Query
from ...features.resolver import source_for
from ...features.source import FeatureSource
from ..catalog.entities import FeatureType, Layer, LayerGroup, StyleRef
from ..ows import crs, dimensions, sources, viewparams
from ..ows.errors import (
    INVALID,
    INVALID_CRS,
    INVALID_FORMAT,
    INVALID_SRS,
    LAYER_NOT_DEFINED,
    MISSING,
    STYLE_NOT_DEFINED,
    OwsError,
)
from ..ows.kvp import Call, bbox_numbers
from ..ows.model import View
from ..ows.results import Document, Image
from . import feature_info as feature_info_codec
from . import map_formats, paint, render, styles
from .legend import style_ref
from .symbolizers import rules

MAX_SIDE = 8192
"""the largest width or height drawn (GeoServer is bounded by ``maxRequestMemory``)"""
FEATURE_INFO_FORMATS = (
    "text/plain",
    "application/vnd.ogc.gml",
    "text/xml",
    "application/vnd.ogc.gml/3.1.1",
    "text/xml; subtype=gml/3.1.1",
    "text/html",
    "application/json",
)


@record
class MapRequest:
    version: str
    layers: list[tuple[Layer, StyleRef]]
    srs: str
    bbox: tuple[float, float, float, float]
    """minx, miny, maxx, maxy in the CRS's x/y order"""
    width: int
    height: int
    format: str
    transparent: bool
    background: tuple[int, int, int, int]


def _version(call: Call) -> str:
    version = call.version or "1.3.0"
    return "1.1.1" if version.startswith(("1.0", "1.1")) else "1.3.0"


def check_dimension_values(call: Call) -> None:
    """GeoServer parses ``TIME`` and ``ELEVATION`` before it reads the request: a value its
    parsers refuse fails the request as the Java exception does, wrapped in a service
    exception with no code (the wrapper's text, then the cause's message)."""
    checks = (
        ("TIME", dimensions.time_error, "java.text.ParseException"),
        ("ELEVATION", dimensions.elevation_error, "java.lang.NumberFormatException"),
    )
    for key, check, java in checks:
        value = call.get(key)
        message = check(value) if value else None
        if message:
            raise OwsError(f"{java}: {message}\n{message}")


def parse(view: View, call: Call, for_info: bool = False) -> MapRequest:
    check_dimension_values(call)
    version = _version(call)
    names = [n for n in (call.get("LAYERS") or "").split(",")]
    if not any(names):
        raise OwsError("No layers have been requested", LAYER_NOT_DEFINED, "layers")
    style_text = call.get("STYLES")
    style_names = style_text.split(",") if style_text else []
    if style_names and len(style_names) != len(names):
        raise OwsError(
            f"Number of styles ({len(style_names)}) doesn't match number of layers ({len(names)})",
            STYLE_NOT_DEFINED,
            "styles",
        )
    pairs: list[tuple[Layer, StyleRef]] = []
    for i, name in enumerate(names):
        item = view.find(name, "layers")
        style = style_names[i] if i < len(style_names) else ""
        if isinstance(item, LayerGroup):
            members = list(view.member_layers(item))
            group_styles = list(item.styles) + [None] * len(members)
            for j, layer in enumerate(members):
                ref = group_styles[j] or layer.default_style or StyleRef(None, "generic")
                pairs.append((layer, ref))
        else:
            ref = item.default_style or StyleRef(None, "generic")
            if style:
                try:
                    ref = style_ref(view, item, style)
                except OwsError:
                    raise OwsError(f"No such style: {style}", STYLE_NOT_DEFINED, "styles") from None
            pairs.append((item, ref))
    key = "CRS" if version == "1.3.0" else "SRS"
    srs_text = call.get(key) or call.get("SRS") or call.get("CRS")
    code = INVALID_CRS if version == "1.3.0" else INVALID_SRS
    if not srs_text:
        raise OwsError(f"Missing {key} parameter", MISSING, key.lower())
    srs = crs.normalise(srs_text)
    if not crs.valid(srs):
        raise OwsError(f"Error occurred decoding the espg code {srs_text}", code, key.lower())
    bbox_text = call.get("BBOX")
    if not bbox_text:
        raise OwsError("Missing BBOX parameter", MISSING, "bbox")
    minx, miny, maxx, maxy = bbox_numbers(bbox_text)
    if version == "1.3.0" and crs.is_geographic(srs):
        minx, miny, maxx, maxy = miny, minx, maxy, maxx
    if minx >= maxx or miny >= maxy:
        raise OwsError("The request bounding box is either empty or invalid", INVALID, "bbox")
    width = call.integer("WIDTH")
    height = call.integer("HEIGHT")
    if width is None or height is None:
        raise OwsError(
            "Missing WIDTH or HEIGHT parameter", MISSING, "width" if width is None else "height"
        )
    if width <= 0 or height <= 0:
        raise OwsError(f"Invalid image size {width}x{height}", INVALID, "width")
    settings = sources.service(view.state, sources.WMS, view.workspace)
    limit_kb = int(settings.get("maxRequestMemory") or 0)
    used_kb = width * height * 4 // 1024
    if (limit_kb and used_kb > limit_kb) or width > MAX_SIDE or height > MAX_SIDE:
        raise OwsError(
            f"Rendering request would use {used_kb}KB, whilst the maximum memory allowed is "
            f"{limit_kb or MAX_SIDE * MAX_SIDE * 4 // 1024}KB",
            None,
        )
    fmt = call.get("FORMAT")
    if not for_info:
        if not fmt:
            raise OwsError("Missing FORMAT parameter", INVALID_FORMAT, "format")
        if fmt == "image/png8":
            fmt = "image/png; mode=8bit"
        if fmt not in paint.FORMATS and fmt not in map_formats.FORMATS:
            known = sorted({*paint.FORMATS, *map_formats.FORMATS})
            raise OwsError(
                f"Invalid format {fmt}, supported formats are {known}",
                INVALID_FORMAT,
                "format",
            )
    transparent = (call.get("TRANSPARENT") or "").lower() == "true"
    bg = call.get("BGCOLOR") or "0xFFFFFF"
    try:
        rgb = int(bg.removeprefix("0x").removeprefix("0X").removeprefix("#"), 16)
    except ValueError:
        raise OwsError(f"Invalid BGCOLOR {bg}", INVALID, "bgcolor") from None
    background = ((rgb >> 16) & 255, (rgb >> 8) & 255, rgb & 255, 0 if transparent else 255)
    return MapRequest(
        version,
        pairs,
        srs,
        (minx, miny, maxx, maxy),
        width,
        height,
        fmt or "image/png",
        transparent,
        background,
    )


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
    CRS; None when it cannot be said (the data's CRS is not one ``crs`` transforms into:
    nothing of it is drawn)."""
    to_data = crs.transform(srs, data_srs)
    minx, miny, maxx, maxy = bbox
    dx, dy = abs(maxx - minx) * MAP_MARGIN, abs(maxy - miny) * MAP_MARGIN
    if to_data is None:
        return None
    try:
        corners = [to_data(x, y) for x in (minx - dx, maxx + dx) for y in (miny - dy, maxy + dy)]
    except (OverflowError, ValueError):
        return None
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    out = (min(xs), min(ys), max(xs), max(ys))
    return out if all(math.isfinite(v) for v in out) else None


def get_map(view: View, call: Call) -> Document | Image:
    req = parse(view, call)
    if req.format in map_formats.OPENLAYERS:
        page = map_formats.openlayers_page(
            f"{call.service_base}/wms",
            call.base,
            call.params,
            req.bbox,
            req.srs,
            (req.width, req.height),
        )
        return Document(page, "text/html")
    canvas: paint.Canvas | map_formats.SvgCanvas
    if req.format in map_formats.SVG:
        canvas = map_formats.SvgCanvas(req.width, req.height, req.background)
    else:
        canvas = paint.Canvas(req.width, req.height, req.background)
    painter = render.MapPainter(canvas, req.bbox, req.srs)
    scale = render.scale_denominator(req.bbox, req.width, req.srs)
    params = viewparams.per_layer(call.get("VIEWPARAMS"), len(req.layers), "layers")
    for (layer, ref), values in zip(req.layers, params, strict=True):
        found = layer_source(view, layer)
        geometry = found[1].schema.geometry if found is not None else None
        if found is None or geometry is None:
            continue
        res, source = found
        srs = data_srs(res, source)
        area = map_area(req.bbox, req.srs, srs)
        held = held_features(view, res, source, call, area, params=values)
        if not held:
            continue
        rule_list = rules(styles.body(view.state, ref) or b"")
        painter.draw_layer(held, geometry, srs, rule_list, scale)
    if isinstance(canvas, map_formats.SvgCanvas):
        return Image(canvas.encode(req.transparent), "image/svg+xml")
    if req.format in map_formats.FORMATS:
        body = map_formats.tiff(canvas.image, req.format, req.transparent, req.bbox, req.srs)
        return Image(body, map_formats.media_type(req.format))
    body = canvas.encode(req.format, req.transparent)
    media = "image/png" if req.format.startswith("image/png") else req.format
    return Image(body, media)


def get_feature_info(view: View, call: Call) -> Document:
    req = parse(view, call, for_info=True)
    names = [n for n in (call.get("QUERY_LAYERS") or "").split(",") if n]
    if not names:
        raise OwsError("No QUERY_LAYERS has been requested", MISSING, "query_layers")
    fmt = call.get("INFO_FORMAT") or "text/plain"
    if fmt not in FEATURE_INFO_FORMATS:
        raise OwsError(
            f"Invalid format '{fmt}', supported formats are {list(FEATURE_INFO_FORMATS)}",
            INVALID_FORMAT,
            "info_format",
        )
    ikey, jkey = ("I", "J") if req.version == "1.3.0" else ("X", "Y")
    i, j = call.integer(ikey), call.integer(jkey)
    if i is None or j is None:
        raise OwsError(f"{ikey} and {jkey} incorrectly specified", "InvalidPoint", ikey.lower())
    if not (0 <= i < req.width and 0 <= j < req.height):
        raise OwsError(f"{ikey} and {jkey} incorrectly specified", "InvalidPoint", ikey.lower())
    count = call.integer("FEATURE_COUNT", 1) or 1
    return feature_info(view, call, req, names, fmt, (i, j), count)


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
            srs = data_srs(res, source) if source is not None else res.srs or "EPSG:4326"
            to_data = crs.transform(req.srs, srs)
            if source is None or geometry is None or to_data is None:
                found.append((res, geometry, []))
                continue
            x0, y0 = to_data(minx + (i - radius) * px, maxy - (j + radius + 1) * py)
            x1, y1 = to_data(minx + (i + radius + 1) * px, maxy - (j - radius) * py)
            box = (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
            values = by_layer.get((layer.workspace, layer.name))
            held = held_features(view, res, source, call, box, count, values)
            found.append((res, geometry, held))
    decimals = int(sources.global_settings(view.state, view.workspace).get("numDecimals") or 8)
    return feature_info_codec.encode(view, call, found, fmt, decimals)
