"""The WCS 1.1.1 GetCoverage answers: a ``multipart/related`` message (GeoServer's
``WCSMultipartResponse``: the ``wcs:Coverages`` document pointing at ``cid:theCoverage``,
then the coverage, base64) or, with ``store=true``, the ``wcs:Coverages`` document alone
pointing at the stored file (``WCSGetCoverageStoreResponse``)."""

from __future__ import annotations

import base64

from ..catalog.entities import Coverage
from ..ows.writer import XmlWriter

BOUNDARY = "----=_Part_0_1.1"
"""JavaMail makes the boundary of the time; the emulator's is fixed (deterministic)"""


def coverages_document(base: str, cov: Coverage, reference: str) -> bytes:
    w = XmlWriter()
    w.start(
        "wcs:Coverages",
        [
            ("xmlns:wcs", "http://www.opengis.net/wcs/1.1.1"),
            ("xmlns:xlink", "http://www.w3.org/1999/xlink"),
            ("xmlns:ogc", "http://www.opengis.net/ogc"),
            ("xmlns:ows", "http://www.opengis.net/ows/1.1"),
            ("xmlns:gml", "http://www.opengis.net/gml"),
            ("xmlns:xsi", "http://www.w3.org/2001/XMLSchema-instance"),
            ("xsi:schemaLocation", f"{base}/schemas/wcs/1.1.1/wcsCoverages.xsd"),
        ],
    )
    w.start("wcs:Coverage")
    w.element("ows:Title", cov.title)
    w.element("ows:Abstract", cov.description)
    w.element("ows:Identifier", f"{cov.workspace}:{cov.name}")
    w.element("ows:Reference", "", [("xlink:href", reference)])
    w.end("wcs:Coverage")
    w.end("wcs:Coverages")
    return w.done()


def message(base: str, cov: Coverage, data: bytes, mime: str) -> tuple[bytes, str]:
    """(body, content type) of the multipart answer."""
    crlf = "\r\n"
    encoded = base64.encodebytes(data).decode("ascii").replace("\n", crlf)
    xml = coverages_document(base, cov, "cid:theCoverage").decode("utf-8")
    parts = [
        "MIME-Version: 1.0",
        f'Content-Type: multipart/related; boundary="{BOUNDARY}"',
        "",
        f"--{BOUNDARY}",
        "Content-Type: text/xml",
        "Content-ID: <urn:ogc:wcs:1.1:coverages>",
        "",
        xml,
        f"--{BOUNDARY}",
        f"Content-Type: {mime}",
        "Content-Transfer-Encoding: base64",
        "Content-ID: <theCoverage>",
        "",
        encoded.rstrip(crlf),
        f"--{BOUNDARY}--",
        "",
    ]
    body = crlf.join(parts).encode("utf-8")
    return body, f'multipart/related; boundary="{BOUNDARY}"'
