"""OWS common exception reports: the ``ows:ExceptionReport`` of OWS 1.0 (WFS 1.1.0), OWS 1.1
(WFS 2.0.0, WCS 1.1.1, WMTS 1.0.0) and OWS 2.0 (WCS 2.0.1), and the status each answers with.

OWS 1.0/1.1 reports answer HTTP 200, except where GeoServer's ``OWS20ServiceExceptionHandler``
writes them (WFS 2.0.0, WCS 2.0.1, and GeoWebCache's WMTS): 400, 403, 404 or 500 by code.
A request whose service is not known gets the OWS 1.0 report. The WMS and WFS 1.0.0 reports
are their services' own (``wms/codec.py``, ``wfs/codec.py``).
"""

from __future__ import annotations

from .errors import (
    CURRENT_SEQUENCE,
    INVALID,
    INVALID_SEQUENCE,
    MISSING,
    NO_CODE,
    NOT_SUPPORTED,
    OwsError,
)
from .results import Report
from .writer import attr, text

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
    "emptyCoverageIdList": 404,
    "OperationProcessingFailed": 403,
    NO_CODE: 500,
}
_OWS11 = frozenset(
    {("wfs", "2.0"), ("wcs", "2.0"), ("wcs", "1.1"), ("wmts", "1.0"), ("ows", "1.1")}
)
_REPORT_VERSION = {("wcs", "1.1"): "1.1.0", ("ows", "1.1"): "1.1.0"}
"""reports of GeoServer's OWS 1.1 handler without the service's version (else 2.0.0)"""
_WITH_STATUS = frozenset({("wfs", "2.0"), ("wcs", "2.0"), ("wmts", "1.0")})


def code_attrs(err: OwsError) -> str:
    """`` code="…" locator="…"`` (each when set), as the OGC reports write them."""
    out = ""
    if err.code:
        out += f' code="{attr(err.code)}"'
    if err.locator:
        out += f' locator="{attr(err.locator)}"'
    return out


def report(err: OwsError, service: str, version: str, base: str) -> Report:
    """The OWS ``ExceptionReport`` of ``service`` ``version`` (``ows``/``1.0.0``: unknown)."""
    key = (service, version[:3])
    ows11 = key in _OWS11
    ns = "http://www.opengis.net/ows/1.1" if ows11 else "http://www.opengis.net/ows"
    schema = "ows/1.1.0/owsAll.xsd" if ows11 else "ows/1.0.0/owsExceptionReport.xsd"
    if key == ("wcs", "2.0"):
        ns, schema = "http://www.opengis.net/ows/2.0", "ows/2.0/owsAll.xsd"
    report_version = _REPORT_VERSION.get(key, "2.0.0") if ows11 else "1.0.0"
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
    status = _OWS20_STATUS.get(code, 400) if key in _WITH_STATUS else 200
    return Report(doc.encode("utf-8"), "application/xml", status)


GWC_STATUS = {**_OWS20_STATUS, "ServiceUnavailable": 503, "TileOutOfRange": 400}
"""the HTTP status of each code in GeoWebCache's reports (the rest: 400)"""


def gwc_report(err: OwsError) -> Report:
    """GeoWebCache's ``OWSException`` report (WMTS): OWS 1.1 in the default namespace,
    version 1.1.0, ``text/xml``, the HTTP status by code."""
    code = err.code or NO_CODE
    locator = f' locator="{attr(err.locator)}"' if err.locator else ""
    doc = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<ExceptionReport version="1.1.0" xmlns="http://www.opengis.net/ows/1.1"\n'
        '  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"\n'
        '  xsi:schemaLocation="http://www.opengis.net/ows/1.1 '
        'http://geowebcache.org/schema/ows/1.1.0/owsExceptionReport.xsd">\n'
        f'  <Exception exceptionCode="{attr(code)}"{locator}>\n'
        f"    <ExceptionText>{text(err.message)}</ExceptionText>\n"
        "  </Exception>\n</ExceptionReport>\n"
    )
    return Report(doc.encode("utf-8"), "text/xml", GWC_STATUS.get(code, 400))
