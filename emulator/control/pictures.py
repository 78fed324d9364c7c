"""What the inspector shows as pictures rather than text: a map preview per layer and layer
group (a small GetMap with its default style, linking to a larger one and to its OpenLayers
page), a legend per style (GetLegendGraphic), the tiles a tile layer holds per zoom level,
and each seed task's progress over simulated time.

Previews and legends are ``<img>`` elements the browser loads from the emulated WMS; their
``Referer`` is the inspector, so they are never journaled (``http/own.py``). The tile
extents and the progress curves are inline SVG, drawn here from the state. Everything is
deterministic: the same state gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

if TYPE_CHECKING:
    from ..emulator import Emulator

SMALL = 160
"""the preview's longer side, in pixels"""
LARGE = 768
"""the larger map's and the OpenLayers page's longer side"""
TILE_BOX = 96
"""the longer side of a zoom level's picture, in pixels"""
CHART = (220, 48)
"""a progress curve's width and height"""

Box = tuple[float, float, float, float]


def _num(value: float) -> str:
    return format(value, ".10g")


def _size(box: Box, longest: int) -> tuple[int, int]:
    width, height = box[2] - box[0], box[3] - box[1]
    if width <= 0 or height <= 0:
        return longest, longest
    if width >= height:
        return longest, max(8, min(longest, round(longest * height / width)))
    return max(8, min(longest, round(longest * width / height))), longest


def getmap(ctx: str, layer: str, box: Box, longest: int, fmt: str = "image/png") -> str:
    """A GetMap URL of ``layer`` (``ws:name``) with its default style, in EPSG:4326."""
    width, height = _size(box, longest)
    query = {
        "service": "WMS",
        "version": "1.1.0",
        "request": "GetMap",
        "layers": layer,
        "styles": "",
        "bbox": ",".join(_num(v) for v in box),
        "width": str(width),
        "height": str(height),
        "srs": "EPSG:4326",
        "format": fmt,
    }
    return f"{ctx}/wms?{urlencode(query)}"


def preview(ctx: str, layer: str, box: Box | None) -> str:
    """A small map of ``layer``, linking to a larger one and to its OpenLayers page."""
    if box is None:
        return '<span class="muted">no extent to preview</span>'
    width, height = _size(box, SMALL)
    small = escape(getmap(ctx, layer, box, SMALL))
    large = escape(getmap(ctx, layer, box, LARGE))
    openlayers = escape(getmap(ctx, layer, box, LARGE, "application/openlayers"))
    return (
        f'<span class="preview"><a href="{large}" target="_blank">'
        f'<img src="{small}" width="{width}" height="{height}" loading="lazy"'
        f' alt="map of {escape(layer)}"></a>'
        f' <a href="{large}" target="_blank">larger</a> ·'
        f' <a href="{openlayers}" target="_blank">OpenLayers</a></span>'
    )


def legend(ctx: str, style: str, layer: str | None) -> str:
    """The legend of ``style`` (``ws:name`` or ``name``), drawn for ``layer``."""
    if layer is None:
        return '<span class="muted">no layer to draw its legend with</span>'
    query = {
        "service": "WMS",
        "version": "1.1.0",
        "request": "GetLegendGraphic",
        "format": "image/png",
        "width": "20",
        "height": "20",
        "layer": layer,
        "style": style,
    }
    url = escape(f"{ctx}/wms?{urlencode(query)}")
    return f'<img class="legend" src="{url}" loading="lazy" alt="legend of {escape(style)}">'


def layer_boxes(emu: Emulator) -> tuple[dict[str, Box], dict[str, Box]]:
    """The EPSG:4326 extent of every layer (``ws:name``) and layer group (``ws:name`` or
    ``name``) that has one: a group's is its bounds in EPSG:4326, else its members' union."""
    catalog = emu.state.view("catalog")
    layers: dict[str, Box] = {}
    for (ws, name), resource in catalog.resources.items():
        box = resource.latlon_bbox
        if box is not None and (ws, name) in catalog.layers:
            layers[f"{ws}:{name}"] = (box.minx, box.miny, box.maxx, box.maxy)
    groups: dict[str, Box] = {}
    for group in catalog.layer_groups.values():
        key = group.name if group.workspace is None else f"{group.workspace}:{group.name}"
        bounds = group.bounds
        if bounds is not None and (bounds.crs or "").upper() in ("EPSG:4326", "CRS:84"):
            groups[key] = (bounds.minx, bounds.miny, bounds.maxx, bounds.maxy)
            continue
        members = [layers[p.prefixed] for p in group.publishables if p.prefixed in layers]
        if members:
            groups[key] = (
                min(b[0] for b in members),
                min(b[1] for b in members),
                max(b[2] for b in members),
                max(b[3] for b in members),
            )
    return layers, groups


def style_layers(emu: Emulator) -> dict[str, str]:
    """For each style (``ws:name`` or ``name``), a layer to draw its legend with: the first
    layer (by name) that offers it, else the first layer of the catalog."""
    catalog = emu.state.view("catalog")
    out: dict[str, str] = {}
    for (ws, name), layer in sorted(catalog.layers.items()):
        for ref in [layer.default_style, *layer.styles]:
            if ref is not None:
                out.setdefault(ref.prefixed, f"{ws}:{name}")
    if catalog.layers:
        ws, name = min(catalog.layers)
        out.setdefault("", f"{ws}:{name}")
    return out


# -- tiles --------------------------------------------------------------------------------


def tile_extents(emu: Emulator) -> str:
    """Per cached tile layer, gridset and format: one picture per zoom level of the tiles
    the cache holds, within the gridset's full extent at that level."""
    scheduler = emu.scheduler
    scheduler.commit()  # the work done up to now, written into the cache model
    store = scheduler.store
    items = []
    for (layer, gridset_name, fmt, params), tiles in sorted(store.cache.entries.items()):
        gridset = store.gridset(gridset_name)
        levels = []
        for z in sorted(tiles.levels):
            rects = tiles.levels[z]
            wide, high = (
                (gridset.tiles_wide[z], gridset.tiles_high[z])
                if gridset is not None and z < gridset.levels
                else (max(r[2] for r in rects) + 1, max(r[3] for r in rects) + 1)
            )
            count = sum((r[2] - r[0] + 1) * (r[3] - r[1] + 1) for r in rects)
            levels.append(_level(z, wide, high, rects, count))
        shown = ", ".join(f"{k}={v}" for k, v in params)
        items.append(
            f'<li class="tilelayer"><b>{escape(layer)}</b> <span class="muted">'
            f"{escape(gridset_name)} · {escape(fmt)}{' · ' + escape(shown) if shown else ''}"
            f'</span><div class="levels">{"".join(levels)}</div></li>'
        )
    if not items:
        return '<p class="muted">no tiles cached</p>'
    return f'<ul class="tree">{"".join(items)}</ul>'


def _level(z: int, wide: int, high: int, rects: Iterable[Any], count: int) -> str:
    scale = TILE_BOX / max(wide, high)
    width, height = max(4.0, wide * scale), max(4.0, high * scale)
    boxes = "".join(
        f'<rect x="{_num(r[0] * width / wide)}" y="{_num(height - (r[3] + 1) * height / high)}"'
        f' width="{_num(max(1.0, (r[2] - r[0] + 1) * width / wide))}"'
        f' height="{_num(max(1.0, (r[3] - r[1] + 1) * height / high))}"/>'
        for r in rects
    )
    return (
        f'<figure class="level" data-zoom="{z}"><svg width="{_num(width)}"'
        f' height="{_num(height)}" viewBox="0 0 {_num(width)} {_num(height)}">'
        f'<rect class="grid" width="{_num(width)}" height="{_num(height)}"/>{boxes}</svg>'
        f"<figcaption>z{z}: {count} of {wide * high}</figcaption></figure>"
    )


# -- progress over time -------------------------------------------------------------------


def progress_chart(points: list[tuple[float, int, int]]) -> str:
    """Tiles done over simulated time, as a line from the first sample to the last."""
    if len(points) < 2:
        return '<span class="muted">one sample so far</span>' if points else ""
    width, height = CHART
    t0, t1 = points[0][0], points[-1][0]
    top = max(max(total for _, _, total in points), 1)
    span = (t1 - t0) or 1.0
    line = " ".join(
        f"{_num((t - t0) / span * width)},{_num(height - min(done, top) / top * height)}"
        for t, done, _ in points
    )
    return (
        f'<svg class="progress-chart" width="{width}" height="{height}"'
        f' viewBox="0 0 {width} {height}"><rect class="grid" width="{width}"'
        f' height="{height}"/><polyline points="{line}"/></svg>'
        f'<span class="muted"> {_num(t0)}–{_num(t1)} s</span>'
    )
