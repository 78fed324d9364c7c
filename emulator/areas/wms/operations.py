"""The WMS operations: each handler takes the caller's ``View`` and the ``Call`` and returns
its result; ``SERVICE`` is the service's table of operations (``ows/dispatch.py``)."""

from __future__ import annotations

from ...wire.json import dumps
from ..catalog.entities import RASTER, Layer, LayerGroup
from ..ows import sources
from ..ows.dispatch import NOT_EMULATED, Operation, Service
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
from ..ows.results import Document, Image
from . import capabilities as wms_capabilities
from . import codec, legend
from . import maps as wms_map


def get_capabilities(view: View, call: Call) -> Document:
    settings = sources.service(view.state, sources.WMS, view.workspace)
    enabled = list(settings.get("versions") or [])
    asked = call.get("VERSION") or call.get("WMTVER")
    if not asked:  # OWS negotiation: the first of AcceptVersions WMS has (dispatch checked)
        listed = (call.get("ACCEPTVERSIONS") or "").split(",")
        asked = next((v for v in listed if v in wms_capabilities.VERSIONS), None)
    version = wms_capabilities.negotiate(asked, enabled)
    call.version = version
    media = wms_capabilities.content_type(version, call.get("FORMAT"))
    _check_sequence(view, call)
    body = wms_capabilities.write(view, call, version)
    return Document(body, media, wms_capabilities.filename(version))


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


def get_legend_graphic(view: View, call: Call) -> Document | Image:
    entries, fmt = legend.request(view, call)
    if fmt == "application/json":
        return Document(dumps(legend.json_legend(entries)), "application/json")
    width = call.integer("WIDTH", 20) or 20
    height = call.integer("HEIGHT", 20) or 20
    if width <= 0 or height <= 0 or width > 2048 or height > 2048:
        raise OwsError(f"Invalid legend size {width}x{height}", INVALID, "width")
    transparent = (call.get("TRANSPARENT") or "").lower() == "true"
    options = _legend_options(call.get("LEGEND_OPTIONS") or "")
    force = options.get("forcelabels")
    force_labels = None if force is None else force.lower() in ("on", "true")
    body = legend.image(entries, width, height, fmt, transparent, force_labels)
    return Image(body, fmt)


def _legend_options(text: str) -> dict[str, str]:
    out = {}
    for part in text.split(";"):
        key, sep, value = part.partition(":")
        if sep:
            out[key.strip().lower()] = value.strip()
    return out


DESCRIBE_LAYER_FORMATS = ("application/vnd.ogc.wms_xml", "text/xml", "application/json")


def describe_layer(view: View, call: Call) -> Document:
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
        charset = sources.global_settings(view.state, view.workspace).get("charset")
        return codec.describe_layer_json(described, str(charset or "UTF-8"))
    return codec.describe_layer_xml(described, call.base)


V111, V130 = wms_capabilities.VERSIONS
SERVICE = Service(
    "wms",
    wms_capabilities.VERSIONS,
    (
        Operation("GetCapabilities", get_capabilities),
        Operation("GetMap", wms_map.get_map),
        Operation("GetFeatureInfo", wms_map.get_feature_info),
        Operation("DescribeLayer", describe_layer),
        Operation("GetLegendGraphic", get_legend_graphic),
        Operation("GetStyles", None, versions=(V111,), support=NOT_EMULATED),
        Operation(
            "Capabilities",
            None,
            support=NOT_EMULATED,
            note="WMS 1.0's name of GetCapabilities",
        ),
        Operation("Map", None, support=NOT_EMULATED, note="WMS 1.0's name of GetMap"),
        Operation(
            "reflect",
            None,
            support=NOT_EMULATED,
            note="the WMS reflector (`wms/reflect`): a GetMap with defaults filled in",
        ),
        Operation(
            "kml",
            None,
            support=NOT_EMULATED,
            note="the KML reflector: GeoServer's KML extension",
        ),
    ),
    codec.report,
)
