"""OGC requests POSTed as XML: the document read into the key-value pairs the handlers
take (WFS GetCapabilities, DescribeFeatureType, GetFeature; WMS/WCS GetCapabilities; WCS
DescribeCoverage); a
Transaction keeps its document for ``wfs_transaction``."""

from __future__ import annotations

from typing import Any

from ...core.errors import EmulatorError
from ...filters import ogc_xml
from ...wire import xml as wxml
from .errors import INVALID, OwsError

_ATTRIBUTES = {
    "service": "SERVICE",
    "version": "VERSION",
    "outputFormat": "OUTPUTFORMAT",
    "maxFeatures": "MAXFEATURES",
    "count": "COUNT",
    "startIndex": "STARTINDEX",
    "resultType": "RESULTTYPE",
    "updateSequence": "UPDATESEQUENCE",
}


_LISTS = {"Coverage": "COVERAGE", "Identifier": "IDENTIFIERS", "CoverageId": "COVERAGEID"}
"""child elements listing what a request names (WCS 1.0.0, 1.1.1, 2.0.1), by parameter"""


def parse(data: bytes) -> Any:
    try:
        return wxml.parse(data, "request", names=False)
    except EmulatorError as exc:
        raise OwsError(f"Could not parse the request: {exc.message}", INVALID, "request") from None


def _local(tag: Any) -> str:
    return wxml.local(tag) if isinstance(tag, str) else ""


def params(root: Any) -> dict[str, str]:
    out = {"REQUEST": _local(root.tag)}
    for attr, key in _ATTRIBUTES.items():
        if root.get(attr) is not None:
            out[key] = root.get(attr)
    versions = [
        (v.text or "").strip()
        for av in root
        if _local(av.tag) == "AcceptVersions"
        for v in av
        if _local(v.tag) == "Version"
    ]
    if versions:
        out["ACCEPTVERSIONS"] = ",".join(versions)
    types = [(t.text or "").strip() for t in root if _local(t.tag) == "TypeName"]
    if types:
        out["TYPENAME"] = ",".join(types)
    for tag, key in _LISTS.items():  # WCS DescribeCoverage: the coverages named
        found = [(e.text or "").strip() for e in root if _local(e.tag) == tag]
        if found:
            out[key] = ",".join(found)
    query = next((q for q in root if _local(q.tag) == "Query"), None)
    if query is not None:
        names = query.get("typeName") or query.get("typeNames")
        if names:
            out["TYPENAME"] = names
        props = [
            (p.text or "").strip()
            for p in query
            if _local(p.tag) in ("PropertyName", "ValueReference")
        ]
        if props:
            out["PROPERTYNAME"] = ",".join(props)
        flt = next((f for f in query if _local(f.tag) == "Filter"), None)
        if flt is not None:
            first = ogc_xml.first_condition(flt)
            ids = ogc_xml.resource_ids(flt)
            if ids is not None:
                out["FEATUREID"] = ",".join(i for i in ids if i)
            elif first is not None:
                out["CQL_FILTER"] = ogc_xml.filter_cql(first) or "INCLUDE"
        sort = next((s for s in query if _local(s.tag) == "SortBy"), None)
        if sort is not None:
            parts = []
            for prop in sort:
                name = next(
                    (
                        c.text or ""
                        for c in prop
                        if _local(c.tag) in ("PropertyName", "ValueReference")
                    ),
                    "",
                )
                order = next((c.text or "" for c in prop if _local(c.tag) == "SortOrder"), "ASC")
                parts.append(
                    f"{name.strip()} {'D' if order.strip().upper().startswith('D') else 'A'}"
                )
            out["SORTBY"] = ",".join(parts)
    return out
