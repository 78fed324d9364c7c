"""Links as GeoServer's OGC API documents write them: ``{"href", "rel", "type", "title"}``,
one per media type of the resource linked (``LinksBuilder``), and the ``Link`` headers.

URLs are built as GeoServer's ``ResponseUtils.buildURL`` builds them: the service base the
client used (``http://host/geoserver``, or ``…/geoserver/<workspace>`` for a virtual service),
the path, and the query with keys and values encoded as Java's ``URLEncoder`` encodes them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..ows.kvp import url

Link = dict[str, Any]

SELF, ALTERNATE = "self", "alternate"


def href(base: str, path: str, params: Iterable[tuple[str, str]] = ()) -> str:
    return url(base, path, list(params))


def encoded(segment: str) -> str:
    """A path segment as ``ResponseUtils.urlEncode`` writes it (``cite:a`` → ``cite%3Aa``)."""
    from urllib.parse import quote_plus

    return quote_plus(segment, safe="*")


def link(href: str, rel: str, media_type: str | None, title: str | None) -> Link:
    out: Link = {"href": href, "rel": rel}
    if media_type is not None:
        out["type"] = media_type
    if title is not None:
        out["title"] = title
    return out


def formats(
    base: str,
    path: str,
    media_types: Sequence[str],
    rel: str,
    title: str,
    rels: dict[str, str] | None = None,
) -> list[Link]:
    """One link to ``path`` per media type (``?f=<type>``), titled ``title + type``;
    ``rels`` gives another rel for some types (the API's HTML is ``service-doc``)."""
    return [
        link(href(base, path, [("f", mt)]), (rels or {}).get(mt, rel), mt, title + mt)
        for mt in media_types
    ]


def self_links(base: str, path: str, media_types: Sequence[str], chosen: str) -> list[Link]:
    """The links to this document in each of its formats: ``self`` for the one answered,
    ``alternate`` for the others."""
    out = formats(base, path, media_types, ALTERNATE, "This document as ")
    for item in out:
        if item["type"] == chosen:
            item["rel"], item["title"] = SELF, "This document"
    return out


def header(links: Iterable[Link], titles: bool = True) -> list[str]:
    """``Link`` header values: ``<href>; rel="…"; type="…"[; title="…"]``."""
    out = []
    for item in links:
        value = f'<{item["href"]}>; rel="{item["rel"]}"'
        if item.get("type"):
            value += f'; type="{item["type"]}"'
        if titles and item.get("title"):
            value += f'; title="{item["title"]}"'
        out.append(value)
    return out
