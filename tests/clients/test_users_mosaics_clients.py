"""Users, groups, roles and image mosaics through the real clients (docs/clients.md lists
them as verified): geoserver-rest's user and group calls, geoserver-restconfig's user and
role calls and its mosaic calls. Every test runs in both profiles (``conftest.live``);
geoserver-restconfig's ``create_imagemosaic`` and ``add_granule`` insist on GeoServer's 201 and
202, so under ``spec`` (200 and 201, as the interface spec says) they raise after the server
did the work, as the profile table says they must."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest
from geo.Geoserver import Geoserver, GeoserverException
from geoserver.catalog import Catalog, FailedRequestError

from geoserver_emulator import Emulator


def _mosaic_files() -> ModuleType:
    """The mosaic tests' file makers (``tests/areas/mosaics/conftest.py``)."""
    path = Path(__file__).resolve().parents[1] / "areas" / "mosaics" / "conftest.py"
    spec = importlib.util.spec_from_file_location("mosaic_files", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("mosaic_files", module)
    spec.loader.exec_module(module)
    return module


M = _mosaic_files()


@pytest.fixture
def geo(base_url: str) -> Geoserver:
    return Geoserver(base_url, username="admin", password="geoserver")


@pytest.fixture
def cat(base_url: str) -> Catalog:
    return Catalog(f"{base_url}/rest", "admin", "geoserver")


def test_geoserver_rest_users_and_groups(geo: Geoserver, emu: Emulator) -> None:
    assert geo.get_all_users()["users"]["user"]["userName"] == "admin"
    geo.create_user("bob", "s3cret-pw", enabled=True)
    names = [u["userName"] for u in geo.get_all_users()["users"]["user"]]
    assert names == ["admin", "bob"]
    geo.modify_user("bob", new_password="other-pw", enable=False)
    assert emu.state.users.service().users["bob"].enabled is False
    assert geo.get_all_usergroups()["groups"] is None
    assert geo.create_usergroup("editors") == "Group created successfully"
    assert geo.get_all_usergroups()["groups"]["group"] == "editors"
    assert geo.delete_usergroup("editors") == "Group deleted successfully"
    geo.delete_user("bob")
    with pytest.raises(GeoserverException) as err:
        geo.delete_user("bob")
    assert err.value.status == 404


def test_geoserver_restconfig_users_and_roles(cat: Catalog, emu: Emulator) -> None:
    assert [u.user_name for u in cat.get_users()] == ["admin"]
    cat.create_user("carol", "s3cret-pw")
    assert sorted(u.user_name for u in cat.get_users()) == ["admin", "carol"]
    assert cat.get_roles() == ["ADMIN", "GROUP_ADMIN"]
    cat.add_role_user("ADMIN", "carol")
    assert cat.get_roles_user("carol") == ["ADMIN"]
    cat.del_role_user("ADMIN", "carol")
    assert cat.get_roles_user("carol") == []


def test_geoserver_restconfig_mosaics(
    cat: Catalog, emu: Emulator, base_url: str, tmp_path: Path
) -> None:
    archive = tmp_path / "watertemp.zip"
    archive.write_bytes(M.zipped(M.watertemp()))
    if emu.profile == "spec":  # 200 where the client wants 201: the geoserver profile's row
        with pytest.raises(FailedRequestError, match="file.imagemosaic.*: 200"):
            cat.create_imagemosaic("watertemp", str(archive), workspace="nurc")
        cat = Catalog(f"{base_url}/rest", "admin", "geoserver")  # the store is there: no cache
    else:
        cat.create_imagemosaic("watertemp", str(archive), workspace="nurc")
    store = cat.get_store("watertemp", "nurc")
    coverages = cat.mosaic_coverages(store)["coverages"]["coverage"]
    assert [c["name"] for c in coverages] == ["watertemp"]
    schema = cat.mosaic_coverage_schema("watertemp", store.name, "nurc")
    assert "location" in str(schema)
    granule = tmp_path / "granule.zip"
    tiff = M.geotiff(minx=5.0, maxy=45.0, px=0.25, py=0.25)
    granule.write_bytes(M.zipped({M.granule_name(0, "20081102"): tiff}))
    if emu.profile == "spec":  # the harvest answers 201 where the client wants 202
        with pytest.raises(FailedRequestError, match="add granule.*: 201"):
            cat.add_granule(str(granule), store, "nurc")
    else:
        cat.add_granule(str(granule), store, "nurc")
    ids = [f["id"] for f in cat.list_granules("watertemp", store, "nurc")["features"]]
    assert ids == ["watertemp.1", "watertemp.2", "watertemp.3"]
    cat.delete_granule("watertemp", store, "watertemp.1", "nurc")
    ids = [f["id"] for f in cat.list_granules("watertemp", store, "nurc")["features"]]
    assert ids == ["watertemp.2", "watertemp.3"]


def test_geoserver_restconfig_set_my_pwd(cat: Catalog, base_url: str) -> None:
    cat.set_my_pwd("N3w-admin-pw")
    assert Catalog(f"{base_url}/rest", "admin", "N3w-admin-pw").get_workspace("topp") is not None
    with pytest.raises(FailedRequestError):
        Catalog(f"{base_url}/rest", "admin", "geoserver").get_workspaces()
