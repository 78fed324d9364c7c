"""Every numeric field of every REST write route, sent NaN, the infinities, a number past
the double range, negative zero, a huge double and a huge integer: the answer is a 4xx that
leaves the state as it was, or a 2xx after which every read of the object (XML, JSON, HTML)
and the OGC capabilities still answer 200, the JSON stays valid JSON, and the value reads
back as GeoServer writes it (``Double.toString``; in JSON a number, or the text ``NaN``/
``Infinity`` as Jettison writes it).

The write routes come from the route table: each is exercised by a ``Sample`` (a body taken
from what GeoServer answers for the object, every numeric leaf of it tried in turn) or
listed in ``NO_NUMERIC_FIELDS`` with the reason it has none (``test_every_write_route_is_
accounted_for`` keeps the two in step with the routes).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

import httpx
import pytest
from lxml import etree

from geoserver_emulator import Emulator
from geoserver_emulator.http.app import all_routes
from geoserver_emulator.http.endpoints import endpoints
from geoserver_emulator.wire.geoserver.java import double_text, parse_double

BASE = "http://localhost/geoserver"
XML = {"Content-Type": "application/xml"}
PAYLOADS = Path(__file__).resolve().parents[1] / "payloads" / "cascade"
WMS_URL = "http://maps.example.com/geoserver/wms?REQUEST=GetCapabilities&VERSION=1.3.0&SERVICE=WMS"
WMTS_URL = "http://tiles.example.com/gwc?REQUEST=GetCapabilities&VERSION=1.0.0&SERVICE=WMTS"

HOSTILE = ("NaN", "Infinity", "-Infinity", "1e400", "-0.0", "1e308", "123456789012345678901234567")
"""the texts sent in a numeric field (XML; JSON sends the same as numbers where JSON has
them, as strings where it has none)"""

OWS_AFTER = frozenset({"NaN", "Infinity", "-Infinity", "1e308", '"NaN"', "1e400"})
"""the values after whose acceptance the OGC capabilities are read (the others store what
one of these does: ``1e400`` is infinity, a huge integer a huge double; ``-0.0`` is zero)"""

NUMBER = re.compile(r"-?[0-9]+(?:\.[0-9]+)?(?:[eE]-?[0-9]+)?")
JAVA_TEXT = re.compile(r"-?(?:NaN|Infinity|[0-9]+|[0-9]+\.[0-9]+(?:E-?[0-9]+)?)")

OWS = (
    "/wms?service=WMS&request=GetCapabilities&version=1.3.0",
    "/wms?service=WMS&request=GetCapabilities&version=1.1.1",
    "/wfs?service=WFS&request=GetCapabilities&version=2.0.0",
    "/wfs?service=WFS&request=GetCapabilities&version=1.1.0",
    "/wcs?service=WCS&request=GetCapabilities&version=2.0.1",
    "/gwc/service/wmts?service=WMTS&request=GetCapabilities",
)


@dataclass(frozen=True)
class Sample:
    """One write route exercised with a body GeoServer itself gives for the object."""

    name: str
    method: str
    write: str
    """the path written (``{name}`` stands for a fresh name on a create)"""
    routes: tuple[tuple[str, str], ...]
    """the route table's (method, template) this sample stands for"""
    source: str = ""
    """the GET path whose XML answer is the body (``{name}`` in it renamed on a create)"""
    body: str = ""
    """a body given literally instead"""
    reads: tuple[str, ...] = ()
    """the paths read after an accepted write (each as ``.xml``, ``.json`` and ``.html``
    unless it has a query)"""
    ows: bool = False
    """whether the object shows in the OGC capabilities"""
    setup: tuple[str, ...] = ()
    """named setups run on the emulator first"""
    rename: str = ""
    """on a create: the element whose text is set to the fresh name"""
    skip: frozenset[str] = field(default_factory=frozenset)
    """numeric leaves (by local path) that are not values (identifiers written as digits)"""
    decimals: frozenset[str] = field(default_factory=frozenset)
    """leaves GeoServer keeps as a ``BigDecimal``: a finite decimal, read back as sent"""
    formats: tuple[str, ...] = ("xml", "json", "html")
    """the formats each read is made in"""
    ranges: frozenset[str] = field(default_factory=frozenset)
    """leaves GeoServer writes with its ``NumberRangeConverter``: an infinite bound as
    ``inf``/``-inf``"""


FT = "/rest/workspaces/topp/datastores/states_shapefile/featuretypes"
CV = "/rest/workspaces/nurc/coveragestores/mosaic/coverages"

SAMPLES = [
    Sample(
        "featuretype", "PUT", f"{FT}/states",
        (("PUT", "/rest/workspaces/{workspace}/datastores/{store}/featuretypes/{name}"),),
        source=f"{FT}/states.xml", reads=(f"{FT}/states",), ows=True,
    ),
    Sample(
        "featuretype in a workspace", "PUT", "/rest/workspaces/topp/featuretypes/states",
        (("PUT", "/rest/workspaces/{workspace}/featuretypes/{name}"),),
        source="/rest/workspaces/topp/featuretypes/states.xml",
        reads=("/rest/workspaces/topp/featuretypes/states",), ows=True,
    ),
    Sample(
        "new featuretype", "POST", FT,
        (
            ("POST", "/rest/workspaces/{workspace}/datastores/{store}/featuretypes"),
            ("POST", "/rest/workspaces/{workspace}/datastores/{store}/featuretypes.{ext}"),
            ("POST", "/rest/workspaces/{workspace}/featuretypes"),
            ("POST", "/rest/workspaces/{workspace}/featuretypes.{ext}"),
        ),
        source=f"{FT}/states.xml", reads=(f"{FT}/{{name}}",), ows=True, rename="name",
    ),
    Sample(
        "coverage", "PUT", f"{CV}/mosaic",
        (("PUT", "/rest/workspaces/{workspace}/coveragestores/{store}/coverages/{name}"),),
        source=f"{CV}/mosaic.xml", reads=(f"{CV}/mosaic",), ows=True,
        ranges=frozenset({"dimensions/coverageDimension/range/min",
                          "dimensions/coverageDimension/range/max"}),
    ),
    Sample(
        "layer", "PUT", "/rest/layers/topp:states",
        (
            ("PUT", "/rest/layers/{layer}"),
            ("PUT", "/rest/workspaces/{workspace}/layers/{layer}"),
        ),
        source="/rest/layers/topp:states.xml", reads=("/rest/layers/topp:states",), ows=True,
    ),
    Sample(
        "layer group", "PUT", "/rest/layergroups/tasmania",
        (
            ("PUT", "/rest/layergroups/{group}"),
            ("PUT", "/rest/workspaces/{workspace}/layergroups/{group}"),
        ),
        source="/rest/layergroups/tasmania.xml", reads=("/rest/layergroups/tasmania",), ows=True,
    ),
    Sample(
        "new layer group", "POST", "/rest/layergroups",
        (
            ("POST", "/rest/layergroups"),
            ("POST", "/rest/layergroups.{ext}"),
            ("POST", "/rest/workspaces/{workspace}/layergroups"),
            ("POST", "/rest/workspaces/{workspace}/layergroups.{ext}"),
        ),
        source="/rest/layergroups/tasmania.xml", reads=("/rest/layergroups/{name}",), ows=True,
        rename="name",
    ),
    Sample(
        "global settings", "PUT", "/rest/settings",
        (("PUT", "/rest/settings"), ("PUT", "/rest/settings.{ext}")),
        source="/rest/settings.xml", reads=("/rest/settings",), ows=True,
    ),
    Sample(
        "workspace settings", "PUT", "/rest/workspaces/topp/settings",
        (
            ("PUT", "/rest/workspaces/{workspace}/settings"),
            ("PUT", "/rest/workspaces/{workspace}/settings.{ext}"),
            ("POST", "/rest/workspaces/{workspace}/settings"),
            ("POST", "/rest/workspaces/{workspace}/settings.{ext}"),
        ),
        source="/rest/workspaces/topp/settings.xml", reads=("/rest/workspaces/topp/settings",),
    ),
    *(
        Sample(
            f"{kind} settings", "PUT", f"/rest/services/{kind}/settings",
            (
                ("PUT", "/rest/services/{kind}/settings"),
                ("PUT", "/rest/services/{kind}/settings.{ext}"),
                ("PUT", "/rest/services/{kind}/workspaces/{workspace}/settings"),
                ("PUT", "/rest/services/{kind}/workspaces/{workspace}/settings.{ext}"),
            ),
            source=f"/rest/services/{kind}/settings.xml",
            reads=(f"/rest/services/{kind}/settings",), ows=True,
        )
        for kind in ("wms", "wfs", "wcs")
    ),
    Sample(
        "style", "PUT", "/rest/styles/point",
        (
            ("PUT", "/rest/styles/{style}"),
            ("PUT", "/rest/workspaces/{workspace}/styles/{style}"),
        ),
        body=(
            "<style><name>point</name><format>sld</format><filename>default_point.sld</filename>"
            "<legend><width>20</width><height>20</height><format>image/png</format>"
            "<onlineResource>legend.png</onlineResource></legend></style>"
        ),
        reads=("/rest/styles/point",),
    ),
    Sample(
        "new style", "POST", "/rest/styles",
        (
            ("POST", "/rest/styles"),
            ("POST", "/rest/styles.{ext}"),
            ("POST", "/rest/workspaces/{workspace}/styles"),
            ("POST", "/rest/workspaces/{workspace}/styles.{ext}"),
            ("POST", "/rest/{workspace}/styles"),
            ("POST", "/rest/{workspace}/styles.{ext}"),
        ),
        body=(
            "<style><name>x</name><filename>x.sld</filename>"
            "<legend><width>20</width><height>20</height><format>image/png</format>"
            "<onlineResource>legend.png</onlineResource></legend></style>"
        ),
        reads=("/rest/styles/{name}",), rename="name",
    ),
    Sample(
        "tile layer", "PUT", "/gwc/rest/layers/topp:states.xml",
        (
            ("PUT", "/gwc/rest/layers/{name}"),
            ("POST", "/gwc/rest/layers/{name}"),
        ),
        source="/gwc/rest/layers/topp:states.xml", reads=("/gwc/rest/layers/topp:states",),
        ows=True, formats=("xml", "json"),
    ),
    Sample(
        "gridset", "PUT", "/gwc/rest/gridsets/{name}.xml",
        (("PUT", "/gwc/rest/gridsets/{name}"),),
        source="/gwc/rest/gridsets/EPSG:900913.xml", reads=("/gwc/rest/gridsets/{name}",),
        rename="name", formats=("xml", "json"),
    ),
    Sample(
        "blob store", "PUT", "/gwc/rest/blobstores/blobStore1.xml",
        (("PUT", "/gwc/rest/blobstores/{name}"),),
        body=(
            '<FileBlobStore default="false"><id>blobStore1</id><enabled>false</enabled>'
            "<baseDirectory>/tmp/blobStore1</baseDirectory>"
            "<fileSystemBlockSize>4096</fileSystemBlockSize></FileBlobStore>"
        ),
        reads=("/gwc/rest/blobstores/blobStore1",), formats=("xml", "json"),
    ),
    Sample(
        "disk quota", "PUT", "/gwc/rest/diskquota.xml",
        (("PUT", "/gwc/rest/diskquota"), ("PUT", "/gwc/rest/diskquota.{ext}")),
        source="/gwc/rest/diskquota.xml", reads=("/gwc/rest/diskquota",),
        formats=("xml", "json"), decimals=frozenset({"globalQuota/value"}),
    ),
    Sample(
        "GWC global", "PUT", "/gwc/rest/global.xml",
        (("PUT", "/gwc/rest/global"), ("PUT", "/gwc/rest/global.{ext}")),
        source="/gwc/rest/global.xml", reads=("/gwc/rest/global",), formats=("xml", "json"),
    ),
    Sample(
        "seed", "POST", "/gwc/rest/seed/topp:states.xml",
        (("POST", "/gwc/rest/seed/{name}"),),
        body=(
            "<seedRequest><name>topp:states</name><srs><number>4326</number></srs>"
            "<bounds><coords><double>-124.0</double><double>22.0</double>"
            "<double>-66.0</double><double>72.0</double></coords></bounds>"
            "<zoomStart>0</zoomStart><zoomStop>2</zoomStop><format>image/png</format>"
            "<type>seed</type><threadCount>1</threadCount></seedRequest>"
        ),
        reads=("/gwc/rest/seed/topp:states.json?",),
        skip=frozenset({"srs/number"}),
    ),
    Sample(
        "mass truncate", "POST", "/gwc/rest/masstruncate",
        (("POST", "/gwc/rest/masstruncate"),),
        body=(
            "<truncateExtent><layerName>topp:states</layerName><gridSetId>EPSG:4326</gridSetId>"
            "<bounds><coords><double>-100</double><double>40</double><double>-99</double>"
            "<double>41</double></coords></bounds></truncateExtent>"
        ),
        reads=("/gwc/rest/seed/topp:states.json?",),
    ),
    Sample(
        "WMS store", "PUT", "/rest/workspaces/sf/wmsstores/demo",
        (
            ("PUT", "/rest/workspaces/{workspace}/wmsstores/{store}"),
            ("POST", "/rest/workspaces/{workspace}/wmsstores"),
            ("POST", "/rest/workspaces/{workspace}/wmsstores.{ext}"),
        ),
        source="/rest/workspaces/sf/wmsstores/demo.xml",
        reads=("/rest/workspaces/sf/wmsstores/demo",), setup=("remote",),
    ),
    Sample(
        "WMS layer", "PUT", "/rest/workspaces/sf/wmsstores/demo/wmslayers/states",
        (
            ("PUT", "/rest/workspaces/{workspace}/wmsstores/{store}/wmslayers/{layer}"),
            ("PUT", "/rest/workspaces/{workspace}/wmslayers/{layer}"),
            ("POST", "/rest/workspaces/{workspace}/wmsstores/{store}/wmslayers"),
            ("POST", "/rest/workspaces/{workspace}/wmsstores/{store}/wmslayers.{ext}"),
            ("POST", "/rest/workspaces/{workspace}/wmslayers"),
            ("POST", "/rest/workspaces/{workspace}/wmslayers.{ext}"),
        ),
        source="/rest/workspaces/sf/wmsstores/demo/wmslayers/states.xml",
        reads=("/rest/workspaces/sf/wmsstores/demo/wmslayers/states",), ows=True,
        setup=("remote",),
    ),
    Sample(
        "WMTS store", "PUT", "/rest/workspaces/sf/wmtsstores/tiles",
        (
            ("PUT", "/rest/workspaces/{workspace}/wmtsstores/{store}"),
            ("POST", "/rest/workspaces/{workspace}/wmtsstores"),
            ("POST", "/rest/workspaces/{workspace}/wmtsstores.{ext}"),
        ),
        source="/rest/workspaces/sf/wmtsstores/tiles.xml",
        reads=("/rest/workspaces/sf/wmtsstores/tiles",), setup=("remote",),
    ),
]  # fmt: skip


NO_NUMERIC_FIELDS: dict[str, tuple[tuple[str, str], ...]] = {
    "filter chains and user/group service configurations: names, patterns, class names and"
    " flags (a chain's position is a query parameter, read as an integer and range-checked)": (
        ("POST", "/rest/security/filterchain"), ("POST", "/rest/security/filterchain.{ext}"),
        ("POST", "/rest/security/filterchain/{name}"), ("PUT", "/rest/security/filterchain/{name}"),
        ("POST", "/rest/security/usergroupservices"),
        ("POST", "/rest/security/usergroupservices.{ext}"),
        ("PUT", "/rest/security/usergroupservices/{name}"),
    ),
    "a reload or reset: no body": (
        ("POST", "/rest/reload"), ("PUT", "/rest/reload"),
        ("POST", "/rest/reset"), ("PUT", "/rest/reset"),
        ("POST", "/rest/security/acl/catalog/reload"), ("PUT", "/rest/security/acl/catalog/reload"),
        ("POST", "/rest/workspaces/{workspace}/datastores/{store}/reset"),
        ("PUT", "/rest/workspaces/{workspace}/datastores/{store}/reset"),
        ("POST", "/rest/workspaces/{workspace}/coveragestores/{store}/reset"),
        ("PUT", "/rest/workspaces/{workspace}/coveragestores/{store}/reset"),
        ("POST", "/rest/workspaces/{workspace}/datastores/{store}/featuretypes/{name}/reset"),
        ("PUT", "/rest/workspaces/{workspace}/datastores/{store}/featuretypes/{name}/reset"),
        ("POST", "/rest/workspaces/{workspace}/featuretypes/{name}/reset"),
        ("PUT", "/rest/workspaces/{workspace}/featuretypes/{name}/reset"),
        ("POST", "/rest/workspaces/{workspace}/coveragestores/{store}/coverages/{name}/reset"),
        ("PUT", "/rest/workspaces/{workspace}/coveragestores/{store}/coverages/{name}/reset"),
        ("POST", "/rest/workspaces/{workspace}/coverages/{name}/reset"),
        ("PUT", "/rest/workspaces/{workspace}/coverages/{name}/reset"),
        ("PATCH", "/gwc/rest/reload"), ("POST", "/gwc/rest/reload"), ("PUT", "/gwc/rest/reload"),
    ),
    "users, groups, roles, passwords: names and texts only": (
        ("POST", "/rest/security/usergroup/users"),
        ("POST", "/rest/security/usergroup/users.{ext}"),
        ("POST", "/rest/security/usergroup/user/{user}"),
        ("POST", "/rest/security/usergroup/group/{group}"),
        ("POST", "/rest/security/usergroup/user/{user}/group/{group}"),
        ("POST", "/rest/security/usergroup/service/{serviceName}/users"),
        ("POST", "/rest/security/usergroup/service/{serviceName}/users.{ext}"),
        ("POST", "/rest/security/usergroup/service/{serviceName}/user/{user}"),
        ("POST", "/rest/security/usergroup/service/{serviceName}/group/{group}"),
        ("POST", "/rest/security/usergroup/service/{serviceName}/user/{user}/group/{group}"),
        ("POST", "/rest/security/roles/role/{role}"),
        ("POST", "/rest/security/roles/role/{role}/user/{user}"),
        ("POST", "/rest/security/roles/role/{role}/group/{group}"),
        ("POST", "/rest/security/roles/service/{serviceName}/role/{role}"),
        ("POST", "/rest/security/roles/service/{serviceName}/role/{role}/user/{user}"),
        ("POST", "/rest/security/roles/service/{serviceName}/role/{role}/group/{group}"),
        ("PUT", "/rest/security/self/password"), ("PUT", "/rest/security/self/password.{ext}"),
        ("PUT", "/rest/security/masterpw"), ("PUT", "/rest/security/masterpw.{ext}"),
    ),
    "security settings: names, classes, flags, texts (the provider position is a query)": (
        ("POST", "/rest/security/authproviders"),
        ("PUT", "/rest/security/authproviders/order"),
        ("PUT", "/rest/security/authproviders/order.xml"),
        ("PUT", "/rest/security/authproviders/order.json"),
        ("PUT", "/rest/security/authproviders/{name}"),
        ("POST", "/rest/security/authfilters"), ("POST", "/rest/security/authfilters.{ext}"),
        ("PUT", "/rest/security/authfilters/{name}"),
        ("PUT", "/rest/security/acl/catalog"), ("PUT", "/rest/security/acl/catalog.{ext}"),
        *(
            (method, f"/rest/security/acl/{kind}{ext}")
            for method in ("POST", "PUT")
            for kind in ("layers", "services", "rest")
            for ext in ("", ".{ext}")
        ),
    ),
    "URL checks: names, texts, a flag": (
        ("POST", "/rest/urlchecks"), ("POST", "/rest/urlchecks.{ext}"),
        ("PUT", "/rest/urlchecks/{name}"),
    ),
    "contact, logging: texts and flags": (
        ("PUT", "/rest/settings/contact"), ("PUT", "/rest/settings/contact.{ext}"),
        ("PUT", "/rest/logging"), ("PUT", "/rest/logging.{ext}"),
    ),
    "file bodies (templates, resources, uploads, style bodies): no REST fields": (
        ("PUT", "/rest/templates/{name}"),
        ("PUT", "/rest/workspaces/{workspace}/templates/{name}"),
        ("PUT", "/rest/workspaces/{workspace}/datastores/{store}/templates/{name}"),
        ("PUT", "/rest/workspaces/{workspace}/datastores/{store}/featuretypes/{resource}/templates/{name}"),  # noqa: E501
        ("PUT", "/rest/workspaces/{workspace}/coveragestores/{store}/templates/{name}"),
        ("PUT", "/rest/workspaces/{workspace}/coveragestores/{store}/coverages/{resource}/templates/{name}"),  # noqa: E501
        ("PUT", "/rest/resource"), ("PUT", "/rest/resource/{path:path}"),
        ("PUT", "/rest/workspaces/{workspace}/datastores/{store}/file.appschema"),
        *(
            (method, f"/rest/workspaces/{{workspace}}/{kind}/{{store}}/{how}.{{format}}")
            for kind in ("coveragestores", "datastores")
            for how in ("file", "external", "url", "{method}")
            for method in ("POST", "PUT")
            if method == "PUT" or kind == "coveragestores" or how == "{method}"
        ),
        ("POST", "/rest/workspaces/{workspace}/coveragestores/{store}/remote.{format}"),
        ("PATCH", "/gwc/rest/web/{path:path}"), ("POST", "/gwc/rest/web/{path:path}"),
        ("PUT", "/gwc/rest/web/{path:path}"),
    ),
    "OGC API Features search: a query, not a stored object (its limit and startIndex are read as "
    "integers, tested in tests/areas/ogcapi_features)": tuple(
        ("POST", f"{prefix}/ogc/features/v1/collections/{{collection}}/search")
        for prefix in ("", "/{workspace}", "/{workspace}/{layer}")
    ),
    "the importer: no numeric field is kept (a layer's bbox is read and ignored, as GeoServer's "
    "updateLayer ignores it; GdalAddoTransform levels are Java ints, others refused: "
    "tests/areas/importer)": (
        ("POST", "/rest/imports"), ("POST", "/rest/imports/{id}"), ("PUT", "/rest/imports/{id}"),
        ("POST", "/rest/imports/{id}/tasks"), ("PUT", "/rest/imports/{id}/tasks/{task}"),
        ("PUT", "/rest/imports/{id}/tasks/{task}/target"),
        ("PUT", "/rest/imports/{id}/tasks/{task}/layer"),
        ("POST", "/rest/imports/{id}/tasks/{task}/transforms"),
        ("PUT", "/rest/imports/{id}/tasks/{task}/transforms/{index}"),
    ),
    "app-schema maintenance: ids and max are query parameters": (
        ("POST", "/rest/workspaces/{workspace}/appschemastores/{store}/cleanSchemas"),
        ("POST", "/rest/workspaces/{workspace}/appschemastores/{store}/datastores/{storeId}/cleanSchemas"),  # noqa: E501
        ("POST", "/rest/workspaces/{workspace}/appschemastores/{store}/rebuildMongoSchemas"),
        ("POST", "/rest/workspaces/{workspace}/appschemastores/{store}/datastores/{storeId}/rebuildMongoSchemas"),  # noqa: E501
    ),
    "catalog objects without numeric fields (names, flags, connection texts)": (
        ("POST", "/rest/workspaces"), ("POST", "/rest/workspaces.{ext}"),
        ("PUT", "/rest/workspaces/{workspace}"),
        ("POST", "/rest/namespaces"), ("POST", "/rest/namespaces.{ext}"),
        ("PUT", "/rest/namespaces/{prefix}"),
        ("POST", "/rest/workspaces/{workspace}/datastores"),
        ("POST", "/rest/workspaces/{workspace}/datastores.{ext}"),
        ("PUT", "/rest/workspaces/{workspace}/datastores/{store}"),
        ("POST", "/rest/workspaces/{workspace}/coveragestores"),
        ("POST", "/rest/workspaces/{workspace}/coveragestores.{ext}"),
        ("PUT", "/rest/workspaces/{workspace}/coveragestores/{store}"),
        ("POST", "/rest/layers/{layer}/styles"), ("POST", "/rest/layers/{layer}/styles.{ext}"),
    ),
    "coverage creation: the coverage sample's parser, configured from the store's grid": (
        ("POST", "/rest/workspaces/{workspace}/coveragestores/{store}/coverages"),
        ("POST", "/rest/workspaces/{workspace}/coveragestores/{store}/coverages.{ext}"),
        ("POST", "/rest/workspaces/{workspace}/coverages"),
        ("POST", "/rest/workspaces/{workspace}/coverages.{ext}"),
    ),
    "WMTS layers: names and texts (their bounds come from the remote capabilities)": (
        ("POST", "/rest/workspaces/{workspace}/wmtsstores/{store}/layers"),
        ("POST", "/rest/workspaces/{workspace}/wmtsstores/{store}/layers.{ext}"),
        ("PUT", "/rest/workspaces/{workspace}/wmtsstores/{store}/layers/{layer}"),
        ("POST", "/rest/workspaces/{workspace}/wmtslayers"),
        ("POST", "/rest/workspaces/{workspace}/wmtslayers.{ext}"),
        ("PUT", "/rest/workspaces/{workspace}/wmtslayers/{layer}"),
    ),
    "GWC routes that answer 405 to a write, or take no numeric body": (
        *(
            (method, path)
            for method in ("PATCH", "POST", "PUT")
            for path in (
                "/gwc/rest/seed", "/gwc/rest/seed.json", "/gwc/rest/layers",
                "/gwc/rest/layers.{ext}", "/gwc/rest", "/gwc/rest/index",
                "/gwc/rest/gridsets", "/gwc/rest/gridsets.{ext}", "/gwc/rest/blobstores",
                "/gwc/rest/blobstores.{ext}", "/gwc/rest/statistics",
                "/gwc/rest/statistics.{ext}", "/gwc/rest/bounds/{layer}/{srs}/{type}",
                "/gwc/rest/filter/{name}/update/{type}",
            )
        ),
        ("PATCH", "/gwc/rest/seed/{name}"), ("PUT", "/gwc/rest/seed/{name}"),
        ("PATCH", "/gwc/rest/layers/{name}"), ("PATCH", "/gwc/rest/masstruncate"),
        ("PUT", "/gwc/rest/masstruncate"), ("PATCH", "/gwc/rest/gridsets/{name}"),
        ("POST", "/gwc/rest/gridsets/{name}"), ("PATCH", "/gwc/rest/blobstores/{name}"),
        ("POST", "/gwc/rest/blobstores/{name}"), ("PATCH", "/gwc/rest/diskquota"),
        ("POST", "/gwc/rest/diskquota"), ("PATCH", "/gwc/rest/diskquota.{ext}"),
        ("POST", "/gwc/rest/diskquota.{ext}"), ("PATCH", "/gwc/rest/global"),
        ("POST", "/gwc/rest/global"), ("PATCH", "/gwc/rest/global.{ext}"),
        ("POST", "/gwc/rest/global.{ext}"),
    ),
}  # fmt: skip


def _is_ows(path: str) -> bool:
    """The OGC services' own POST routes (requests, not REST objects; ``areas/ows``)."""
    return path.rstrip("/").rsplit("/", 1)[-1] in ("ows", "wms", "wfs", "wcs")


def test_every_write_route_is_accounted_for() -> None:
    writes = {
        (m, p)
        for m, p, _ in endpoints(all_routes())
        if m in ("POST", "PUT", "PATCH") and not _is_ows(p)
    }
    sampled = {r for s in SAMPLES for r in s.routes}
    declared = {r for routes in NO_NUMERIC_FIELDS.values() for r in routes}
    assert not sampled & declared, sorted(sampled & declared)
    assert not writes - sampled - declared, sorted(writes - sampled - declared)
    assert not (sampled | declared) - writes, sorted((sampled | declared) - writes)


# -- the property -------------------------------------------------------------------------


def _client(emu: Emulator) -> httpx.Client:
    return httpx.Client(
        transport=httpx.WSGITransport(app=emu.wsgi_app), base_url=BASE, auth=("admin", "geoserver")
    )


def _setup_remote(c: httpx.Client) -> None:
    for url, name in ((WMS_URL, "wms130.xml"), (WMTS_URL, "wmts100.xml")):
        r = c.put("/__emulator/remote", params={"url": url}, content=(PAYLOADS / name).read_bytes())
        assert r.status_code == 204, r.text
    wms, wmts = (u.replace("&", "&amp;") for u in (WMS_URL, WMTS_URL))
    for path, body in (
        ("/rest/workspaces/sf/wmsstores", f"<wmsStore><name>demo</name><capabilitiesURL>{wms}"),
        (
            "/rest/workspaces/sf/wmsstores/demo/wmslayers",
            "<wmsLayer><name>states</name><nativeName>topp:states</nativeName></wmsLayer>",
        ),
        ("/rest/workspaces/sf/wmtsstores", f"<wmtsStore><name>tiles</name><capabilitiesURL>{wmts}"),
    ):
        if body.startswith("<wmsStore>"):
            body += "</capabilitiesURL></wmsStore>"
        elif body.startswith("<wmtsStore>"):
            body += "</capabilitiesURL></wmtsStore>"
        r = c.post(path, content=body, headers=XML)
        assert r.status_code == 201, r.text


SETUPS: dict[str, Callable[[httpx.Client], None]] = {"remote": _setup_remote}


def _local(el: etree._Element) -> str:
    """An element's path of local names below the root (``srs/number``)."""
    names = [etree.QName(a).localname for a in [*el.iterancestors()][::-1][1:]]
    return "/".join([*names, etree.QName(el).localname])


def _numeric_leaves(root: etree._Element, skip: frozenset[str]) -> Iterator[str]:
    """The paths (from the root) of the elements whose whole text is a number, one per field
    (the first of a list's members stands for the others); a metadata map's entries are
    texts, not numbers (GeoServer keeps them as written)."""
    tree = root.getroottree()
    seen: set[str] = set()
    for el in root.iter():
        if not isinstance(el.tag, str) or len(el) or not NUMBER.fullmatch((el.text or "").strip()):
            continue
        local = _local(el)
        if etree.QName(el).localname != "entry" and local not in skip and local not in seen:
            seen.add(local)
            yield tree.getpath(el)


def _same(read: str, sent: str) -> bool:
    """Whether ``read`` is what GeoServer writes for the ``sent`` text it accepted: an
    integer field's digits (within a Java ``long``), or ``Double.toString``."""
    if not JAVA_TEXT.fullmatch(read):
        return False
    want = parse_double(sent)
    if read.lstrip("-").isdigit():  # an integer field
        return abs(int(read)) < 2**63 and Decimal(sent) == Decimal(read)
    got = parse_double(read)
    if math.isnan(want):
        return math.isnan(got)
    return read == double_text(want)


def _json_ok(text: str) -> object:
    return json.loads(text, parse_constant=lambda c: pytest.fail(f"bare {c} in JSON: {text}"))


class Attempt:
    """One sample on one emulator: write a value into one leaf, then read everything."""

    def __init__(self, sample: Sample) -> None:
        self.sample = sample
        self.emu = Emulator("stock")
        self.client = _client(self.emu)
        for name in sample.setup:
            SETUPS[name](self.client)
        self.counter = 0
        if sample.body:
            self.template = sample.body.encode()
        else:
            r = self.client.get(sample.source.replace("{name}", "EPSG:900913"))
            assert r.status_code == 200, (sample.source, r.text)
            self.template = r.content

    def fresh(self) -> str:
        self.counter += 1
        return f"hostile{self.counter}"

    def leaves(self) -> list[str]:
        return list(_numeric_leaves(etree.fromstring(self.template), self.sample.skip))

    def run(self, leaf: str, value: str) -> None:
        root = etree.fromstring(self.template)
        name = self.fresh()
        if self.sample.rename:
            for el in root.iter(self.sample.rename):
                if el.getparent() is root:
                    el.text = name
        if "{name}" in self.sample.write and not self.sample.rename:
            name = "EPSG:900913"
        target = root.xpath(leaf)[0]
        target.text = value
        path = self.sample.write.replace("{name}", name)
        body = etree.tostring(root)
        before = self.client.get(self.sample.reads[0].replace("{name}", name).split("?")[0])
        r = self.client.request(self.sample.method, path, content=body, headers=XML)
        where = f"{self.sample.name}: {leaf} = {value}"
        assert r.status_code < 500, f"{where}: {r.status_code} {r.text[:300]}"
        assert not self.emu.internal_errors, self.emu.internal_errors
        if r.status_code >= 400:
            after = self.client.get(self.sample.reads[0].replace("{name}", name).split("?")[0])
            assert (after.status_code, after.content) == (before.status_code, before.content)
            return
        self.check_reads(name, leaf, value, where, ows=value in OWS_AFTER)

    def check_reads(self, name: str, leaf: str, value: str, where: str, ows: bool) -> None:
        for read in self.sample.reads:
            read = read.replace("{name}", name)
            if read.endswith("?"):
                r = self.client.get(read[:-1])
                assert r.status_code == 200, f"{where}: {read} {r.status_code} {r.text[:300]}"
                _json_ok(r.text)
                continue
            for ext in self.sample.formats:
                r = self.client.get(f"{read}.{ext}")
                assert r.status_code == 200, f"{where}: {read}.{ext} {r.status_code} {r.text[:200]}"
                if ext == "json":
                    _json_ok(r.text)
                if ext == "xml":
                    self.check_value(etree.fromstring(r.content), leaf, value, where)
        if self.sample.ows and ows:
            for url in OWS:
                r = self.client.get(url)
                assert r.status_code == 200, f"{where}: {url} {r.status_code} {r.text[:300]}"
        assert not self.emu.internal_errors, self.emu.internal_errors

    def check_value(self, root: etree._Element, leaf: str, value: str, where: str) -> None:
        """The value as GeoServer writes it, where the object still holds the field (a
        value some fields derive from others, such as a recomputed bound, is left alone)."""
        found = root.xpath(leaf)
        if not found or found[0].text is None:
            return
        text = found[0].text.strip()
        if _local(found[0]) in self.sample.decimals:
            assert text == value, f"{where}: reads back as {text!r}"
        elif _local(found[0]) in self.sample.ranges and text in ("inf", "-inf"):
            assert parse_double(value) == float(text), f"{where}: reads back as {text!r}"
        else:
            assert _same(text, value), f"{where}: reads back as {text!r}"


JSON_HOSTILE = (
    '"NaN"',
    '"Infinity"',
    '"-Infinity"',
    "1e400",
    "-0.0",
    "1e308",
    "123456789012345678901234567",
)
"""JSON has no NaN or infinity: those go as strings (Jettison reads a string as the text)"""
_MARK = "\u0000hostile\u0000"


def _json_leaves(value: object, path: tuple[object, ...] = ()) -> Iterator[tuple[object, ...]]:
    """The paths of the number leaves of a JSON document (a metadata map's entries left out)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key not in ("entry", "metadata"):
                yield from _json_leaves(item, (*path, key))
    elif isinstance(value, list) and value:  # the first member stands for the others
        yield from _json_leaves(value[0], (*path, 0))
    elif isinstance(value, int | float) and not isinstance(value, bool):
        yield path


def _with(doc: object, path: tuple[object, ...], literal: str) -> str:
    """``doc`` as JSON text with the leaf at ``path`` written as the raw ``literal``."""
    copy = json.loads(json.dumps(doc))
    target = copy
    for key in path[:-1]:
        target = target[key]  # type: ignore[index]
    target[path[-1]] = _MARK  # type: ignore[index]
    return json.dumps(copy).replace(json.dumps(_MARK), literal)


@pytest.mark.parametrize(
    "sample", [s for s in SAMPLES if s.source and s.method == "PUT"], ids=lambda s: s.name
)
def test_hostile_numbers_in_json_bodies(sample: Sample) -> None:
    attempt = Attempt(sample)
    source = sample.source.replace("{name}", "EPSG:900913").removesuffix(".xml") + ".json"
    doc = attempt.client.get(source).json()
    leaves = list(_json_leaves(doc))
    assert leaves, f"{sample.name}: no numeric field found in its JSON"
    name = "EPSG:900913" if "{name}" in sample.write else ""
    path = sample.write.replace("{name}", name)
    path = path.removesuffix(".xml") + ".json" if path.endswith(".xml") else path
    read = sample.reads[0].replace("{name}", name)
    for leaf in leaves:
        for literal in JSON_HOSTILE:
            where = f"{sample.name} (JSON): {leaf} = {literal}"
            before = attempt.client.get(f"{read}.xml")
            body = _with(doc, leaf, literal)
            r = attempt.client.put(path, content=body, headers={"Content-Type": "application/json"})
            assert r.status_code < 500, f"{where}: {r.status_code} {r.text[:300]}"
            assert not attempt.emu.internal_errors, attempt.emu.internal_errors
            if r.status_code >= 400:
                after = attempt.client.get(f"{read}.xml")
                assert after.content == before.content, where
                continue
            for ext in sample.formats:
                got = attempt.client.get(f"{read}.{ext}")
                assert got.status_code == 200, f"{where}: {read}.{ext} {got.status_code}"
                if ext == "json":
                    _json_ok(got.text)
            if sample.ows and literal in OWS_AFTER:
                for url in OWS:
                    got = attempt.client.get(url)
                    assert got.status_code == 200, f"{where}: {url} {got.status_code}"


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda s: s.name)
def test_hostile_numbers_are_refused_or_written_as_geoserver_writes_them(sample: Sample) -> None:
    attempt = Attempt(sample)
    leaves = attempt.leaves()
    assert leaves, f"{sample.name}: no numeric field found in its body"
    for leaf in leaves:
        for value in HOSTILE:
            attempt.run(leaf, value)
