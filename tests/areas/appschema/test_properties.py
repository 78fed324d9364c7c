"""Properties of uploads over HTTP: the type-set-change rule for any sequence of PUTs."""

from __future__ import annotations

import httpx
from hypothesis import given, settings
from hypothesis import strategies as st

from geoserver_emulator import Emulator

from .conftest import XML, feature_types, layers, mapping_xml

NAMES = ["Borehole", "GeologicUnit", "MappedFeature", "Fault"]
type_sets = st.lists(st.sampled_from(NAMES), min_size=1, max_size=4, unique=True)
modes = st.sampled_from(["all", "none", None, "first"])
SHARED = Emulator("stock")


def _client(emu: Emulator) -> httpx.Client:
    transport = httpx.WSGITransport(app=emu.wsgi_app)
    return httpx.Client(
        transport=transport, base_url="http://h/geoserver", auth=("admin", "geoserver")
    )


def _put(c: httpx.Client, names: list[str], mode: str | None) -> httpx.Response:
    query = f"?configure={mode}" if mode else ""
    url = f"/rest/workspaces/topp/datastores/as/file.appschema{query}"
    return c.put(url, content=mapping_xml(names, prefix="topp"), headers=XML)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(type_sets, modes), min_size=1, max_size=5), type_sets)
def test_puts_only_add_and_a_recursive_delete_starts_over(uploads, final):
    SHARED.reset()
    with _client(SHARED) as c:
        expected: set[str] = set()
        for names, mode in uploads:
            r = _put(c, names, mode)
            assert r.status_code in (200, 201), r.text
            chosen = names if mode == "all" else [] if mode == "none" else names[:1]
            expected |= set(chosen)
            assert set(feature_types(c, "topp", "as")) == expected
        stock_layers = set(layers(c, "topp")) - expected
        assert c.delete("/rest/workspaces/topp/datastores/as?recurse=true").status_code == 200
        assert _put(c, final, "all").status_code == 201
        assert feature_types(c, "topp", "as") == sorted(final)
        assert set(layers(c, "topp")) == stock_layers | set(final)
        assert SHARED.state.catalog.problems() == []
    assert not SHARED.internal_errors
