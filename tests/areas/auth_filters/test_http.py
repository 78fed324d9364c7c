"""Black-box tests of /rest/security/authfilters over HTTP, in XML and JSON, every status."""

from __future__ import annotations

import json

import pytest
from lxml import etree

from geoserver_emulator import Emulator

A = "/rest/security/authfilters"
ATOM = "{http://www.w3.org/2005/Atom}link"
BASE = "http://localhost:8080/geoserver"
INTERCEPTOR = "org.geoserver.security.config.SecurityInterceptorFilterConfig"
INTERCEPTOR_IMPL = "org.geoserver.security.filter.GeoServerSecurityInterceptorFilter"
STOCK_LISTED = ["anonymous", "basic", "form", "rememberme"]


def interceptor_xml(
    name: str,
    source: str = "restFilterDefinitionMap",
    prefix: str = "org.geoserver",
    extra: str = "",
) -> bytes:
    root = f"{prefix}.security.config.SecurityInterceptorFilterConfig"
    return (
        f"<{root}><name>{name}</name>"
        f"<className>{prefix}.security.filter.GeoServerSecurityInterceptorFilter</className>"
        f"<allowIfAllAbstainDecisions>true</allowIfAllAbstainDecisions>"
        f"<securityMetadataSource>{source}</securityMetadataSource>{extra}</{root}>"
    ).encode()


def interceptor_json(
    name: str, source: str = "restFilterDefinitionMap", prefix: str = "org.geoserver", **extra
) -> bytes:
    inner = {
        "name": name,
        "className": f"{prefix}.security.filter.GeoServerSecurityInterceptorFilter",
        "allowIfAllAbstainDecisions": True,
        "securityMetadataSource": source,
        **extra,
    }
    return json.dumps({f"{prefix}.security.config.SecurityInterceptorFilterConfig": inner}).encode()


BODY = {"xml": interceptor_xml, "json": interceptor_json}
TYPE = {"xml": "application/xml", "json": "application/json"}


def post(client, fmt: str, name: str, **kw):
    return client.post(
        A, content=BODY[fmt](name, **kw), headers={"Content-Type": TYPE[fmt], "Accept": TYPE[fmt]}
    )


def read(r, fmt: str) -> dict:
    """A filter response as {field: text-or-value}, whatever the format."""
    if fmt == "json":
        ((key, inner),) = r.json().items()
        return {"_root": key, **inner}
    root = etree.fromstring(r.content)
    return {"_root": root.tag, **{c.tag: c.text for c in root}}


def error(r) -> dict:
    """An ErrorResponse body, JSON or XML, as {"status": text, "message": text}."""
    if r.headers["content-type"] == "application/json":
        return {k: str(v) for k, v in r.json().items()}
    return {c.tag: c.text for c in etree.fromstring(r.content)}


@pytest.fixture
def bob(emu, client_for):
    emu.state.users.create_user(None, "bob", "pw", True)
    return client_for(auth=("bob", "pw"))


# -- list ----------------------------------------------------------------------------------


def test_list_xml_names_and_atom_links(client):
    r = client.get(A, headers={"Accept": "application/xml"})
    assert r.status_code == 200 and r.headers["content-type"] == "application/xml"
    root = etree.fromstring(r.content)
    assert root.tag == "authfilters"
    assert [i.findtext("name") for i in root.findall("authfilter")] == STOCK_LISTED
    for item in root.findall("authfilter"):
        (link,) = item.findall(ATOM)
        assert link.get("rel") == "alternate" and link.get("type") == "application/xml"
        assert link.get("href") == f"{BASE}{A}/{item.findtext('name')}.xml"


def test_list_json(client):
    r = client.get(A, headers={"Accept": "application/json"})
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    items = r.json()["authfilters"]["authfilter"]
    assert [i["name"] for i in items] == STOCK_LISTED
    assert all(i["href"] == f"{BASE}{A}/{i['name']}.json" for i in items)


@pytest.mark.parametrize(
    "ext, content_type", [("xml", "application/xml"), ("json", "application/json")]
)
def test_list_by_extension_wins_over_accept(client, ext, content_type):
    r = client.get(f"{A}.{ext}", headers={"Accept": "text/plain"})
    assert r.status_code == 200 and r.headers["content-type"] == content_type


def test_list_defaults_to_xml_and_follows_wildcards(client):
    assert client.get(A).headers["content-type"] == "application/xml"
    assert client.get(A, headers={"Accept": "*/*"}).headers["content-type"] == "application/xml"
    r = client.get(A, headers={"Accept": "text/html, application/json;q=0.9, */*;q=0.1"})
    assert r.headers["content-type"] == "application/json"


def test_list_shows_new_authentication_filters_but_not_interceptors(client):
    oidc = {
        "org.geoserver.security.oauth2.OpenIdConnectFilterConfig": {
            "name": "aaa",
            "className": "org.geoserver.security.oauth2.OpenIdConnectAuthenticationFilter",
        }
    }
    assert client.post(A, json=oidc).status_code == 201
    assert post(client, "xml", "inter").status_code == 201
    names = [i["name"] for i in client.get(f"{A}.json").json()["authfilters"]["authfilter"]]
    assert names == ["aaa", *STOCK_LISTED]


def test_list_link_of_an_awkward_name_is_escaped(client):
    oidc = {
        "org.geoserver.security.oauth2.OpenIdConnectFilterConfig": {
            "name": "a b?c",
            "className": "org.geoserver.security.oauth2.OpenIdConnectAuthenticationFilter",
        }
    }
    assert client.post(A, json=oidc).status_code == 201
    hrefs = {
        i["name"]: i["href"] for i in client.get(f"{A}.json").json()["authfilters"]["authfilter"]
    }
    assert hrefs["a b?c"] == f"{BASE}{A}/a%20b%3Fc.json"
    assert client.get(hrefs["a b?c"]).status_code == 200


@pytest.mark.parametrize("ext, status", [("html", 406), ("zip", 406), ("nope", 404)])
def test_list_with_other_extensions(client, ext, status):
    assert client.get(f"{A}.{ext}").status_code == status


# -- view ----------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["xml", "json"])
def test_view_stock_interceptor(client, fmt):
    r = client.get(f"{A}/restInterceptor", headers={"Accept": TYPE[fmt]})
    assert r.status_code == 200 and r.headers["content-type"] == TYPE[fmt]
    got = read(r, fmt)
    assert got["_root"] == INTERCEPTOR and got["name"] == "restInterceptor"
    assert got["id"] == "52857278:13c7ffd66a8:-7ff4" and got["className"] == INTERCEPTOR_IMPL
    assert got["securityMetadataSource"] == "restFilterDefinitionMap"
    if fmt == "json":
        assert got["@class"] == INTERCEPTOR and got["allowIfAllAbstainDecisions"] is False
    else:
        assert "@class" not in got and got["allowIfAllAbstainDecisions"] == "false"


def test_view_stock_anonymous_as_documented(client):
    r = client.get(f"{A}/anonymous.xml")
    assert r.content == (
        b"<org.geoserver.security.config.AnonymousAuthenticationFilterConfig>"
        b"<id>52857278:13c7ffd66a8:-7ff7</id><name>anonymous</name>"
        b"<className>org.geoserver.security.filter.GeoServerAnonymousAuthenticationFilter</className>"
        b"</org.geoserver.security.config.AnonymousAuthenticationFilterConfig>"
    )


def test_view_other_stock_filters_typed(client):
    basic = client.get(f"{A}/basic.json").json()[
        "org.geoserver.security.config.BasicAuthenticationFilterConfig"
    ]
    assert basic["useRememberMe"] is True
    ssl = client.get(f"{A}/sslFilter.json").json()["org.geoserver.security.config.SSLFilterConfig"]
    assert ssl["sslPort"] == 443


@pytest.mark.parametrize("fmt", ["xml", "json"])
def test_view_missing_is_404_error_response(client, fmt):
    r = client.get(f"{A}/nope", headers={"Accept": TYPE[fmt]})
    assert r.status_code == 404 and r.headers["content-type"] == TYPE[fmt]
    if fmt == "json":
        assert r.json() == {"status": 404, "message": "Cannot find filter nope"}
    else:
        assert etree.fromstring(r.content).findtext("status") == "404"


# -- create --------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["xml", "json"])
def test_create_201_location_and_saved_config(emu, client, fmt):
    r = post(client, fmt, "postIt")
    assert r.status_code == 201
    assert r.headers["location"] == f"{BASE}{A}/postIt"
    assert r.headers["content-type"] == TYPE[fmt]
    got = read(r, fmt)
    assert got["_root"] == INTERCEPTOR and got["name"] == "postIt" and got["id"]
    assert emu.state.security.reloads == 1
    assert read(client.get(f"{A}/postIt", headers={"Accept": TYPE[fmt]}), fmt) == got


@pytest.mark.parametrize("fmt", ["xml", "json"])
def test_create_answers_in_the_accepted_format_else_the_body_format(client, fmt):
    other = "json" if fmt == "xml" else "xml"
    r = client.post(
        A, content=BODY[fmt]("x1"), headers={"Content-Type": TYPE[fmt], "Accept": TYPE[other]}
    )
    assert r.headers["content-type"] == TYPE[other]
    r = client.post(A, content=BODY[fmt]("x2"), headers={"Content-Type": TYPE[fmt]})
    assert r.headers["content-type"] == TYPE[fmt]
    r = client.post(f"{A}.{other}", content=BODY[fmt]("x3"), headers={"Content-Type": TYPE[fmt]})
    assert r.headers["content-type"] == TYPE[other]


def test_create_ignores_a_client_id(client):
    r = client.post(
        A,
        json={
            INTERCEPTOR: {
                "id": "mine",
                "name": "i",
                "className": INTERCEPTOR_IMPL,
                "securityMetadataSource": "s",
            }
        },
    )
    assert r.status_code == 201 and r.json()[INTERCEPTOR]["id"] != "mine"


def test_create_accepts_spec_prefix_and_spelling(client):
    body = {
        "org.service.security.config.AnonymousAuthenticationFilterConfig": {
            "name": "anon2",
            "className": "org.service.security.filter.ServiceAnonymousAuthenticationFilter",
        }
    }
    r = client.post(A, json=body)
    assert r.status_code == 201
    assert r.json() == {
        "org.geoserver.security.config.AnonymousAuthenticationFilterConfig": {
            "id": r.json()["org.geoserver.security.config.AnonymousAuthenticationFilterConfig"][
                "id"
            ],
            "name": "anon2",
            "@class": "org.geoserver.security.config.AnonymousAuthenticationFilterConfig",
            "className": "org.geoserver.security.filter.GeoServerAnonymousAuthenticationFilter",
        }
    }


def test_configured_prefix_is_emitted(client_for):
    emu = Emulator("stock", vendor_prefix="org.service")
    c = client_for(emulator=emu)
    r = c.get(f"{A}/anonymous.json")
    ((key, inner),) = r.json().items()
    assert (
        key == inner["@class"] == "org.service.security.config.AnonymousAuthenticationFilterConfig"
    )
    assert inner["className"] == "org.service.security.filter.ServiceAnonymousAuthenticationFilter"
    r = c.post(
        A,
        content=interceptor_xml("x", prefix="org.geoserver"),
        headers={"Content-Type": "application/xml"},
    )
    assert (
        etree.fromstring(r.content).tag
        == "org.service.security.config.SecurityInterceptorFilterConfig"
    )


@pytest.mark.parametrize("fmt", ["xml", "json"])
@pytest.mark.parametrize(
    "kind, message",
    [
        (
            "duplicate",
            "Cannot create the config restInterceptor because the name is already in use",
        ),
        ("no name", "Cannot create the config has no name parameter"),
        ("bad boolean", "must be true or false"),
        ("unknown field", "Unknown field foo"),
        ("no metadata source", "Field securityMetadataSource is required"),
        ("malformed", "Malformed"),
        ("wrong root", "class name"),
    ],
)
def test_create_400(emu, client, fmt, kind, message):
    body = {
        "duplicate": lambda: BODY[fmt]("restInterceptor"),
        "no name": lambda: BODY[fmt](""),
        "bad boolean": lambda: (
            BODY[fmt]("x").replace(b"true", b"maybe", 1)
            if fmt == "xml"
            else interceptor_json("x", allowIfAllAbstainDecisions="maybe")
        ),
        "unknown field": lambda: (
            interceptor_xml("x", extra="<foo>1</foo>")
            if fmt == "xml"
            else interceptor_json("x", foo="1")
        ),
        "no metadata source": lambda: BODY[fmt]("x", source=""),
        "malformed": lambda: BODY[fmt]("x")[:-3],
        "wrong root": lambda: (
            b"<authFilter><name>x</name></authFilter>"
            if fmt == "xml"
            else b'{"authFilter": {"name": "x"}}'
        ),
    }[kind]()
    r = client.post(A, content=body, headers={"Content-Type": TYPE[fmt], "Accept": TYPE[fmt]})
    assert r.status_code == 400, r.text
    err = error(r)
    assert err["status"] == "400" and message in err["message"]
    assert emu.state.security.reloads == 0


def test_create_without_class_name_is_400(client):
    r = client.post(A, json={INTERCEPTOR: {"name": "x", "securityMetadataSource": "s"}})
    assert r.status_code == 400 and "no className" in r.json()["message"]


def test_create_keeps_fields_of_other_classes(client):
    xml = b"""<org.geoserver.security.config.RequestHeaderAuthenticationFilterConfig>
      <name>hdr</name>
      <className>org.geoserver.security.filter.GeoServerRequestHeaderAuthenticationFilter</className>
      <roleSource class="org.geoserver.security.config.PreAuthenticatedUserNameFilterConfig\
$PreAuthenticatedUserNameRoleSource">Header</roleSource>
      <principalHeaderAttribute>sec-username</principalHeaderAttribute>
      <rolesHeaderAttribute>sec-roles</rolesHeaderAttribute>
      <someFutureSetting>42</someFutureSetting>
    </org.geoserver.security.config.RequestHeaderAuthenticationFilterConfig>"""
    assert (
        client.post(A, content=xml, headers={"Content-Type": "application/xml"}).status_code == 201
    )
    inner = client.get(f"{A}/hdr.json").json()[
        "org.geoserver.security.config.RequestHeaderAuthenticationFilterConfig"
    ]
    assert inner["roleSource"]["$"] == "Header" and inner["someFutureSetting"] == "42"
    assert inner["principalHeaderAttribute"] == "sec-username"


# -- update --------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["xml", "json"])
def test_update_200_empty_keeps_id(emu, client, fmt):
    created = read(post(client, fmt, "putIt"), fmt)
    body = BODY[fmt]("putIt", source="geoserverMetadataSource")
    r = client.put(f"{A}/putIt", content=body, headers={"Content-Type": TYPE[fmt]})
    assert r.status_code == 200 and r.content == b""
    got = read(client.get(f"{A}/putIt", headers={"Accept": TYPE[fmt]}), fmt)
    assert got["securityMetadataSource"] == "geoserverMetadataSource" and got["id"] == created["id"]
    assert emu.state.security.reloads == 2


def test_get_and_put_back_unchanged_json(client):
    """GeoServer's own test: GET restInterceptor.json and PUT it back as it came."""
    got = client.get(f"{A}/restInterceptor.json")
    r = client.put(
        f"{A}/restInterceptor.json",
        content=got.content,
        headers={"Content-Type": "application/json"},
    )
    assert r.status_code == 200
    assert client.get(f"{A}/restInterceptor.json").json() == got.json()


def test_get_and_put_back_unchanged_xml(client):
    got = client.get(f"{A}/basic.xml")
    r = client.put(f"{A}/basic", content=got.content, headers={"Content-Type": "application/xml"})
    assert r.status_code == 200 and client.get(f"{A}/basic.xml").content == got.content


@pytest.mark.parametrize("fmt", ["xml", "json"])
def test_update_name_mismatch_400(client, fmt):
    r = client.put(
        f"{A}/restInterceptor", content=BODY[fmt]("other"), headers={"Content-Type": TYPE[fmt]}
    )
    assert r.status_code == 400
    assert r.json()["message"] == (
        "Cannot modify the config restInterceptor because the name other in the body does not match"
    )


@pytest.mark.parametrize("fmt", ["xml", "json"])
def test_update_missing_404(emu, client, fmt):
    r = client.put(f"{A}/ghost", content=BODY[fmt]("ghost"), headers={"Content-Type": TYPE[fmt]})
    assert (
        r.status_code == 404
        and r.json()["message"] == "Cannot update ghost because it does not exist"
    )
    assert emu.state.security.reloads == 0


@pytest.mark.parametrize("fmt", ["xml", "json"])
def test_update_malformed_400_leaves_config(client, fmt):
    before = client.get(f"{A}/restInterceptor.json").json()
    r = client.put(
        f"{A}/restInterceptor",
        content=BODY[fmt]("restInterceptor", source=""),
        headers={"Content-Type": TYPE[fmt]},
    )
    assert r.status_code == 400
    assert client.get(f"{A}/restInterceptor.json").json() == before


# -- delete --------------------------------------------------------------------------------


def test_delete_then_gone(emu, client):
    post(client, "xml", "tmp")
    r = client.delete(f"{A}/tmp")
    assert r.status_code == 200 and r.content == b""
    assert emu.state.security.reloads == 2
    assert client.get(f"{A}/tmp").status_code == 404
    r = client.delete(f"{A}/tmp")
    assert r.status_code == 410 and r.json() == {"status": 410, "message": "Cannot find filter tmp"}
    assert client.delete(f"{A}/never", headers={"Accept": "application/xml"}).status_code == 410
    assert emu.state.security.reloads == 2


@pytest.mark.parametrize("name", STOCK_LISTED)
def test_delete_built_in_is_400(client, name):
    r = client.delete(f"{A}/{name}")
    assert r.status_code == 400
    assert (
        r.json()["message"]
        == f"Cannot delete {name} because it is a required authentication filter"
    )
    assert client.get(f"{A}/{name}").status_code == 200


def test_delete_other_stock_filter(client):
    assert client.delete(f"{A}/sslFilter.json").status_code == 200
    assert client.get(f"{A}/sslFilter").status_code == 404


# -- negotiation ---------------------------------------------------------------------------

BAD_ACCEPT = [
    "text/xml",
    "text/json",
    "text/plain",
    "text/html",
    "image/png",
    "application/json;q=0",
]
BAD_TYPE = [
    "text/xml",
    "text/json",
    "text/plain",
    "application/x-www-form-urlencoded",
    "application/yaml",
    None,
]


@pytest.mark.parametrize("accept", BAD_ACCEPT)
@pytest.mark.parametrize("call", ["list", "view", "create", "update"])
def test_406_for_each_unsupported_accept(emu, client, accept, call):
    headers = {"Accept": accept, "Content-Type": "application/xml"}
    r = {
        "list": lambda: client.get(A, headers=headers),
        "view": lambda: client.get(f"{A}/anonymous", headers=headers),
        "create": lambda: client.post(A, content=interceptor_xml("n"), headers=headers),
        "update": lambda: client.put(
            f"{A}/restInterceptor", content=interceptor_xml("restInterceptor"), headers=headers
        ),
    }[call]()
    assert r.status_code == 406
    assert error(r)["status"] == "406"
    assert emu.state.auth_filters.find("n") is None and emu.state.security.reloads == 0


@pytest.mark.parametrize("content_type", BAD_TYPE)
@pytest.mark.parametrize("call", ["create", "update"])
def test_415_for_each_unsupported_content_type(emu, client, content_type, call):
    headers = {} if content_type is None else {"Content-Type": content_type}
    body = interceptor_xml("restInterceptor" if call == "update" else "n")
    r = (
        client.post(A, content=body, headers=headers)
        if call == "create"
        else client.put(f"{A}/restInterceptor", content=body, headers=headers)
    )
    assert r.status_code == 415
    assert r.json()["status"] == 415
    assert emu.state.security.reloads == 0


def test_content_type_parameters_are_fine(client):
    r = client.post(
        A,
        content=interceptor_json("cs"),
        headers={"Content-Type": "application/json; charset=UTF-8"},
    )
    assert r.status_code == 201


def test_405_for_methods_a_path_lacks(client):
    assert client.delete(A).status_code == 405
    assert client.put(A, content=b"").status_code == 405
    # PATCH is covered by no stock REST rule, so GeoServer 3 refuses it before routing
    assert client.patch(f"{A}/anonymous").status_code == 403
    assert client.post(f"{A}/anonymous", content=b"").status_code == 405


# -- who may call --------------------------------------------------------------------------


def test_anonymous_gets_401(anon):
    r = anon.get(A)
    assert r.status_code == 401 and r.headers["www-authenticate"] == 'Basic realm="GeoServer Realm"'


@pytest.mark.parametrize("call", ["list", "view", "create", "update", "delete"])
def test_non_admin_gets_403(emu, bob, call):
    r = {
        "list": lambda: bob.get(A),
        "view": lambda: bob.get(f"{A}/anonymous.json"),
        "create": lambda: bob.post(
            A, content=interceptor_xml("n"), headers={"Content-Type": "application/xml"}
        ),
        "update": lambda: bob.put(
            f"{A}/restInterceptor",
            content=interceptor_xml("restInterceptor"),
            headers={"Content-Type": "application/xml"},
        ),
        "delete": lambda: bob.delete(f"{A}/sslFilter"),
    }[call]()
    assert r.status_code == 403 and r.json()["status"] == 403
    assert emu.state.auth_filters.find("sslFilter") is not None and emu.state.security.reloads == 0


@pytest.mark.parametrize("fmt", ["xml", "json"])
def test_controller_refuses_non_admin_when_rest_rules_are_relaxed(emu, bob, fmt):
    emu.state.security.rest_rules = {"/**:GET,HEAD,OPTIONS,POST,PUT,DELETE": ["ROLE_AUTHENTICATED"]}
    r = bob.get(A, headers={"Accept": TYPE[fmt]})
    assert r.status_code == 403
    assert error(r)["message"] == "Admin role required to access this resource"
    assert bob.delete(f"{A}/sslFilter").status_code == 403


# -- the geoserver profile -----------------------------------------------------------------


@pytest.fixture
def gs(client_for):
    emu = Emulator("stock", profile="geoserver")
    return emu, client_for(emulator=emu)


@pytest.mark.parametrize("fmt", ["xml", "json"])
def test_geoserver_profile_create_is_200_without_location(gs, fmt):
    emu, c = gs
    r = post(c, fmt, "made")
    assert r.status_code == 200 and "location" not in r.headers
    assert read(r, fmt)["name"] == "made"


@pytest.mark.parametrize("fmt, body", [("xml", b"<null/>"), ("json", b"{}")])
def test_geoserver_profile_view_missing_is_200_null(gs, fmt, body):
    r = gs[1].get(f"{A}/nope", headers={"Accept": TYPE[fmt]})
    assert r.status_code == 200 and r.content == body


def test_geoserver_profile_delete_missing_is_404(gs):
    emu, c = gs
    r = c.delete(f"{A}/nope")
    assert r.status_code == 404 and r.json()["message"] == "Cannot find filter nope"
    post(c, "xml", "tmp")
    c.delete(f"{A}/tmp")
    assert c.delete(f"{A}/tmp").status_code == 404


# -- the spec's examples -------------------------------------------------------------------

OIDC = {
    "name": "Keycloak12",
    "className": "org.service.security.oauth2.OpenIdConnectAuthenticationFilter",
    "roleSource": {
        "@class": "org.service.security.config.PreAuthenticatedUserNameFilterConfig"
        "$PreAuthenticatedUserNameRoleSource",
        "$": "RoleService",
    },
    "roleServiceName": "default",
    "clientId": "myclient",
    "clientSecret": "<CLIENT_SECRET>",
    "accessTokenUri": "http://localhost:8080/realms/myrealm/protocol/openid-connect/token",
    "userAuthorizationUri": "http://localhost:8080/realms/myrealm/protocol/openid-connect/auth",
    "redirectUri": "http://localhost:9001/geoserver/",
    "checkTokenEndpointUrl": "http://localhost:8080/realms/myrealm/protocol/openid-connect/userinfo",
    "introspectionEndpointUrl": "http://localhost:8080/realms/myrealm/protocol/openid-connect/token/introspect",
    "logoutUri": "http://localhost:8080/realms/myrealm/protocol/openid-connect/logout",
    "scopes": "openid email",
    "enableRedirectAuthenticationEntryPoint": False,
    "forceAccessTokenUriHttps": False,
    "forceUserAuthorizationUriHttps": False,
    "loginEndpoint": "/j_spring_oauth2_openid_connect_login",
    "logoutEndpoint": "/j_spring_oauth2_openid_connect_logout",
    "allowUnSecureLogging": False,
    "principalKey": "email",
    "jwkURI": "http://localhost:8080/realms/myrealm/protocol/openid-connect/certs",
    "postLogoutRedirectUri": "http://localhost:9001/geoserver/",
    "sendClientSecret": False,
    "allowBearerTokens": True,
    "usePKCE": False,
    "enforceTokenValidation": False,
    "cacheAuthentication": False,
}


def test_spec_openid_connect_example_json_to_xml(client):
    r = client.post(A, json={"org.service.security.oauth2.OpenIdConnectFilterConfig": OIDC})
    assert r.status_code == 201 and r.headers["location"].endswith(f"{A}/Keycloak12")
    inner = r.json()["org.geoserver.security.oauth2.OpenIdConnectFilterConfig"]
    expected = {
        k: v.replace("org.service", "org.geoserver") if isinstance(v, str) else v
        for k, v in OIDC.items()
    }
    expected["roleSource"] = {
        "@class": OIDC["roleSource"]["@class"].replace("org.service", "org.geoserver"),
        "$": "RoleService",
    }
    assert {k: v for k, v in inner.items() if k not in ("id", "@class")} == expected
    assert list(inner) == ["id", "name", "@class", "className", *list(OIDC)[2:]]
    root = etree.fromstring(client.get(f"{A}/Keycloak12.xml").content)
    assert root.findtext("clientSecret") == "<CLIENT_SECRET>"
    assert root.find("roleSource").get("class").endswith("$PreAuthenticatedUserNameRoleSource")
    assert root.findtext("allowBearerTokens") == "true"


def test_spec_openid_connect_bad_role_source(client):
    body = {**OIDC, "roleSource": {"@class": OIDC["roleSource"]["@class"], "$": "Nonsense"}}
    r = client.post(A, json={"org.service.security.oauth2.OpenIdConnectFilterConfig": body})
    assert r.status_code == 400 and "is not one of" in r.json()["message"]
