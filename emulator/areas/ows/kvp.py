"""An OGC service call as parsed from its key-value pairs (keys are case-insensitive)."""

from __future__ import annotations

import datetime
import functools
import math
import re
from collections.abc import Iterable
from typing import Any
from urllib.parse import quote_plus

from ...core.record import field, record
from .errors import INVALID, MISSING, OwsError


@record
class Call:
    base: str
    """``scheme://host[:port]/context``"""
    service_base: str
    """the base of this service's URLs: ``base``, ``base/ws`` or ``base/ws/layer``"""
    service: str
    """lower case: ``wms``, ``wfs``, ``wcs`` or ``wmts``"""
    request: str
    version: str | None = None
    params: dict[str, str] = field(default_factory=dict)
    """upper-cased keys; the first value of a repeated key"""
    workspace: str | None = None
    document: Any = None
    """a POSTed XML request's parsed root (WFS Transaction reads it), None for KVP"""
    now: str = "1970-01-01T00:00:00.000Z"
    """the emulator clock's instant, ISO 8601 in UTC (WFS ``timeStamp``)"""
    url: str = ""
    """the request's URL, as an exception message quotes it"""
    pairs: list[tuple[str, str]] = field(default_factory=list)
    """every key-value pair of the query, in order (for keys that may repeat: WCS 2.0
    ``subset``)"""

    def values(self, key: str) -> list[str]:
        """Every value of ``key`` (any case), in order."""
        wanted = key.upper()
        return [v for k, v in self.pairs if k.upper() == wanted]

    def instant(self) -> datetime.datetime:
        """``now`` as an aware datetime (the epoch when it does not parse)."""
        try:
            found = datetime.datetime.fromisoformat(self.now.replace("Z", "+00:00"))
        except ValueError:
            return datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)
        return found if found.tzinfo else found.replace(tzinfo=datetime.UTC)

    def absolute(self, href: str) -> str:
        """A link relative to the server (``/...``) made absolute, as GeoServer proxifies
        it; any other link as it is."""
        return f"{self.base}{href}" if href.startswith("/") else href

    def language(self) -> str | None:
        """The language GeoServer's ``LanguageURLMangler`` carries into the service URLs of
        the answer: ``Language``, else the first of ``AcceptLanguages``; None for neither."""
        value = (self.get("LANGUAGE") or "").strip()
        if value:
            return value
        first = re.split(r"[\s,]+", self.get("ACCEPTLANGUAGES") or "")[0]
        return first or None

    def service_url(self, path: str, params: Iterable[tuple[str, str]] = ()) -> str:
        """A URL of this virtual service (``service_base/path?k=v...``) as GeoServer builds
        one of type ``SERVICE``: the requested language added (``language``)."""
        found = list(params)
        lang = self.language()
        if lang is not None:
            found = [(k, v) for k, v in found if k != "Language"] + [("Language", lang)]
        return url(self.service_base, path, found)

    def get(self, key: str, default: str | None = None) -> str | None:
        return self.params.get(key.upper(), default)

    def require(self, key: str) -> str:
        value = self.params.get(key.upper())
        if value is None or value == "":
            raise OwsError(f"Missing {key} parameter", MISSING, key.lower())
        return value

    def integer(self, key: str, default: int | None = None) -> int | None:
        value = self.get(key)
        if value is None or value == "":
            return default
        try:
            return int(value)
        except ValueError:
            raise OwsError(f"Invalid value for {key}: {value}", INVALID, key.lower()) from None


def bbox_numbers(text: str) -> tuple[float, float, float, float]:
    """The four numbers a ``BBOX`` value starts with (a CRS after them is the caller's);
    ``InvalidParameterValue`` when they do not parse or one is NaN or infinite."""
    try:
        numbers = [float(p) for p in text.split(",")[:4]]
    except ValueError:
        numbers = []
    if len(numbers) != 4 or not all(math.isfinite(v) for v in numbers):
        raise OwsError(f"Could not parse BBOX {text}", INVALID, "bbox")
    return numbers[0], numbers[1], numbers[2], numbers[3]


def upper_keys(pairs: Iterable[tuple[str, str]]) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in pairs:
        out.setdefault(key.upper(), value)
    return out


@functools.lru_cache(maxsize=4096)
def _encoded(text: str) -> str:
    """``text`` as Java's ``URLEncoder`` writes it (the same few keys and values come back
    in every link of a capabilities document: encoded once)."""
    return quote_plus(text, safe="*")


def url(base: str, path: str, params: Iterable[tuple[str, str]]) -> str:
    """``base/path?k=v&...`` with keys and values encoded as Java's ``URLEncoder`` does."""
    query = "&".join(f"{_encoded(k)}={_encoded(v)}" for k, v in params)
    return f"{base}/{path}?{query}" if query else f"{base}/{path}"


def appendable(href: str) -> str:
    """A URL a client can append parameters to (GeoServer's ``makeURLAppendable``): ending in
    ``?`` or ``&``."""
    if href.endswith(("?", "&")):
        return href
    return href + ("&" if "?" in href else "?")
