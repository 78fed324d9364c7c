"""GetCapabilities at scale (issue 34, part 2's goals): WMS 1.3.0, WMTS and WFS 2.0.0 at
several catalog sizes, each right after a write that changes a layer (against a naive
string-built document of the same layers, built per request through the same transport:
goal ≤ 5×) and repeated with nothing changed (goal ≤ 0.2 ms). The caches that would meet
these goals come with the reshaped OGC services; until then they print "not met"."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from xml.sax.saxutils import escape

import httpx
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from geoserver_emulator import Emulator
from geoserver_emulator.http.wsgi import WSGIApp

from .common import absolute, big_catalog, client, paired, row

SERVICES = {
    "WMS 1.3.0 GetCapabilities": "/wms?service=WMS&version=1.3.0&request=GetCapabilities",
    "WMTS GetCapabilities": "/gwc/service/wmts?SERVICE=WMTS&REQUEST=GetCapabilities",
    "WFS 2.0.0 GetCapabilities": "/wfs?service=WFS&version=2.0.0&request=GetCapabilities",
}
NAIVE_GOAL = 5.0
REPEATED_GOAL_MS = 0.2


def _layers(emu: Emulator) -> list[tuple[str, str, tuple[float, float, float, float], str]]:
    """(prefixed name, title, lon/lat box, default style) of every published layer."""
    catalog = emu.state.catalog
    out = []
    for (ws, name), layer in catalog.layers.items():
        resource = catalog.resources.get((ws, name))
        box = getattr(resource, "latlon_bbox", None)
        bounds = (box.minx, box.miny, box.maxx, box.maxy) if box else (-180.0, -90.0, 180.0, 90.0)
        title = getattr(resource, "title", None) or name
        style = layer.default_style.name if layer.default_style else ""
        out.append((f"{ws}:{name}", title, bounds, style))
    return out


def _wms(layers: list[Any]) -> str:
    parts = ['<WMS_Capabilities version="1.3.0"><Service><Name>WMS</Name></Service>']
    parts.append("<Capability><Layer><Title>GeoServer</Title>")
    for name, title, (w, s, e, n), style in layers:
        parts.append(
            f'<Layer queryable="1"><Name>{escape(name)}</Name><Title>{escape(title)}</Title>'
            f"<Abstract/><KeywordList/><CRS>EPSG:4326</CRS><EX_GeographicBoundingBox>"
            f"<westBoundLongitude>{w!r}</westBoundLongitude><eastBoundLongitude>{e!r}"
            f"</eastBoundLongitude><southBoundLatitude>{s!r}</southBoundLatitude>"
            f"<northBoundLatitude>{n!r}</northBoundLatitude></EX_GeographicBoundingBox>"
            f'<BoundingBox CRS="CRS:84" minx="{w!r}" miny="{s!r}" maxx="{e!r}" maxy="{n!r}"/>'
            f"<Style><Name>{escape(style)}</Name><Title>{escape(style)}</Title><LegendURL "
            f'width="20" height="20"><Format>image/png</Format><OnlineResource xlink:href="'
            f"http://localhost/geoserver/ows?service=WMS&amp;request=GetLegendGraphic&amp;"
            f'layer={escape(name)}"/></LegendURL></Style></Layer>'
        )
    parts.append("</Layer></Capability></WMS_Capabilities>")
    return "".join(parts)


def _wmts(layers: list[Any]) -> str:
    parts = ['<Capabilities version="1.0.0"><Contents>']
    for name, title, (w, s, e, n), style in layers:
        parts.append(
            f"<Layer><ows:Title>{escape(title)}</ows:Title><ows:WGS84BoundingBox>"
            f"<ows:LowerCorner>{w!r} {s!r}</ows:LowerCorner><ows:UpperCorner>{e!r} {n!r}"
            f"</ows:UpperCorner></ows:WGS84BoundingBox><ows:Identifier>{escape(name)}"
            f'</ows:Identifier><Style isDefault="true"><ows:Identifier>{escape(style)}'
            f"</ows:Identifier></Style><Format>image/png</Format><Format>image/jpeg</Format>"
            f"<TileMatrixSetLink><TileMatrixSet>EPSG:4326</TileMatrixSet></TileMatrixSetLink>"
            f"<TileMatrixSetLink><TileMatrixSet>EPSG:900913</TileMatrixSet></TileMatrixSetLink>"
            f'<ResourceURL format="image/png" resourceType="tile" template="http://localhost/'
            f"geoserver/gwc/service/wmts/rest/{escape(name)}/{{style}}/{{TileMatrixSet}}/"
            f'{{TileMatrix}}/{{TileRow}}/{{TileCol}}?format=image/png"/></Layer>'
        )
    parts.append("</Contents></Capabilities>")
    return "".join(parts)


def _wfs(layers: list[Any]) -> str:
    parts = ['<wfs:WFS_Capabilities version="2.0.0"><FeatureTypeList>']
    for name, title, (w, s, e, n), _ in layers:
        parts.append(
            f"<FeatureType><Name>{escape(name)}</Name><Title>{escape(title)}</Title>"
            f"<Abstract/><ows:Keywords/><DefaultCRS>urn:ogc:def:crs:EPSG::4326</DefaultCRS>"
            f"<ows:WGS84BoundingBox><ows:LowerCorner>{w!r} {s!r}</ows:LowerCorner>"
            f"<ows:UpperCorner>{e!r} {n!r}</ows:UpperCorner></ows:WGS84BoundingBox>"
            f"</FeatureType>"
        )
    parts.append("</FeatureTypeList></wfs:WFS_Capabilities>")
    return "".join(parts)


def naive_app(emu: Emulator) -> Any:
    """Each document string-built per request from the same emulator's layers."""
    builders: dict[str, Callable[[list[Any]], str]] = {"wms": _wms, "wmts": _wmts, "wfs": _wfs}

    async def document(request: Request) -> Response:
        text = builders[request.path_params["kind"]](_layers(emu))
        return Response(text, media_type="application/xml")

    return WSGIApp(Starlette(routes=[Route("/geoserver/naive/{kind}", document)]))


def capabilities_figures(sizes: list[int], calls: int) -> None:
    print(f"\nGetCapabilities at +{', +'.join(map(str, sizes))} extra layers (CPU, medians)")
    for size in sizes:
        emu = Emulator(big_catalog(size) if size else "stock")
        _size_figures(size, client(emu.wsgi_app), client(naive_app(emu)), calls)


def _size_figures(size: int, ours: httpx.Client, naive: httpx.Client, calls: int) -> None:
    changes = iter(range(1_000_000))

    def change() -> None:
        body = {"featureType": {"title": f"roads {next(changes)}"}}
        r = ours.put("/rest/workspaces/sf/datastores/sf/featuretypes/roads.json", json=body)
        assert r.status_code == 200, r.text

    for (label, path), kind in zip(SERVICES.items(), ("wms", "wmts", "wfs"), strict=True):

        def after_change(p: str = path) -> None:
            change()
            ours.get(p)

        first, write, string_built, repeated = paired(
            [
                after_change,
                change,
                lambda k=kind: naive.get(f"/naive/{k}"),
                lambda p=path: ours.get(p),
            ],
            calls,
        )
        row(
            f"{label}, +{size} layers, after a change",
            max(first - write, 1e-9),
            string_built,
            NAIVE_GOAL,
            "naive",
        )
        absolute(f"{label}, +{size} layers, repeated", repeated, REPEATED_GOAL_MS)
