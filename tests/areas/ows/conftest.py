"""Helpers for the OGC service tests: capabilities parsed, a reader user, fake settings."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from lxml import etree

WMS_NS = {"wms": "http://www.opengis.net/wms", "xlink": "http://www.w3.org/1999/xlink"}
READER = ("reader", "readerpw1")


def caps(client, path: str = "/wms", version: str = "1.3.0", **params: str) -> etree._Element:
    """The WMS capabilities ``client`` gets at ``path``, parsed (asserting a 200 document)."""
    query = {"service": "WMS", "request": "GetCapabilities", "version": version, **params}
    r = client.get(path, params=query)
    assert r.status_code == 200, r.text
    root = etree.fromstring(r.content)
    assert root.tag in ("{http://www.opengis.net/wms}WMS_Capabilities", "WMT_MS_Capabilities"), (
        r.text[:500]
    )
    return root


def layer_names(root: etree._Element) -> list[str]:
    """Every named Layer, in document order (1.1.1 or 1.3.0)."""
    if root.tag == "WMT_MS_Capabilities":
        return [e.text for e in root.iterfind(".//Layer/Name")]
    return [e.text for e in root.iterfind(".//wms:Layer/wms:Name", WMS_NS)]


def exception(r) -> tuple[str | None, str | None, str]:
    """(code, locator, text) of a WMS ServiceExceptionReport."""
    root = etree.fromstring(r.content)
    found = [e for e in root.iter() if etree.QName(e).localname == "ServiceException"]
    assert found, r.text
    e = found[0]
    return e.get("code"), e.get("locator"), (e.text or "").strip()


class FakeSettings:
    """A settings store as the settings area offers it (``INTERFACES.md``)."""

    def __init__(self) -> None:
        self.services: dict[tuple[str, str | None], dict[str, Any]] = {}
        self.global_settings: dict[str | None, dict[str, Any]] = {}
        self.update_sequence = 7

    def service(self, kind: str, workspace: str | None = None) -> dict[str, Any] | None:
        return self.services.get((kind, workspace)) or self.services.get((kind, None))

    def settings(self, workspace: str | None = None) -> dict[str, Any]:
        return self.global_settings.get(workspace) or self.global_settings.get(None) or {}


@pytest.fixture
def settings(emu) -> FakeSettings:
    fake = FakeSettings()
    emu.state.settings = fake
    return fake


@pytest.fixture
def reader(emu, client_for):
    """A client for ``reader``, holding only ``ROLE_READER``."""
    users = emu.state.users
    users.create_user(None, READER[0], READER[1], True)
    users.create_role(None, "ROLE_READER")
    users.assign_user_role(None, "ROLE_READER", READER[0], True)
    return client_for(auth=READER)


@pytest.fixture
def h() -> SimpleNamespace:
    return SimpleNamespace(
        caps=caps, layer_names=layer_names, exception=exception, NS=WMS_NS, READER=READER
    )
