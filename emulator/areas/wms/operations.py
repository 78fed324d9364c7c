"""The WMS operations: each handler takes the caller's ``View`` and the ``Call``."""

from __future__ import annotations

from starlette.responses import Response

from ...wire.json import dumps
from ..catalog.entities import RASTER, Layer, LayerGroup
from ..ows import sources
from ..ows.errors import (
    CURRENT_SEQUENCE,
    INVALID,
    INVALID_FORMAT,
    INVALID_SEQUENCE,
    MISSING,
    OwsError,
)
from ..ows.kvp import Call
from ..ows.model import View
from ..ows.writer import XmlWriter
from . import capabilities as wms_capabilities
from . import legend
from . import maps as wms_map


def exception_version(call: Call) -> str:
    version = call.version or ""
    return "1.1.1" if version.startswith(("1.0", "1.1")) else "1.3.0"


JSON_EXCEPTIONS = ("application/json", "json")
IMAGE_EXCEPTIONS = {
    "inimage": "inimage",
    "application/vnd.ogc.se_inimage": "inimage",
    "blank": "blank",
    "application/vnd.ogc.se_blank": "blank",
}


def exception_in_format(err: OwsError, call: Call) -> Response | None:
    """The exception in the format ``EXCEPTIONS`` asks for, when it is not XML: GeoServer's
    JSON report, or (GetMap) an image of the map's size, blank or with the message drawn."""
    wanted = (call.get("EXCEPTIONS") or "").lower()
    if wanted in JSON_EXCEPTIONS:
        doc = {
            "version": exception_version(call),
            "exceptions": [
                {k: v for k, v in (("code", err.code), ("locator", err.locator)) if v}
                | {"text": err.message}
            ],
        }
        return Response(dumps(doc), 200, media_type="application/json")
    kind = IMAGE_EXCEPTIONS.get(wanted)
    if kind is None or call.request != "GetMap":
        return None
    from . import paint

    try:
        width = min(max(int(call.get("WIDTH") or 256), 1), 2048)
        height = min(max(int(call.get("HEIGHT") or 256), 1), 2048)
    except ValueError:
        width, height = 256, 256
    fmt = call.get("FORMAT") or "image/png"
    fmt = fmt if fmt in paint.FORMATS else "image/png"
    transparent = (call.get("TRANSPARENT") or "").lower() == "true"
    canvas = paint.Canvas(width, height, (255, 255, 255, 0 if transparent else 255))
    if kind == "inimage":
        canvas.text((2, 2), err.message)
    media = "image/png" if fmt.startswith("image/png") else fmt
    return Response(canvas.encode(fmt, transparent), 200, media_type=media)


def get_capabilities(view: View, call: Call) -> Response:
    settings = sources.service(view.state, sources.WMS, view.workspace)
    version = wms_capabilities.negotiate(call.version, list(settings.get("versions") or []))
    call.version = version
    _check_sequence(view, call)
    body = wms_capabilities.write(view, call, version)
    return Response(body, 200, media_type=wms_capabilities.content_type(version))


def _check_sequence(view: View, call: Call) -> None:
    asked = call.get("UPDATESEQUENCE")
    if asked is None or asked == "":
        return
    try:
        number = int(asked)
    except ValueError:
        raise OwsError(
            f"GetCapabilities request contains invalid updateSequence: {asked}",
            INVALID,
            "updateSequence",
        ) from None
    current = sources.update_sequence(view.state)
    if number > current:
        raise OwsError(
            "Client supplied an updateSequence that is greater than the current sever "
            "updateSequence",
            INVALID_SEQUENCE,
        )
    if number == current:
        raise OwsError(
            f"WMS capabilities document is current (updateSequence = {current})",
            CURRENT_SEQUENCE,
        )


def get_legend_graphic(view: View, call: Call) -> Response:
    entries, fmt = legend.request(view, call)
    if fmt == "application/json":
        return Response(dumps(legend.json_legend(entries)), 200, media_type="application/json")
    width = call.integer("WIDTH", 20) or 20
    height = call.integer("HEIGHT", 20) or 20
    if width <= 0 or height <= 0 or width > 2048 or height > 2048:
        raise OwsError(f"Invalid legend size {width}x{height}", INVALID, "width")
    transparent = (call.get("TRANSPARENT") or "").lower() == "true"
    options = _legend_options(call.get("LEGEND_OPTIONS") or "")
    force = options.get("forcelabels")
    force_labels = None if force is None else force.lower() in ("on", "true")
    body = legend.image(entries, width, height, fmt, transparent, force_labels)
    return Response(body, 200, media_type=fmt)


def _legend_options(text: str) -> dict[str, str]:
    out = {}
    for part in text.split(";"):
        key, sep, value = part.partition(":")
        if sep:
            out[key.strip().lower()] = value.strip()
    return out


DESCRIBE_LAYER_FORMATS = ("application/vnd.ogc.wms_xml", "text/xml", "application/json")


def describe_layer(view: View, call: Call) -> Response:
    names = [n for n in (call.get("LAYERS") or "").split(",") if n]
    if not names:
        raise OwsError("No LAYERS has been requested", MISSING, "layers")
    fmt = call.get("OUTPUTFORMAT") or "application/vnd.ogc.wms_xml"
    if fmt not in DESCRIBE_LAYER_FORMATS:
        raise OwsError(f"Invalid output format: {fmt}", INVALID_FORMAT, "outputFormat")
    layers: list[tuple[str, Layer]] = []
    for name in names:
        item = view.find(name, metadata=True)
        if isinstance(item, LayerGroup):
            layers.extend((view.name_of(m), m) for m in view.member_layers(item))
        else:
            layers.append((name, item))
    described = []
    for name, layer in layers:
        kind = "WCS" if layer.type == RASTER else "WFS"
        described.append((name, kind, f"{call.service_base}/{kind.lower()}?"))
    if fmt == "application/json":
        doc = {
            "version": "1.1.1",
            "layerDescriptions": [
                {"layerName": n, "owsURL": u, "owsType": k, "typeName": n} for n, k, u in described
            ],
        }
        return Response(dumps(doc), 200, media_type="application/json")
    dtd = f"{call.base}/schemas/wms/1.1.1/WMS_DescribeLayerResponse.dtd"
    w = XmlWriter(
        '<?xml version="1.0" encoding="UTF-8"?>'
        f'<!DOCTYPE WMS_DescribeLayerResponse SYSTEM "{dtd}">\n'
    )
    w.start("WMS_DescribeLayerResponse", [("version", "1.1.1")])
    for name, kind, url in described:
        attrs = [("name", name)]
        if kind == "WFS":
            attrs.append(("wfs", url))
        attrs += [("owsURL", url), ("owsType", kind)]
        w.start("LayerDescription", attrs)
        w.element("Query", None, [("typeName", name)])
        w.end("LayerDescription")
    w.end("WMS_DescribeLayerResponse")
    return Response(w.done(), 200, media_type="application/vnd.ogc.wms_xml;charset=UTF-8")


HANDLERS = {
    "GetCapabilities": get_capabilities,
    "GetLegendGraphic": get_legend_graphic,
    "DescribeLayer": describe_layer,
    "GetMap": wms_map.get_map,
    "GetFeatureInfo": wms_map.get_feature_info,
}
