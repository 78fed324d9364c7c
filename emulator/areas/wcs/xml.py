"""GetCoverage requests POSTed as XML, read into the key-value pairs the version's reader
takes (as GeoServer's XML readers build the same request objects as its KVP readers):

- 1.0.0 ``GetCoverage``: ``sourceCoverage``, ``domainSubset/spatialSubset`` (``gml:Envelope``
  with ``srsName``, ``gml:Grid`` limits), ``interpolationMethod``, ``rangeSubset`` (``Band``
  single values and intervals), ``output`` (``crs``, ``format``);
- 1.1.1 ``GetCoverage``: ``ows:Identifier``, ``DomainSubset/ows:BoundingBox`` (``crs``),
  ``Output`` (``format``, ``store``, ``GridCRS``);
- 2.0.1 ``GetCoverage``: ``CoverageId``, ``DimensionTrim``/``DimensionSlice``, ``format``,
  ``mediaType`` and the extensions (scaling, range subset, interpolation, CRS).
"""

from __future__ import annotations

from typing import Any

from ...wire import xml as wxml

Pairs = list[tuple[str, str]]


def _local(node: Any) -> str:
    return wxml.local(node.tag) if isinstance(node.tag, str) else ""


def _text(node: Any) -> str:
    return (node.text or "").strip()


def _all(root: Any, name: str) -> list[Any]:
    return [e for e in root.iter() if _local(e) == name]


def _first(root: Any, name: str) -> str | None:
    found = _all(root, name)
    return _text(found[0]) if found else None


def pairs(root: Any, version: str) -> Pairs:
    if version.startswith("2.0"):
        return _v20(root)
    if version.startswith("1.1"):
        return _v11(root)
    return _v10(root)


def _add(out: Pairs, key: str, value: str | None) -> None:
    if value is not None and value != "":
        out.append((key, value))


def _v20(root: Any) -> Pairs:
    out: Pairs = []
    _add(out, "coverageId", _first(root, "CoverageId"))
    _add(out, "format", _first(root, "format"))
    _add(out, "mediaType", _first(root, "mediaType"))
    for trim in _all(root, "DimensionTrim"):
        low = _first(trim, "TrimLow") or "*"
        high = _first(trim, "TrimHigh") or "*"
        out.append(("subset", f"{_first(trim, 'Dimension')}({low},{high})"))
    for cut in _all(root, "DimensionSlice"):
        out.append(("subset", f"{_first(cut, 'Dimension')}({_first(cut, 'SlicePoint')})"))
    for key in ("subsettingCrs", "outputCrs"):
        _add(out, key, _first(root, key))
    _add(out, "interpolation", _first(root, "globalInterpolation"))
    factor = _all(root, "ScaleByFactor")
    if factor:
        _add(out, "scalefactor", _first(factor[0], "scaleFactor"))
    axes = [(_first(a, "axis"), _first(a, "scaleFactor")) for a in _all(root, "ScaleAxis")]
    sizes = [(_first(a, "axis"), _first(a, "targetSize")) for a in _all(root, "TargetAxisSize")]
    extents = [
        (_first(a, "axis"), f"{_first(a, 'low')}:{_first(a, 'high')}")
        for a in _all(root, "TargetAxisExtent")
    ]
    for key, items in (("scaleaxes", axes), ("scalesize", sizes), ("scaleextent", extents)):
        if items:
            out.append((key, ",".join(f"{a}({v})" for a, v in items)))
    ranges = []
    for item in _all(root, "RangeItem"):
        single = _first(item, "RangeComponent")
        if single is not None:
            ranges.append(single)
        else:
            ranges.append(f"{_first(item, 'startComponent')}:{_first(item, 'endComponent')}")
    if ranges:
        out.append(("rangesubset", ",".join(ranges)))
    return out


def _v10(root: Any) -> Pairs:
    out: Pairs = []
    _add(out, "coverage", _first(root, "sourceCoverage"))
    envelope = next(iter(_all(root, "Envelope")), None)
    if envelope is not None:
        _add(out, "crs", envelope.get("srsName"))
        corners = [_text(p).split() for p in _all(envelope, "pos")]
        if len(corners) == 2 and all(len(c) >= 2 for c in corners):
            (a, b), (c, d) = corners[0][:2], corners[1][:2]
            out.append(("bbox", f"{a},{b},{c},{d}"))
    low, high = _first(root, "low"), _first(root, "high")
    if low and high and len(low.split()) >= 2 and len(high.split()) >= 2:
        (lx, ly), (hx, hy) = low.split()[:2], high.split()[:2]
        try:
            out += [("width", str(int(hx) - int(lx) + 1)), ("height", str(int(hy) - int(ly) + 1))]
        except ValueError:
            out += [("width", hx), ("height", hy)]
    _add(out, "interpolation", _first(root, "interpolationMethod"))
    output = next(iter(_all(root, "output")), None)
    if output is not None:
        _add(out, "response_crs", _first(output, "crs"))
        _add(out, "format", _first(output, "format"))
    for axis in _all(root, "axisSubset"):
        if (axis.get("name") or "").lower() != "band":
            continue
        values = [_text(v) for v in _all(axis, "singleValue")]
        interval = next(iter(_all(axis, "interval")), None)
        if values:
            out.append(("band", ",".join(values)))
        elif interval is not None:
            out.append(("band", f"{_first(interval, 'min')}/{_first(interval, 'max')}"))
    return out


def _v11(root: Any) -> Pairs:
    out: Pairs = []
    _add(out, "identifier", _first(root, "Identifier"))
    box = next(iter(_all(root, "BoundingBox")), None)
    if box is not None:
        lower = (_first(box, "LowerCorner") or "").split()
        upper = (_first(box, "UpperCorner") or "").split()
        crs = box.get("crs")
        out.append(("boundingbox", ",".join([*lower, *upper, *([crs] if crs else [])])))
    output = next(iter(_all(root, "Output")), None)
    if output is not None:
        _add(out, "format", output.get("format"))
        _add(out, "store", output.get("store"))
        for key in ("GridBaseCRS", "GridType", "GridCS", "GridOrigin", "GridOffsets"):
            _add(out, key, _first(output, key))
    return out
