"""Bad input over the parameters of OGC API Features (hypothesis): random, hostile, huge and
repeated values for every parameter of ``/items`` (and the collection and feature ids, the
format, the ``/search`` body). Whatever comes, the answer is a page of features or a clear
4xx in GeoServer's ``{"code", "description"}`` shape, never an unplanned server error
(``client_for`` fails the test on one), and nothing in the state changes."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ITEMS = "/ogc/features/v1/collections/sf:prims/items"
KEYS = (
    "limit", "startIndex", "bbox", "bbox-crs", "datetime", "filter", "filter-lang",
    "filter-crs", "sortby", "crs", "ids", "properties", "exclude-properties", "f",
)  # fmt: skip
ODD = st.sampled_from(
    [
        "", " ", "-1", "0", "1e309", "NaN", "Infinity", "99999999999999999999999999",
        "2147483648", "1.5", "0x10", "EPSG:", "EPSG:abc", "EPSG:99999999", "CRS:84",
        "http://www.opengis.net/def/crs/EPSG/0/3857", "[EPSG:4326]", "urn:ogc:def:crs:EPSG::4326",
        "1,2,3", "1,2,3,4,5", "10,10,0,0", "a,b,c,d", "-180,-90,180,90", "170,0,-170,10",
        "nan,nan,nan,nan", "1,2,3,4,5,6", "2006-10-25", "2006-01-01/..", "../..", "P1D/P2D",
        "2006-01-01/P99999999Y", "2006-13-45", "name = 'x'", "name LIKE '%'", "intProperty >",
        "S_INTERSECTS(pointProperty, BBOX(0,0,1,1))", "T_AFTER(dateProperty, DATE('x'))",
        '{"op":"=","args":[{"property":"name"},"x"]}', '{"op":"and","args":[]}', "[[[[",
        "cql2-text", "cql2-json", "ecql-text", "cql-text", "foo", "json", "html", "yaml",
        "text/html", "application/geo+json", "-name", "+name", "name,-intProperty", "nope",
        "prims.1,prims.9", "\u00e9\u00e8\u2603", "<xml/>", "%00", "a" * 3000,
        "NOT " * 200 + "name = 'x'", "(" * 300 + "name = 'x'" + ")" * 300,
    ]
)  # fmt: skip
VALUE = st.one_of(ODD, st.text(max_size=40), st.integers(-(10**12), 10**12).map(str))
PAIR = st.tuples(st.sampled_from(KEYS), VALUE)
SWITCHES = (
    '<entry key="ogcapiFeatures"><ogcapiFeatures><sortBy>true</sortBy><ids>true</ids>'
    "<propertySelection>true</propertySelection><search>true</search></ogcapiFeatures></entry>"
)


def _check(r) -> None:
    assert r.status_code in (200, 400, 404, 406), (r.status_code, r.text[:400])
    kind = r.headers["content-type"]
    if r.status_code != 200:
        assert kind == "application/json"
        doc = r.json()
        assert set(doc) == {"code", "description"} and doc["description"]
    elif kind.startswith(("application/geo+json", "application/json")):
        json.loads(r.content)


def _prepare(client, prims):
    body = f"<wfs><metadata>{SWITCHES}</metadata></wfs>"
    r = client.put(
        "/rest/services/wfs/settings",
        content=body.encode(),
        headers={"Content-Type": "application/xml"},
    )
    assert r.status_code == 200


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(pairs=st.lists(PAIR, min_size=1, max_size=4))
def test_items_parameters(emu, client, anon, prims, pairs):
    _prepare(client, prims)
    before = emu.state.snapshot()
    _check(anon.get(ITEMS, params=pairs))
    assert emu.state.snapshot() == before


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    collection=st.one_of(st.text(min_size=1, max_size=30), st.sampled_from(["sf:prims", "prims"])),
    feature=st.one_of(st.text(min_size=1, max_size=30), st.just("prims.1")),
    f=st.one_of(st.none(), VALUE),
)
def test_ids_and_formats(emu, anon, prims, collection, feature, f):
    from urllib.parse import quote

    query = {} if f is None else {"f": f}
    for path in ("", "/items", "/queryables", f"/items/{quote(feature, safe='')}"):
        r = anon.get(
            f"/ogc/features/v1/collections/{quote(collection, safe='')}{path}", params=query
        )
        if r.status_code == 404 and not r.headers.get("content-type", "").startswith("application"):
            continue  # a path the router does not reach (an encoded slash)
        _check(r)


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    body=st.one_of(
        st.dictionaries(st.sampled_from(KEYS), st.one_of(VALUE, st.integers(), st.lists(VALUE))),
        st.text(max_size=60),
    )
)
def test_search_bodies(emu, client, anon, prims, body):
    _prepare(client, prims)
    before = emu.state.snapshot()
    data = json.dumps(body) if isinstance(body, dict) else body
    r = anon.post(
        "/ogc/features/v1/collections/sf:prims/search",
        content=data.encode(),
        headers={"Content-Type": "application/json"},
    )
    _check(r)
    assert emu.state.snapshot() == before
