"""The catalog model under random creates, renames and (recursive) deletes: whatever the
sequence, no reference dangles and exactly every layer and group keeps a tile layer. Fast
(no HTTP), so it runs many more sequences than ``test_stateful``."""

from __future__ import annotations

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from geoserver_emulator import Emulator
from geoserver_emulator.areas.catalog.model import (
    Coverage,
    CoverageStore,
    DataStore,
    FeatureType,
    LayerGroup,
)
from geoserver_emulator.core.errors import EmulatorError

NAMES = st.sampled_from(["a", "b", "c"])


class ModelMachine(RuleBasedStateMachine):
    @initialize(scenario=st.sampled_from(["empty", "stock"]))
    def start(self, scenario: str) -> None:
        self.state = Emulator(scenario).state
        self.cat = self.state.catalog

    def attempt(self, action, *args, **kw) -> None:
        try:
            action(*args, **kw)
        except EmulatorError:
            pass  # refused: the catalog must be left as it was (the invariants check it)

    def pick(self, data, items):
        items = sorted(items, key=str)
        return data.draw(st.sampled_from(items)) if items else None

    @rule(name=NAMES)
    def add_workspace(self, name):
        self.attempt(self.cat.add_workspace, "w" + name)

    @rule(data=st.data(), name=NAMES, coverage=st.booleans())
    def add_store(self, data, name, coverage):
        ws = self.pick(data, self.cat.workspaces)
        if ws:
            cls = CoverageStore if coverage else DataStore
            self.attempt(self.cat.add_store, cls("s" + name, ws))

    @rule(data=st.data(), name=NAMES, publish=st.booleans())
    def add_resource(self, data, name, publish):
        key = self.pick(data, self.cat.stores)
        if key:
            cls = FeatureType if self.cat.stores[key].kind == "dataStore" else Coverage
            self.attempt(self.cat.add_resource, cls("r" + name, key[0], key[1]), publish=publish)

    @rule(data=st.data(), name=NAMES, in_ws=st.booleans())
    def add_group(self, data, name, in_ws):
        layers = [lyr.ref for lyr in self.cat.list_layers()]
        if not layers:
            return
        members = data.draw(st.lists(st.sampled_from(layers), min_size=1, max_size=3, unique=True))
        groups = [g.ref for g in self.cat.layer_groups.values()]
        if groups and data.draw(st.booleans()):
            members.append(data.draw(st.sampled_from(sorted(groups, key=str))))
        ws = members[0].workspace if in_ws else None
        self.attempt(self.cat.add_layer_group, LayerGroup("g" + name, ws, publishables=members))

    @rule(data=st.data(), name=NAMES)
    def rename_workspace(self, data, name):
        ws = self.pick(data, self.cat.workspaces)
        if ws:
            self.attempt(self.cat.update_workspace, ws, new_name="w" + name)

    @rule(data=st.data(), name=NAMES)
    def rename_store(self, data, name):
        key = self.pick(data, self.cat.stores)
        if key:
            store = self.cat.stores[key]
            updated = type(store)("s" + name, store.workspace)
            self.attempt(self.cat.replace_store, key[0], key[1], updated)

    @rule(data=st.data(), name=NAMES)
    def rename_resource(self, data, name):
        key = self.pick(data, self.cat.resources)
        if key:
            res = self.cat.resources[key]
            updated = type(res)("r" + name, res.workspace, res.store)
            self.attempt(self.cat.replace_resource, key[0], key[1], updated)

    @rule(data=st.data(), recurse=st.booleans())
    def delete_workspace(self, data, recurse):
        ws = self.pick(data, self.cat.workspaces)
        if ws:
            self.attempt(self.cat.delete_workspace, ws, recurse=recurse)

    @rule(data=st.data(), recurse=st.booleans())
    def delete_store(self, data, recurse):
        key = self.pick(data, self.cat.stores)
        if key:
            self.attempt(self.cat.delete_store, key[0], key[1], recurse=recurse)

    @rule(data=st.data(), recurse=st.booleans())
    def delete_resource(self, data, recurse):
        key = self.pick(data, self.cat.resources)
        if key:
            self.attempt(self.cat.delete_resource, key[0], key[1], recurse=recurse)

    @rule(data=st.data(), recurse=st.booleans())
    def delete_layer(self, data, recurse):
        key = self.pick(data, self.cat.layers)
        if key:
            self.attempt(self.cat.delete_layer, key[0], key[1], recurse=recurse)

    @rule(data=st.data(), recurse=st.booleans())
    def delete_group(self, data, recurse):
        key = self.pick(data, self.cat.layer_groups)
        if key:
            self.attempt(self.cat.delete_layer_group, key[0], key[1], recurse=recurse)

    @invariant()
    def consistent(self):
        assert self.cat.problems() == []
        published = {lyr.prefixed for lyr in self.cat.layers.values()}
        published |= {g.prefixed for g in self.cat.layer_groups.values()}
        assert set(self.state.seeding.tile_layers) == published


ModelMachine.TestCase.settings = settings(max_examples=100, stateful_step_count=25, deadline=None)
TestModelStateful = ModelMachine.TestCase
