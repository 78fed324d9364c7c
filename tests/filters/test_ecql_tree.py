"""Our ECQL transformer (``ecql_tree.py``) builds the AST pygeofilter's own transformer builds,
rule by rule, on the same corrected grammar; and loading the filters module builds no other
parser and loads neither dateparser nor shapely."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from lark import Lark

from geoserver_emulator.filters import ecql

FILTERS = [
    "a = 1 AND b <> 'x' OR NOT c < 2.5",
    "a <= 1 AND a >= -2 AND a > 3 AND (b = true OR b = false)",
    "a BETWEEN 1 AND 2 AND a NOT BETWEEN 3 AND 4",
    "a LIKE 'x%' AND a NOT LIKE '_y' AND a ILIKE 'z%' AND a NOT ILIKE 'w'",
    "a IN (1, 2, 3) AND b NOT IN ('x', 'y')",
    "a IS NULL AND b IS NOT NULL",
    "a EXISTS AND b DOES-NOT-EXIST",
    "INCLUDE",
    "EXCLUDE",
    "t BEFORE 2008-10-31T00:00:00Z AND t AFTER 2008-10-31T00:00:00.5Z",
    "t DURING 2008-10-31T00:00:00Z/2008-11-01T00:00:00Z",
    "t DURING 2008-10-31T00:00:00Z/P1DT2H",
    "t BEFORE OR DURING PT30M/2008-11-01T00:00:00Z",
    "t DURING OR AFTER 2008-10-31T00:00:00+02:00/P1Y2M",
    "t = 2008-10-31T00:00:00Z",
    "INTERSECTS(g, POINT(1 2)) AND DISJOINT(g, LINESTRING(0 0, 1 1))",
    "CONTAINS(g, POLYGON((0 0, 1 0, 1 1, 0 0))) OR WITHIN(g, MULTIPOINT((1 2), (3 4)))",
    "TOUCHES(g, MULTIPOLYGON(((0 0, 1 0, 1 1, 0 0)))) AND CROSSES(g, MULTILINESTRING((0 0, 1 1)))",
    "OVERLAPS(g, ENVELOPE(0 1 2 3)) AND EQUALS(g, POINT(0 0))",
    "RELATE(g, POINT(1 1), 'T*F**F***')",
    "DWITHIN(g, POINT(1 1), 10, meters) AND BEYOND(g, POINT(1 1), 5.5, kilometers)",
    "BBOX(g, 0, 1, 2, 3) AND BBOX(g, 0, 1, 2, 3, 'EPSG:4326')",
    "strLength(a) + 2 * 3 - 4 / 5 > -1",
    '"quoted attr" = 1',
]


@pytest.fixture(scope="module")
def theirs() -> Lark:
    from pygeofilter.parsers.ecql.parser import ECQLTransformer

    own = ecql._parser()
    return Lark(
        own.source_grammar,
        parser="lalr",
        maybe_placeholders=False,
        transformer=ECQLTransformer(),
        import_paths=own.options.import_paths,
        source_path=own.source_path,
    )


@pytest.mark.parametrize("text", FILTERS)
def test_the_ast_is_pygeofilters(text: str, theirs: Lark) -> None:
    assert ecql.parse(text).ast == theirs.parse(text)


def test_a_bad_duration_is_invalid() -> None:
    with pytest.raises(ecql.Invalid):
        ecql.parse("t DURING 2008-10-31T00:00:00Z/PXD")


def test_the_first_query_loads_no_second_parser_nor_dateparser_nor_shapely(tmp_path: Path) -> None:
    code = (
        "import json, sys\n"
        "from geoserver_emulator.filters import predicates\n"
        "predicates.compile_filter(\"elevation BETWEEN 1 AND 30 AND location LIKE 'g%'\")\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    env = {"GEOSERVER_EMULATOR_CACHE": str(tmp_path), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    loaded = set(json.loads(out.stdout))
    assert "lark" in loaded  # BETWEEN: the grammar reads it
    assert not {"pygeofilter.parsers.ecql.parser", "dateparser", "shapely"} & loaded
    assert list(tmp_path.glob("ecql-lark-*.tables")), "the grammar's tables are cached"


def test_a_common_first_query_loads_no_grammar(tmp_path: Path) -> None:
    code = (
        "import json, sys\n"
        "from geoserver_emulator.filters import predicates\n"
        "predicates.compile_filter(\"elevation > 25 AND location LIKE 'g%'\")\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    env = {"GEOSERVER_EMULATOR_CACHE": str(tmp_path), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    assert not {"lark", "pygeofilter.ast"} & set(json.loads(out.stdout))
    assert not list(tmp_path.glob("ecql-lark-*.tables"))
