"""SQL views (``JDBC_VIRTUAL_TABLE``): attributes from the query, parameters validated before
anything reaches SQL, the entry kept and written back in XML and JSON."""

from __future__ import annotations

import psycopg
import pytest

from geoserver_emulator.databases import rows, virtual
from geoserver_emulator.databases.errors import DatabaseError

from .conftest import STORE

VIEW_XML = rb"""<featureType><name>big</name>
<metadata><entry key="JDBC_VIRTUAL_TABLE"><virtualTable>
  <name>big</name>
  <sql>select id, label, geom from towns where pop &gt; %low%</sql>
  <escapeSql>false</escapeSql>
  <keyColumn>id</keyColumn>
  <geometry><name>geom</name><type>Point</type><srid>4326</srid></geometry>
  <parameter><name>low</name><defaultValue>10</defaultValue>
    <regexpValidator>^[\d]+$</regexpValidator></parameter>
</virtualTable></entry></metadata></featureType>"""


@pytest.fixture
def towns(pg):
    pg.execute("CREATE TABLE towns (id serial PRIMARY KEY, label text, pop int, geom geometry)")
    pg.execute(
        "INSERT INTO towns (label, pop, geom) VALUES ('small', 5, 'SRID=4326;POINT(0 0)'),"
        " ('large', 50, 'SRID=4326;POINT(4 6)')"
    )
    return pg


def test_a_sql_view_gets_its_attributes_from_the_query(client, towns):
    r = client.post(f"{STORE}/featuretypes", content=VIEW_XML, headers={"Content-Type": "text/xml"})
    assert r.status_code == 201, r.text
    ft = client.get(f"{STORE}/featuretypes/big.json").json()["featureType"]
    assert [(a["name"], a["binding"]) for a in ft["attributes"]["attribute"]] == [
        ("label", "java.lang.String"),
        ("geom", "org.locationtech.jts.geom.Point"),
    ]
    assert ft["srs"] == "EPSG:4326"
    box = ft["nativeBoundingBox"]  # the default parameter: only 'large'
    assert (box["minx"], box["maxx"], box["miny"], box["maxy"]) == (4, 4, 6, 6)
    assert towns.execute("SELECT to_regclass('public.big')").fetchone()[0] is None


def test_the_view_entry_round_trips_in_xml_and_json(client, towns):
    client.post(f"{STORE}/featuretypes", content=VIEW_XML, headers={"Content-Type": "text/xml"})
    xml = client.get(f"{STORE}/featuretypes/big.xml").text
    assert '<entry key="JDBC_VIRTUAL_TABLE">' in xml
    assert "<regexpValidator>^[\\d]+$</regexpValidator>" in xml
    as_json = client.get(f"{STORE}/featuretypes/big.json").json()["featureType"]["metadata"]
    entry = as_json["entry"]
    entry = entry[0] if isinstance(entry, list) else entry
    parsed = virtual.parse(entry["virtualTable"])
    assert parsed.parameters == [virtual.Parameter("low", "10", r"^[\d]+$")]
    assert parsed.geometries == [virtual.Geometry("geom", "Point", 4326)]
    assert parsed.key_columns == ["id"]
    # the JSON form POSTed back makes the same view
    client.delete(f"{STORE}/featuretypes/big", params={"recurse": "true"})
    body = {
        "featureType": {
            "name": "big",
            "metadata": {
                "entry": {"@key": "JDBC_VIRTUAL_TABLE", "virtualTable": virtual.dump(parsed)}
            },
        }
    }
    assert client.post(f"{STORE}/featuretypes", json=body).status_code == 201


def test_a_malformed_view_is_refused(client, towns):
    body = {
        "featureType": {
            "name": "bad",
            "metadata": {
                "entry": {
                    "@key": "JDBC_VIRTUAL_TABLE",
                    "virtualTable": {
                        "name": "bad",
                        "sql": "select 1",
                        "parameter": {"name": "p", "regexpValidator": "(unclosed"},
                    },
                }
            },
        }
    }
    r = client.post(f"{STORE}/featuretypes", json=body)
    assert r.status_code == 400
    assert "invalid validator" in r.text


def test_a_view_whose_sql_fails_is_a_500_with_postgresqls_message(client, towns):
    body = VIEW_XML.replace(b"from towns", b"from no_such_table")
    r = client.post(f"{STORE}/featuretypes", content=body, headers={"Content-Type": "text/xml"})
    assert r.status_code == 500
    assert 'relation "no_such_table" does not exist' in r.text


def _view() -> virtual.VirtualTable:
    from geoserver_emulator.areas.catalog.tree import xml_to_dict
    from geoserver_emulator.wire import xml as wxml

    tree = xml_to_dict(wxml.parse(VIEW_XML))
    return virtual.parse(tree["metadata"]["entry"]["virtualTable"])


def test_parameters_are_substituted_after_validation(towns):
    view = _view()
    assert virtual.expand(view) == "select id, label, geom from towns where pop > 10"
    assert virtual.expand(view, {"low": "1"}).endswith("pop > 1")
    with pytest.raises(virtual.InvalidParameter, match="^Invalid value for parameter low$"):
        virtual.expand(view, {"low": "1 or 1=1"})


@pytest.mark.parametrize(
    "value",
    ["0; DROP TABLE towns", "0) OR (1=1", "0 UNION SELECT 1, 'x', NULL", "'", "1--", "\\", "1e9x"],
)
def test_injection_through_a_view_parameter_never_reaches_sql(towns, value):
    source = rows.Source("public", view=_view(), values={"low": value})
    with pytest.raises(virtual.InvalidParameter):
        with towns.transaction():
            rows.count(towns, source)
    assert towns.execute("SELECT count(*) FROM towns").fetchone()[0] == 2


def test_a_parameter_without_a_validator_gets_the_default_one(towns):
    view = virtual.VirtualTable("v", "select * from towns where label = '%who%'")
    view.parameters = [virtual.Parameter("who", "small")]
    assert virtual.expand(view, {"who": "large"}).endswith("'large'")
    with pytest.raises(virtual.InvalidParameter):
        virtual.expand(view, {"who": "x' OR 'a'='a"})


def test_escape_sql_doubles_quotes_of_accepted_values():
    view = virtual.VirtualTable("v", "select '%p%'", escape_sql=True)
    view.parameters = [virtual.Parameter("p", None, ".*")]
    assert virtual.expand(view, {"p": "it's"}) == "select 'it''s'"


def test_view_rows_counts_and_bounds_follow_the_parameters(towns):
    source = rows.Source("public", view=_view(), values={"low": "1"})
    columns = rows.view_columns(towns, source)
    assert rows.count(towns, source) == 2
    assert rows.bounds(towns, source, "geom") == (0.0, 0.0, 4.0, 6.0)
    found = rows.select(towns, source, columns, key=["id"], order=[("label", True)])
    assert [(r.key, r.values["label"], r.values["geom"].wkt) for r in found] == [
        ([2], "large", "POINT (4 6)"),
        ([1], "small", "POINT (0 0)"),
    ]


def test_viewparams_are_read_as_geoserver_reads_them():
    assert virtual.parse_viewparams("low:5;name:a\\;b,x:1") == [
        {"low": "5", "name": "a;b"},
        {"x": "1"},
    ]
    # a name alone reads as true, as GeoServer's format options read it
    assert virtual.parse_viewparams("flag;a:1") == [{"flag": "true", "a": "1"}]


def test_a_view_sql_cannot_smuggle_a_second_statement(towns):
    view = virtual.VirtualTable("v", "select 1 as x; drop table towns")
    source = rows.Source("public", view=view)
    with pytest.raises((psycopg.Error, DatabaseError)):
        with towns.transaction():
            rows.count(towns, source)
    assert towns.execute("SELECT count(*) FROM towns").fetchone()[0] == 2
