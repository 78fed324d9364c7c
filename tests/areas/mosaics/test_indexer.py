"""Mosaic configuration: properties files, indexer.properties/indexer.xml, the index schema
per index store, value conversions and the property collectors."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from geoserver_emulator.areas.mosaics import bindings, collect, configfiles, properties
from geoserver_emulator.areas.mosaics.granules import RasterInfo
from geoserver_emulator.areas.mosaics.indexer import Collector, Indexer, schema
from geoserver_emulator.crs.envelope import Envelope

# -- properties files ------------------------------------------------------------------------


def test_properties_syntax():
    text = (
        "# comment\n! also\n  key = value  \nother:thing\nspaced value\n"
        "multi=one \\\n    two\nesc\\=aped=x\\ty\nuni=\\u00e9\nregex=(?<=_)(\\\\d{4})\n"
    )
    assert properties.parse(text) == {
        "key": "value  ",
        "other": "thing",
        "spaced": "value",
        "multi": "one two",
        "esc=aped": "x\ty",
        "uni": "é",
        "regex": "(?<=_)(\\d{4})",
    }


@given(st.dictionaries(st.text(min_size=1), st.text()))
def test_properties_dump_round_trip(values):
    assert properties.parse(properties.dump(values)) == values


# -- indexer files ---------------------------------------------------------------------------


def reader(files: dict[str, str]):
    return lambda name: files[name].encode() if name in files else None


def test_indexer_properties_with_collectors():
    indexer = configfiles.load(
        reader(
            {
                "indexer.properties": "TimeAttribute=time\n"
                "PropertyCollectors=TimestampFileNameExtractorSPI[timeregex](time),"
                "FSDateExtractorSPI(fileDate), broken[x, "
                "IntegerFileNameExtractorSPI[missing](elevation)\n",
                "timeregex.properties": "regex=.*([0-9]{10}).*,format=yyyyMMddHH\n",
            }
        )
    )
    assert indexer.source == "indexer.properties"
    assert indexer.collectors == [
        Collector("TimestampFileNameExtractorSPI", "time", ".*([0-9]{10}).*", "yyyyMMddHH"),
        Collector("FSDateExtractorSPI", "fileDate"),
        Collector("IntegerFileNameExtractorSPI", "elevation"),
    ]
    assert indexer.param("timeattribute") == "time"
    assert indexer.store_kind == "shapefile"


def test_indexer_xml():
    xml = """<Indexer>
      <domains>
        <domain name="time"><attributes><attribute name="time"/></attributes></domain>
        <domain name="elevation">
          <attributes><attribute name="low"/><attribute name="high"/></attributes>
        </domain>
        <domain name="depth"><attributes><attribute name="d"/></attributes></domain>
      </domains>
      <coverages><coverage><name>NO2</name><schema name="s1">
        <attributes>the_geom:Polygon,location:String,time:java.util.Date</attributes>
      </schema></coverage></coverages>
      <parameters>
        <parameter name="CanBeEmpty" value="true"/>
        <parameter name="Name"><value>poly</value></parameter>
      </parameters>
      <collectors><collector name="c">
        <spi>TimestampFileNameExtractorSPI</spi><value>[0-9]{8}</value><mapped>time</mapped>
      </collector></collectors>
    </Indexer>"""
    indexer = configfiles.load(reader({"indexer.xml": xml, "datastore.properties": "SPI=x\n"}))
    assert indexer.flag("CanBeEmpty") and indexer.param("Name") == "poly"
    assert indexer.domain("TimeAttribute") == ["time"]
    assert indexer.domain("ElevationAttribute") == ["low", "high"]
    assert indexer.param("AdditionalDomainAttributes") == "depth(d)"
    assert indexer.coverages == [("NO2", "the_geom:Polygon,location:String,time:java.util.Date")]
    assert indexer.collectors == [Collector("TimestampFileNameExtractorSPI", "time", "[0-9]{8}")]
    assert indexer.store_kind == "database"
    assert [(a.name, a.binding) for a in schema(indexer, "NO2")] == [
        ("the_geom", "org.locationtech.jts.geom.Polygon"),
        ("location", "java.lang.String"),
        ("time", "java.sql.Timestamp"),
    ]


def test_indexer_xml_that_is_not_one():
    from geoserver_emulator.core.errors import Invalid

    with pytest.raises(Invalid):
        configfiles.load(reader({"indexer.xml": "<Other/>"}))
    with pytest.raises(Invalid):
        configfiles.load(reader({"indexer.xml": "<Indexer"}))


# -- the index schema ------------------------------------------------------------------------


SPEC = (
    "*the_geom:Polygon,location:String,a:Integer,b:Short,c:Long,d:Float,e:Double,f:Boolean,"
    "t:java.util.Date,ts:Timestamp"
)


def test_shapefile_schema():
    attrs = schema(
        Indexer(params={"Schema": "location:String," + SPEC.replace("location:String,", "")})
    )
    assert [(a.name, a.binding, a.length) for a in attrs] == [
        ("the_geom", "org.locationtech.jts.geom.MultiPolygon", None),
        ("location", "java.lang.String", 254),
        ("a", "java.lang.Integer", 9),
        ("b", "java.lang.Integer", 9),
        ("c", "java.lang.Long", 19),
        ("d", "java.lang.Double", 33),
        ("e", "java.lang.Double", 33),
        ("f", "java.lang.Boolean", 1),
        ("t", "java.util.Date", 8),
        ("ts", "java.sql.Timestamp", 8),
    ]


def test_database_schema_keeps_the_declared_types():
    attrs = schema(Indexer(params={"Schema": SPEC}, datastore={}))
    assert [(a.name, a.binding) for a in attrs][:5] == [
        ("the_geom", "org.locationtech.jts.geom.Polygon"),
        ("location", "java.lang.String"),
        ("a", "java.lang.Integer"),
        ("b", "java.lang.Short"),
        ("c", "java.lang.Long"),
    ]
    assert all(a.length is None for a in attrs)


def test_default_schema_and_fallback():
    default = [
        ("the_geom", "org.locationtech.jts.geom.MultiPolygon"),
        ("location", "java.lang.String"),
        ("time", "java.util.Date"),
    ]
    indexer = Indexer(params={"TimeAttribute": "time"})
    assert [(a.name, a.binding) for a in schema(indexer)] == default
    # a spec GeoTools cannot read falls back to the default schema, as GeoTools does
    indexer.params["Schema"] = "the_geom:Polygon,location:NoSuchType"
    assert [(a.name, a.binding) for a in schema(indexer)] == default


@pytest.mark.parametrize("spec", ["", "nocolon", "a:String,a:String", "x:java.lang.Object"])
def test_bad_specs(spec):
    with pytest.raises(bindings.SchemaError):
        bindings.parse_spec(spec)


def test_vividsolutions_names():
    assert bindings.parse_spec("g:com.vividsolutions.jts.geom.Point") == [
        ("g", "org.locationtech.jts.geom.Point")
    ]


# -- values ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (10.0, "10.0"),
        (0.001, "0.001"),
        (1e7, "1.0E7"),
        (1.2345e-4, "1.2345E-4"),
        (-2.5e20, "-2.5E20"),
        (0.0, "0.0"),
        (123.456, "123.456"),
    ],
)
def test_java_double(value, text):
    assert bindings.java_double(value) == text


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_java_double_round_trips(x):
    assert float(bindings.java_double(x).replace("E", "e")) == x


@pytest.mark.parametrize(
    ("text", "instant"),
    [
        ("20081031T0000000", datetime(2008, 10, 31, tzinfo=UTC)),
        ("2008-11-01T00:00:00Z", datetime(2008, 11, 1, tzinfo=UTC)),
        ("2008-11-01T10:00:00+02:00", datetime(2008, 11, 1, 8, tzinfo=UTC)),
        ("2013-03-01T00:00:00.5Z", datetime(2013, 3, 1, 0, 0, 0, 500000, tzinfo=UTC)),
        ("200811", datetime(2008, 11, 1, tzinfo=UTC)),
        ("20081101T12", datetime(2008, 11, 1, 12, tzinfo=UTC)),
        ("2008", datetime(2008, 1, 1, tzinfo=UTC)),
        ("20081332", None),
        ("x2008", None),
    ],
)
def test_parse_instant(text, instant):
    assert bindings.parse_instant(text) == instant


def test_simple_date_format():
    pattern = bindings.simple_date_parser("yyyyMMddHH")
    assert bindings.parse_with_format("2017111319", pattern) == datetime(
        2017, 11, 13, 19, tzinfo=UTC
    )
    quoted = bindings.simple_date_parser("yyyy-MM-dd'T'HH")
    assert bindings.parse_with_format("2017-11-13T19", quoted) == datetime(
        2017, 11, 13, 19, tzinfo=UTC
    )
    with pytest.raises(bindings.SchemaError):
        bindings.simple_date_parser("EEE yyyy")


@pytest.mark.parametrize(
    ("value", "binding", "out"),
    [
        ("000", "java.lang.Integer", 0),
        ("12.5", "java.lang.Integer", None),
        (3.0, "java.lang.Long", 3),
        ("12.5", "java.lang.Double", 12.5),
        (True, "java.lang.Double", None),
        ("TRUE", "java.lang.Boolean", True),
        ("2008-10-31", "java.util.Date", datetime(2008, 10, 31, tzinfo=UTC)),
        (5, "java.lang.String", "5"),
        (None, "java.lang.String", None),
    ],
)
def test_convert(value, binding, out):
    assert bindings.convert(value, binding) == out


# -- collectors ------------------------------------------------------------------------------


def facts(path: str, date_time: str | None = None) -> collect.GranuleFacts:
    raster = RasterInfo(4, 2, Envelope(0, 0, 2, 4), "EPSG:4326", ("GRAY_INDEX",), True, date_time)
    return collect.GranuleFacts(
        path, raster, datetime(2020, 1, 1, tzinfo=UTC), datetime(2026, 1, 1, tzinfo=UTC)
    )


def test_collectors():
    path = "/data/NCOM_wattemp_100_20081031T0000000_12.tiff"
    cases = [
        (
            Collector("TimestampFileNameExtractorSPI", "t", "[0-9]{8}T[0-9]{7}"),
            datetime(2008, 10, 31, tzinfo=UTC),
        ),
        (Collector("IntegerFileNameExtractorSPI", "e", "(?<=_)[0-9]{3}(?=_)"), 100),
        (Collector("DoubleFileNameExtractorSPI", "e", "_([0-9]+)$"), 12.0),
        (Collector("IntegerFileNameExtractorSPI", "e", "_([0-9])([0-9])[0-9]_"), 10),
        (Collector("StringFileNameExtractorSPI", "s", "^[A-Z]+"), "NCOM"),
        (Collector("StringFileNameExtractorSPI", "s", "nothing"), None),
        (Collector("IntegerFileNameExtractorSPI", "s", "[a-z]+"), None),
        (Collector("StringFileNameExtractorSPI", "s", "^/data", full_path=True), "/data"),
        (Collector("FSDateExtractorSPI", "f"), datetime(2020, 1, 1, tzinfo=UTC)),
        (Collector("CurrentDateExtractorSPI", "u"), datetime(2026, 1, 1, tzinfo=UTC)),
        (Collector("ResolutionXExtractorSPI", "r"), 0.5),
        (Collector("ResolutionYExtractorSPI", "r"), 2.0),
        (Collector("CRSExtractorSPI", "c"), "EPSG:4326"),
    ]
    for collector, expected in cases:
        assert collect.collect(collector, facts(path)) == (True, expected), collector
    assert collect.collect(Collector("NoSuchSPI", "x"), facts(path)) == (False, None)
    assert collect.collect(Collector("IntegerFileNameExtractorSPI", "x"), facts(path)) == (
        False,
        None,
    )
    tiff_date = collect.collect(
        Collector("DateExtractorSPI", "d"), facts(path, "2020:02:03 04:05:06")
    )
    assert tiff_date == (True, datetime(2020, 2, 3, 4, 5, 6, tzinfo=UTC))


def test_timestamp_without_a_match_fails_the_granule():
    with pytest.raises(collect.CollectError, match="no date found"):
        collect.collect(
            Collector("TimestampFileNameExtractorSPI", "t", "[0-9]{8}"), facts("/x/nodate.tif")
        )


def test_timestamp_with_a_format():
    c = Collector("TimestampFileNameExtractorSPI", "t", ".*([0-9]{10}).*", "yyyyMMddHH")
    assert collect.collect(c, facts("/x/Temperature_2017111319.tif"))[1] == datetime(
        2017, 11, 13, 19, tzinfo=UTC
    )


def test_collector_checks():
    assert collect.check(Collector("TimestampFileNameExtractorSPI", "t", "[0-9")) is not None
    assert (
        collect.check(Collector("TimestampFileNameExtractorSPI", "t", "[0-9]", "EEE")) is not None
    )
    assert collect.check(Collector("TimestampFileNameExtractorSPI", "t", "[0-9]")) is None
