"""Users, groups and roles over HTTP, as a client sees them."""

from __future__ import annotations

import pytest

UG = "/rest/security/usergroup"
ROLES = "/rest/security/roles"
XML = {"Content-Type": "application/xml"}


def _xml_user(name: str, password: str = "pw", enabled: str = "true") -> str:
    return (
        f"<user><userName>{name}</userName><password>{password}</password>"
        f"<enabled>{enabled}</enabled></user>"
    )


def _json_user(name: str, password: str = "pw", enabled: bool = True) -> dict:
    return {"user": {"userName": name, "password": password, "enabled": enabled}}


def _names(emu) -> set[str]:
    return set(emu.state.users.service().users)


# -- reading -------------------------------------------------------------------------------


def test_users_default_to_xml(client):
    r = client.get(f"{UG}/users")
    assert r.status_code == 200
    assert r.headers["content-type"] == "application/xml"
    assert (
        b"<users><user><userName>admin</userName><enabled>true</enabled></user></users>"
        in r.content
    )


@pytest.mark.parametrize(
    ("path", "headers"),
    [
        (f"{UG}/users.json", {}),
        (f"{UG}/users", {"Accept": "application/json"}),
        (f"{UG}/users/", {"Accept": "text/json"}),
    ],
)
def test_users_as_json(client, path, headers):
    r = client.get(path, headers=headers)
    assert r.status_code == 200
    assert r.headers["content-type"] == "application/json"
    assert r.json() == {"users": [{"userName": "admin", "password": None, "enabled": True}]}


@pytest.mark.parametrize("accept", ["*/*", "application/xml", "text/xml", "application/*"])
def test_users_as_xml_by_accept(client, accept):
    r = client.get(f"{UG}/users", headers={"Accept": accept})
    assert r.status_code == 200 and r.headers["content-type"] == "application/xml"


@pytest.mark.parametrize(
    ("path", "accept"),
    [(f"{UG}/users", "text/html"), (f"{UG}/users.html", None), (f"{ROLES}", "image/png")],
)
def test_unacceptable_format_is_406(client, path, accept):
    r = client.get(path, headers={"Accept": accept} if accept else {})
    assert r.status_code == 406


def test_unknown_extension_is_404(client):
    assert client.get(f"{UG}/users.yaml").status_code == 404


def test_curl_quick_start_line(client):
    """The README's first call: ``curl -u admin:geoserver …/rest/security/usergroup/users.json``."""
    r = client.get(f"{UG}/users.json", headers={"Accept": "*/*", "User-Agent": "curl/8.0"})
    assert r.status_code == 200 and r.json()["users"][0]["userName"] == "admin"


def test_roles_list(client):
    r = client.get(ROLES)
    assert r.status_code == 200 and r.headers["content-type"] == "application/xml"
    assert r.content.endswith(b"<roles><role>ADMIN</role><role>GROUP_ADMIN</role></roles>")
    assert client.get(f"{ROLES}.json").json() == {"roles": ["ADMIN", "GROUP_ADMIN"]}
    assert client.get(f"{ROLES}/service/default.json").json() == {"roles": ["ADMIN", "GROUP_ADMIN"]}
    assert client.get(f"{ROLES}/user/admin.json").json() == {"roles": ["ADMIN"]}
    assert client.get(f"{ROLES}/user/nobody.json").json() == {"roles": []}  # not checked


def test_groups_list_empty_in_stock(client):
    assert client.get(f"{UG}/groups.json").json() == {"groups": []}
    assert client.get(f"{UG}/groups").content.endswith(b"<groups/>")


# -- users: create, update, delete ---------------------------------------------------------


@pytest.mark.parametrize("form", ["xml", "json"])
def test_created_user_can_log_in_at_once(client, client_for, form):
    if form == "xml":
        r = client.post(f"{UG}/users", content=_xml_user("bob", "secret"), headers=XML)
    else:
        r = client.post(f"{UG}/users", json=_json_user("bob", "secret"))
    assert r.status_code == 201
    bob = client_for(auth=("bob", "secret"))
    assert bob.get(f"{UG}/users").status_code == 403  # authenticated, not an administrator
    assert client_for(auth=("bob", "wrong")).get(f"{UG}/users").status_code == 401
    assert client.post(f"{ROLES}/role/ADMIN/user/bob").status_code == 200
    assert bob.get(f"{UG}/users").status_code == 200


def test_created_disabled_user_cannot_log_in(client, client_for):
    assert (
        client.post(
            f"{UG}/users/",
            content=_xml_user("carl", enabled="false"),
            headers={"Content-Type": "text/xml"},
        ).status_code
        == 201
    )
    assert client.get(f"{UG}/users.json").json()["users"][1] == {
        "userName": "carl",
        "password": None,
        "enabled": False,
    }
    r = client_for(auth=("carl", "pw")).get(f"{UG}/users")
    assert r.status_code == 401 and r.headers["www-authenticate"] == 'Basic realm="GeoServer Realm"'


def test_create_duplicate_user_is_404_as_geoserver(client):
    r = client.post(f"{UG}/users", json=_json_user("admin"))
    assert r.status_code == 404 and r.text == "The user admin already exists"


@pytest.mark.parametrize(
    ("content", "ctype", "status"),
    [
        ('{"userName": "bob", "password": "pw", "enabled": true}', "application/json", 400),
        ("<user><userName>bob</userName><password>pw</password></user>", "application/xml", 400),
        ("<user><userName>bob</userName><enabled>true</enabled></user>", "application/xml", 400),
        ("<user><password>pw</password><enabled>true</enabled></user>", "application/xml", 400),
        ("<user><userName>bob</userName>", "application/xml", 400),
        ("{not json", "application/json", 400),
        ("", "application/json", 400),
        (_xml_user("bob"), "text/plain", 415),
        (_xml_user("bob"), "application/octet-stream", 415),
        (
            '<?xml version="1.0"?><!DOCTYPE u [<!ENTITY e SYSTEM "file:///etc/passwd">]>'
            "<user><userName>&e;</userName><password>p</password><enabled>true</enabled></user>",
            "application/xml",
            400,
        ),
    ],
)
def test_bad_user_bodies_change_nothing(emu, client, content, ctype, status):
    before = _names(emu)
    r = client.post(f"{UG}/users", content=content, headers={"Content-Type": ctype})
    assert r.status_code == status
    assert r.text  # a message, never an empty error
    assert _names(emu) == before


def test_missing_content_type_is_415(emu, client):
    r = client.post(f"{UG}/users", content=_xml_user("bob"))
    assert r.status_code == 415 and "bob" not in _names(emu)


@pytest.mark.parametrize("form", ["xml", "json"])
def test_update_password_and_enabled(client, client_for, form):
    client.post(f"{UG}/users", json=_json_user("bob", "old"))
    client.post(f"{ROLES}/role/ADMIN/user/bob")
    if form == "xml":
        r = client.post(
            f"{UG}/user/bob", content="<user><password>new</password></user>", headers=XML
        )
    else:
        r = client.post(f"{UG}/user/bob", json={"user": {"password": "new"}})
    assert r.status_code == 200
    assert client_for(auth=("bob", "old")).get(ROLES).status_code == 401
    assert client_for(auth=("bob", "new")).get(ROLES).status_code == 200
    assert client.post(f"{UG}/user/bob.json", json={"user": {"enabled": False}}).status_code == 200
    assert client_for(auth=("bob", "new")).get(ROLES).status_code == 401
    assert client.get(f"{UG}/users.json").json()["users"][1]["enabled"] is False


def test_update_ignores_user_name_in_body(emu, client):
    client.post(f"{UG}/users", json=_json_user("bob"))
    assert client.post(f"{UG}/user/bob", json={"user": {"userName": "eve"}}).status_code == 200
    assert _names(emu) == {"admin", "bob"}


def test_update_unknown_user_is_404(client):
    r = client.post(f"{UG}/user/nobody", json={"user": {"password": "x"}})
    assert r.status_code == 404 and r.text == "Provided username does not exist: nobody"


def test_user_path_has_no_get(client):
    r = client.get(f"{UG}/user/admin")
    assert r.status_code == 405 and set(r.headers["allow"].split(", ")) == {"POST", "DELETE"}


def test_delete_user(emu, client):
    client.post(f"{UG}/users", json=_json_user("bob"))
    assert client.delete(f"{UG}/user/bob").status_code == 200
    assert "bob" not in _names(emu)
    r = client.delete(f"{UG}/user/bob")
    assert r.status_code == 404 and "bob" in r.text


# -- groups and membership -----------------------------------------------------------------


def test_group_lifecycle(client):
    client.post(f"{UG}/users", json=_json_user("pipo"))
    assert client.post(f"{UG}/group/clowns").status_code == 201
    assert client.post(f"{UG}/group/circus").status_code == 201
    r = client.post(f"{UG}/group/clowns")
    assert r.status_code == 404 and r.text == "The group clowns already exists"
    assert client.get(f"{UG}/groups.json").json() == {"groups": ["circus", "clowns"]}
    assert client.get(f"{UG}/groups.xml").content.endswith(
        b"<groups><group>circus</group><group>clowns</group></groups>"
    )

    assert client.post(f"{UG}/user/pipo/group/clowns").status_code == 200
    r = client.post(f"{UG}/user/pipo/group/clowns")
    assert r.status_code == 200 and r.text == "Username already associated with this groupname"
    client.post(f"{UG}/user/pipo/group/circus")
    assert client.get(f"{UG}/user/pipo/groups.json").json() == {"groups": ["circus", "clowns"]}
    assert client.get(f"{UG}/group/clowns/users.json").json() == {
        "users": [{"userName": "pipo", "password": None, "enabled": True}]
    }
    assert b"<userName>pipo</userName>" in client.get(f"{UG}/group/clowns/users").content

    assert client.delete(f"{UG}/user/pipo/group/circus").status_code == 200
    assert client.get(f"{UG}/user/pipo/groups.json").json() == {"groups": ["clowns"]}
    assert client.delete(f"{UG}/group/circus").status_code == 200
    assert client.get(f"{UG}/groups.json").json() == {"groups": ["clowns"]}


@pytest.mark.parametrize(
    ("method", "path", "message"),
    [
        ("GET", f"{UG}/user/niemand/groups", "Provided username does not exist: niemand"),
        ("GET", f"{UG}/group/onbestaand/users", "Provided groupname does not exist: onbestaand"),
        ("DELETE", f"{UG}/group/onbestaand", "Provided groupname does not exist: onbestaand"),
        (
            "POST",
            f"{UG}/user/admin/group/onbestaand",
            "Provided groupname does not exist: onbestaand",
        ),
        ("DELETE", f"{UG}/user/niemand/group/g", "Provided username does not exist: niemand"),
        ("GET", f"{UG}/service/blabla/users", "Provided user/group service does not exist: blabla"),
        (
            "POST",
            f"{UG}/service/blabla/group/g",
            "Provided user/group service does not exist: blabla",
        ),
        ("GET", f"{ROLES}/service/blabla", "Provided roleservice does not exist: blabla"),
        ("DELETE", f"{ROLES}/role/onbestaand", "Provided role does not exist: onbestaand"),
        ("POST", f"{ROLES}/role/onbestaand/user/admin", "Provided role does not exist: onbestaand"),
    ],
)
def test_unknown_names_are_404_with_geoserver_message(client, method, path, message):
    r = client.request(method, path)
    assert r.status_code == 404
    assert r.text == message
    assert r.headers["content-type"].startswith("text/plain")


def test_quiet_on_not_found(client):
    r = client.get(f"{UG}/group/none/users", params={"quietOnNotFound": "true"})
    assert r.status_code == 404 and r.text == ""


# -- roles ---------------------------------------------------------------------------------


def test_role_lifecycle(client):
    assert client.post(f"{ROLES}/role/vozen").status_code == 201
    r = client.post(f"{ROLES}/role/vozen")
    assert r.status_code == 404 and r.text == "The role vozen already exists"
    client.post(f"{ROLES}/role/kwiestenbiebel")
    assert client.post(f"{ROLES}/role/vozen/user/pipo").status_code == 200
    client.post(f"{ROLES}/role/kwiestenbiebel/user/pipo")
    assert client.get(f"{ROLES}/user/pipo.json").json() == {"roles": ["kwiestenbiebel", "vozen"]}
    assert client.delete(f"{ROLES}/role/kwiestenbiebel/user/pipo").status_code == 200
    assert client.get(f"{ROLES}/user/pipo").content.endswith(b"<roles><role>vozen</role></roles>")
    assert client.delete(f"{ROLES}/role/vozen").status_code == 200
    assert client.get(f"{ROLES}/user/pipo.json").json() == {"roles": []}
    assert "vozen" not in client.get(f"{ROLES}.json").json()["roles"]


def test_role_for_group_grants_it_to_members(client, client_for):
    client.post(f"{UG}/users", json=_json_user("bob"))
    client.post(f"{UG}/group/admins")
    client.post(f"{UG}/user/bob/group/admins")
    assert client_for(auth=("bob", "pw")).get(ROLES).status_code == 403
    assert client.post(f"{ROLES}/role/ADMIN/group/admins").status_code == 200
    assert client.get(f"{ROLES}/group/admins.json").json() == {"roles": ["ADMIN"]}
    assert client.get(f"{ROLES}/user/bob.json").json() == {"roles": []}  # direct roles only
    assert client_for(auth=("bob", "pw")).get(ROLES).status_code == 200
    assert client.delete(f"{ROLES}/role/ADMIN/group/admins").status_code == 200
    assert client_for(auth=("bob", "pw")).get(ROLES).status_code == 403


def test_role_paths_405(client):
    assert client.get(f"{ROLES}/role/ADMIN").status_code == 405
    assert client.post(ROLES).status_code == 405
    assert client.put(f"{ROLES}/role/ADMIN/user/admin").status_code == 405


# -- named services ------------------------------------------------------------------------


def test_service_variants(client):
    svc = f"{UG}/service/default"
    assert client.post(f"{svc}/users", json=_json_user("bob")).status_code == 201
    assert client.post(f"{svc}/group/g").status_code == 201
    assert client.post(f"{svc}/user/bob/group/g").status_code == 200
    assert client.get(f"{svc}/group/g/users.json").json()["users"][0]["userName"] == "bob"
    assert client.get(f"{svc}/user/bob/groups.json").json() == {"groups": ["g"]}
    assert client.get(f"{svc}/groups.json").json() == {"groups": ["g"]}
    assert client.post(f"{svc}/user/bob", json={"user": {"enabled": False}}).status_code == 200
    assert client.get(f"{svc}/users.json").json()["users"][1]["enabled"] is False
    assert client.delete(f"{svc}/user/bob/group/g").status_code == 200
    assert client.delete(f"{svc}/group/g").status_code == 200
    assert client.delete(f"{svc}/user/bob").status_code == 200
    rsvc = f"{ROLES}/service/default"
    assert client.post(f"{rsvc}/role/R").status_code == 201
    assert client.post(f"{rsvc}/role/R/user/bob").status_code == 200
    assert client.post(f"{rsvc}/role/R/group/g").status_code == 200
    assert client.get(f"{rsvc}/user/bob.json").json() == {"roles": ["R"]}
    assert client.get(f"{rsvc}/group/g.json").json() == {"roles": ["R"]}
    assert client.delete(f"{rsvc}/role/R/group/g").status_code == 200
    assert client.delete(f"{rsvc}/role/R/user/bob").status_code == 200
    assert client.delete(f"{rsvc}/role/R").status_code == 200


def test_read_only_service_answers_500_as_geoserver(emu, client):
    emu.state.users.service().read_only = True
    r = client.post(f"{UG}/users", json=_json_user("bob"))
    assert r.status_code == 500 and r.text == "Provided UserGroupService is read-only."
    assert "bob" not in _names(emu)


# -- who may call --------------------------------------------------------------------------


def test_anonymous_and_non_admin(emu, anon, client_for):
    r = anon.get(f"{UG}/users.json")
    assert r.status_code == 401 and r.headers["www-authenticate"] == 'Basic realm="GeoServer Realm"'
    emu.state.users.create_user(None, "bob", "pw", True)
    assert client_for(auth=("bob", "pw")).post(f"{ROLES}/role/X").status_code == 403
    assert "X" not in emu.state.users.role_service().roles


# -- self password -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "ctype"),
    [
        ('{"newPassword": "changed"}', "application/json"),
        ("<userPassword><newPassword>changed</newPassword></userPassword>", "text/xml"),
    ],
)
def test_self_password(client, client_for, content, ctype):
    r = client.put("/rest/security/self/password", content=content, headers={"Content-Type": ctype})
    assert r.status_code == 200
    assert client_for(auth=("admin", "geoserver")).get(ROLES).status_code == 401
    assert client_for(auth=("admin", "changed")).get(ROLES).status_code == 200


@pytest.mark.parametrize(
    ("content", "ctype", "status"),
    [
        ('{"newPassword": "   "}', "application/json", 400),
        ("<userPassword><other>x</other></userPassword>", "application/xml", 400),
        ('{"newPassword": "x"}', "text/plain", 415),
        ("{", "application/json", 400),
    ],
)
def test_self_password_bad_input(emu, client, content, ctype, status):
    r = client.put("/rest/security/self/password", content=content, headers={"Content-Type": ctype})
    assert r.status_code == status
    assert emu.state.users.service().users["admin"].password == "geoserver"


def test_self_password_get_and_root(emu, client, client_for):
    r = client.get("/rest/security/self/password")
    assert r.status_code == 405 and r.text == "You can not request the password!"
    emu.state.security.root_login = True
    r = client_for(auth=("root", "geoserver")).put(
        "/rest/security/self/password", json={"newPassword": "x"}
    )
    assert r.status_code == 422


# -- reload and reset ----------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/rest/reload", "/rest/reset"])
def test_reload_and_reset(emu, client, path):
    before = emu.dump_scenario()
    assert client.post(path).status_code == 200
    assert client.put(path).status_code == 200
    assert emu.state.security.reloads == 2
    reloads_free = emu.dump_scenario()
    assert reloads_free == before
    r = client.get(path)
    assert r.status_code == 405 and set(r.headers["allow"].split(", ")) == {"POST", "PUT"}
    assert client.delete(path).status_code == 405


def test_reload_needs_admin(anon):
    assert anon.post("/rest/reload").status_code == 401
