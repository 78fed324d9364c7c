"""The media types each OGC API Features resource is written in, and the one a request gets
(the ``f`` parameter, else ``Accept``, else the resource's default: the first of its list).

``f`` takes a media type (``application/geo+json``, ``text/html``…, compared without case or
blanks) or a short name (``json``, ``html``, ``yaml``). A format the resource is not written
in is a 406. Pure logic; werkzeug reads an ``Accept`` header of more than one type.
"""

from __future__ import annotations

from .errors import ApiError

GEOJSON = "application/geo+json"
JSON = "application/json"
YAML = "application/yaml"
HTML = "text/html"
SCHEMA = "application/schema+json"
OPENAPI = "application/vnd.oai.openapi+json;version=3.0"
GML32 = "application/gml+xml;version=3.2"
GML31 = "text/xml;subtype=gml/3.1.1"
GML2 = "text/xml;subtype=gml/2.1.2"

DOCUMENT = (JSON, YAML, HTML)
"""the landing page, conformance, collections, a collection, the functions"""
API = (OPENAPI, YAML, HTML)
QUERYABLES = (SCHEMA, YAML, HTML)
ITEMS = (GEOJSON, JSON, GML32, GML31, GML2, HTML)
"""features and one feature: RFC 7946 GeoJSON, GeoServer's WFS GeoJSON, the WFS GML output
formats, HTML"""

SHORT = {"json": JSON, "html": HTML, "yaml": YAML}


def _plain(media_type: str) -> str:
    return "".join(media_type.split()).lower()


def chosen(f: str | None, accept: str | None, offered: tuple[str, ...]) -> str:
    """The media type of the answer, from ``offered`` (its first is the default)."""
    if f is not None and f.strip():
        wanted = SHORT.get(f.strip().lower(), _plain(f))
        for media_type in offered:
            if _plain(media_type) == wanted:
                return media_type
        raise ApiError(
            "InvalidParameterValue",
            f"Unsupported format {f}, supported formats are: {', '.join(offered)}",
            406,
        )
    if not accept or not accept.strip() or accept.strip() == "*/*":
        return offered[0]
    return _accepted(accept, offered)


def _accepted(accept: str, offered: tuple[str, ...]) -> str:
    by_base: dict[str, str] = {}
    for media_type in offered:
        by_base.setdefault(media_type.split(";", 1)[0], media_type)
    from werkzeug.datastructures import MIMEAccept
    from werkzeug.http import parse_accept_header

    best = parse_accept_header(accept, MIMEAccept).best_match(list(by_base))
    if not best:
        raise ApiError(
            "NoApplicableCode",
            f"Cannot produce any of {accept}; available: {', '.join(offered)}",
            406,
        )
    return by_base[best]
