"""GetMap formats beyond the raster images Pillow draws directly: TIFF and GeoTIFF (the
drawn image in a TIFF; GeoTIFF adds the pixel scale, tie point and CRS keys), SVG (the
drawn features as a small document of paths) and the OpenLayers preview page.

Each is deterministic: the same request gives the same bytes.
"""

from __future__ import annotations

import io
from typing import Any

from PIL import Image, TiffImagePlugin, TiffTags

from ...wire.json import dumps
from ..ows import crs
from ..ows.writer import attr, text
from . import paint

TIFF = {"image/tiff": False, "image/tiff8": True}
GEOTIFF = {"image/geotiff": False, "image/geotiff8": True}
SVG = ("image/svg+xml", "image/svg xml", "image/svg")
OPENLAYERS = (
    "application/openlayers",
    "openlayers",
    "text/html; subtype=openlayers",
    "text/html; subtype=openlayers2",
    "text/html; subtype=openlayers3",
)
FORMATS = frozenset([*TIFF, *GEOTIFF, *SVG, *OPENLAYERS])
"""the GetMap formats this module writes"""

BBox = tuple[float, float, float, float]


def media_type(fmt: str) -> str:
    if fmt in TIFF:
        return "image/tiff"
    if fmt in GEOTIFF:
        return "image/geotiff"
    if fmt in SVG:
        return "image/svg+xml"
    return "text/html"


# -- TIFF and GeoTIFF --------------------------------------------------------------------


def tiff(image: Image.Image, fmt: str, transparent: bool, bbox: BBox, srs: str) -> bytes:
    """The drawn image as an uncompressed TIFF (8-bit formats: a palette); a GeoTIFF also
    carries ModelPixelScale, ModelTiepoint and a GeoKey directory naming the EPSG code."""
    eight = TIFF.get(fmt, GEOTIFF.get(fmt, False))
    if not transparent:
        flat = Image.new("RGB", image.size, (255, 255, 255))
        flat.paste(image, mask=image.getchannel("A"))
        image = flat
    if eight:
        image = image.quantize() if image.mode == "RGBA" else image.convert("P")
    info = TiffImagePlugin.ImageFileDirectory_v2()
    if fmt in GEOTIFF:
        minx, miny, maxx, maxy = bbox
        width, height = image.size
        info[33550] = ((maxx - minx) / width, (maxy - miny) / height, 0.0)
        info.tagtype[33550] = TiffTags.DOUBLE
        info[33922] = (0.0, 0.0, 0.0, minx, maxy, 0.0)
        info.tagtype[33922] = TiffTags.DOUBLE
        code = _epsg(srs)
        geographic = crs.is_geographic(srs)
        keys = [1, 1, 0, 3, 1024, 0, 1, 2 if geographic else 1, 1025, 0, 1, 1]
        keys += [2048 if geographic else 3072, 0, 1, code]
        info[34735] = tuple(keys)
        info.tagtype[34735] = TiffTags.SHORT
    out = io.BytesIO()
    image.save(out, "TIFF", tiffinfo=info)
    return out.getvalue()


def _epsg(srs: str) -> int:
    tail = crs.normalise(srs).rsplit(":", 1)[-1]
    return int(tail) if tail.isdigit() and int(tail) < 65536 else 32767


# -- SVG ----------------------------------------------------------------------------------


def _paint(rgba: paint.RGBA | None, what: str) -> str:
    if rgba is None:
        return f' {what}="none"'
    out = f' {what}="#{rgba[0]:02x}{rgba[1]:02x}{rgba[2]:02x}"'
    if rgba[3] != 255:
        out += f' {what}-opacity="{round(rgba[3] / 255, 3)}"'
    return out


def _stroke(stroke: paint.Stroke | None) -> str:
    if stroke is None:
        return ' stroke="none"'
    out = _paint(stroke.rgba, "stroke") + f' stroke-width="{_num(stroke.width)}"'
    if stroke.dash:
        out += f' stroke-dasharray="{" ".join(_num(d) for d in stroke.dash)}"'
    if stroke.cap != "butt":
        out += f' stroke-linecap="{stroke.cap}"'
    if stroke.join != "miter":
        out += f' stroke-linejoin="{stroke.join}"'
    return out


def _pairs(points: list[Any]) -> list[tuple[float, float]]:
    flat = points
    if points and isinstance(points[0], (tuple, list)):
        flat = [c for p in points for c in p[:2]]
    return [(flat[i], flat[i + 1]) for i in range(0, len(flat) - 1, 2)]


def _num(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".") or "0"


def _path(points: list[tuple[float, float]], close: bool) -> str:
    d = " ".join(f"{'M' if i == 0 else 'L'}{_num(x)} {_num(y)}" for i, (x, y) in enumerate(points))
    return d + (" Z" if close else "")


class SvgCanvas:
    """The drawing calls of ``paint.Canvas``, written as SVG elements in drawing order."""

    def __init__(self, width: int, height: int, background: paint.RGBA) -> None:
        self.width, self.height = width, height
        self.background = background
        self.parts: list[str] = []

    def polygon(
        self, rings: list[Any], fill: paint.RGBA | None, stroke: paint.Stroke | None
    ) -> None:
        d = " ".join(_path(_pairs(r), True) for r in rings if len(_pairs(r)) >= 3)
        if d:
            self.parts.append(
                f'<path d="{d}" fill-rule="evenodd"{_paint(fill, "fill")}{_stroke(stroke)}/>'
            )

    def line(self, points: list[Any], stroke: paint.Stroke) -> None:
        pts = _pairs(points)
        if len(pts) >= 2:
            self.parts.append(f'<path d="{_path(pts, False)}" fill="none"{_stroke(stroke)}/>')

    def mark(
        self,
        name: str,
        cx: float,
        cy: float,
        size: float,
        fill: paint.RGBA | None,
        stroke: paint.Stroke | None,
    ) -> None:
        pts = paint.mark_points(name, cx, cy, size)
        style = _paint(fill, "fill") + _stroke(stroke)
        if pts is None:
            self.parts.append(
                f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(size / 2)}"{style}/>'
            )
        else:
            self.parts.append(f'<path d="{_path(list(pts), True)}"{style}/>')

    def text(self, xy: tuple[float, float], value: str, rgba: paint.RGBA = (0, 0, 0, 255)) -> None:
        _, h = paint.text_size(value)
        self.parts.append(
            f'<text x="{_num(xy[0])}" y="{_num(xy[1] + h)}"{_paint(rgba, "fill")}>'
            f"{text(value)}</text>"
        )

    def paste(self, image: Any, x: float, y: float) -> None:
        """A label (``render._SvgLabel``: its lines as text), or an image as a data URI."""
        lines = getattr(image, "lines", None)
        if lines is not None:
            for i, line in enumerate(lines):
                self.parts.append(
                    f'<text x="{_num(x + image.width / 2)}" y="{_num(y + (i + 1) * image.size)}"'
                    f' font-size="{image.size}" text-anchor="middle"{_paint(image.fill, "fill")}>'
                    f"{text(line)}</text>"
                )
            return
        self.image(image, x, y)

    def cover(self, image: Image.Image) -> None:
        """A raster layer: the coloured pixels as an embedded PNG over the whole map."""
        self.image(image, 0, 0)

    def image(self, image: Image.Image, x: float, y: float) -> None:
        import base64

        data = base64.b64encode(paint.encode(image, "image/png", True)).decode("ascii")
        self.parts.append(
            f'<image x="{_num(x)}" y="{_num(y)}" width="{image.width}" height="{image.height}"'
            f' href="data:image/png;base64,{data}"/>'
        )

    def encode(self, transparent: bool) -> bytes:
        head = (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" '
            f'height="{self.height}" viewBox="0 0 {self.width} {self.height}">\n'
        )
        body = []
        if not transparent:
            bg = self.background[:3] + (255,)
            body.append(f'<rect width="100%" height="100%"{_paint(bg, "fill")}/>')
        body += self.parts
        return (head + "".join(p + "\n" for p in body) + "</svg>\n").encode("utf-8")


# -- the OpenLayers preview ----------------------------------------------------------------


def openlayers_page(
    service_url: str, base: str, params: dict[str, str], bbox: BBox, srs: str, size: tuple[int, int]
) -> bytes:
    """A page that shows the same map in OpenLayers (an image WMS source on this service,
    the request's layers, styles and extent), loading OpenLayers from GeoServer's bundled
    ``openlayers3/ol.js``."""
    title = params.get("LAYERS", "")
    wms = {k: v for k, v in sorted(params.items()) if k not in ("BBOX", "WIDTH", "HEIGHT")}
    wms["FORMAT"] = "image/png"
    wms.pop("REQUEST", None)
    config = {
        "url": service_url,
        "params": wms,
        "extent": list(bbox),
        "projection": crs.normalise(srs),
        "size": list(size),
    }
    script = dumps(config).decode("utf-8").replace("</", "<\\/")
    return (
        "<!DOCTYPE html>\n<html>\n<head>\n"
        f"<title>OpenLayers map preview: {text(title)}</title>\n"
        f'<link rel="stylesheet" href="{attr(base)}/openlayers3/ol.css" type="text/css">\n'
        f'<script src="{attr(base)}/openlayers3/ol.js" type="text/javascript"></script>\n'
        "</head>\n<body>\n"
        f'<div id="map" style="width: {size[0]}px; height: {size[1]}px"></div>\n'
        '<script type="text/javascript">\n'
        f"var config = {script};\n"
        "var map = new ol.Map({target: 'map', layers: [new ol.layer.Image({source:\n"
        "  new ol.source.ImageWMS({url: config.url, params: config.params, ratio: 1})})],\n"
        "  view: new ol.View({projection: config.projection})});\n"
        "map.getView().fit(config.extent, map.getSize());\n"
        "</script>\n"
        "</body>\n</html>\n"
    ).encode()
