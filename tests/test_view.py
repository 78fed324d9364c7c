"""``Emulator.view``: the public, typed, read-only view of the state tests may read."""

from __future__ import annotations

import dataclasses

import httpx
import pytest

from geoserver_emulator import Emulator
from geoserver_emulator.view import LayerView, StateView

ADMIN = ("admin", "geoserver")


def _client(emu: Emulator) -> httpx.Client:
    transport = httpx.WSGITransport(app=emu.wsgi_app)
    return httpx.Client(transport=transport, base_url="http://x/geoserver", auth=ADMIN)


def test_the_stock_state_by_the_names_users_write() -> None:
    view = Emulator("stock").view
    assert isinstance(view, StateView)
    states = view.layers["topp:states"]
    assert states == LayerView(
        "topp:states", "topp", "states_shapefile", "states", "featureType", "population",
        ("pophatch", "polygon"), "EPSG:4326", None, True,
    )  # fmt: skip
    assert all(key == layer.name for key, layer in view.layers.items())
    assert view.default_workspace == "ne" and view.workspaces["ne"].default
    assert view.workspaces["topp"].uri == "http://www.openplans.org/topp"
    assert view.stores["topp:states_shapefile"].kind == "dataStore"
    assert view.layer_groups["spearfish"].workspace is None  # a global group: no prefix
    assert view.layer_groups["ne:world"].layers[0] == "ne:countries"
    assert view.styles["population"].format == "sld"
    assert view.users["admin"].roles == ("ADMIN",)
    assert view.roles == ("ADMIN", "GROUP_ADMIN")
    assert view.catalog_mode == "HIDE" and view.seed_tasks == ()
    assert list(view.layers) == sorted(view.layers)


def test_a_view_is_a_snapshot_made_when_read() -> None:
    emu = Emulator("stock")
    before = emu.view
    with _client(emu) as c:
        assert c.post("/rest/workspaces.json", json={"workspace": {"name": "w"}}).status_code == 201
        body = {"user": {"userName": "bob", "password": "pw", "enabled": False}}
        assert c.post("/rest/security/usergroup/users", json=body).status_code == 201
        assert c.post("/rest/security/roles/role/ADMIN/user/bob").status_code == 200
        seed = {"seedRequest": {"name": "topp:states", "zoomStart": 0, "zoomStop": 2,
                "type": "seed", "threadCount": 1, "srs": {"number": 4326},
                "format": "image/png"}}  # fmt: skip
        assert c.post("/gwc/rest/seed/topp:states.json", json=seed).status_code == 200
    after = emu.view
    assert "w" not in before.workspaces and "bob" not in before.users
    assert after.workspaces["w"].uri is not None
    assert after.users["bob"].enabled is False and after.users["bob"].roles == ("ADMIN",)
    [task] = after.seed_tasks
    assert task.layer == "topp:states"


def test_a_view_cannot_be_changed() -> None:
    view = Emulator("stock").view
    with pytest.raises(TypeError):
        view.layers["x:y"] = view.layers["topp:states"]  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.layers["topp:states"].enabled = False  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.catalog_mode = "MIXED"  # type: ignore[misc]


def test_the_empty_scenario() -> None:
    view = Emulator("empty").view
    assert dict(view.workspaces) == {} and dict(view.layers) == {}
    assert view.default_workspace is None
    assert set(view.styles) >= {"point", "line", "polygon", "raster", "generic"}
