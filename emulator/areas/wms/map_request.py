"""A GetMap request as GeoServer reads and checks it, in GeoServer's order and words: the
key-value parsers (``WIDTH``/``HEIGHT`` as Java integers, ``BBOX`` by ``BBoxKvpParser``),
``GetMapKvpRequestReader`` (the CRS, ``LAYERS``, ``STYLES``), then ``GetMap``'s
``assertMandatory`` (size, layers, format, bounding box) and its output format lookup.
GetFeatureInfo reads the map part of its request with the same reader (``read``), without
``assertMandatory``; WMTS builds a ``MapRequest`` of its own.

A parameter the key-value parsers refuse fails as GeoServer's dispatcher reports the Java
exception they throw: no code, no locator, the exception's message.
"""

from __future__ import annotations

from ...core.record import record
from ...crs import names as crs_names
from ...wire.geoserver.java import double_text, parse_double, parse_int
from ..catalog.entities import Layer, LayerGroup, StyleRef
from ..ows import crs, dimensions, sources
from ..ows.errors import (
    INVALID_CRS,
    INVALID_FORMAT,
    INVALID_SRS,
    LAYER_NOT_DEFINED,
    STYLE_NOT_DEFINED,
    OwsError,
)
from ..ows.kvp import Call
from ..ows.model import Published, View
from . import map_formats, paint
from .legend import style_ref

GETMAP_READER = "org.geoserver.wms.map.GetMapKvpRequestReader"
"""the code GeoServer's reader gives its own refusals (its class name)"""
FEATURE_INFO_READER = (
    "org.geoserver.wms.featureinfo.GetFeatureInfoKvpReader$GetFeatureInfoKvpRequestReader"
)
MAX_SIDE = 8192
"""the largest width or height drawn (GeoServer is bounded by ``maxRequestMemory``)"""
DEFAULT_CRS = "EPSG:4326"
"""the CRS of a request that names none: GeoServer draws it in WGS84, longitude first"""


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
    crs: crs_names.Ref | None = None
    """the CRS as the request named it (its spelling's axis order); ``srs`` is its id"""


def version_of(call: Call) -> str:
    version = call.version or "1.3.0"
    return "1.1.1" if version.startswith(("1.0", "1.1")) else "1.3.0"


def java_error(java: str, message: str) -> OwsError:
    """An unexpected Java exception as GeoServer reports it: no code, the exception's
    ``toString`` then its message."""
    return OwsError(f"{java}: {message}\n{message}")


def check_dimension_values(call: Call) -> None:
    """GeoServer parses ``TIME`` and ``ELEVATION`` before it reads the request: a value its
    parsers refuse fails the request as the Java exception does."""
    checks = (
        ("TIME", dimensions.time_error, "java.text.ParseException"),
        ("ELEVATION", dimensions.elevation_error, "java.lang.NumberFormatException"),
    )
    for key, check, java in checks:
        value = call.get(key)
        message = check(value) if value else None
        if message:
            raise java_error(java, message)


def java_integer(call: Call, key: str) -> int | None:
    """``IntegerKvpParser``: None when absent, else ``Integer.valueOf`` of the trimmed
    value (a ``NumberFormatException`` otherwise)."""
    value = call.get(key)
    if value is None:
        return None
    text = value.strip()
    try:
        return parse_int(text)
    except ValueError:
        raise OwsError(f'For input string: "{text}"') from None


def read_bbox(call: Call) -> tuple[float, float, float, float] | None:
    """``BBoxKvpParser``: None when absent; four (or six, 3D) numbers, each min not above its
    max. A coordinate that is not a finite number is refused (GeoServer would draw nothing
    sensible of NaN or an infinity; ``docs/fidelity.md``)."""
    text = call.get("BBOX")
    if text is None:
        return None
    parts = text.strip().split(",") if text.strip() else []
    if len(parts) < 4:
        raise OwsError(
            "Requested bounding box contains wrong number of coordinates (should have 4): "
            f"{len(parts)}"
        )
    count = 6 if len(parts) in (6, 7) else 4
    numbers = []
    for i, part in enumerate(parts[:count]):
        try:
            value = parse_double(part)
        except ValueError:
            value = float("nan")
        if value != value or value in (float("inf"), float("-inf")):
            raise OwsError(f"Bounding box coordinate {i} is not parsable:{part}")
        numbers.append(value)
    low, high = (numbers[:2], numbers[3:5]) if count == 6 else (numbers[:2], numbers[2:4])
    for axis, lo, hi in (("X", low[0], high[0]), ("Y", low[1], high[1])):
        if lo > hi:
            raise OwsError(
                f"illegal bbox, min{axis}: {double_text(lo)} is greater than "
                f"max{axis}: {double_text(hi)}"
            )
    return low[0], low[1], high[0], high[1]


def read_srs(call: Call, version: str) -> crs_names.Ref | None:
    """The CRS the request names (``CRS`` before ``SRS``), decoded as GeoServer decodes it
    (1.3.0 reads ``EPSG:n`` in the EPSG database's axis order); None when it names none.
    ``InvalidSRS`` (1.1.1) / ``InvalidCRS`` (1.3.0) otherwise."""
    key = "CRS" if call.get("CRS") is not None else "SRS"
    text = call.get(key)
    if text is None:
        return None
    code = INVALID_CRS if version == "1.3.0" else INVALID_SRS
    return crs.decode(
        text, code, key.lower(), "Error occurred decoding the espg code {}", version != "1.3.0"
    )


def read_layers(view: View, call: Call, reader: str) -> list[Published] | None:
    """The layers and groups ``LAYERS`` names (None when absent): ``KvpUtils.readFlat`` of
    it, each looked up as a layer, then a group that may be requested (not a ``CONTAINER``).
    An empty list (or ``*``) is the reader's own refusal."""
    raw = call.get("LAYERS")
    if raw is None:
        return None
    if not raw.strip() or raw == "*":
        raise OwsError("No LAYERS has been requested", reader)
    found: list[Published] = []
    for name in raw.split(","):
        item = view.find(name, "layers")
        if isinstance(item, LayerGroup) and item.mode == "CONTAINER":
            raise OwsError(f"Could not find layer {name}", LAYER_NOT_DEFINED, "layers")
        found.append(item)
    return found


def styled(view: View, call: Call, items: list[Published]) -> list[tuple[Layer, StyleRef]]:
    """Each layer (groups expanded) with the style ``STYLES`` names for it, else its
    default (a group's own styles for its members)."""
    style_text = call.get("STYLES")
    style_names = style_text.split(",") if style_text else []
    if style_names and len(style_names) != len(items):
        raise OwsError(
            f"Number of styles ({len(style_names)}) doesn't match number of layers ({len(items)})",
            STYLE_NOT_DEFINED,
            "styles",
        )
    pairs: list[tuple[Layer, StyleRef]] = []
    for i, item in enumerate(items):
        style = style_names[i] if i < len(style_names) else ""
        if isinstance(item, LayerGroup):
            members = list(view.member_layers(item))
            group_styles = list(item.styles) + [None] * len(members)
            for j, layer in enumerate(members):
                ref = group_styles[j] or layer.default_style or StyleRef(None, "generic")
                pairs.append((layer, ref))
            continue
        ref = item.default_style or StyleRef(None, "generic")
        if style:
            try:
                ref = style_ref(view, item, style)
            except OwsError:
                raise OwsError(f"No such style: {style}", STYLE_NOT_DEFINED) from None
        pairs.append((item, ref))
    return pairs


def read(
    view: View, call: Call, reader: str
) -> tuple[list[tuple[Layer, StyleRef]] | None, crs_names.Ref | None]:
    """What GetMap and GetFeatureInfo read alike, in GeoServer's order: the dimension and
    size parameters' parsers, the CRS, the layers and their styles. Returns the styled
    layers (None: no ``LAYERS``) and the CRS named (None: none, ``DEFAULT_CRS`` is drawn)."""
    check_dimension_values(call)
    java_integer(call, "WIDTH")
    java_integer(call, "HEIGHT")
    read_bbox(call)
    version = version_of(call)
    named = read_srs(call, version)
    items = read_layers(view, call, reader)
    return (None if items is None else styled(view, call, items)), named


def parse(view: View, call: Call) -> MapRequest:
    """A GetMap request, checked as GeoServer checks it."""
    pairs, named = read(view, call, GETMAP_READER)
    version = version_of(call)
    width = java_integer(call, "WIDTH") or 0
    height = java_integer(call, "HEIGHT") or 0
    check_size(width, height)
    if not pairs:
        raise OwsError("No layers have been requested", LAYER_NOT_DEFINED)
    fmt = call.get("FORMAT")
    if fmt is None:
        raise OwsError("No output map format requested", INVALID_FORMAT)
    bbox = request_box(call, named)
    fmt = output_format(fmt)
    check_memory(view, width, height)
    srs = DEFAULT_CRS if named is None else named.id
    return MapRequest(version, pairs, srs, bbox, width, height, fmt, *transparency(call), named)


def check_size(width: int, height: int) -> None:
    """``assertMandatory``'s first check: both sizes given and positive."""
    if width <= 0 or height <= 0:
        raise OwsError(
            "Missing or invalid requested map size. Parameters WIDTH and HEIGHT shall be "
            f"present and be integers > 0. Got WIDTH={width}, HEIGHT={height}",
            "MissingOrInvalidParameter",
        )


def request_box(call: Call, named: crs_names.Ref | None) -> tuple[float, float, float, float]:
    """``BBOX`` in the CRS's x/y order (north first where the CRS as named is: 1.3.0's
    ``EPSG:4326``, a URN; without a CRS, longitude first); ``MissingBBox`` and ``InvalidBBox``
    as ``assertMandatory`` words them."""
    box = read_bbox(call)
    if box is None:
        raise OwsError("GetMap requests must include a BBOX parameter.", "MissingBBox")
    minx, miny, maxx, maxy = box
    if minx >= maxx or miny >= maxy:
        shown = f"{double_text(minx)} : {double_text(maxx)}, {double_text(miny)} : "
        raise OwsError(
            f"The request bounding box has zero area: SRSEnvelope[{shown}{double_text(maxy)}]",
            "InvalidBBox",
        )
    if named is not None and crs.north_first(named):
        minx, miny, maxx, maxy = miny, minx, maxy, maxx
    return minx, miny, maxx, maxy


def output_format(fmt: str) -> str:
    """The map format GeoServer has an output format for, by any of its names."""
    if fmt == "image/png8":
        fmt = "image/png; mode=8bit"
    if fmt not in paint.FORMATS and fmt not in map_formats.FORMATS:
        raise OwsError(f"There is no support for creating maps in {fmt} format", INVALID_FORMAT)
    return fmt


def check_memory(view: View, width: int, height: int) -> None:
    """``maxRequestMemory`` of the WMS settings (and ``MAX_SIDE`` pixels a side)."""
    settings = sources.service(view.state, sources.WMS, view.workspace)
    limit_kb = int(settings.get("maxRequestMemory") or 0)
    used_kb = width * height * 4 // 1024
    if (limit_kb and used_kb > limit_kb) or width > MAX_SIDE or height > MAX_SIDE:
        raise OwsError(
            f"Rendering request would use {used_kb}KB, whilst the maximum memory allowed is "
            f"{limit_kb or MAX_SIDE * MAX_SIDE * 4 // 1024}KB",
            None,
        )


def transparency(call: Call) -> tuple[bool, tuple[int, int, int, int]]:
    """``TRANSPARENT`` and the background ``BGCOLOR`` gives (alpha 0 when transparent)."""
    transparent = (call.get("TRANSPARENT") or "").lower() == "true"
    bg = call.get("BGCOLOR") or "0xFFFFFF"
    try:
        rgb = int(bg.removeprefix("0x").removeprefix("0X").removeprefix("#"), 16)
    except ValueError:
        raise OwsError(f"Invalid BGCOLOR {bg}", "InvalidParameterValue", "bgcolor") from None
    return transparent, ((rgb >> 16) & 255, (rgb >> 8) & 255, rgb & 255, 0 if transparent else 255)


EXTENSIONS = {
    "image/png": "png",
    "image/png; mode=8bit": "png",
    "image/jpeg": "jpg",
    "image/gif": "gif",
    "image/tiff": "tif",
    "image/tiff8": "tif",
    "image/geotiff": "tif",
    "image/geotiff8": "tif",
}
"""the file extension of each drawn format's output format (the others add none)"""


def filename(call: Call, fmt: str) -> str | None:
    """GeoServer's ``WebMap`` file name: ``LAYERS`` as requested, commas as ``_`` and
    colons as ``-``, then the format's extension."""
    layers = (call.get("LAYERS") or "").strip()
    if not layers:
        return None
    name = layers.replace(",", "_").replace(":", "-")
    ext = EXTENSIONS.get(fmt)
    return f"{name}.{ext}" if ext else name
