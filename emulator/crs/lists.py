"""The CRS lists capabilities documents carry when the service settings limit none: every
code of the database, as GeoServer's ``CapabilitiesCRSProvider`` lists them.

The provider takes GeoTools' authorities (without the URN and URL aliases and ``AUTO2``)
sorted by name, each authority's codes in numeric order, ``WGS84(DD)`` left out, and writes
each as its service spells it:

- WMS 1.1.1: ``AUTO:42001`` …, then ``EPSG:2000`` … (the ``CRS`` authority left out);
- WMS 1.3.0: ``AUTO:…``, ``CRS:27``, ``CRS:83``, ``CRS:84``, then ``EPSG:…``;
- WCS 2.0.1 (the CRS extension's ``crsSupported``): ``http://www.opengis.net/def/crs/EPSG/0/n``
  (``AUTO`` and ``CRS`` left out).

The lists are thousands long: each is made once per process, and ``block`` keeps the
markup of a whole list at one indentation, so a capabilities document appends one string.
"""

from __future__ import annotations

import functools

from . import auto, registry

WMS_111, WMS_130, WCS_20 = "wms-1.1.1", "wms-1.3.0", "wcs-2.0.1"


@functools.cache
def codes(kind: str) -> tuple[str, ...]:
    """Every CRS the capabilities of ``kind`` (``WMS_111``, ``WMS_130``, ``WCS_20``) list."""
    epsg = registry.codes("EPSG")
    if kind == WCS_20:
        return tuple(f"http://www.opengis.net/def/crs/EPSG/0/{c}" for c in epsg)
    out = [f"AUTO:{c}" for c in auto.CODES]
    if kind == WMS_130:
        out += [f"CRS:{c}" for c in registry.codes("CRS")]
    out += [f"EPSG:{c}" for c in epsg]
    return tuple(out)


@functools.cache
def block(kind: str, tag: str, depth: int, indent: int = 2) -> str:
    """``<tag>code</tag>`` for every code of ``kind``, each on its own line at ``depth``
    (as ``ows.writer.XmlWriter`` writes elements)."""
    pad = "\n" + " " * (depth * indent)
    return "".join(f"{pad}<{tag}>{code}</{tag}>" for code in codes(kind))
