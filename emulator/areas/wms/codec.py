"""The WMS wire formats that are not capabilities or images: the exception reports (XML
1.1.1 with its DTD, XML 1.3.0, GeoServer's JSON, an image for GetMap's ``INIMAGE`` and
``BLANK``) and the DescribeLayer answer (XML with its DTD, JSON).

Every WMS exception answers HTTP 200, as GeoServer does.
"""

from __future__ import annotations

from typing import Any

from ...wire.json import dumps
from ..ows.errors import OwsError
from ..ows.exceptions import code_attrs
from ..ows.kvp import Call
from ..ows.results import Document, Image, Report
from ..ows.writer import XmlWriter, text

JSON_EXCEPTIONS = ("application/json", "json")
IMAGE_EXCEPTIONS = {
    "inimage": "inimage",
    "application/vnd.ogc.se_inimage": "inimage",
    "blank": "blank",
    "application/vnd.ogc.se_blank": "blank",
}


def exception_version(version: str | None) -> str:
    """The report version of a call's version: 1.1.1 for 1.0 and 1.1, else 1.3.0."""
    return "1.1.1" if (version or "").startswith(("1.0", "1.1")) else "1.3.0"


def report(err: OwsError, call: Call) -> Report | Image:
    """The report ``EXCEPTIONS`` asks for: GeoServer's JSON, an image (GetMap), else XML."""
    version = exception_version(err.version)
    wanted = (call.get("EXCEPTIONS") or "").lower()
    if wanted in JSON_EXCEPTIONS:
        found = {k: v for k, v in (("code", err.code), ("locator", err.locator)) if v}
        doc = {"version": version, "exceptions": [found | {"text": err.message}]}
        return Report(dumps(doc), "application/json")
    kind = IMAGE_EXCEPTIONS.get(wanted)
    if kind is not None and call.request == "GetMap":
        return image_report(err, call, kind)
    return xml_report(err, version, call.base)


def xml_report(err: OwsError, version: str, base: str) -> Report:
    """The ``ServiceExceptionReport`` of ``version`` (1.1.1 with its DTD, or 1.3.0)."""
    body = f"{code_attrs(err)}>\n      {text(err.message)}\n</ServiceException>"
    if version == "1.1.1" or version.startswith("1.1") or version.startswith("1.0"):
        doc = (
            '<?xml version="1.0" encoding="UTF-8" standalone="no"?>'
            f'<!DOCTYPE ServiceExceptionReport SYSTEM "{base}/schemas/wms/1.1.1/'
            'WMS_exception_1_1_1.dtd"> <ServiceExceptionReport version="1.1.1" >'
            f"   <ServiceException{body}</ServiceExceptionReport>"
        )
        return Report(doc.encode("utf-8"), "application/vnd.ogc.se_xml;charset=UTF-8")
    doc = (
        '<?xml version="1.0" encoding="UTF-8"?><ServiceExceptionReport version="1.3.0" '
        'xmlns="http://www.opengis.net/ogc" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
        'xsi:schemaLocation="http://www.opengis.net/ogc '
        f'{base}/schemas/wms/1.3.0/exceptions_1_3_0.xsd"> <ServiceException{body}'
        "</ServiceExceptionReport>"
    )
    return Report(doc.encode("utf-8"), "text/xml;charset=UTF-8")


def image_report(err: OwsError, call: Call, kind: str) -> Image:
    """An image of the map's size: blank, or with the message drawn (``inimage``)."""
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
    return Image(canvas.encode(fmt, transparent), media)


# -- DescribeLayer -------------------------------------------------------------------------

Described = tuple[str, str, str]
"""(layer name, ``WFS`` or ``WCS``, the OWS URL that serves it)"""


def describe_layer_json(described: list[Described], charset: str = "UTF-8") -> Document:
    """GeoServer's JSON DescribeLayer, in the settings' charset (named in its media type)."""
    doc: dict[str, Any] = {
        "version": "1.1.1",
        "layerDescriptions": [
            {"layerName": n, "owsURL": u, "owsType": k, "typeName": n} for n, k, u in described
        ],
    }
    body = dumps(doc)
    try:
        body = body.decode("utf-8").encode(charset, "replace")
    except LookupError:  # a charset Python does not know: GeoServer's default
        charset = "UTF-8"
    return Document(body, f"application/json;charset={charset}")


def describe_layer_xml(described: list[Described], base: str) -> Document:
    dtd = f"{base}/schemas/wms/1.1.1/WMS_DescribeLayerResponse.dtd"
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
    return Document(w.done(), "application/vnd.ogc.wms_xml;charset=UTF-8")
