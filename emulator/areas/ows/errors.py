"""OGC service exceptions: GeoServer's codes, and the report each service version writes.

A WMS exception is answered with HTTP 200 (as GeoServer does): 1.1.1 as
``application/vnd.ogc.se_xml`` with its DTD, 1.3.0 as ``text/xml`` in the ``ogc`` namespace.
OWS 1.0/1.1 exception reports (WFS 1.1.0, WCS 1.1.1) are 200 too; WFS 2.0.0 and WCS 2.0.1
(OWS 1.1 with HTTP codes) answer 400, 403, 404 or 500 by code, as GeoServer's
``OWS20ServiceExceptionHandler`` does.
"""

from __future__ import annotations

from .writer import attr, text

MISSING = "MissingParameterValue"
INVALID = "InvalidParameterValue"
NOT_SUPPORTED = "OperationNotSupported"
LAYER_NOT_DEFINED = "LayerNotDefined"
STYLE_NOT_DEFINED = "StyleNotDefined"
INVALID_FORMAT = "InvalidFormat"
INVALID_SRS = "InvalidSRS"
INVALID_CRS = "InvalidCRS"
CURRENT_SEQUENCE = "CurrentUpdateSequence"
INVALID_SEQUENCE = "InvalidUpdateSequence"
NO_CODE = "NoApplicableCode"

_OWS20_STATUS = {
    MISSING: 400,
    INVALID: 400,
    NOT_SUPPORTED: 400,
    "OptionNotSupported": 400,
    "VersionNegotiationFailed": 400,
    INVALID_SEQUENCE: 400,
    CURRENT_SEQUENCE: 400,
    "NotFound": 404,
    "NoSuchCoverage": 404,
    "OperationProcessingFailed": 403,
    NO_CODE: 500,
}


class OwsError(Exception):
    """A service exception: message, code (None: GeoServer writes none) and locator."""

    def __init__(self, message: str, code: str | None = None, locator: str | None = None):
        super().__init__(message)
        self.message = message
        self.code = code
        self.locator = locator


class Denied(Exception):
    """Access refused by the security rules: 401 with a challenge for the anonymous caller,
    403 for one who logged in (Spring Security's answer, before any service runs)."""

    def __init__(self, anonymous: bool, message: str = "Access denied") -> None:
        super().__init__(message)
        self.anonymous = anonymous
        self.message = message


def _code_attrs(err: OwsError) -> str:
    out = ""
    if err.code:
        out += f' code="{attr(err.code)}"'
    if err.locator:
        out += f' locator="{attr(err.locator)}"'
    return out


def wms_report(err: OwsError, version: str, base: str) -> tuple[bytes, str]:
    """(body, content type) of a WMS ServiceExceptionReport for ``version``."""
    body = f"{_code_attrs(err)}>\n      {text(err.message)}\n</ServiceException>"
    if version == "1.1.1" or version.startswith("1.1") or version.startswith("1.0"):
        doc = (
            '<?xml version="1.0" encoding="UTF-8" standalone="no"?>'
            f'<!DOCTYPE ServiceExceptionReport SYSTEM "{base}/schemas/wms/1.1.1/'
            'WMS_exception_1_1_1.dtd"> <ServiceExceptionReport version="1.1.1" >'
            f"   <ServiceException{body}</ServiceExceptionReport>"
        )
        return doc.encode("utf-8"), "application/vnd.ogc.se_xml;charset=UTF-8"
    doc = (
        '<?xml version="1.0" encoding="UTF-8"?><ServiceExceptionReport version="1.3.0" '
        'xmlns="http://www.opengis.net/ogc" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
        'xsi:schemaLocation="http://www.opengis.net/ogc '
        f'{base}/schemas/wms/1.3.0/exceptions_1_3_0.xsd"> <ServiceException{body}'
        "</ServiceExceptionReport>"
    )
    return doc.encode("utf-8"), "text/xml;charset=UTF-8"


def ows_report(err: OwsError, service: str, version: str, base: str) -> tuple[bytes, str, int]:
    """(body, content type, status) of an OWS ExceptionReport (WFS, WCS 1.1+, WMTS)."""
    ows11 = (service, version[:3]) in {
        ("wfs", "2.0"),
        ("wcs", "2.0"),
        ("wcs", "1.1"),
        ("wmts", "1.0"),
    }
    ns = "http://www.opengis.net/ows/1.1" if ows11 else "http://www.opengis.net/ows"
    schema = "ows/1.1.0/owsAll.xsd" if ows11 else "ows/1.0.0/owsExceptionReport.xsd"
    if (service, version[:3]) == ("wcs", "2.0"):
        ns, schema = "http://www.opengis.net/ows/2.0", "ows/2.0/owsAll.xsd"
    report_version = "2.0.0" if ows11 else "1.0.0"
    if service == "wfs" and version.startswith("1.0"):
        return _wfs10_report(err, base)
    code = err.code or NO_CODE
    locator = f' locator="{attr(err.locator)}"' if err.locator else ""
    doc = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        f'<ows:ExceptionReport xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:ows="{ns}" '
        'xmlns:xlink="http://www.w3.org/1999/xlink" '
        f'version="{report_version}" xsi:schemaLocation="{ns} {base}/schemas/{schema}" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n'
        f'<ows:Exception exceptionCode="{attr(code)}"{locator}>\n'
        f"<ows:ExceptionText>{text(err.message)}</ows:ExceptionText>\n"
        "</ows:Exception>\n</ows:ExceptionReport>\n"
    )
    status = (
        _OWS20_STATUS.get(code, 400)
        if (service, version[:3]) in {("wfs", "2.0"), ("wcs", "2.0"), ("wmts", "1.0")}
        else 200
    )
    return doc.encode("utf-8"), "application/xml", status


def _wfs10_report(err: OwsError, base: str) -> tuple[bytes, str, int]:
    doc = (
        '<?xml version="1.0" ?>\n<ServiceExceptionReport\n   version="1.2.0"\n'
        '   xmlns="http://www.opengis.net/ogc"\n'
        '   xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"\n'
        '   xsi:schemaLocation="http://www.opengis.net/ogc '
        f'{base}/schemas/wfs/1.0.0/OGC-exception.xsd">\n'
        f"   <ServiceException{_code_attrs(err)}>\n{text(err.message)}\n"
        "</ServiceException></ServiceExceptionReport>"
    )
    return doc.encode("utf-8"), "text/xml", 200
