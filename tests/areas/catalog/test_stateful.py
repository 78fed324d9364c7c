"""Random create / rename / delete / recursive-delete sequences over HTTP keep the catalog
consistent: no dangling reference, a tile layer for exactly every layer and group, and the
REST lists equal to the model."""

from __future__ import annotations

import httpx
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from geoserver_emulator import Emulator

NAMES = st.sampled_from(["a", "b", "c", "d"])
ALLOWED = {200, 201, 400, 401, 403, 404, 409, 500}


def _names(doc: dict, key: str, item: str) -> list[str]:
    value = doc[key]
    return [] if value == "" else [x["name"] for x in value[item]]


class CatalogMachine(RuleBasedStateMachine):
    @initialize(scenario=st.sampled_from(["empty", "stock"]))
    def start(self, scenario: str) -> None:
        self.emu = Emulator(scenario)
        self.http = httpx.Client(
            transport=httpx.WSGITransport(app=self.emu.wsgi_app),
            base_url="http://localhost:8080/geoserver",
            auth=("admin", "geoserver"),
        )

    @property
    def cat(self):
        return self.emu.state.catalog

    def call(self, method: str, path: str, **kw) -> httpx.Response:
        r = self.http.request(method, path, **kw)
        assert r.status_code in ALLOWED, (method, path, r.status_code, r.text)
        return r

    def pick(self, data, items: list[str]) -> str | None:
        return data.draw(st.sampled_from(sorted(items))) if items else None

    # -- creations ------------------------------------------------------------------

    @rule(name=NAMES)
    def create_workspace(self, name: str) -> None:
        self.call("POST", "/rest/workspaces", json={"workspace": {"name": "w" + name}})

    @rule(data=st.data(), name=NAMES, coverage=st.booleans())
    def create_store(self, data, name: str, coverage: bool) -> None:
        ws = self.pick(data, list(self.cat.workspaces))
        if ws is None:
            return
        kind, root = (
            ("coveragestores", "coverageStore") if coverage else ("datastores", "dataStore")
        )
        self.call("POST", f"/rest/workspaces/{ws}/{kind}", json={root: {"name": "s" + name}})

    @rule(data=st.data(), name=NAMES)
    def create_resource(self, data, name: str) -> None:
        key = data.draw(st.sampled_from(sorted(self.cat.stores))) if self.cat.stores else None
        if key is None:
            return
        store = self.cat.stores[key]
        if store.kind == "dataStore":
            path = f"/rest/workspaces/{key[0]}/datastores/{key[1]}/featuretypes"
            body = {"featureType": {"name": "r" + name, "srs": "EPSG:4326"}}
        else:
            path = f"/rest/workspaces/{key[0]}/coveragestores/{key[1]}/coverages"
            body = {"coverage": {"name": "r" + name}}
        self.call("POST", path, json=body)

    @rule(data=st.data(), name=NAMES, in_ws=st.booleans())
    def create_group(self, data, name: str, in_ws: bool) -> None:
        layers = [lyr.prefixed for lyr in self.cat.list_layers()]
        if not layers:
            return
        members = data.draw(st.lists(st.sampled_from(layers), min_size=1, max_size=3, unique=True))
        groups = [g.prefixed for g in self.cat.layer_groups.values()]
        published = [{"@type": "layer", "name": m} for m in members]
        if groups and data.draw(st.booleans()):
            published.append(
                {"@type": "layerGroup", "name": data.draw(st.sampled_from(sorted(groups)))}
            )
        body = {"layerGroup": {"name": "g" + name, "publishables": {"published": published}}}
        ws = members[0].split(":")[0]
        path = f"/rest/workspaces/{ws}/layergroups" if in_ws else "/rest/layergroups"
        self.call("POST", path, json=body)

    # -- changes --------------------------------------------------------------------

    @rule(data=st.data(), name=NAMES)
    def rename_workspace(self, data, name: str) -> None:
        ws = self.pick(data, list(self.cat.workspaces))
        if ws is not None:
            self.call("PUT", f"/rest/workspaces/{ws}", json={"workspace": {"name": "w" + name}})

    @rule(data=st.data(), name=NAMES)
    def rename_resource(self, data, name: str) -> None:
        key = data.draw(st.sampled_from(sorted(self.cat.resources))) if self.cat.resources else None
        if key is None:
            return
        res = self.cat.resources[key]
        kind = "datastores" if res.kind == "featureType" else "coveragestores"
        child = "featuretypes" if res.kind == "featureType" else "coverages"
        path = f"/rest/workspaces/{key[0]}/{kind}/{res.store}/{child}/{key[1]}"
        self.call("PUT", path, json={res.kind: {"name": "r" + name}})

    # -- deletions ------------------------------------------------------------------

    @rule(data=st.data(), recurse=st.booleans())
    def delete_workspace(self, data, recurse: bool) -> None:
        ws = self.pick(data, list(self.cat.workspaces))
        if ws is not None:
            self.call("DELETE", f"/rest/workspaces/{ws}?recurse={str(recurse).lower()}")

    @rule(data=st.data(), recurse=st.booleans())
    def delete_store(self, data, recurse: bool) -> None:
        key = data.draw(st.sampled_from(sorted(self.cat.stores))) if self.cat.stores else None
        if key is not None:
            kind = "datastores" if self.cat.stores[key].kind == "dataStore" else "coveragestores"
            self.call(
                "DELETE",
                f"/rest/workspaces/{key[0]}/{kind}/{key[1]}?recurse={str(recurse).lower()}",
            )

    @rule(data=st.data(), recurse=st.booleans())
    def delete_layer(self, data, recurse: bool) -> None:
        name = self.pick(data, [lyr.prefixed for lyr in self.cat.layers.values()])
        if name is not None:
            self.call("DELETE", f"/rest/layers/{name}?recurse={str(recurse).lower()}")

    @rule(data=st.data(), recurse=st.booleans())
    def delete_resource(self, data, recurse: bool) -> None:
        key = data.draw(st.sampled_from(sorted(self.cat.resources))) if self.cat.resources else None
        if key is None:
            return
        res = self.cat.resources[key]
        kind = "datastores" if res.kind == "featureType" else "coveragestores"
        child = "featuretypes" if res.kind == "featureType" else "coverages"
        path = f"/rest/workspaces/{key[0]}/{kind}/{res.store}/{child}/{key[1]}"
        self.call("DELETE", f"{path}?recurse={str(recurse).lower()}")

    @rule(data=st.data())
    def delete_group(self, data) -> None:
        key = (
            data.draw(st.sampled_from(sorted(self.cat.layer_groups, key=str)))
            if self.cat.layer_groups
            else None
        )
        if key is not None:
            ws, name = key
            path = (
                f"/rest/workspaces/{ws}/layergroups/{name}" if ws else f"/rest/layergroups/{name}"
            )
            self.call("DELETE", path)

    # -- invariants -----------------------------------------------------------------

    @invariant()
    def consistent(self) -> None:
        assert self.emu.internal_errors == []
        assert self.cat.problems() == []
        published = {lyr.prefixed for lyr in self.cat.layers.values()}
        published |= {g.prefixed for g in self.cat.layer_groups.values()}
        assert set(self.emu.state.seeding.tile_layers) == published

    @invariant()
    def lists_equal_the_model(self) -> None:
        doc = self.call("GET", "/rest/workspaces.json").json()
        assert _names(doc, "workspaces", "workspace") == [
            w.name for w in self.cat.list_workspaces()
        ]
        doc = self.call("GET", "/rest/layers.json").json()
        assert _names(doc, "layers", "layer") == [lyr.prefixed for lyr in self.cat.list_layers()]
        doc = self.call("GET", "/rest/layergroups.json").json()
        assert _names(doc, "layerGroups", "layerGroup") == [
            g.name for g in self.cat.list_layer_groups()
        ]


CatalogMachine.TestCase.settings = settings(
    max_examples=20,
    stateful_step_count=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestCatalogStateful = CatalogMachine.TestCase
