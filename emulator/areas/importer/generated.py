"""The styles the importer generates for the layers it publishes (GeoServer's
``StyleGenerator``, as the ``Importer`` uses it).

A vector layer gets a style by its geometry type (``point``, ``line``, ``polygon``, else
``generic``; a layer without geometry gets the catalog's ``point`` style instead), a
coverage the ``raster`` one. The style is global, named ``<workspace>_<layer>`` (then
``<workspace>_<layer>1``, ``2``… while the name is taken), its file ``<name>.sld``; its
colour is the next of a rolling ramp of ten named colours. GeoServer starts the ramp at a
random place; the emulator starts it so that the first style is red, and moves it on with
each style it generates, so the same requests give the same styles.
"""

from __future__ import annotations

from ...features.model import GEOMETRY_PACKAGES
from ..styles.model import StyleStore

RAMP = (
    ("red", "FF3300"), ("orange", "FF6600"), ("dark orange", "FF9900"), ("gold", "FFCC00"),
    ("yellow", "FFFF00"), ("dark yellow", "99CC00"), ("teal", "00CC33"), ("cyan", "0099CC"),
    ("azure", "0033CC"), ("violet", "3300FF"),
)  # fmt: skip
"""the generator's colour ramp: (name, RGB)"""

_TEMPLATES = {
    "Point": "point", "MultiPoint": "point",
    "LineString": "line", "MultiLineString": "line", "LinearRing": "line",
    "Polygon": "polygon", "MultiPolygon": "polygon",
}  # fmt: skip


def template_for(geometry_binding: str | None) -> str | None:
    """The template of a vector layer by its geometry's binding; None without geometry."""
    if geometry_binding is None:
        return None
    simple = geometry_binding
    for package in GEOMETRY_PACKAGES:
        simple = simple.removeprefix(package)
    return _TEMPLATES.get(simple, "generic")


def next_color(position: int) -> tuple[int, str, str]:
    """(new position, colour name, ``#rrggbb``) after moving the ramp on by one."""
    position = (position + 1) % len(RAMP)
    name, rgb = RAMP[position]
    return position, name, "#" + rgb.lower()


def unique_name(styles: StyleStore, workspace: str, layer: str) -> str:
    """``<workspace>_<layer>``, or the first of ``…1``, ``…2`` no style has."""
    base = f"{workspace}_{layer}"
    name, i = base, 1
    while styles.find(name) is not None:
        name, i = f"{base}{i}", i + 1
    return name


_HEAD = (
    '<?xml version="1.0" encoding="ISO-8859-1"?>\n'
    '<StyledLayerDescriptor version="1.0.0" '
    'xsi:schemaLocation="http://www.opengis.net/sld StyledLayerDescriptor.xsd" '
    'xmlns="http://www.opengis.net/sld" xmlns:ogc="http://www.opengis.net/ogc" '
    'xmlns:xlink="http://www.w3.org/1999/xlink" '
    'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n'
    "  <NamedLayer>\n    <Name>{layer}</Name>\n    <UserStyle>\n"
    "      <Title>{title}</Title>\n      <FeatureTypeStyle>\n"
)
_TAIL = "      </FeatureTypeStyle>\n    </UserStyle>\n  </NamedLayer>\n</StyledLayerDescriptor>\n"

_POINT = (
    "<PointSymbolizer><Graphic><Mark><WellKnownName>square</WellKnownName>"
    '<Fill><CssParameter name="fill">{code}</CssParameter></Fill></Mark>'
    "<Size>6</Size></Graphic></PointSymbolizer>"
)
_LINE = (
    '<LineSymbolizer><Stroke><CssParameter name="stroke">{code}</CssParameter>'
    '<CssParameter name="stroke-opacity">1</CssParameter></Stroke></LineSymbolizer>'
)
_POLYGON = (
    '<PolygonSymbolizer><Fill><CssParameter name="fill">{code}</CssParameter></Fill>'
    '<Stroke><CssParameter name="stroke">#000000</CssParameter>'
    '<CssParameter name="stroke-width">0.5</CssParameter></Stroke></PolygonSymbolizer>'
)
_RASTER = "<RasterSymbolizer><Opacity>1.0</Opacity></RasterSymbolizer>"


def _dimension(n: int) -> str:
    return (
        '<ogc:Filter><ogc:PropertyIsEqualTo><ogc:Function name="dimension">'
        '<ogc:Function name="geometry"/></ogc:Function>'
        f"<ogc:Literal>{n}</ogc:Literal></ogc:PropertyIsEqualTo></ogc:Filter>"
    )


def _rule(title: str, body: str) -> str:
    return f"        <Rule>\n          <Title>{title}</Title>\n          {body}\n        </Rule>\n"


def sld(template: str, color_name: str, color_code: str, layer: str) -> bytes:
    """The style's SLD 1.0 document, from its template."""
    c, code = _escape(color_name), color_code
    if template == "raster":
        head = _HEAD.format(layer=_escape(layer), title="A raster style")
        return (head + _rule("raster", _RASTER) + _TAIL).encode("iso-8859-1", "xmlcharrefreplace")
    head = _HEAD.format(layer=_escape(layer), title=f"A {c} {template} style")
    if template == "point":
        rules = _rule(f"{c} point", _POINT.format(code=code))
    elif template == "line":
        rules = _rule(f"{c} line", _LINE.format(code=code))
    elif template == "polygon":
        rules = _rule(f"{c} polygon", _POLYGON.format(code=code))
    else:
        coverage = (
            '<ogc:Filter><ogc:PropertyIsEqualTo><ogc:Function name="isCoverage"/>'
            "<ogc:Literal>true</ogc:Literal></ogc:PropertyIsEqualTo></ogc:Filter>" + _RASTER
        )
        rules = (
            _rule("raster", coverage)
            + _rule(f"{c} polygon", _dimension(2) + _POLYGON.format(code=code))
            + _rule(f"{c} line", _dimension(1) + _LINE.format(code=code))
            + _rule(f"{c} point", "<ElseFilter/>" + _POINT.format(code=code))
        )
        rules += '        <VendorOption name="ruleEvaluation">first</VendorOption>\n'
    return (head + rules + _TAIL).encode("iso-8859-1", "xmlcharrefreplace")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
