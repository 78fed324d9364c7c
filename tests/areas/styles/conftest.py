"""Helpers for the styles tests: SLD, SE, CSS and ZIP bodies, and record bodies in XML and JSON."""

from __future__ import annotations

import io
import json
import zipfile
from types import SimpleNamespace

import pytest

SLD_10 = "application/vnd.ogc.sld+xml"
SLD_11 = "application/vnd.ogc.se+xml"
CSS = "application/vnd.geoserver.geocss+css"
CSS_SPEC = "application/vnd.service.geocss+css"
RECORD_TYPES = {"xml": "text/xml", "json": "application/json"}
READER = ("reader", "readerpw1")


def sld(style: str | None = "foo", layer: str = "foo", rules: str | None = None) -> bytes:
    """A small SLD 1.0 document; ``style=None`` leaves the UserStyle unnamed."""
    name = "" if style is None else f"<Name>{style}</Name>"
    rules = (
        rules
        if rules is not None
        else (
            '<Rule><PolygonSymbolizer><Fill><CssParameter name="fill">#FF0000</CssParameter>'
            "</Fill></PolygonSymbolizer></Rule>"
        )
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<StyledLayerDescriptor version="1.0.0" xmlns="http://www.opengis.net/sld" '
        'xmlns:ogc="http://www.opengis.net/ogc" xmlns:xlink="http://www.w3.org/1999/xlink">\n'
        f"  <NamedLayer><Name>{layer}</Name><UserStyle>{name}<Title>A style</Title>"
        f"<FeatureTypeStyle>{rules}</FeatureTypeStyle></UserStyle></NamedLayer>\n"
        "</StyledLayerDescriptor>\n"
    ).encode()


def se(style: str = "foo") -> bytes:
    """A small SLD 1.1 (Symbology Encoding) document."""
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<StyledLayerDescriptor version="1.1.0" xmlns="http://www.opengis.net/sld" '
        'xmlns:se="http://www.opengis.net/se" xmlns:ogc="http://www.opengis.net/ogc">\n'
        f"  <NamedLayer><se:Name>{style}</se:Name><UserStyle><se:Name>{style}</se:Name>"
        "<se:FeatureTypeStyle><se:Rule><se:LineSymbolizer><se:Stroke>"
        '<se:SvgParameter name="stroke">#aa6e8e</se:SvgParameter>'
        "</se:Stroke></se:LineSymbolizer></se:Rule></se:FeatureTypeStyle></UserStyle></NamedLayer>\n"
        "</StyledLayerDescriptor>\n"
    ).encode()


def group_sld(*layers: str) -> bytes:
    """A style group: several NamedLayers with no UserStyle."""
    named = "".join(f"<NamedLayer><Name>{n}</Name></NamedLayer>" for n in layers)
    return (
        '<StyledLayerDescriptor version="1.0.0" xmlns="http://www.opengis.net/sld">'
        f"{named}</StyledLayerDescriptor>"
    ).encode()


def css(name: str | None = None) -> bytes:
    head = f"@styleName '{name}';\n" if name else ""
    return (
        head + "/* roads */\n* { stroke: #333333; stroke-width: 2 }\n"
        "[type = 'highway'] { stroke-width: 4; :mark { fill: red } }\n"
    ).encode()


def package(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            z.writestr(name, data)
    return buf.getvalue()


def icon_sld(style: str = "foo", icon: str = "gear.png") -> bytes:
    rules = (
        "<Rule><PointSymbolizer><Graphic><ExternalGraphic>"
        f'<OnlineResource xlink:type="simple" xlink:href="{icon}"/><Format>image/png</Format>'
        "</ExternalGraphic><Size>16</Size></Graphic></PointSymbolizer></Rule>"
    )
    return sld(style, style, rules)


def record(fmt: str, **fields: object) -> str:
    """A style record body; ``workspace`` is written as ``{"name": …}`` / ``<workspace><name>``."""
    if fmt == "json":
        obj = dict(fields)
        if isinstance(obj.get("workspace"), str) and obj["workspace"]:
            obj["workspace"] = {"name": obj["workspace"]}
        return json.dumps({"style": obj})
    inner = ""
    for key, value in fields.items():
        if key == "workspace" and value:
            inner += f"<workspace><name>{value}</name></workspace>"
        elif key == "languageVersion":
            inner += f"<languageVersion><version>{value}</version></languageVersion>"
        else:
            inner += f"<{key}>{value if value is not None else ''}</{key}>"
    return f"<style>{inner}</style>"


def post(client, url: str, body: bytes | str, content_type: str, **params: str):
    data = body.encode() if isinstance(body, str) else body
    return client.post(url, content=data, headers={"Content-Type": content_type}, params=params)


def put(client, url: str, body: bytes | str, content_type: str, **params: str):
    data = body.encode() if isinstance(body, str) else body
    return client.put(url, content=data, headers={"Content-Type": content_type}, params=params)


@pytest.fixture
def h() -> SimpleNamespace:
    """The helpers above, for test modules (which cannot import a conftest)."""
    return SimpleNamespace(
        sld=sld,
        se=se,
        group_sld=group_sld,
        css=css,
        package=package,
        icon_sld=icon_sld,
        record=record,
        post=post,
        put=put,
        SLD_10=SLD_10,
        SLD_11=SLD_11,
        CSS=CSS,
        CSS_SPEC=CSS_SPEC,
        RECORD_TYPES=RECORD_TYPES,
    )


@pytest.fixture
def reader(emu, client_for):
    """A client for user ``reader`` holding only ``ROLE_READER``."""
    users = emu.state.users
    users.create_user(None, READER[0], READER[1], True)
    users.create_role(None, "ROLE_READER")
    users.assign_user_role(None, "ROLE_READER", READER[0], True)
    return client_for(auth=READER)
