"""Style formats: GeoServer's style handlers as data (format, version, extension, media type).

A style *record* names its ``format`` (``sld``, ``css``) and ``languageVersion``; a style
*body* travels with a media type. SLD has two versions, each with its own media type:
``application/vnd.ogc.sld+xml`` is SLD 1.0.0, ``application/vnd.ogc.se+xml`` is SLD 1.1.0
(Symbology Encoding). CSS (GeoServer's GeoCSS extension) is ``1.0.0`` and is accepted under
``application/vnd.geoserver.geocss+css`` and the spec's ``application/vnd.service.geocss+css``.
"""

from __future__ import annotations

from ...core.record import record

SLD, CSS = "sld", "css"
V10, V11 = "1.0.0", "1.1.0"

SLD_10_TYPE = "application/vnd.ogc.sld+xml"
SLD_11_TYPE = "application/vnd.ogc.se+xml"
CSS_TYPES = ("application/vnd.geoserver.geocss+css", "application/vnd.service.geocss+css")


@record(frozen=True)
class Handler:
    """One way of writing a style: its record format and version, file extension, media type."""

    format: str
    version: str
    extension: str
    media_type: str


SLD_10 = Handler(SLD, V10, "sld", SLD_10_TYPE)
SLD_11 = Handler(SLD, V11, "sld", SLD_11_TYPE)
CSS_10 = Handler(CSS, V10, "css", CSS_TYPES[0])

BY_MEDIA_TYPE: dict[str, Handler] = {
    SLD_10_TYPE: SLD_10,
    SLD_11_TYPE: SLD_11,
    **{t: CSS_10 for t in CSS_TYPES},
}

KNOWN_FORMATS = frozenset({SLD, CSS})


def handler_for_media_type(media_type: str | None) -> Handler | None:
    """The handler for a ``Content-Type`` (parameters such as ``charset`` ignored)."""
    if not media_type:
        return None
    mime = media_type.split(";", 1)[0].strip().lower()
    return BY_MEDIA_TYPE.get(mime)


def handler_for(fmt: str, version: str | None) -> Handler | None:
    """The handler that writes ``fmt`` in ``version`` (SLD without a version: 1.0.0)."""
    if fmt == SLD:
        return SLD_11 if version == V11 else SLD_10
    if fmt == CSS:
        return CSS_10
    return None


def charset_of(media_type: str | None) -> str:
    """The ``charset`` parameter of a ``Content-Type``, UTF-8 when absent."""
    for part in (media_type or "").split(";")[1:]:
        key, _, value = part.partition("=")
        if key.strip().lower() == "charset" and value.strip():
            return value.strip().strip('"')
    return "utf-8"
