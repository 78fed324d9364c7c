"""Content negotiation: which format a response is written in, which one a body is in.

Formats are short names (``xml``, ``json``, ``html``, ``sld``, ``zip``, ``css``, ``text``).
A path extension wins; then the ``Accept`` header (werkzeug's ``MIMEAccept``); with neither,
the endpoint's own default (each GeoServer controller has one that clients rely on).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from werkzeug.datastructures import MIMEAccept
from werkzeug.http import parse_accept_header, parse_options_header

from ..core.errors import NotAcceptable, UnsupportedMediaType

MEDIA_TYPES: dict[str, tuple[str, ...]] = {
    "xml": ("application/xml", "text/xml"),
    "json": ("application/json", "text/json"),
    "html": ("text/html",),
    "sld": ("application/vnd.ogc.sld+xml",),
    "se": ("application/vnd.ogc.se+xml",),
    "zip": ("application/zip", "application/x-zip-compressed"),
    "css": ("application/vnd.geoserver.geocss+css", "application/vnd.service.geocss+css"),
    "text": ("text/plain",),
    "form": ("application/x-www-form-urlencoded",),
    "atom": ("application/atom+xml",),
}

EXTENSIONS = frozenset(MEDIA_TYPES) - {"text", "form", "atom", "se"}


def media_type(fmt: str) -> str:
    """The canonical media type a response in ``fmt`` is labelled with."""
    return MEDIA_TYPES[fmt][0]


def format_of_media_type(value: str | None, vendor_aliases: Mapping[str, str] | None = None) -> str | None:
    if not value:
        return None
    mime, _ = parse_options_header(value)
    mime = mime.lower()
    for fmt, types in MEDIA_TYPES.items():
        if mime in types:
            return fmt
    return None


def split_ext(name: str, allowed: Sequence[str] = ("xml", "json", "html")) -> tuple[str, str | None]:
    """``"topp.xml"`` → ``("topp", "xml")``; a name without a known extension is kept whole."""
    base, dot, ext = name.rpartition(".")
    if dot and base and ext.lower() in allowed:
        return base, ext.lower()
    return name, None


def response_format(
    accept: str | None, ext: str | None, offered: Sequence[str], default: str
) -> str:
    """Pick the response format, or raise ``NotAcceptable``."""
    if ext is not None:
        if ext not in offered:
            raise NotAcceptable(f"Format {ext} is not supported here; use one of {', '.join(offered)}")
        return ext
    if not accept or not accept.strip():
        return default
    parsed = parse_accept_header(accept, MIMEAccept)
    candidates: list[str] = []
    by_mime: dict[str, str] = {}
    for fmt in ([default] if default in offered else []) + [f for f in offered if f != default]:
        for mime in MEDIA_TYPES[fmt]:
            candidates.append(mime)
            by_mime[mime] = fmt
    best = parsed.best_match(candidates)
    if best is None:
        raise NotAcceptable(f"Cannot produce any of: {accept}; available: {', '.join(candidates)}")
    return by_mime[best]


def body_format(content_type: str | None, accepted: Sequence[str]) -> str:
    """The format of a request body, or raise ``UnsupportedMediaType``."""
    fmt = format_of_media_type(content_type)
    if fmt is None or fmt not in accepted:
        wanted = ", ".join(m for f in accepted for m in MEDIA_TYPES[f])
        raise UnsupportedMediaType(
            f"Content type {content_type or '(none)'} is not supported; use one of {wanted}"
        )
    return fmt
