"""Mosaic documents: the index schema and granule collections, byte by byte where it matters."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from lxml import etree

from geoserver_emulator.areas.mosaics import codec
from geoserver_emulator.areas.mosaics.bindings import IndexAttribute
from geoserver_emulator.areas.mosaics.indexer import Indexer
from geoserver_emulator.areas.mosaics.model import Granule, Mosaic
from geoserver_emulator.crs.envelope import Envelope

GF, GML = "{http://www.geoserver.org/rest/granules}", "{http://www.opengis.net/gml}"
HREF = "http://h/geoserver/rest/x/index/granules.xml"


def test_schema_xml():
    attrs = [
        IndexAttribute("the_geom", "org.locationtech.jts.geom.Polygon"),
        IndexAttribute("location", "java.lang.String", 254),
    ]
    assert codec.dump_schema_xml(attrs, HREF) == (
        b"<Schema><attributes>"
        b"<Attribute><name>the_geom</name><minOccurs>0</minOccurs><maxOccurs>1</maxOccurs><nillable>true</nillable>"
        b"<binding>org.locationtech.jts.geom.Polygon</binding></Attribute>"
        b"<Attribute><name>location</name><minOccurs>0</minOccurs><maxOccurs>1</maxOccurs><nillable>true</nillable>"
        b"<binding>java.lang.String</binding><length>254</length></Attribute>"
        b'</attributes><atom:link xmlns:atom="http://www.w3.org/2005/Atom" rel="alternate" href="'
        + HREF.encode()
        + b'" type="application/xml"/>'
        b"</Schema>"
    )


def test_schema_json_single_attribute_is_still_a_list():
    body = json.loads(
        codec.dump_schema_json([IndexAttribute("location", "java.lang.String")], HREF)
    )
    assert body == {
        "Schema": {
            "attributes": {
                "Attribute": [
                    {
                        "name": "location",
                        "minOccurs": 0,
                        "maxOccurs": 1,
                        "nillable": True,
                        "binding": "java.lang.String",
                    }
                ]
            },
            "href": HREF,
        }
    }


def database_mosaic(crs: str | None = "EPSG:32633") -> Mosaic:
    indexer = Indexer(
        params={"Schema": "the_geom:Polygon,location:String,t:java.util.Date,v:Double"},
        datastore={},
    )
    mosaic = Mosaic("datadir:x", "m", indexer, crs)
    mosaic.add(
        [
            Granule(
                0,
                "m",
                "a.tif",
                Envelope(0.12345678, 1.0, 2.5, 3.98765432),
                {"t": datetime(2020, 1, 2, 3, 4, 5, 6000, tzinfo=UTC), "v": None},
            ),
            Granule(0, "m", "b.tif", Envelope(1e7, -2.0, 1.5e7, 0.0), {"t": None, "v": 2.0}),
        ]
    )
    return mosaic


def test_gml_of_a_database_index():
    mosaic = database_mosaic()
    doc = etree.fromstring(codec.dump_granules_xml(mosaic, "m", mosaic.granules))
    first, second = doc.findall(f"{GML}featureMember/{GF}m")
    polygon = first.find(f"{GF}the_geom/{GML}Polygon")
    assert polygon.get("srsName") == "http://www.opengis.net/gml/srs/epsg.xml#32633"
    coords = polygon.findtext(f"{GML}outerBoundaryIs/{GML}LinearRing/{GML}coordinates")
    assert coords == "0.123457,1.0 0.123457,3.987654 2.5,3.987654 2.5,1.0 0.123457,1.0"
    assert (
        first.findtext(f"{GML}boundedBy/{GML}Box/{GML}coordinates") == "0.123457,1.0 2.5,3.987654"
    )
    assert first.findtext(f"{GF}t") == "2020-01-02T03:04:05.006Z"
    assert first.find(f"{GF}v") is None  # empty values are left out
    assert second.findtext(f"{GF}v") == "2.0"
    xs = [c.findtext(f"{GML}X") for c in doc.find(f"{GML}boundedBy/{GML}Box")]
    assert xs == ["0.12345678", "1.5E7"]


def test_geojson_of_a_database_index():
    mosaic = database_mosaic()
    body = json.loads(codec.dump_granules_json(mosaic, "m", mosaic.granules))
    assert list(body) == ["type", "bbox", "crs", "features"]
    first = body["features"][0]
    assert list(first) == ["type", "geometry", "properties", "id"]
    assert first["geometry"] == {
        "type": "Polygon",
        "coordinates": [
            [[0.1235, 1.0], [0.1235, 3.9877], [2.5, 3.9877], [2.5, 1.0], [0.1235, 1.0]]
        ],
    }
    assert first["properties"] == {
        "location": "a.tif",
        "t": "2020-01-02T03:04:05.006+0000",
        "v": None,
    }
    assert body["crs"]["properties"]["name"] == "EPSG:32633"


def test_unknown_crs_and_empty_collection():
    mosaic = database_mosaic(crs=None)
    doc = etree.fromstring(codec.dump_granules_xml(mosaic, "m", mosaic.granules[:1]))
    assert doc.find(f"{GML}boundedBy/{GML}Box").get("srsName") is None
    empty = etree.fromstring(codec.dump_granules_xml(mosaic, "m", []))
    assert empty.findtext(f"{GML}boundedBy/{GML}null") == "unknown"
    assert json.loads(codec.dump_granules_json(mosaic, "m", [])) == {
        "type": "FeatureCollection",
        "features": [],
    }
