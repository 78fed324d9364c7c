"""WKT 1 as GeoTools writes a CRS (``CoordinateReferenceSystem.toWKT()``): each element of
a composite element on its own line, indented by two spaces, after ``, ``; an element with
only values and an authority on one line; ``AUTHORITY["EPSG","4326"]`` without a space;
numbers as Java's ``Double.toString``; the EPSG datum names; the axes longitude (easting)
first, as GeoServer's ``/rest/crs`` decodes them.

The definition comes from PROJ's WKT 1 (GDAL flavour); a CRS PROJ cannot write as WKT 1 is
given as its WKT 2.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal
from typing import Any

Node = tuple[str, list[Any]]
"""(keyword, values): a value is a quoted string (kept with its quotes), a bare word, a
number, or a node"""

_TOKEN = re.compile(r'\s*("(?:[^"]|"")*"|[A-Za-z_][A-Za-z0-9_]*|[-+0-9.eE]+|[\[\](),])')
INLINE = frozenset({"AUTHORITY"})


def java_double(x: float) -> str:
    """Java's ``Double.toString``: ``6378137.0``, ``0.9996``, ``1.0E7``, ``1.0E-4``."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "-0.0" if math.copysign(1, x) < 0 else "0.0"
    if 1e-3 <= abs(x) < 1e7:
        text = repr(x)
        return text if "." in text or "e" in text else text + ".0"
    sign, digits, exponent = Decimal(repr(x)).as_tuple()
    assert isinstance(exponent, int)
    shown = "".join(map(str, digits)).rstrip("0") or "0"
    power = exponent + len(digits) - 1
    return f"{'-' if sign else ''}{shown[0]}.{shown[1:] or '0'}E{power}"


def parse(text: str) -> Node:
    """A WKT 1 string as a tree."""
    tokens = [t for t in _TOKEN.findall(text)]
    pos = 0

    def node() -> Node:
        nonlocal pos
        keyword = tokens[pos]
        pos += 2  # keyword and "["
        values: list[Any] = []
        while tokens[pos] not in ("]", ")"):
            tok = tokens[pos]
            if tok == ",":
                pos += 1
                continue
            if pos + 1 < len(tokens) and tokens[pos + 1] in ("[", "("):
                values.append(node())
                continue
            values.append(tok if tok.startswith('"') or tok[0].isalpha() else float(tok))
            pos += 1
        pos += 1
        return keyword, values

    return node()


def render(n: Node, depth: int = 0) -> str:
    keyword, values = n
    composite = any(isinstance(v, tuple) and v[0] not in INLINE for v in values)
    parts: list[str] = []
    for i, v in enumerate(values):
        if isinstance(v, tuple):
            text = render(v, depth + 1)
            sep = f"\n{'  ' * (depth + 1)}" if composite else ""
        elif isinstance(v, float):
            text, sep = java_double(v), ""
        else:
            text, sep = v, ""
        if i and keyword == "AUTHORITY":
            parts.append("," + text)
        else:
            parts.append((", " if i else "") + sep + text)
    return f"{keyword}[{''.join(parts)}]"


def geotools_wkt(crs: Any) -> str:
    """The CRS as GeoServer's ``/rest/crs/<id>.wkt`` writes it."""
    from pyproj.exceptions import CRSError

    try:
        text = crs.to_wkt("WKT1_GDAL")
    except CRSError:
        text = None
    if not text:
        return str(crs.to_wkt("WKT2_2019", pretty=True))
    tree = parse(text)
    _adjust(tree, crs)
    return render(tree)


def _adjust(tree: Node, crs: Any) -> None:
    """EPSG datum names, GeoTools' unit names and factors, axes longitude first."""
    keyword, values = tree
    datum = getattr(crs, "datum", None)
    for v in values:
        if not isinstance(v, tuple):
            continue
        if v[0] == "DATUM" and datum is not None and datum.name:
            name = datum.name.removesuffix(" ensemble")
            v[1][0] = '"' + name.replace('"', '""') + '"'
        if v[0] == "UNIT":
            _unit(v)
        if v[0] in ("GEOGCS", "PROJCS", "GEOCCS"):
            sub = crs.geodetic_crs if v[0] == "GEOGCS" and keyword == "PROJCS" else crs
            _adjust(v, sub if sub is not None else crs)
    if keyword in ("GEOGCS", "PROJCS"):
        _axes(tree, crs, keyword)


def _unit(node: Node) -> None:
    values = node[1]
    node[1][:] = [v for v in values if not (isinstance(v, tuple) and v[0] == "AUTHORITY")]
    if values and values[0] == '"degree"':
        node[1][1] = math.pi / 180
    if values and values[0] == '"metre"':
        node[1][0] = '"m"'


def _axes(tree: Node, crs: Any, keyword: str) -> None:
    values = tree[1]
    values[:] = [v for v in values if not (isinstance(v, tuple) and v[0] == "AXIS")]
    if keyword == "GEOGCS":
        axes = [("Geodetic longitude", "EAST"), ("Geodetic latitude", "NORTH")]
    else:
        info = [(a.name, a.direction.upper()) for a in getattr(crs, "axis_info", [])][:2]
        axes = sorted(info, key=lambda a: a[1] not in ("EAST", "WEST")) or [
            ("Easting", "EAST"),
            ("Northing", "NORTH"),
        ]
    at = next(
        (i for i, v in enumerate(values) if isinstance(v, tuple) and v[0] == "AUTHORITY"),
        len(values),
    )
    values[at:at] = [("AXIS", [f'"{name}"', direction]) for name, direction in axes]
