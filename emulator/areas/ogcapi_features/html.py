"""The HTML pages of OGC API Features (``f=html``, ``Accept: text/html``): simple, valid
HTML5 written from the same documents as the JSON, with the element ids GeoServer's
templates give the parts its tests read (``htmlCollectionsLink``, ``htmlApiLink``,
``htmlConformanceLink``, ``title``/``content`` of the conformance page, ``queryables``,
``prevPage``/``nextPage`` of a page of features). Everything written is escaped.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ...wire.geoserver.html import esc
from ..ows import gml
from . import links as ln
from . import media
from .query import Page

Doc = dict[str, Any]


def page(title: str, body: str) -> bytes:
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{esc(title)}</title>\n</head>\n<body>\n{body}\n</body>\n</html>\n"
    ).encode()


def _a(href: str, text: str, ident: str | None = None) -> str:
    id_attr = f' id="{esc(ident)}"' if ident else ""
    return f'<a{id_attr} href="{esc(href)}">{esc(text)}</a>'


def _html_link(links: Iterable[ln.Link], rel: str) -> str | None:
    return next((x["href"] for x in links if x["rel"] == rel and x.get("type") == media.HTML), None)


def _formats(links: Iterable[ln.Link]) -> str:
    """The other formats of the page (its ``self``/``alternate`` links)."""
    items = [
        f"<li>{_a(x['href'], x['type'])}</li>"
        for x in links
        if x["rel"] in (ln.SELF, ln.ALTERNATE) and x.get("type") != media.HTML
    ]
    return f"<p>Also as:</p><ul>{''.join(items)}</ul>" if items else ""


def landing(doc: Doc) -> bytes:
    links = doc["links"]
    parts = [f'<h1 id="title">{esc(doc["title"])}</h1>', f"<p>{esc(doc['description'])}</p>"]
    for rel, ident, text in (
        ("data", "htmlCollectionsLink", "Collections"),
        ("service-doc", "htmlApiLink", "API definition"),
        ("conformance", "htmlConformanceLink", "Conformance"),
        ("http://www.opengis.net/def/rel/ogc/1.0/functions", "htmlFunctionsLink", "Functions"),
    ):
        found = _html_link(links, rel)
        if found is not None:
            parts.append(f"<p>{_a(found, text, ident)}</p>")
    parts.append(_formats(links))
    return page(doc["title"], "\n".join(parts))


def conformance(doc: Doc) -> bytes:
    title = "GeoServer OGC API Features Conformance"
    items = "".join(f"<li>{esc(c)}</li>" for c in doc["conformsTo"])
    body = f'<h1 id="title">{title}</h1>\n<div id="content"><ul>{items}</ul></div>'
    return page(title, body + _formats(doc["links"]))


def _collection_block(c: Doc) -> str:
    html_id = str(c["id"]).replace(":", "__")
    parts = [f'<h2 id="{esc(html_id)}">{esc(c.get("title") or c["id"])}</h2>']
    if c.get("description"):
        parts.append(f"<p>{esc(c['description'])}</p>")
    items = _html_link(c["links"], "items")
    own = _html_link(c["links"], ln.SELF) or _html_link(c["links"], ln.ALTERNATE)
    refs = []
    if own:
        refs.append(_a(own, "Collection", f"html_{html_id}_link"))
    if items:
        refs.append(_a(items, "Items", f"html_{html_id}_items"))
    parts.append("<p>" + " | ".join(refs) + "</p>")
    return "\n".join(parts)


def collections(doc: Doc) -> bytes:
    title = "GeoServer OGC API Features Collections"
    blocks = "\n".join(_collection_block(c) for c in doc["collections"])
    return page(title, f'<h1 id="title">{title}</h1>\n{blocks}\n{_formats(doc["links"])}')


def collection(doc: Doc) -> bytes:
    parts = [_collection_block(doc)]
    spatial = doc.get("extent", {}).get("spatial")
    if spatial:
        parts.append(f'<p id="extent">{esc(", ".join(map(str, spatial["bbox"][0])))}</p>')
    temporal = doc.get("extent", {}).get("temporal")
    if temporal:
        parts.append(f'<p id="temporal">{esc(" / ".join(temporal["interval"][0]))}</p>')
    queryables = _html_link(doc["links"], "http://www.opengis.net/def/rel/ogc/1.0/queryables")
    if queryables:
        parts.append(f"<p>{_a(queryables, 'Queryables', 'queryablesLink')}</p>")
    if doc.get("storageCrs"):
        parts.append(f'<p id="storageCrs">{esc(doc["storageCrs"])}</p>')
    parts.append(_formats(doc["links"]))
    return page(str(doc.get("title") or doc["id"]), "\n".join(parts))


def queryables(doc: Doc) -> bytes:
    items = "".join(
        f"<li>{esc(name)}: {esc(schema.get('title', schema.get('type', '')))}</li>"
        for name, schema in doc["properties"].items()
    )
    title = f"{doc['title']} queryables"
    body = f'<h1 id="title">{esc(title)}</h1>\n<ul id="queryables">{items}</ul>'
    return page(title, body + _formats(doc["links"]))


def functions(doc: Doc) -> bytes:
    title = "GeoServer OGC API Features functions"
    items = "".join(
        f"<li>{esc(f['name'])}({esc(', '.join(a['type'][0] for a in f['arguments']))}): "
        f"{esc(f['returns'][0])}</li>"
        for f in doc["functions"]
    )
    return page(title, f'<h1 id="title">{title}</h1>\n<ul id="functions">{items}</ul>')


def api(doc: Doc, json_href: str) -> bytes:
    title = str(doc.get("info", {}).get("title", "API"))
    paths = "".join(f"<li>{esc(path)}</li>" for path in doc.get("paths", {}))
    body = (
        f'<h1 id="title">{esc(title)}</h1>\n<ul id="paths">{paths}</ul>\n'
        f"<p>{_a(json_href, 'The OpenAPI document', 'apiDocument')}</p>"
    )
    return page(title, body)


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if hasattr(value, "geom_type"):
        return str(value.geom_type)
    return esc(gml.value_text(value))


def features(page_: Page, title: str, prev: str | None, nxt: str | None) -> bytes:
    """A page of features as a table: the id, then every attribute but the geometry."""
    names = [n for n, _ in page_.attributes if n != page_.geometry]
    head = "<tr><th>FID</th>" + "".join(f"<th>{esc(n)}</th>" for n in names) + "</tr>"
    rows = "".join(
        f"<tr><td>{esc(f.fid)}</td>"
        + "".join(f"<td>{_cell(f.properties.get(n))}</td>" for n in names)
        + "</tr>"
        for f in page_.rows
    )
    nav = []
    if prev is not None:
        nav.append(_a(prev, "Previous page", "prevPage"))
    if nxt is not None:
        nav.append(_a(nxt, "Next page", "nextPage"))
    body = (
        f'<h1 id="title">{esc(title)}</h1>\n<p id="matched">{page_.matched} features</p>\n'
        f"<table>{head}{rows}</table>\n<p>{' | '.join(nav)}</p>"
    )
    return page(title, body)
