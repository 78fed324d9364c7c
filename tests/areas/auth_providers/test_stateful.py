"""Stateful property test: random create / update-with-position / order / delete / read
sequences over HTTP agree with a small model of the active list, the enabled set and the
stored configurations, and every status is the one the model predicts.

The number of examples comes from ``PROVIDERS_STATEFUL_EXAMPLES`` (default 30 for a quick
suite); the issue's bar is a clean run of 500:

    PROVIDERS_STATEFUL_EXAMPLES=500 .venv/bin/python -m pytest \
        tests/areas/auth_providers/test_stateful.py
"""

from __future__ import annotations

import os
from typing import Any

import httpx
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule
from provider_helpers import ACCEPT_JSON, UP, P, send, up_json, up_xml, xml_fields

from geoserver_emulator import Emulator
from geoserver_emulator.areas.users.model import UserGroupService

EXAMPLES = int(os.environ.get("PROVIDERS_STATEFUL_EXAMPLES", "30"))
NAMES = st.sampled_from(["default", "a", "b", "c", "d", "e.f", "Order", "order"])
FORMATS = st.sampled_from(["xml", "json"])
SERVICES = st.sampled_from(["default", "default", "other", "missing"])
LDAP = "org.geoserver.security.auth.LdapAuthenticationProvider"

EMULATOR = Emulator("empty")
"""one emulator for the whole run, reset at the start of every example (cheap)"""


class ProviderMachine(RuleBasedStateMachine):
    @initialize(
        data=st.data(),
        seed=st.lists(st.sampled_from(["a", "b", "c", "d"]), unique=True, max_size=4),
    )
    def start(self, data: st.DataObject, seed: list[str]) -> None:
        """A fresh emulator; most examples start with a few providers so that short runs
        reach moves too."""
        EMULATOR.reset()
        state = EMULATOR.state
        state.security.root_login = True  # root (keystore password) is admin whatever the providers
        state.users.services["other"] = UserGroupService("other")
        state.users.create_user("other", "zed", "zpw", True)
        state.users.assign_user_role(None, "ADMIN", "zed", True)
        self.emu = EMULATOR
        transport = httpx.WSGITransport(app=EMULATOR.wsgi_app)
        base = "http://localhost:8080/geoserver"
        self.client = httpx.Client(transport=transport, base_url=base, auth=("root", "geoserver"))
        self.zed = httpx.Client(transport=transport, base_url=base, auth=("zed", "zpw"))
        self.configs: dict[str, dict[str, Any]] = {
            "default": {"ugs": "default", "id": self._id("default")}
        }
        self.active = ["default"]
        self.deleted: set[str] = set()
        self.writes = 0
        for name in seed:
            self._create(
                name, data.draw(st.none() | st.integers(0, len(self.active))), "json", "default"
            )

    def teardown(self) -> None:
        if hasattr(self, "client"):
            self.client.close()
            self.zed.close()
            assert not self.emu.internal_errors, self.emu.internal_errors

    def _id(self, name: str) -> str:
        return self.emu.state.auth_providers.configs[name].id

    def _expect(self, r: httpx.Response, status: int) -> None:
        assert r.status_code == status, (
            f"{r.request.method} {r.request.url}: {r.status_code} {r.text}"
        )
        if status >= 400 and status != 405:
            xml = r.headers["content-type"].startswith("application/xml")
            body = xml_fields(r.text)[1] if xml else r.json()
            assert str(body["status"]) == str(status)

    # -- rules -------------------------------------------------------------------------------

    def _name(self, data: st.DataObject, among: list[str]) -> str:
        """A name: mostly one the model holds, sometimes any from the pool."""
        return data.draw(st.sampled_from(among) if among and data.draw(st.booleans()) else NAMES)

    def _position(self, data: st.DataObject) -> int | None:
        """None, or an index around the valid range (both ends and one past each)."""
        return data.draw(st.none() | st.integers(-1, len(self.active) + 1))

    @rule(data=st.data(), fmt=FORMATS, ugs=SERVICES)
    def create(self, data: st.DataObject, fmt: str, ugs: str) -> None:
        self._create(data.draw(NAMES), self._position(data), fmt, ugs)

    def _create(self, name: str, position: int | None, fmt: str, ugs: str) -> None:
        body = up_xml(name, ugs=ugs) if fmt == "xml" else {"authprovider": up_json(name, ugs=ugs)}
        params = {} if position is None else {"position": str(position)}
        r = send(self.client, "POST", P, body, fmt, params=params, headers=ACCEPT_JSON)
        if name.lower() == "order" or name in self.configs:
            return self._expect(r, 400)
        if position is not None and not 0 <= position <= len(self.active):
            return self._expect(r, 400)
        if ugs == "missing":
            return self._expect(r, 400)
        self._expect(r, 201)
        saved = r.json()
        assert (saved["name"], saved["className"], saved["userGroupServiceName"]) == (name, UP, ugs)
        assert saved["id"] not in {c["id"] for c in self.configs.values()}
        self.configs[name] = {"ugs": ugs, "id": saved["id"]}
        self.active.insert(len(self.active) if position is None else position, name)
        self.deleted.discard(name)
        self.writes += 1

    @rule(data=st.data(), fmt=FORMATS, ugs=SERVICES, with_class=st.booleans())
    def update(self, data: st.DataObject, fmt: str, ugs: str, with_class: bool) -> None:
        name, position = self._name(data, self.active), self._position(data)
        class_name = UP if with_class else None
        body = (
            up_xml(name, ugs=ugs, class_name=class_name)
            if fmt == "xml"
            else up_json(name, ugs=ugs, class_name=class_name)
        )
        params = {} if position is None else {"position": str(position)}
        r = send(self.client, "PUT", f"{P}/{name}", body, fmt, params=params, headers=ACCEPT_JSON)
        if name == "order":
            return self._expect(r, 400)  # the order endpoint: a provider body is no list
        if name.lower() == "order":
            return self._expect(r, 400)
        if name not in self.configs:
            return self._expect(r, 404)
        if name not in self.active:
            return self._expect(r, 500)
        if position is not None and not 0 <= position < len(self.active):
            return self._expect(r, 400)
        if ugs == "missing":
            return self._expect(r, 400)
        self._expect(r, 200)
        assert r.json()["id"] == self.configs[name]["id"]
        self.configs[name]["ugs"] = ugs
        if position is not None:
            self.active.remove(name)
            self.active.insert(position, name)
        self.writes += 1

    @rule(data=st.data(), mismatch=st.booleans())
    def update_refused(self, data: st.DataObject, mismatch: bool) -> None:
        if not self.configs:
            return
        name = data.draw(st.sampled_from(sorted(self.configs)))
        if mismatch:
            r = send(self.client, "PUT", f"{P}/{name}", up_json(name + "x"), "json")
            return self._expect(r, 400)
        r = send(self.client, "PUT", f"{P}/{name}", up_json(name, class_name=LDAP), "json")
        self._expect(r, 400)
        assert r.json()["message"] == "className cannot change"

    @rule(data=st.data(), fmt=FORMATS, suffix=st.sampled_from(["", ".json", ".xml"]))
    def order(self, data: st.DataObject, fmt: str, suffix: str) -> None:
        known = sorted(self.configs)
        pool = st.sampled_from(known) if known and data.draw(st.booleans()) else NAMES
        names = data.draw(st.lists(pool, max_size=len(known) + 1))
        if fmt == "xml":
            content = "<order>" + "".join(f"<order>{n}</order>" for n in names) + "</order>"
            r = self.client.put(
                P + "/order" + suffix, content=content, headers={"Content-Type": "application/xml"}
            )
        else:
            r = self.client.put(P + "/order" + suffix, json={"order": names})
        if not names or len(set(names)) != len(names) or any(n not in self.configs for n in names):
            return self._expect(r, 400)
        self._expect(r, 200)
        self.active = list(names)
        self.writes += 1

    @rule(data=st.data())
    def delete(self, data: st.DataObject) -> None:
        name = self._name(data, sorted(self.configs))
        r = self.client.delete(f"{P}/{name}")
        if name == "order":
            return self._expect(r, 405)
        if name in self.configs:
            self._expect(r, 200)
            del self.configs[name]
            if name in self.active:
                self.active.remove(name)
            self.deleted.add(name)
            self.writes += 1
        elif name in self.deleted:
            self._expect(r, 410)
        else:
            self._expect(r, 404)

    @rule(data=st.data(), fmt=FORMATS)
    def get_one(self, data: st.DataObject, fmt: str) -> None:
        name = self._name(data, sorted(self.configs))
        r = self.client.get(f"{P}/{name}.{fmt}")
        if name == "order":
            return self._expect(r, 405)
        if name not in self.configs:
            return self._expect(r, 404)
        self._expect(r, 200)
        fields = r.json() if fmt == "json" else xml_fields(r.text)[1]
        assert fields["id"] == self.configs[name]["id"]
        assert fields["userGroupServiceName"] == self.configs[name]["ugs"]

    @rule(fmt=FORMATS)
    def get_list(self, fmt: str) -> None:
        r = self.client.get(f"{P}.{fmt}")
        self._expect(r, 200)
        if fmt == "json":
            assert [p["name"] for p in r.json()["authproviders"]] == self.active
        else:
            assert r.text.count("<name>") == len(self.active)

    @rule()
    def log_in_through_the_other_service(self) -> None:
        """zed exists only in the user/group service 'other': only an enabled provider on it
        lets zed in, from the very next request."""
        r = self.zed.get(P)
        self._expect(r, 200 if any(self.configs[n]["ugs"] == "other" for n in self.active) else 401)

    # -- invariants ---------------------------------------------------------------------------

    @invariant()
    def store_agrees_with_the_model(self) -> None:
        if not hasattr(self, "emu"):
            return
        store = self.emu.state.auth_providers
        assert store.active == self.active
        assert set(store.configs) == set(self.configs)
        assert {n: (c.user_group_service, c.id) for n, c in store.configs.items()} == {
            n: (c["ugs"], c["id"]) for n, c in self.configs.items()
        }
        assert set(store.active) <= set(store.configs)
        assert store.deleted >= self.deleted
        assert self.emu.state.security.reloads == self.writes


ProviderMachine.TestCase.settings = settings(
    max_examples=EXAMPLES,
    stateful_step_count=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestProviders = ProviderMachine.TestCase
