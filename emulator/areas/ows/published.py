"""What a published layer or group carries into the capabilities documents beyond its name
and boxes: translated titles and abstracts, keywords with their vocabulary, attribution,
authority URLs and identifiers, metadata and data links, and the ``AcceptLanguages`` check
(the dimensions are ``dimensions.py``'s).

Everything is read from the catalog's generic fields (``catalog/fields.py``: ``extras``);
pure domain logic, no XML.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from ..catalog.entities import Layer, LayerGroup, Resource
from .errors import OwsError


class Keyword(NamedTuple):
    value: str
    language: str | None = None
    vocabulary: str | None = None


class Attribution(NamedTuple):
    title: str | None
    href: str | None
    logo: tuple[str, str, int, int] | None
    """(url, format, width, height) when all four are usable, as GeoServer requires"""


class Link(NamedTuple):
    """A metadata link (``metadata_type`` set) or a data link."""

    format: str | None
    href: str
    metadata_type: str | None = None
    about: str | None = None


# -- text ------------------------------------------------------------------------------


def keywords(raw: list[Any]) -> list[Keyword]:
    """Catalog keywords as GeoServer encodes them in a string:
    ``value\\@language=en\\;\\@vocabulary=v\\;`` (both parts optional)."""
    out = []
    for item in raw:
        if isinstance(item, Mapping):
            out.append(Keyword(str(item.get("value", "")), None, item.get("vocabulary")))
            continue
        text = str(item)
        value, sep, rest = text.partition("\\@")
        language = vocabulary = None
        if sep:
            for part in ("\\@" + rest).split("\\;"):
                key, _, val = part.removeprefix("\\@").partition("=")
                if key == "language" and val:
                    language = val
                elif key == "vocabulary" and val:
                    vocabulary = val
        out.append(Keyword(value, language, vocabulary))
    return out


def wanted_languages(accept: str | None) -> list[str]:
    """The locales an ``AcceptLanguages`` / ``Language`` value names, in order."""
    return [x for x in (accept or "").replace(",", " ").split() if x]


PLACEHOLDER = "DID NOT FIND i18n CONTENT FOR THIS ELEMENT"
"""the title GeoServer writes, when languages are requested, for an element that has no
translation in them and no default translation"""


def _tag(locale: str) -> str:
    return locale.replace("_", "-").lower()


def _requested(languages: list[str], texts: Mapping[str, Any]) -> list[str]:
    """The keys of ``texts`` in the order GeoServer's ``InternationalContentHelper`` tries
    the requested locales: tagged ones (``de-CH``) as given, then for each bare language
    the locales of that language (the bare one first)."""
    keys = {_tag(k): k for k in texts if k}
    out = [keys[_tag(x)] for x in languages if "-" in x and _tag(x) in keys]
    for lang in languages:
        if "-" in lang or lang == "*":
            continue
        base = _tag(lang)
        same = sorted(k for t, k in keys.items() if t.split("-")[0] == base and t != base)
        out += ([keys[base]] if base in keys else []) + same
    return list(dict.fromkeys(out))


def translated(
    texts: Any, default: str | None, languages: list[str], nullable: bool = False
) -> str | None:
    """``default`` when no language is requested; else, as GeoServer's
    ``InternationalContentHelper.getString``: the translation for the first requested
    locale ``texts`` (locale → text) has; with ``*`` requested, the default translation
    (the empty key) or the first; the default translation; else nothing (``nullable``:
    abstracts) or ``PLACEHOLDER`` (titles). The plain ``default`` is not used then."""
    if not languages:
        return default
    if isinstance(texts, Mapping) and texts:
        for key in _requested(languages, texts):
            if texts.get(key) is not None:
                return str(texts[key])
        if "*" in languages:
            return str(texts[""] if "" in texts else next(iter(texts.values())))
        if texts.get("") is not None:
            return str(texts[""])
    return None if nullable else PLACEHOLDER


def filter_keywords(keywords_: list[Keyword], languages: list[str]) -> list[Keyword]:
    """GeoServer's ``InternationalContentHelper.filterKeywords``: with languages requested,
    the keywords in the language of the first requested locale any keyword has; none
    (all of them when ``*`` is requested) when no keyword has any."""
    if not languages:
        return keywords_
    for lang in [x for x in languages if "-" in x] + [x for x in languages if "-" not in x]:
        base = _tag(lang).split("-")[0]
        chosen = [k for k in keywords_ if k.language and _tag(k.language) == base]
        if chosen:
            return chosen
    return keywords_ if "*" in languages else []


def keyword_values(raw: list[Any], languages: list[str] | None = None) -> list[str]:
    """The values of catalog keywords (their language and vocabulary not written), those in
    the requested languages when ``AcceptLanguages`` names some."""
    return [k.value for k in filter_keywords(keywords(raw), languages or [])]


def text_for(languages: list[str], holder: Any, texts_key: str, default: str | None) -> str | None:
    """``default``, or (languages requested) its translation from ``holder`` (an entity with
    ``extras``, or a settings mapping) as ``translated`` picks it; abstracts are nullable."""
    if not languages:
        return default
    extras = holder.get(texts_key) if isinstance(holder, Mapping) else holder.extras.get(texts_key)
    return translated(extras, default, languages, nullable="Abstract" in texts_key)


def check_languages(languages: list[str], holders: list[Any]) -> None:
    """GeoServer's check of ``AcceptLanguages`` (``InternationalContentHelper.verify``):
    refused when no title or abstract of the document (``holders``: their locale → text
    maps) has a translation at all, or none in a requested language (``*`` accepts any)."""
    if not languages:
        return
    supported = sorted(
        {str(k) for texts in holders if isinstance(texts, Mapping) for k in texts if k}
    )
    requested = ",".join(languages)
    if not supported:
        raise OwsError(
            f"Content has been requested in one of the following languages: {requested}. "
            "But there is no international content defined"
        )
    if "*" in languages:
        return
    for lang in languages:
        base = lang.replace("_", "-").split("-")[0]
        if lang in supported or (
            "-" not in lang and any(s.split("_")[0] == base for s in supported)
        ):
            return
    raise OwsError(
        f"Content has been requested in one of the following languages: {requested}. "
        f"But supported languages are: {','.join(supported)}"
    )


def holders(
    service: Mapping[str, Any], items: Sequence[Any], resources: Sequence[Resource | None]
) -> list[Any]:
    """The locale → text maps of a document: the service's, its items' and resources'."""
    out: list[Any] = [service.get("internationalTitle"), service.get("internationalAbstract")]
    for holder in [*items, *resources]:
        if holder is not None:
            out += [
                holder.extras.get("internationalTitle"),
                holder.extras.get("internationalAbstract"),
            ]
    return out


def title(item: Layer | LayerGroup, resource: Resource | None, languages: list[str]) -> str | None:
    return _text(item, resource, languages, "Title")


def abstract(
    item: Layer | LayerGroup, resource: Resource | None, languages: list[str]
) -> str | None:
    return _text(item, resource, languages, "Abstract")


def _text(
    item: Layer | LayerGroup, resource: Resource | None, languages: list[str], what: str
) -> str | None:
    """A group's own title or abstract; a layer's resource's, its translations the
    resource's, else the layer's (abstracts are nullable, as ``translated`` says)."""
    key = f"international{what}"
    holder = item if isinstance(item, LayerGroup) else resource
    default = getattr(holder, what.lower()) if holder is not None else None
    texts = holder.extras.get(key) if holder is not None else None
    if not isinstance(item, LayerGroup):
        texts = texts or item.extras.get(key)
    return translated(texts, default, languages, nullable=what == "Abstract")


# -- links -----------------------------------------------------------------------------


def attribution(item: Layer | LayerGroup) -> Attribution | None:
    """The attribution GeoServer writes: None unless a title, a link or a whole logo (URL,
    format and positive sizes) is set."""
    a = item.extras.get("attribution")
    if not isinstance(a, Mapping):
        return None
    logo = None
    url, fmt = a.get("logoURL"), a.get("logoType")
    width, height = _int(a.get("logoWidth")), _int(a.get("logoHeight"))
    if url and fmt and width > 0 and height > 0:
        logo = (str(url), str(fmt), width, height)
    found = Attribution(a.get("title"), a.get("href"), logo)
    if found.title is None and found.href is None and logo is None:
        return None
    return found


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def authority_urls(item: Layer | LayerGroup) -> list[tuple[str, str]]:
    """(name, href) pairs; entries missing either are skipped, as GeoServer skips them."""
    return authority_pairs(item.extras.get("authorityURLs"))


def authority_pairs(raw: Any) -> list[tuple[str, str]]:
    """(name, href) pairs of a list of authority URLs (a layer's, or the WMS settings')."""
    return _pairs(raw, "name", "href")


def identifiers(item: Layer | LayerGroup) -> list[tuple[str, str]]:
    """(authority, identifier) pairs; incomplete ones are skipped."""
    return identifier_pairs(item.extras.get("identifiers"))


def identifier_pairs(raw: Any) -> list[tuple[str, str]]:
    """(authority, identifier) pairs of a list of identifiers; incomplete ones skipped."""
    return _pairs(raw, "authority", "identifier")


def _pairs(raw: Any, first: str, second: str) -> list[tuple[str, str]]:
    """The (``first``, ``second``) values of the mappings in ``raw`` that have both."""
    return [
        (str(x[first]), str(x[second]))
        for x in raw or []
        if isinstance(x, Mapping) and x.get(first) and x.get(second)
    ]


def _links(raw: Any, metadata: bool) -> list[Link]:
    out = []
    for link in raw or []:
        if not isinstance(link, Mapping) or not link.get("content"):
            continue
        kind = link.get("metadataType") if metadata else None
        out.append(Link(link.get("type"), str(link["content"]), kind, link.get("about")))
    return out


def metadata_links(resource: Resource | None) -> list[Link]:
    return _links(resource.extras.get("metadataLinks") if resource else None, True)


def group_metadata_links(group: LayerGroup, members: list[Resource]) -> list[Link]:
    """A group's own links, else its layers' (GeoServer aggregates them, GEOS-4500)."""
    own = _links(group.extras.get("metadataLinks"), True)
    if own:
        return own
    out: list[Link] = []
    for res in members:
        for link in metadata_links(res):
            if link not in out:
                out.append(link)
    return out


def data_links(resource: Resource | None) -> list[Link]:
    return _links(resource.extras.get("dataLinks") if resource else None, False)
