"""Security of OGC API Features, table-driven over (catalog mode × caller × collection ×
resource), through the one decision point the OGC services share (``ows/access.py``):

- HIDE: a collection the caller may not read is absent from ``/collections`` and naming it
  is 404 ``Unknown collection``;
- MIXED: absent from ``/collections``; naming it is a challenge (401 anonymous, 403
  authenticated);
- CHALLENGE: listed; its description (the collection, its queryables) is served; its
  features are a challenge.

Then the service rules (``features.getFeatures``) and bad credentials.
"""

from __future__ import annotations

import pytest

ACL = "/rest/security/acl"
USERS = {"reader": ("readerpw1", ["ROLE_READER"]), "other": ("otherpw12", [])}
CALLERS = ("anonymous", "other", "reader", "admin")
MODES = ("HIDE", "MIXED", "CHALLENGE")
RESOURCES = {
    "collection": ("/ogc/features/v1/collections/{id}", "meta"),
    "queryables": ("/ogc/features/v1/collections/{id}/queryables", "meta"),
    "items": ("/ogc/features/v1/collections/{id}/items", "data"),
    "item": ("/ogc/features/v1/collections/{id}/items/prims.1", "data"),
}
OPEN, SECRET = "topp:states", "sf:prims"
"""``sf.*.r`` is for ``ROLE_READER`` only; ``topp`` has no rule (anyone reads it)"""


@pytest.fixture
def secured(emu, client, prims):
    users = emu.state.users
    users.create_role(None, "ROLE_READER")
    for name, (password, roles) in USERS.items():
        users.create_user(None, name, password, True)
        for role in roles:
            users.assign_user_role(None, role, name, True)
    assert client.post(f"{ACL}/layers.json", json={"sf.*.r": "ROLE_READER"}).status_code in (
        200,
        201,
    )
    return emu


def _client(client_for, caller):
    if caller == "anonymous":
        return client_for(auth=None)
    if caller == "admin":
        return client_for()
    return client_for(auth=(caller, USERS[caller][0]))


def expected(mode: str, caller: str, collection: str, resource: str, kind: str) -> int:
    if collection == OPEN or caller in ("reader", "admin"):
        return 404 if (resource, collection) == ("item", OPEN) else 200  # states has no prims.1
    if mode == "HIDE":
        return 404
    if mode == "CHALLENGE" and kind == "meta":
        return 200
    return 401 if caller == "anonymous" else 403


def listed(mode: str, caller: str) -> bool:
    return caller in ("reader", "admin") or mode == "CHALLENGE"


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("caller", CALLERS)
def test_the_table(secured, client, client_for, mode, caller):
    assert client.put(f"{ACL}/catalog.json", json={"mode": mode}).status_code == 200
    c = _client(client_for, caller)
    r = c.get("/ogc/features/v1/collections")
    assert r.status_code == 200
    ids = [x["id"] for x in r.json()["collections"]]
    assert OPEN in ids
    assert (SECRET in ids) == listed(mode, caller), (mode, caller, ids)
    for collection in (OPEN, SECRET):
        for name, (path, kind) in RESOURCES.items():
            r = c.get(path.format(id=collection))
            want = expected(mode, caller, collection, name, kind)
            assert r.status_code == want, (mode, caller, collection, name, r.status_code, r.text)
            if want == 401:
                assert r.headers["www-authenticate"] == 'Basic realm="GeoServer Realm"'
            if want == 404:
                assert r.json()["code"] == "NotFound"


def test_the_openapi_document_lists_only_what_the_caller_may_see(secured, client_for):
    anon = client_for(auth=None)
    ids = anon.get("/ogc/features/v1/openapi").json()["components"]["parameters"]
    assert SECRET not in ids["collectionId"]["schema"]["enum"]
    reader = _client(client_for, "reader")
    ids = reader.get("/ogc/features/v1/openapi").json()["components"]["parameters"]
    assert SECRET in ids["collectionId"]["schema"]["enum"]


def test_service_rules(emu, client, client_for, prims):
    users = emu.state.users
    users.create_role(None, "ROLE_READER")
    users.create_user(None, "reader", "readerpw1", True)
    users.assign_user_role(None, "ROLE_READER", "reader", True)
    r = client.post(f"{ACL}/services.json", json={"features.getFeatures": "ROLE_READER"})
    assert r.status_code in (200, 201), r.text
    anon = client_for(auth=None)
    assert anon.get("/ogc/features/v1/collections/sf:prims/items").status_code == 401
    assert anon.get("/ogc/features/v1/collections/sf:prims").status_code == 200
    reader = client_for(auth=("reader", "readerpw1"))
    assert reader.get("/ogc/features/v1/collections/sf:prims/items").status_code == 200


def test_bad_credentials_are_401(client_for, prims):
    c = client_for(auth=("admin", "wrong"))
    assert c.get("/ogc/features/v1/collections").status_code == 401


def test_a_group_service_hides_and_challenges_its_members(emu, client, client_for):
    rules = {"topp.tasmania_water_bodies.r": "ROLE_NOBODY"}
    assert client.post(f"{ACL}/layers.json", json=rules).status_code in (200, 201)
    anon = client_for(auth=None)
    base = "/tasmania/ogc/features/v1/collections"
    ids = [c["id"] for c in anon.get(base).json()["collections"]]
    assert "topp:tasmania_state_boundaries" in ids
    assert "topp:tasmania_water_bodies" not in ids
    assert anon.get(f"{base}/topp:tasmania_water_bodies").status_code == 404
    assert client.put(f"{ACL}/catalog.json", json={"mode": "MIXED"}).status_code == 200
    assert anon.get(f"{base}/topp:tasmania_water_bodies").status_code == 401
    assert client.put(f"{ACL}/catalog.json", json={"mode": "CHALLENGE"}).status_code == 200
    assert anon.get(f"{base}/topp:tasmania_water_bodies").status_code == 200
    assert anon.get(f"{base}/topp:tasmania_water_bodies/items").status_code == 401
    assert anon.get(f"{base}/topp:states").status_code == 404  # not a member
