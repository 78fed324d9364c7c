"""Whatever the body, GWC's configuration endpoints answer a 2xx or a 4xx, never a 500, and
a refusal changes nothing."""

from __future__ import annotations

import json
import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from geoserver_emulator import Emulator

TAGS = st.sampled_from([
    "GeoServerLayer", "wmsLayer", "name", "id", "enabled", "mimeFormats", "string", "gridSubsets",
    "gridSubset", "gridSetName", "extent", "coords", "double", "zoomStart", "zoomStop",
    "metaWidthHeight", "int", "parameterFilters", "regexParameterFilter", "floatParameterFilter",
    "key", "values", "float", "threshold", "regex", "gridSet", "srs", "number", "resolutions",
    "scaleDenominators", "FileBlobStore", "truncateLayer", "layerName", "truncateExtent",
    "bounds", "gwcQuotaConfiguration", "global", "backendTimeout",
])  # fmt: skip
TEXTS = st.sampled_from(["", "topp:states", "EPSG:4326", "1", "-1", "4", "1e400", "x", "true",
                         "(a+)+$", "99", "0x10", "NaN"])  # fmt: skip


def _xml(depth: int = 2) -> st.SearchStrategy[str]:
    leaf = st.builds(lambda t, v: f"<{t}>{v}</{t}>", TAGS, TEXTS)
    if depth == 0:
        return leaf
    node = st.builds(
        lambda t, kids: f"<{t}>{''.join(kids)}</{t}>", TAGS, st.lists(_xml(depth - 1), max_size=4)
    )
    return st.one_of(leaf, node)


JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-5, 30), TEXTS),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(TAGS, inner, max_size=4)),
    max_leaves=12,
)
TARGETS = [
    ("PUT", "/gwc/rest/layers/topp:states"),
    ("POST", "/gwc/rest/layers/topp:states"),
    ("PUT", "/gwc/rest/gridsets/EPSG:4326x3"),
    ("PUT", "/gwc/rest/blobstores/b"),
    ("PUT", "/gwc/rest/diskquota"),
    ("PUT", "/gwc/rest/global"),
    ("POST", "/gwc/rest/masstruncate"),
]


def _state(emu: Emulator) -> dict:
    return emu.dump_scenario()["seeding"]


@settings(
    max_examples=int(os.environ.get("GWC_FUZZ_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    target=st.sampled_from(TARGETS),
    body=st.one_of(
        _xml().map(lambda x: ("xml", x)),
        st.dictionaries(TAGS, JSON_VALUES, min_size=1, max_size=2).map(
            lambda d: ("json", json.dumps(d))
        ),
        st.text(max_size=30).map(lambda t: ("xml", t)),
    ),
)
def test_never_a_server_error(client, emu, target, body):
    method, path = target
    fmt, content = body
    ctype = "application/json" if fmt == "json" else "text/xml"
    before = _state(emu)
    url = path if path.endswith("masstruncate") else f"{path}.{fmt}"
    r = client.request(method, url, content=content, headers={"content-type": ctype})
    assert r.status_code < 500, r.text
    if r.status_code >= 400:
        assert _state(emu) == before
