"""REST rules enforced on every ``/rest`` request, ant patterns, and root login."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from geoserver_emulator import Emulator
from geoserver_emulator.areas.access import ANONYMOUS, Principal, rest_allowed, rest_rule_roles
from geoserver_emulator.core.antpath import ant_match

ACL = "/rest/security/acl"
MASTERPW = "/rest/security/masterpw.json"


def passed(r) -> bool:
    """The request got past the REST rules (whatever the endpoint then answered)."""
    return r.status_code not in (401, 403)


def test_rule_granting_get_on_a_path_lets_its_role_read_it_and_nothing_more(client, reader, h):
    # rules are tried in order and POST appends: move the catch-all GET rule behind ours
    assert client.delete(f"{ACL}/rest/%2F**:GET,HEAD,OPTIONS").status_code == 200
    rules = {"/rest/reading/**:GET": "ROLE_READER", "/**:GET,HEAD,OPTIONS": "ROLE_ADMINISTRATOR"}
    assert (
        h.send(client, "POST", f"{ACL}/rest", h.rules_body(rules, "json"), "json").status_code
        == 200
    )

    assert passed(reader.get("/rest/reading"))
    assert passed(reader.get("/rest/reading/some/thing.json"))
    assert passed(reader.get("/rest/READING/x/"))  # lower-cased, trailing slash dropped
    for r in (
        reader.head("/rest/reading/x"),
        reader.put("/rest/reading/x", content=b"{}"),
        reader.delete("/rest/reading/x"),
        reader.post("/rest/reading/x", content=b"{}"),
        reader.get("/rest/readings"),
        reader.get("/rest/workspaces"),
        reader.get(f"{ACL}/rest.json"),
    ):
        assert r.status_code == 403, (r.request.method, r.request.url)
    assert client.get(f"{ACL}/rest.json").status_code == 200
    # the first matching rule decides: it names only ROLE_READER, so not even the administrator
    assert client.get("/rest/reading/x").status_code == 403


def test_a_rule_after_the_catch_all_never_applies(client, reader, h):
    rules = {"/rest/reading/**:GET": "ROLE_READER"}
    assert (
        h.send(client, "POST", f"{ACL}/rest", h.rules_body(rules, "xml"), "xml").status_code == 200
    )
    assert reader.get("/rest/reading/x").status_code == 403


def test_rule_patterns_name_the_rest_prefix(emu, reader):
    emu.state.security.rest_rules = {
        "/reading/**:GET": ["ROLE_READER"],
        **emu.state.security.rest_rules,
    }
    assert reader.get("/rest/reading/x").status_code == 403


def test_pattern_with_upper_case_never_matches(emu, reader):
    emu.state.security.rest_rules = {
        "/rest/Reading/**:GET": ["ROLE_READER"],
        **emu.state.security.rest_rules,
    }
    assert reader.get("/rest/Reading/x").status_code == 403


def test_a_path_no_rule_matches_is_refused(emu, client, anon):
    emu.state.security.rest_rules = {"/rest/other/**:GET": ["ROLE_ADMINISTRATOR"]}
    assert client.get(f"{ACL}/rest.json").status_code == 403
    assert anon.get(f"{ACL}/rest.json").status_code == 401
    assert client.request("PATCH", "/rest/other").status_code == 403


@pytest.mark.parametrize("role", ["*", "IS_AUTHENTICATED_ANONYMOUSLY", "ROLE_ANONYMOUS"])
def test_anonymous_access_by_rule(emu, anon, reader, role):
    emu.state.security.rest_rules = {"/rest/open/**:GET": [role], **emu.state.security.rest_rules}
    assert passed(anon.get("/rest/open/x"))
    assert anon.get("/rest/closed").status_code == 401
    if role != "ROLE_ANONYMOUS":
        assert passed(reader.get("/rest/open/x"))


@pytest.mark.parametrize("role", ["IS_AUTHENTICATED_FULLY", "IS_AUTHENTICATED_REMEMBERED"])
def test_any_logged_in_user_by_rule(emu, anon, reader, role):
    emu.state.security.rest_rules = {
        "/rest/users-only/**:GET": [role],
        **emu.state.security.rest_rules,
    }
    assert passed(reader.get("/rest/users-only/x"))
    assert anon.get("/rest/users-only/x").status_code == 401


def test_rules_naming_the_admin_role_itself(emu, client, reader):
    emu.state.security.rest_rules = {"/**:GET": ["ADMIN"]}
    assert client.get(f"{ACL}/layers.json").status_code == 200
    assert reader.get(f"{ACL}/layers.json").status_code == 403


def test_rest_rule_roles_unit():
    state = Emulator("stock").state
    assert rest_rule_roles(state, "GET", "/rest/x/") == ["ROLE_ADMINISTRATOR"]
    assert rest_rule_roles(state, "PATCH", "/rest/x") is None
    state.security.rest_rules = {"/rest/a/*:GET": ["R"], "/rest/**": ["S"]}  # no methods: any
    assert rest_rule_roles(state, "GET", "/rest/A/b//") == ["R"]
    assert rest_rule_roles(state, "PATCH", "/rest/a/b") == ["S"]
    assert not rest_allowed(state, ANONYMOUS, "GET", "/rest/a/b")
    assert rest_allowed(state, Principal("u", frozenset({"R"})), "GET", "/rest/a/b")


# -- ant patterns (Spring's AntPathMatcher) --------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "path", "ok"),
    [
        ("/**", "/rest", True),
        ("/**", "/", True),
        ("/rest/**", "/rest", True),
        ("/rest/**/states*", "/rest/workspaces/topp/datastores/states_shp", True),
        ("/rest/**/states*", "/rest/states", True),
        ("/rest/**/datastores/*", "/rest/workspaces/topp/datastores/x", True),
        ("/rest/**/datastores/*", "/rest/workspaces/topp/datastores/x/y", False),
        ("/rest/**/datastores/*.*", "/rest/workspaces/topp/datastores/x.xml", True),
        ("/rest/*", "/rest", False),
        ("/rest/*", "/rest/", True),
        ("/rest/workspaces/topp*", "/rest/workspaces/topp.xml", True),
        ("/rest/workspaces/topp*", "/rest/workspaces/topp/x", False),
        ("/rest//x", "/rest/x", True),
        ("/rest/x", "/rest//x", True),
        ("/rest/x", "rest/x", False),
        ("/rest/x/", "/rest/x", False),
        ("/a/**/b/**/c", "/a/1/b/2/3/c", True),
        ("/a/**/b/**/c", "/a/1/2/c", False),
        ("/a/**/**/c", "/a/c", True),
        ("/a/?b", "/a/xb", True),
        ("/a/?b", "/a/b", False),
        ("/a/{name}.json", "/a/x.json", True),
        ("/a.b/**", "/axb/c", False),
    ],
)
def test_ant_match(pattern, path, ok):
    assert ant_match(pattern, path) is ok


@given(st.lists(st.text(alphabet="abc.*", min_size=1, max_size=4), max_size=5))
def test_pattern_of_a_path_matches_it(segments):
    path = "/" + "/".join(segments)
    assert ant_match("/**", path)
    assert ant_match(path, path) or "*" in path
    assert ant_match("/" + "/".join(["**", *segments[-1:]]), path) or "*" in path


# -- keystore password and root login ------------------------------------------------------------

PASSWORDS = st.text(st.characters(min_codepoint=33, max_codepoint=126), min_size=8, max_size=16)


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(PASSWORDS, min_size=2, max_size=2, unique=True).filter(lambda p: "geoserver" not in p)
)
def test_changing_the_keystore_password_twice_and_back(client_for, h, passwords):
    emu = Emulator("stock")
    emu.state.security.root_login = True
    admin = client_for(emulator=emu)
    first, second = passwords
    probes = [
        ("root", "geoserver"),
        ("root", first),
        ("root", second),
        ("admin", "geoserver"),
        ("root", "x"),
    ]

    def logins() -> list[int]:
        return [client_for(auth=p, emulator=emu).get(MASTERPW).status_code for p in probes]

    def change(current: str, new: str) -> None:
        body = h.map_body(
            "masterPassword", {"oldMasterPassword": current, "newMasterPassword": new}, "json"
        )
        assert h.send(admin, "PUT", MASTERPW, body, "json").status_code == 200

    start = logins()
    assert start == [200, 401, 401, 200, 401]
    change("geoserver", first)
    assert logins() == [401, 200, 401, 200, 401]
    change(first, second)
    assert logins() == [401, 401, 200, 200, 401]
    change(second, "geoserver")
    assert logins() == start
    assert admin.get(MASTERPW).json() == {"oldMasterPassword": "geoserver"}


def test_a_user_called_root_still_logs_in_with_its_own_password(emu, client_for):
    emu.state.security.root_login = True
    emu.state.users.create_user(None, "root", "ownpassword", True)
    emu.state.users.assign_user_role(None, "ADMIN", "root", True)
    assert client_for(auth=("root", "ownpassword")).get(MASTERPW).status_code == 200
    assert client_for(auth=("root", "geoserver")).get(MASTERPW).status_code == 200
