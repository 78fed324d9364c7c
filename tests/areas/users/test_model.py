"""The users/groups/roles store: the rules GeoServer's stores apply."""

from __future__ import annotations

import pytest

from geoserver_emulator.areas.users.model import (
    RoleService,
    UserChange,
    UserGroupService,
    UsersStore,
)
from geoserver_emulator.core.errors import Invalid, NotFound, ServerError


@pytest.fixture
def store() -> UsersStore:
    s = UsersStore()
    s.services["default"] = UserGroupService("default")
    s.role_services["default"] = RoleService("default", roles={"ADMIN": {}, "GROUP_ADMIN": {}})
    return s


def test_add_user_requires_every_field(store):
    with pytest.raises(Invalid, match="userName"):
        store.add_user(None, UserChange(None, "pw", True))
    with pytest.raises(Invalid, match="password"):
        store.add_user(None, UserChange("bob", None, True))
    with pytest.raises(Invalid, match="enabled"):
        store.add_user(None, UserChange("bob", "pw", None))
    assert store.service().users == {}


def test_duplicate_names_answer_404_as_geoserver(store):
    store.create_user(None, "bob", "pw", True)
    store.create_group(None, "g")
    store.create_role(None, "R")
    for call, message in [
        (lambda: store.add_user(None, UserChange("bob", "x", True)), "The user bob already exists"),
        (lambda: store.create_group(None, "g"), "The group g already exists"),
        (lambda: store.create_role(None, "R"), "The role R already exists"),
    ]:
        with pytest.raises(Exception) as info:
            call()
        assert info.value.status == 404 and info.value.message == message


def test_update_user_changes_only_given_fields(store):
    store.create_user(None, "bob", "pw", True)
    store.update_user(None, "bob", None, False)
    assert store.service().users["bob"].password == "pw"
    assert store.service().users["bob"].enabled is False
    store.update_user(None, "bob", "new", None)
    assert store.service().users["bob"].password == "new"
    with pytest.raises(NotFound, match="Provided username does not exist: nobody"):
        store.update_user(None, "nobody", "x", None)


def test_delete_user_drops_memberships_but_keeps_roles(store):
    store.create_user(None, "bob", "pw", True)
    store.create_group(None, "g")
    store.join(None, "bob", "g")
    store.assign_user_role(None, "ADMIN", "bob", True)
    store.delete_user(None, "bob")
    assert store.service().memberships["g"] == set()
    assert store.role_service().roles_of_user("bob") == ["ADMIN"]


def test_join_twice_reports_it(store):
    store.create_user(None, "bob", "pw", True)
    store.create_group(None, "g")
    assert store.join(None, "bob", "g") is True
    assert store.join(None, "bob", "g") is False
    store.leave(None, "bob", "g")
    store.leave(None, "bob", "g")  # leaving twice is fine
    assert store.service().groups_of("bob") == []


def test_join_checks_user_and_group(store):
    store.create_user(None, "bob", "pw", True)
    with pytest.raises(NotFound, match="groupname does not exist: g"):
        store.join(None, "bob", "g")
    store.create_group(None, "g")
    with pytest.raises(NotFound, match="username does not exist: al"):
        store.join(None, "al", "g")


def test_roles_through_groups_count_only_when_group_enabled(store):
    store.create_user(None, "bob", "pw", True)
    store.create_group(None, "g")
    store.join(None, "bob", "g")
    store.assign_group_role(None, "ADMIN", "g", True)
    assert store.roles_of_user("bob") == ["ADMIN"]
    assert store.role_service().roles_of_user("bob") == []  # direct roles only
    store.service().groups["g"].enabled = False
    assert store.roles_of_user("bob") == []


def test_delete_role_withdraws_it_everywhere(store):
    store.create_role(None, "R")
    store.assign_user_role(None, "R", "anyone", True)  # user names are not checked
    store.assign_group_role(None, "R", "any-group", True)
    store.delete_role(None, "R")
    assert store.role_service().roles_of_user("anyone") == []
    assert store.role_service().roles_of_group("any-group") == []
    with pytest.raises(NotFound, match="Provided role does not exist: R"):
        store.delete_role(None, "R")


def test_unknown_services(store):
    with pytest.raises(NotFound, match="Provided user/group service does not exist: x"):
        store.service("x")
    with pytest.raises(NotFound, match="Provided roleservice does not exist: x"):
        store.role_service("x")


def test_read_only_services_answer_500(store):
    store.service().read_only = True
    store.role_service().read_only = True
    with pytest.raises(ServerError, match="read-only"):
        store.create_user(None, "bob", "pw", True)
    with pytest.raises(ServerError, match="read-only: default"):
        store.create_role(None, "R")
