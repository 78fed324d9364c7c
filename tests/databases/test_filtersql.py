"""Filters as SQL (``databases/filtersql.py``): what goes to SQL and what stays in Python,
and, for random filters over rows without empty values, the PostGIS source selects,
orders and pages exactly what the memory source does."""

from __future__ import annotations

from typing import Any

import pytest
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from geoserver_emulator.databases import filtersql
from geoserver_emulator.databases.literals import Col
from geoserver_emulator.features import memory, resolver
from geoserver_emulator.features.model import Attribute, Feature, FeatureStore, FeatureTable
from geoserver_emulator.features.query import Query
from geoserver_emulator.filters import ecql

from .conftest import STORE

COLUMNS = {
    "n": Col("n", "java.lang.Integer", "int4"),
    "s": Col("s", "java.lang.String", "varchar"),
    "t": Col("t", "java.sql.Timestamp", "timestamp"),
    "g": Col("g", "org.locationtech.jts.geom.Point", "geometry", 4326),
}


def split(text: str) -> tuple[str | None, bool]:
    """(the SQL, whether something is left for Python)."""
    where, rest = filtersql.split(ecql.parse(text).ast, COLUMNS, "g")
    return (None if where is None else where.sql.as_string()), rest is not None


@pytest.mark.parametrize(
    ("text", "sql", "left"),
    [
        ("n = 1", '"n" = %s', False),
        ("n = 'x'", None, True),  # the literal does not convert: Python compares
        ("s LIKE 'a%'", "\"s\" LIKE %s ESCAPE '\\'", False),
        ("n LIKE '1%'", None, True),  # LIKE on a number: Java's text of it, in Python
        ("strToUpperCase(s) = 'A' AND n > 1", '("n" > %s)', True),
        ("strToUpperCase(s) = 'A' OR n > 1", None, True),
        ("NOT (n = 1)", 'NOT ("n" = %s)', False),
        ("unknown = 1", None, True),
        ("BBOX(g, 0, 0, 1, 1)", '"g" && ST_MakeEnvelope(%s, %s, %s, %s, %s)', False),
        ("t AFTER 2020-01-01T00:00:00Z", '"t" > %s', False),
        ("n = s", None, True),
    ],
)
def test_what_goes_to_sql(text, sql, left):
    got, rest = split(text)
    assert rest == left
    if sql is None:
        assert got is None
    else:
        assert got is not None and sql in got


def test_like_patterns_keep_geotools_meaning():
    assert filtersql.sql_pattern("a%b_c") == "a%b_c"
    assert filtersql.sql_pattern("a\\%b\\_c\\\\") == "a\\%b\\_c\\\\"
    assert filtersql.sql_pattern("100\\%") == "100\\%"


# -- the same answers as the memory source ------------------------------------------------------

ROWS = [
    {"n": (i * 7) % 5, "s": ["a", "b", "ab", "ba", "c"][i % 5], "x": i % 4, "y": (i * 3) % 4}
    for i in range(1, 21)
]
FT = {
    "featureType": {
        "name": "t",
        "srs": "EPSG:4326",
        "attributes": {
            "attribute": [
                {"name": "g", "binding": "org.locationtech.jts.geom.Point"},
                {"name": "n", "binding": "java.lang.Integer"},
                {"name": "s", "binding": "java.lang.String"},
            ]
        },
    }
}


@st.composite
def conditions(draw: Any, depth: int = 0) -> str:
    kind = draw(st.sampled_from(["cmp", "like", "in", "between", "bbox", "func", "combo"]))
    if kind == "combo" and depth < 2:
        a, b = draw(conditions(depth + 1)), draw(conditions(depth + 1))
        return draw(st.sampled_from([f"({a}) AND ({b})", f"({a}) OR ({b})", f"NOT ({a})"]))
    if kind == "cmp":
        op = draw(st.sampled_from(["=", "<>", "<", "<=", ">", ">="]))
        if draw(st.booleans()):
            return f"n {op} {draw(st.integers(-1, 5))}"
        return f"s {op} '{draw(st.sampled_from(['a', 'ab', 'b', 'c']))}'"
    if kind == "like":
        return f"s LIKE '{draw(st.sampled_from(['a%', '%b', '_', '%a%', 'a_']))}'"
    if kind == "in":
        return f"n IN ({', '.join(str(v) for v in draw(st.lists(st.integers(0, 5), min_size=1)))})"
    if kind == "between":
        low = draw(st.integers(0, 4))
        return f"n BETWEEN {low} AND {low + draw(st.integers(0, 2))}"
    if kind == "bbox":
        x, y = draw(st.integers(0, 3)), draw(st.integers(0, 3))
        ring = f"{x} {y}, {x} {y + 1.5}, {x + 1.5} {y + 1.5}, {x + 1.5} {y}, {x} {y}"
        return f"INTERSECTS(g, POLYGON(({ring})))"
    return f"strLength(s) = {draw(st.integers(1, 2))}"  # left to Python


@pytest.fixture
def both(client, emu, pg):
    assert client.post(f"{STORE}/featuretypes", json=FT).status_code == 201
    with pg.cursor() as cur:
        cur.executemany(
            "INSERT INTO t (g, n, s) VALUES (ST_SetSRID(ST_MakePoint(%s, %s), 4326), %s, %s)",
            [(r["x"], r["y"], r["n"], r["s"]) for r in ROWS],
        )
    ft = emu.state.catalog.resources[("ws", "t")]
    database = resolver.source_for(emu.state, ft)
    assert type(database).__name__ == "PostgisSource"
    attrs = [
        Attribute("g", "org.locationtech.jts.geom.Point"),
        Attribute("n", "java.lang.Integer"),
        Attribute("s", "java.lang.String"),
    ]
    features = [
        Feature(f"t.{i}", {"g": shapely.Point(r["x"], r["y"]), "n": r["n"], "s": r["s"]})
        for i, r in enumerate(ROWS, start=1)
    ]
    table = FeatureTable("t", attrs, "g", "EPSG:4326", features)
    held = memory.MemorySource(
        FeatureStore(), ("ws", "pg", "t"), table, memory.schema_of(ft, table)
    )
    return database, held


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    text=conditions(),
    sort=st.lists(st.tuples(st.sampled_from(["n", "s"]), st.booleans()), max_size=2),
    start=st.integers(0, 5),
    count=st.none() | st.integers(0, 6),
)
def test_the_database_selects_what_the_memory_source_selects(both, text, sort, start, count):
    database, held = both
    flt = ecql.parse(text)
    query = Query(filter=flt, sort=tuple(sort), start=start, count=count)
    expected = [f.fid for f in held.read(query)]
    assert [f.fid for f in database.read(query)] == expected
    assert database.count(query) == held.count(query)
