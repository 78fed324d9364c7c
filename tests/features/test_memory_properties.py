"""The memory source reads what a naive filter, sort and slice of the table's list gives, for
random tables and queries."""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable
from typing import Any

import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from geoserver_emulator.features import memory
from geoserver_emulator.features.model import Attribute, Feature, FeatureStore, FeatureTable
from geoserver_emulator.features.query import Query
from geoserver_emulator.filters import ecql

ATTRIBUTES = [
    Attribute("s", "java.lang.String"),
    Attribute("n", "java.lang.Integer"),
    Attribute("g", "org.locationtech.jts.geom.Point"),
]
OPS: dict[str, Callable[[Any, Any], bool]] = {
    "=": operator.eq,
    "<>": operator.ne,
    "<": operator.lt,
    ">=": operator.ge,
}

values = st.fixed_dictionaries(
    {
        "s": st.none() | st.sampled_from(["a", "b", "ab", "c"]),
        "n": st.none() | st.integers(-3, 3),
        "g": st.none() | st.tuples(st.integers(0, 4), st.integers(0, 4)),
    }
)
tables = st.lists(st.tuples(st.sampled_from(["t.1", "t.2", "t.3", "t.4", "x.1"]), values))


@st.composite
def conditions(draw: Any) -> tuple[str, Callable[[dict[str, Any]], bool]]:
    """An ECQL condition and the same test in plain Python (empty values never match)."""
    if draw(st.booleans()):
        op, k = draw(st.sampled_from(sorted(OPS))), draw(st.integers(-3, 3))
        return f"n {op} {k}", lambda p: p["n"] is not None and OPS[op](p["n"], k)
    prefix = draw(st.sampled_from(["a", "b", ""]))
    return f"s LIKE '{prefix}%'", lambda p: p["s"] is not None and p["s"].startswith(prefix)


queries = st.fixed_dictionaries(
    {},
    optional={
        "fids": st.lists(st.sampled_from(["t.1", "t.2", "t.9", "x.1"])).map(tuple),
        "bbox": st.tuples(st.integers(0, 4), st.integers(0, 4)).map(
            lambda xy: (float(xy[0]), float(xy[1]), xy[0] + 1.5, xy[1] + 1.5)
        ),
        "filter": conditions(),
        "sort": st.lists(st.tuples(st.sampled_from(["s", "n"]), st.booleans()), max_size=2).map(
            tuple
        ),
        "start": st.integers(0, 5),
        "count": st.integers(0, 5),
        "properties": st.lists(st.sampled_from(["s", "n", "g", "z"]), unique=True).map(tuple),
    },
)


def naive(features: list[Feature], q: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    out = list(features)
    if "fids" in q:
        out = [f for f in out if f.fid in q["fids"]]
    if "bbox" in q:
        box = shapely.box(*q["bbox"])
        out = [
            f for f in out if f.properties["g"] is not None and f.properties["g"].intersects(box)
        ]
    if "filter" in q:
        out = [f for f in out if q["filter"][1](f.properties)]

    def compare(a: Feature, b: Feature) -> int:
        for key, descending in q.get("sort", ()):
            x, y = a.properties[key], b.properties[key]
            if x is None or y is None:
                if x is None and y is None:
                    continue
                empty_first = -1 if descending else 1  # empty values last ascending
                return empty_first if x is None else -empty_first
            order = (x > y) - (x < y)
            if order:
                return -order if descending else order
        return 0

    out = sorted(out, key=functools.cmp_to_key(compare))
    start = q.get("start", 0)
    out = out[start : None if "count" not in q else start + q["count"]]
    names = q.get("properties")
    return [
        (f.fid, dict(f.properties) if names is None else {n: f.properties.get(n) for n in names})
        for f in out
    ]


@settings(max_examples=300, deadline=None)
@given(tables, queries)
def test_read_is_a_naive_filter_sort_and_slice(rows: list[Any], q: dict[str, Any]) -> None:
    features = [
        Feature(fid, {**v, "g": shapely.Point(*v["g"]) if v["g"] is not None else None})
        for fid, v in rows
    ]
    table = FeatureTable("t", ATTRIBUTES, "g", "EPSG:4326", list(features))
    store = FeatureStore()
    source = memory.MemorySource(store, ("w", "s", "t"), table, memory.schema_of(_Type(), table))
    args = dict(q)
    if "filter" in args:
        args["filter"] = ecql.parse(args["filter"][0])
    query = Query(**args)
    got = [(f.fid, dict(f.properties)) for f in source.read(query)]
    assert got == naive(features, q)
    assert source.count(query) == len(
        naive(features, {k: v for k, v in q.items() if k in ("fids", "bbox", "filter")})
    )
    assert table.features == features  # reading changes nothing


class _Type:
    workspace, store, name, native_name, srs = "w", "s", "t", None, None
    attributes: list[Any] = []
