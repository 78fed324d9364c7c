"""Helpers for the app-schema tests: the fixture mappings, ZIPs of them, generated mappings."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest

PAYLOADS = Path(__file__).resolve().parents[2] / "payloads" / "appschema"
GEOSCIML_ZIP = [
    "geosciml.appschema",
    "cgi_termvalue.xml",
    "geosciml.xsd",
    "geologicFeature.xsd",
    "geologicUnit.xsd",
    "value.xsd",
]
MONGO_URL = "mongodb://mongo.example:27017/stations"
XML = {"Content-Type": "text/xml"}
ZIP = {"Content-Type": "application/zip"}


def short_id(value: object) -> str:
    """A test id for a parameter: strings as they are (cut), bytes and others by kind."""
    return value[:40] if isinstance(value, str) else type(value).__name__


def payload(name: str) -> bytes:
    return (PAYLOADS / name).read_bytes()


def stations_docs() -> list[dict]:
    return json.loads(payload("stations.json"))


def make_zip(files: dict[str, bytes] | list[str]) -> bytes:
    """A ZIP of ``files`` (name → bytes, or fixture names)."""
    if isinstance(files, list):
        files = {name: payload(name) for name in files}
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            z.writestr(zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0)), data)
    return buf.getvalue()


def geosciml_zip(**overrides: bytes | None) -> bytes:
    """The GeoSciML archive; ``name=None`` leaves a file out, ``name=b"…"`` replaces it."""
    files = {name: payload(name) for name in GEOSCIML_ZIP}
    for name, data in overrides.items():
        name = name.replace("__", ".")
        if data is None:
            files.pop(name, None)
        else:
            files[name] = data
    return make_zip(files)


def mapping_xml(names: list[str], prefix: str = "gsml") -> bytes:
    """A minimal valid mapping with one FeatureTypeMapping per name."""
    mappings = "".join(
        f"<FeatureTypeMapping><sourceDataStore>ds</sourceDataStore>"
        f"<sourceType>{n.upper()}</sourceType><targetElement>{prefix}:{n}</targetElement>"
        f"</FeatureTypeMapping>"
        for n in names
    )
    return (
        '<as:AppSchemaDataAccess xmlns:as="http://www.geotools.org/app-schema">'
        f"<namespaces><Namespace><prefix>{prefix}</prefix><uri>urn:x:{prefix}</uri>"
        "</Namespace></namespaces>"
        "<sourceDataStores><DataStore><id>ds</id><parameters><Parameter><name>directory</name>"
        "<value>file:./</value></Parameter></parameters></DataStore></sourceDataStores>"
        "<targetTypes><FeatureType><schemaUri>http://example.org/x.xsd</schemaUri>"
        f"</FeatureType></targetTypes><typeMappings>{mappings}</typeMappings>"
        "</as:AppSchemaDataAccess>"
    ).encode()


def feature_types(client, ws: str, store: str) -> list[str]:
    r = client.get(f"/rest/workspaces/{ws}/datastores/{store}/featuretypes.json")
    assert r.status_code == 200, r.text
    body = r.json()["featureTypes"]
    return sorted(i["name"] for i in body["featureType"]) if body else []


def layers(client, ws: str) -> list[str]:
    body = client.get(f"/rest/workspaces/{ws}/layers.json").json()["layers"]
    return sorted(i["name"] for i in body["layer"]) if body else []


@pytest.fixture
def gsml(client):
    """The admin client, with a workspace ``gsml`` whose namespace is GeoSciML 2's URI."""
    r = client.post("/rest/workspaces", json={"workspace": {"name": "gsml"}})
    assert r.status_code == 201
    r = client.put(
        "/rest/namespaces/gsml",
        json={"namespace": {"prefix": "gsml", "uri": "urn:cgi:xmlns:CGI:GeoSciML:2.0"}},
    )
    assert r.status_code == 200, r.text
    return client
