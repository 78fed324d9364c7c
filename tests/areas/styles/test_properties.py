"""Properties over HTTP: any valid SLD posted comes back byte for byte, with the right record.

These run over the ASGI app: httpx's WSGI transport hands the WSGI adapter a ``PATH_INFO``
that is already UTF-8-decoded (PEP 3333 wants it latin-1), which garbles non-ASCII style
names in paths; a real WSGI server does not.
"""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import quote
from xml.sax.saxutils import escape

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from geoserver_emulator.areas.styles import sld as sld_module

NAME_CHARS = st.sampled_from("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_- &é")
names = (
    st.text(NAME_CHARS, min_size=1, max_size=16)
    .map(lambda s: "h" + s.strip())
    .filter(lambda s: "  " not in s)
)
colours = st.from_regex(r"#[0-9A-F]{6}", fullmatch=True)


def _param(name: str, value: object, version: str) -> str:
    tag = "CssParameter" if version == "1.0.0" else "se:SvgParameter"
    return f'<{tag} name="{name}">{value}</{tag}>'


@st.composite
def symbolizers(draw, version: str) -> str:
    p = "" if version == "1.0.0" else "se:"
    kind = draw(st.sampled_from(["Point", "Line", "Polygon", "Text", "Raster"]))
    colour = draw(colours)
    width = draw(st.integers(1, 9))
    if kind == "Line":
        params = _param("stroke", colour, version) + _param("stroke-width", width, version)
        inner = f"<{p}Stroke>{params}</{p}Stroke>"
    elif kind == "Polygon":
        inner = f"<{p}Fill>{_param('fill', colour, version)}</{p}Fill>"
    elif kind == "Point":
        shape = draw(st.sampled_from(["square", "circle", "triangle", "star"]))
        inner = (
            f"<{p}Graphic><{p}Mark><{p}WellKnownName>{shape}</{p}WellKnownName>"
            f"<{p}Fill>{_param('fill', colour, version)}</{p}Fill></{p}Mark>"
            f"<{p}Size>{width}</{p}Size></{p}Graphic>"
        )
    elif kind == "Text":
        inner = f"<{p}Label><ogc:PropertyName>name</ogc:PropertyName></{p}Label>"
    else:
        inner = f"<{p}Opacity>{width / 10}</{p}Opacity>"
    return f"<{p}{kind}Symbolizer>{inner}</{p}{kind}Symbolizer>"


@st.composite
def documents(draw) -> tuple[bytes, str, str]:
    """(SLD bytes, UserStyle name, version)."""
    version = draw(st.sampled_from(["1.0.0", "1.1.0"]))
    p = "" if version == "1.0.0" else "se:"
    style = draw(names)
    rules = ""
    for _ in range(draw(st.integers(1, 3))):
        title = escape(draw(names))
        filt = ""
        if draw(st.booleans()):
            filt = (
                "<ogc:Filter><ogc:PropertyIsGreaterThan><ogc:PropertyName>v</ogc:PropertyName>"
                f"<ogc:Literal>{draw(st.integers(0, 100))}</ogc:Literal>"
                "</ogc:PropertyIsGreaterThan></ogc:Filter>"
            )
        body = "".join(draw(st.lists(symbolizers(version), min_size=1, max_size=3)))
        rules += f"<{p}Rule><{p}Name>{title}</{p}Name>{filt}{body}</{p}Rule>"
    indent = draw(st.sampled_from(["", "\n", "\n  ", "\r\n\t"]))
    doc = (
        f'<?xml version="1.0" encoding="UTF-8"?>{indent}'
        f'<StyledLayerDescriptor version="{version}" xmlns="http://www.opengis.net/sld" '
        'xmlns:se="http://www.opengis.net/se" xmlns:ogc="http://www.opengis.net/ogc">'
        f"{indent}<NamedLayer><{p}Name>{escape(draw(names))}</{p}Name>"
        f"<UserStyle><{p}Name>{escape(style)}</{p}Name>"
        f"<{p}FeatureTypeStyle>{rules}</{p}FeatureTypeStyle></UserStyle></NamedLayer>{indent}"
        "</StyledLayerDescriptor>"
    )
    return doc.encode("utf-8"), style, version


class AsgiClient:
    """A synchronous client over the emulator's ASGI app (one event loop per request)."""

    def __init__(self, emu: Any) -> None:
        self.emu = emu

    def request(self, method: str, url: str, **kw: Any) -> httpx.Response:
        async def go() -> httpx.Response:
            transport = httpx.ASGITransport(app=self.emu.asgi_app)
            async with httpx.AsyncClient(
                transport=transport,
                base_url="http://localhost:8080/geoserver",
                auth=("admin", "geoserver"),
            ) as c:
                r = await c.request(method, url, **kw)
                await r.aread()
                return r

        return asyncio.run(go())

    def get(self, url: str, **kw: Any) -> httpx.Response:
        return self.request("GET", url, **kw)

    def post(self, url: str, **kw: Any) -> httpx.Response:
        return self.request("POST", url, **kw)

    def put(self, url: str, **kw: Any) -> httpx.Response:
        return self.request("PUT", url, **kw)


@pytest.fixture
def client(emu):
    yield AsgiClient(emu)
    assert not emu.internal_errors, emu.internal_errors


MEDIA = {"1.0.0": "application/vnd.ogc.sld+xml", "1.1.0": "application/vnd.ogc.se+xml"}


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(doc=documents(), named=st.booleans(), workspace=st.sampled_from([None, "sf"]))
def test_posted_sld_comes_back_byte_for_byte(emu, client, doc, named, workspace):
    emu.reset()
    body, style, version = doc
    assert sld_module.inspect(body).style_name == style
    base = "/rest/styles" if workspace is None else f"/rest/workspaces/{workspace}/styles"
    params = {"name": style} if named else {}
    r = client.post(base, content=body, headers={"Content-Type": MEDIA[version]}, params=params)
    assert (r.status_code, r.text) == (201, style)
    path = f"{base}/{quote(style, safe='')}"
    assert r.headers["location"].endswith(path)
    got = client.get(path, headers={"Accept": MEDIA[version]})
    assert got.status_code == 200 and got.content == body
    record = client.get(f"{path}.json").json()["style"]
    assert (record["name"], record["format"], record["languageVersion"]["version"]) == (
        style,
        "sld",
        version,
    )
    assert record.get("workspace", {}).get("name") == workspace
    assert (
        client.put(path, content=body, headers={"Content-Type": MEDIA[version]}).status_code == 200
    )
    assert client.get(path, headers={"Accept": MEDIA[version]}).content == body


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(doc=documents())
def test_converted_bodies_keep_the_style_name(emu, client, doc):
    emu.reset()
    body, style, version = doc
    client.post("/rest/styles", content=body, headers={"Content-Type": MEDIA[version]})
    other = "1.1.0" if version == "1.0.0" else "1.0.0"
    got = client.get(f"/rest/styles/{quote(style, safe='')}", headers={"Accept": MEDIA[other]})
    assert got.status_code == 200
    found = sld_module.inspect(got.content)
    assert (found.style_name, found.version) == (style, other)
