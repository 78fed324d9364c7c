"""Content negotiation: which format a response is written in, which one a body is in.

Formats are short names (``xml``, ``json``, ``html``, ``sld``, ``zip``, ``css``, ``text``).
A path extension wins; then the ``Accept`` header (werkzeug's ``MIMEAccept``); with neither,
the endpoint's own default (each GeoServer controller has one that clients rely on).

werkzeug is imported only for ``Accept`` headers that list more than one plain media type:
``*/*`` and a single type (what curl, httpx, requests and most clients send) are decided
here, which keeps werkzeug's import (a third of the package's) off the start-up path.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

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


def format_of_media_type(
    value: str | None, vendor_aliases: Mapping[str, str] | None = None
) -> str | None:
    if not value:
        return None
    mime = value.split(";", 1)[0].strip().lower()
    for fmt, types in MEDIA_TYPES.items():
        if mime in types:
            return fmt
    return None


def split_ext(
    name: str, allowed: Sequence[str] = ("xml", "json", "html")
) -> tuple[str, str | None]:
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
            raise NotAcceptable(
                f"Format {ext} is not supported here; use one of {', '.join(offered)}"
            )
        return ext
    if not accept or not accept.strip():
        return default
    candidates: list[str] = []
    by_mime: dict[str, str] = {}
    for fmt in ([default] if default in offered else []) + [f for f in offered if f != default]:
        for mime in MEDIA_TYPES[fmt]:
            candidates.append(mime)
            by_mime[mime] = fmt
    best = _simple_match(accept, candidates)
    if best is None:
        from werkzeug.datastructures import MIMEAccept
        from werkzeug.http import parse_accept_header

        best = parse_accept_header(accept, MIMEAccept).best_match(candidates)
    if not best:
        raise NotAcceptable(f"Cannot produce any of: {accept}; available: {', '.join(candidates)}")
    return by_mime[best]


def _simple_match(accept: str, candidates: Sequence[str]) -> str | None:
    """The answer for an ``Accept`` of one media type without parameters, ``""`` when that
    type matches no candidate; None when the header needs the full parser."""
    value = accept.strip().lower()
    if "," in value or ";" in value:
        return None
    if value == "*/*":
        return candidates[0]
    major, _, minor = value.partition("/")
    if minor == "*":
        return next((c for c in candidates if c.startswith(major + "/")), "")
    return value if value in candidates else ""


def body_format(content_type: str | None, accepted: Sequence[str]) -> str:
    """The format of a request body, or raise ``UnsupportedMediaType``."""
    fmt = format_of_media_type(content_type)
    if fmt is None or fmt not in accepted:
        wanted = ", ".join(m for f in accepted for m in MEDIA_TYPES[f])
        raise UnsupportedMediaType(
            f"Content type {content_type or '(none)'} is not supported; use one of {wanted}"
        )
    return fmt
