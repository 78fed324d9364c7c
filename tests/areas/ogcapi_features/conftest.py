"""Fixtures of the OGC API Features tests: an emulator with the extension installed, and a
feature type uploaded as a property file (points, with names, numbers, flags and dates)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from geoserver_emulator import Emulator

API = "/ogc/features/v1"
PRIMS = (
    b"_=name:String,intProperty:Integer,booleanProperty:Boolean,dateProperty:Date,"
    b"pointProperty:Point:srid=4326\n"
    b"prims.1=name-f001|155|true|2006-10-25|POINT(39 2)\n"
    b"prims.2=name-f002|-900|false|2006-09-01|POINT(55 1)\n"
    b"prims.3=name-f003|300|false|2006-10-23|POINT(45 10)\n"
    b"prims.4=name-f004|40|true|2007-01-01|POINT(-170 5)\n"
    b"prims.5=name-f008|10|true|2006-12-12|POINT(175 2)\n"
)
"""five points; in (35,0)-(60,3): prims.1 and prims.2; across the antimeridian between 170
and -160: prims.4 and prims.5"""


@pytest.fixture
def emu() -> Emulator:
    return Emulator("stock", extensions=["ogcapi-features"])


@pytest.fixture
def prims(client: httpx.Client) -> str:
    """``sf:prims`` uploaded (its collection id)."""
    r = client.put(
        "/rest/workspaces/sf/datastores/prims/file.properties",
        content=PRIMS,
        headers={"Content-Type": "text/plain"},
    )
    assert r.status_code == 201, r.text
    return "sf:prims"


def items_of(client: httpx.Client, collection: str, **params: Any) -> dict[str, Any]:
    """The GeoJSON of ``…/items`` (asserting a 200)."""
    r = client.get(f"{API}/collections/{collection}/items", params=params)
    assert r.status_code == 200, r.text
    doc: dict[str, Any] = r.json()
    return doc


def ids(doc: dict[str, Any]) -> list[str]:
    return [f["id"] for f in doc["features"]]


def put_wfs_metadata(client: httpx.Client, xml_entries: str, path: str = "") -> None:
    """Set the WFS service's metadata map through REST (global, or ``path`` =
    ``/workspaces/<ws>``)."""
    body = f"<wfs><metadata>{xml_entries}</metadata></wfs>"
    r = client.put(
        f"/rest/services/wfs{path}/settings",
        content=body.encode(),
        headers={"Content-Type": "application/xml"},
    )
    assert r.status_code == 200, r.text


def switch(**on: bool) -> str:
    """The ``ogcapiFeatures`` metadata entry with these switches."""
    inner = "".join(f"<{k}>{str(v).lower()}</{k}>" for k, v in on.items())
    return f'<entry key="ogcapiFeatures"><ogcapiFeatures>{inner}</ogcapiFeatures></entry>'


@pytest.fixture
def h() -> Any:
    """The helpers above, for the test modules (they cannot import this one)."""
    from types import SimpleNamespace

    return SimpleNamespace(
        API=API, items=items_of, ids=ids, put_wfs_metadata=put_wfs_metadata, switch=switch
    )
