"""A state machine over the tile layer REST, seeding and mass truncation: the tile cache only
ever holds tiles of tile layers that exist, in gridsets and formats they have, and every
catalog layer keeps one id for its life."""

from __future__ import annotations

import os

import httpx
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from geoserver_emulator import Emulator
from geoserver_emulator.areas.seeding.request import SeedRequest, canonical_format

LAYERS = ["topp:states", "sf:roads", "tasmania"]
GRIDSETS = ["EPSG:4326", "EPSG:900913", "GoogleCRS84Quad"]
FORMATS = ["image/png", "image/jpeg"]
XML = {"content-type": "text/xml"}


class TileLayerMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.emu = Emulator("stock")
        self.client = httpx.Client(
            transport=httpx.WSGITransport(app=self.emu.wsgi_app),
            base_url="http://localhost:8080/geoserver",
            auth=("admin", "geoserver"),
        )
        self.ids = {n: self.emu.state.seeding.published[n] for n in LAYERS}

    def teardown(self) -> None:
        self.client.close()
        assert not self.emu.internal_errors

    @rule(
        name=st.sampled_from(LAYERS),
        gridsets=st.lists(st.sampled_from(GRIDSETS), min_size=1, max_size=3, unique=True),
        formats=st.lists(st.sampled_from(FORMATS), min_size=1, max_size=2, unique=True),
        with_id=st.booleans(),
    )
    def put(self, name, gridsets, formats, with_id):
        ident = f"<id>{self.ids[name]}</id>" if with_id else ""
        body = (
            f"<GeoServerLayer>{ident}<enabled>true</enabled><name>{name}</name><mimeFormats>"
            + "".join(f"<string>{f}</string>" for f in formats)
            + "</mimeFormats><gridSubsets>"
            + "".join(f"<gridSubset><gridSetName>{g}</gridSetName></gridSubset>" for g in gridsets)
            + "</gridSubsets></GeoServerLayer>"
        )
        r = self.client.put(f"/gwc/rest/layers/{name}.xml", content=body, headers=XML)
        assert r.status_code == 200, r.text

    @rule(name=st.sampled_from(LAYERS))
    def delete(self, name):
        exists = name in self.emu.state.seeding.tile_layers
        r = self.client.delete(f"/gwc/rest/layers/{name}")
        assert r.status_code == (200 if exists else 404)

    @rule(name=st.sampled_from(LAYERS), gridset=st.sampled_from(GRIDSETS), stop=st.integers(0, 3))
    def seed(self, name, gridset, stop):
        layer = self.emu.state.seeding.tile_layers.get(name)
        if layer is None or gridset not in layer.gridsets:
            return
        self.emu.scheduler.submit(
            name,
            SeedRequest(gridset_id=gridset, zoom_start=0, zoom_stop=stop, thread_count=2,
                        format=layer.formats[0]),
        )  # fmt: skip

    @rule(seconds=st.floats(0, 30))
    def advance(self, seconds):
        self.emu.clock.advance(seconds)

    @rule(name=st.sampled_from(LAYERS))
    def truncate(self, name):
        body = f"<truncateLayer><layerName>{name}</layerName></truncateLayer>"
        r = self.client.post("/gwc/rest/masstruncate", content=body, headers=XML)
        exists = name in self.emu.state.seeding.tile_layers
        assert r.status_code == (200 if exists else 400)
        if exists:
            assert self.emu.scheduler.cached_tiles(name) == 0

    @invariant()
    def cache_matches_layers(self):
        self.emu.scheduler.commit()
        store = self.emu.state.seeding
        for layer, gridset, fmt, _ in store.cache.entries:
            tl = store.tile_layers.get(layer)
            assert tl is not None, layer
            assert gridset in tl.gridsets
            assert fmt in {canonical_format(f) for f in tl.formats}

    @invariant()
    def ids_are_stable(self):
        assert {n: self.emu.state.seeding.published[n] for n in LAYERS} == self.ids
        for name, tl in self.emu.state.seeding.tile_layers.items():
            if name in self.ids:
                assert tl.id == self.ids[name]


TileLayerMachine.TestCase.settings = settings(
    max_examples=int(os.environ.get("GWC_FUZZ_EXAMPLES", "15")),
    stateful_step_count=12,
    deadline=None,
)
test_tile_layer_machine = TileLayerMachine.TestCase
