"""Reading a mosaic folder's configuration files into an ``Indexer``.

``indexer.xml`` wins over ``indexer.properties``; ``datastore.properties`` makes the index a
database table instead of a shapefile. A malformed ``indexer.xml`` is ``Invalid``.
"""

from __future__ import annotations

from collections.abc import Callable

from ...core.errors import Invalid
from ...wire import xml as wxml
from . import properties
from .indexer import DATASTORE_PROPERTIES, INDEXER_PROPERTIES, INDEXER_XML, Collector, Indexer

FileReader = Callable[[str], bytes | None]
"""reads a file of the mosaic folder by name, None when absent"""


def load(read: FileReader) -> Indexer:
    """Read the configuration files of a mosaic folder (``Invalid`` when one is malformed)."""
    indexer = Indexer()
    xml = read(INDEXER_XML)
    props = read(INDEXER_PROPERTIES)
    if xml is not None:
        indexer = _from_xml(xml, read)
    elif props is not None:
        indexer = _from_properties(_text(props, INDEXER_PROPERTIES), read)
    datastore = read(DATASTORE_PROPERTIES)
    if datastore is not None:
        indexer.datastore = properties.parse(_text(datastore, DATASTORE_PROPERTIES))
    return indexer


def _text(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _from_properties(text: str, read: FileReader) -> Indexer:
    params = properties.parse(text)
    indexer = Indexer(params=params, source=INDEXER_PROPERTIES)
    spec = indexer.param("PropertyCollectors")
    if spec:
        indexer.collectors = _collectors_from_spec(spec, read)
    return indexer


def _collectors_from_spec(spec: str, read: FileReader) -> list[Collector]:
    """``SPI[config](attribute)`` definitions, comma-separated; malformed ones are skipped,
    as GeoTools skips them."""
    out: list[Collector] = []
    for item in (d.strip() for d in spec.split(",")):
        lpar, rpar = item.find("("), item.find(")")
        if lpar <= 0 or rpar != len(item) - 1 or item.rfind(")") != rpar:
            continue
        lsq, rsq = item.find("["), item.find("]")
        name = item[:lsq] if 0 < lsq < lpar else item[:lpar]
        config = item[lsq + 1 : rsq] if 0 < lsq < rsq < lpar else ""
        mapped = item[lpar + 1 : rpar].split(",")[0].split(";")[0].strip()
        value = None
        if config:
            data = read(f"{config}.properties")
            if data is not None:
                value = properties.parse(_text(data, config)).get("regex")
        out.append(_collector(name.strip(), mapped, value))
    return out


def _collector(spi: str, mapped: str, value: str | None) -> Collector:
    """Split ``regex[,format=…][,fullPath=…]`` as the timestamp collector reads its value."""
    if value is None:
        return Collector(spi, mapped)
    if value.startswith("regex="):
        value = value[len("regex=") :]
    fmt, full = None, False
    for key in (",fullPath=", ",format="):
        if key in value:
            value, _, tail = value.partition(key)
            if key == ",format=":
                fmt = tail.strip()
            else:
                full = tail.strip().lower() == "true"
    return Collector(spi, mapped, value.strip(), fmt, full)


def _from_xml(data: bytes, read: FileReader) -> Indexer:
    root = wxml.parse(data, "indexer.xml")
    if wxml.local(root.tag) != "Indexer":
        raise Invalid("indexer.xml: the root element must be Indexer")
    indexer = Indexer(source=INDEXER_XML)
    for p in _all(root, "parameters", "parameter"):
        name = p.get("name")
        value = p.get("value", wxml.text(p, "value"))
        if name and value is not None:
            indexer.params[name] = value
    for s in _all(root, "schemas", "schema"):
        indexer.schemas[s.get("name") or ""] = wxml.text(s, "attributes") or ""
    for d in _all(root, "domains", "domain"):
        attrs = [
            a.get("attribute") or a.get("name") or "" for a in _all(d, "attributes", "attribute")
        ]
        _domain(indexer, d.get("name") or "", [a for a in attrs if a])
    for c in _all(root, "coverages", "coverage"):
        indexer.coverages.append((wxml.text(c, "name") or "", _coverage_schema(indexer, c)))
    for c in _all(root, "collectors", "collector"):
        spi = wxml.text(c, "spi") or ""
        mapped = wxml.text(c, "mapped") or ""
        if spi and mapped:
            indexer.collectors.append(_collector(spi, mapped, wxml.text(c, "value")))
    return indexer


def _all(el: wxml.Element, group: str, item: str) -> list[wxml.Element]:
    holder = wxml.child(el, group)
    return [] if holder is None else wxml.children(holder, item)


def _domain(indexer: Indexer, name: str, attrs: list[str]) -> None:
    if not attrs:
        return
    value = ";".join(attrs[:2])
    key = {"time": "TimeAttribute", "elevation": "ElevationAttribute"}.get(name.lower())
    if key is not None:
        indexer.params.setdefault(key, value)
    else:
        extra = indexer.params.get("AdditionalDomainAttributes")
        item = f"{name}({value})"
        indexer.params["AdditionalDomainAttributes"] = f"{extra},{item}" if extra else item


def _coverage_schema(indexer: Indexer, coverage: wxml.Element) -> str | None:
    schema = wxml.child(coverage, "schema")
    if schema is None:
        return None
    ref = schema.get("ref")
    if ref is not None:
        return indexer.schemas.get(ref)
    return wxml.text(schema, "attributes")
