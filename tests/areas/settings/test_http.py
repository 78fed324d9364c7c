"""Black-box: global, contact, workspace and service settings over HTTP, XML and JSON."""

from __future__ import annotations

import pytest
from lxml import etree

SETTINGS = "/rest/settings"
CONTACT = "/rest/settings/contact"
KINDS = ("wms", "wfs", "wcs", "wmts")


def xml(r):
    assert r.headers["content-type"].startswith("application/xml"), r.text
    return etree.fromstring(r.content)


def put_xml(client, path, body):
    return client.put(path, content=body, headers={"Content-Type": "application/xml"})


def seq(client):
    return client.get(SETTINGS + ".json").json()["global"]["updateSequence"]


# -- global settings ---------------------------------------------------------------------------


def test_global_settings_json_is_a_fresh_geoserver(client):
    r = client.get(SETTINGS + ".json")
    assert r.status_code == 200
    g = r.json()["global"]
    assert g["settings"]["charset"] == "UTF-8"
    assert g["settings"]["numDecimals"] == 8
    assert g["settings"]["onlineResource"] == "http://geoserver.org"
    assert g["settings"]["contact"]["contactPerson"] == "Claudius Ptolomaeus"
    assert g["jai"]["memoryThreshold"] == 0.75
    assert g["jai"]["tilePriority"] == 5
    assert g["coverageAccess"]["queueType"] == "UNBOUNDED"
    assert g["globalServices"] is True
    assert g["xmlPostRequestLogBufferSize"] == 1024
    assert g["featureTypeCacheSize"] == 0
    assert isinstance(g["updateSequence"], int)


def test_global_settings_xml(client):
    dom = xml(client.get(SETTINGS + ".xml"))
    assert dom.tag == "global"
    assert dom.findtext("settings/charset") == "UTF-8"
    assert dom.findtext("settings/numDecimals") == "8"
    assert dom.findtext("settings/contact/contactPerson") == "Claudius Ptolomaeus"
    assert dom.findtext("jai/allowInterpolation") == "false"
    assert dom.findtext("jai/memoryThreshold") == "0.75"
    assert dom.findtext("coverageAccess/queueType") == "UNBOUNDED"
    ops = [e.text for e in dom.findall("jai/jaiext/jaiExtOperations/string")]
    assert "Affine" in ops


@pytest.mark.parametrize(("accept", "start"), [(None, "{"), ("application/xml", "<global")])
def test_global_settings_negotiated(client, accept, start):
    r = client.get(SETTINGS, headers={"Accept": accept} if accept else {})
    assert r.status_code == 200 and r.text.startswith(start)


def test_global_settings_html(client):
    r = client.get(SETTINGS + ".html")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")


def test_put_global_xml_changes_what_it_names(client):
    before = client.get(SETTINGS + ".json").json()["global"]
    body = (
        "<global><settings><numDecimals>10</numDecimals>"
        "<contact><contactPerson>Justin Deoliveira</contactPerson></contact></settings>"
        "<jai><allowInterpolation>true</allowInterpolation><memoryThreshold>0.85</memoryThreshold></jai>"
        "<globalServices>false</globalServices>"
        "<xmlPostRequestLogBufferSize>2048</xmlPostRequestLogBufferSize></global>"
    )
    assert put_xml(client, SETTINGS, body).status_code == 200
    dom = xml(client.get(SETTINGS + ".xml"))
    assert dom.findtext("globalServices") == "false"
    assert dom.findtext("xmlPostRequestLogBufferSize") == "2048"
    assert dom.findtext("settings/numDecimals") == "10"
    assert dom.findtext("settings/contact/contactPerson") == "Justin Deoliveira"
    # what the PUT did not name is kept
    assert dom.findtext("settings/contact/addressCity") == "Alexandria"
    assert dom.findtext("settings/charset") == "UTF-8"
    assert dom.findtext("jai/tilePriority") == "5"
    assert dom.findtext("jai/allowInterpolation") == "true"
    assert dom.findtext("jai/memoryThreshold") == "0.85"
    assert int(dom.findtext("updateSequence")) == before["updateSequence"] + 1


def test_put_global_json_with_string_values(client):
    body = {
        "global": {
            "settings": {"contact": {"contactPerson": "C P"}, "numDecimals": "10",
                         "onlineResource": "http://geoserver2.org", "verbose": "false"},
            "jai": {"recycling": "true", "memoryCapacity": "0.5"},
            "coverageAccess": {"maxPoolSize": "5", "queueType": "DIRECT"},
            "updateSequence": "0",
            "xmlPostRequestLogBufferSize": "2048",
        }
    }  # fmt: skip
    assert client.put(SETTINGS + "/", json=body).status_code == 200
    g = client.get(SETTINGS + ".json").json()["global"]
    assert g["settings"]["numDecimals"] == 10
    assert g["settings"]["onlineResource"] == "http://geoserver2.org"
    assert g["jai"]["recycling"] is True
    assert g["coverageAccess"]["queueType"] == "DIRECT"
    assert g["xmlPostRequestLogBufferSize"] == 2048
    # the value named is stored, then the save moves it by one
    assert g["updateSequence"] == 1


def test_update_sequence_moves_with_each_saved_change(client):
    start = seq(client)
    client.put(CONTACT, json={"contact": {"contactPerson": "A"}})
    client.put("/rest/services/wms/settings", json={"wms": {"title": "T"}})
    client.put("/rest/workspaces/topp/settings", json={"settings": {"numDecimals": 3}})
    client.get(SETTINGS + ".json")
    assert seq(client) == start + 3


@pytest.mark.parametrize("method", ["POST", "DELETE"])
def test_global_settings_other_methods(client, method):
    r = client.request(method, SETTINGS)
    assert r.status_code == 405
    assert "PUT" in r.headers["allow"]


@pytest.mark.parametrize(
    ("body", "ctype", "needle"),
    [
        ("<settings><charset>x</charset></settings>", "application/xml", "global"),
        ("<global><settings><numDecimals>many</numDecimals></settings></global>",
         "application/xml", "numDecimals"),
        ("<global><globalServices>maybe</globalServices></global>", "application/xml",
         "globalServices"),
        ("<global><coverageAccess><queueType>LIFO</queueType></coverageAccess></global>",
         "application/xml", "queueType"),
        ("<global>text</global>", "application/xml", "global"),
        ('{"global": 5}', "application/json", "global"),
        ("<global><settings>", "application/xml", "Malformed"),
        ('{"global": {"settings": {"numDecimals": [1]}}}', "application/json", "numDecimals"),
        ('{"global": {"jai": {"memoryCapacity": "lots"}}}', "application/json",
         "memoryCapacity"),
        ('{"settings": {}}', "application/json", "global"),
        ("{not json", "application/json", "Malformed"),
        ("", "application/json", "Empty"),
    ],
)  # fmt: skip
def test_put_global_bad_input_is_400_and_stores_nothing(client, emu, body, ctype, needle):
    before = emu.state.settings.global_info.copy()
    files = dict(emu.state.datadir.files)
    r = client.put(SETTINGS, content=body, headers={"Content-Type": ctype})
    assert r.status_code == 400, r.text
    assert needle in r.text
    assert emu.state.settings.global_info == before
    assert emu.state.datadir.files == files


def test_put_global_unsupported_media_type(client):
    r = client.put(SETTINGS, content="x", headers={"Content-Type": "text/plain"})
    assert r.status_code == 415


def test_settings_need_an_administrator(anon):
    assert anon.get(SETTINGS + ".json").status_code == 401


def test_settings_xxe_is_refused(client):
    body = '<!DOCTYPE g [<!ENTITY x SYSTEM "file:///etc/passwd">]><global><lockProviderName>&x;</lockProviderName></global>'
    assert put_xml(client, SETTINGS, body).status_code == 400


def test_unknown_format_suffix_is_404(client):
    assert client.get(SETTINGS + ".yaml").status_code == 404


def test_responses_are_deterministic(client):
    assert client.get(SETTINGS + ".json").content == client.get(SETTINGS + ".json").content


# -- contact -----------------------------------------------------------------------------------


def test_contact_xml_and_json(client):
    dom = xml(client.get(CONTACT + ".xml"))
    assert dom.tag == "contact"
    assert dom.findtext("addressCountry") == "Roman Empire"
    j = client.get(CONTACT + ".json").json()["contact"]
    assert j["contactOrganization"] == "OSGeo"


def test_put_contact_json_keeps_the_rest(client):
    body = {
        "contact": {
            "id": "contact",
            "address": "500 Market Street",
            "addressPostalCode": "19106",
            "addressDeliveryPoint": "The White House",
            "addressElectronicMailAddress": "info@whitehouse.gov",
        }
    }
    r = client.put(
        CONTACT, content=str(body).replace("'", '"'), headers={"Content-Type": "text/json"}
    )
    assert r.status_code == 200
    c = client.get(CONTACT + ".json").json()["contact"]
    assert c["address"] == "500 Market Street"
    assert c["addressPostalCode"] == 19106  # Jettison types a numeric text
    assert c["contactEmail"] == "info@whitehouse.gov"
    assert c["contactPerson"] == "Claudius Ptolomaeus"
    assert "id" not in c


def test_put_contact_xml(client):
    body = (
        "<contact><address>1600 Pennsylvania Avenue</address><addressCity>Washington</addressCity>"
        "<contactPosition>Chief Geographer</contactPosition></contact>"
    )
    assert put_xml(client, CONTACT, body).status_code == 200
    dom = xml(client.get(CONTACT + ".xml"))
    assert dom.findtext("address") == "1600 Pennsylvania Avenue"
    assert dom.findtext("addressCity") == "Washington"
    # the same contact is the global settings' contact
    assert (
        client.get(SETTINGS + ".json").json()["global"]["settings"]["contact"]["addressCity"]
        == "Washington"
    )


def test_contact_international_values(client):
    body = {"contact": {"internationalAddress": {"ar-EG": "Avenida Atlantica 15", "de": "via 13"}}}
    assert client.put(CONTACT + ".json", json=body).status_code == 200
    c = client.get(CONTACT + ".json").json()["contact"]
    assert c["internationalAddress"] == {"ar-EG": "Avenida Atlantica 15", "de": "via 13"}
    dom = xml(client.get(CONTACT + ".xml"))
    assert dom.findtext("internationalAddress/de") == "via 13"


def test_contact_html_escapes(client):
    client.put(CONTACT, json={"contact": {"address": "<foo>bar</foo>"}})
    html = client.get(CONTACT + ".html").text
    assert "<foo>bar</foo>" not in html and "&lt;foo&gt;bar&lt;/foo&gt;" in html


@pytest.mark.parametrize("method", ["POST", "DELETE"])
def test_contact_other_methods(client, method):
    assert client.request(method, CONTACT).status_code == 405


def test_put_contact_wrong_root(client, emu):
    before = emu.state.settings.update_sequence
    assert put_xml(client, CONTACT, "<global/>").status_code == 400
    assert client.put(CONTACT, json={"contact": {"address": {"a": 1}}}).status_code == 400
    assert emu.state.settings.update_sequence == before


# -- workspace settings ------------------------------------------------------------------------

WS = "/rest/workspaces/topp/settings"


def test_workspace_settings_where_none_exist(client):
    r = client.get(WS + ".json")
    assert r.status_code == 200
    assert r.json() == {
        "settings": {
            "contact": {"id": "contact"},
            "charset": "UTF-8",
            "numDecimals": 4,
            "verbose": False,
            "verboseExceptions": False,
            "localWorkspaceIncludesPrefix": False,
        }
    }
    dom = xml(client.get(WS + ".xml"))
    assert dom.tag == "settings" and dom.find("workspace") is None


def test_create_workspace_settings_xml(client):
    body = (
        "<settings><workspace><name>topp</name></workspace>"
        "<contact><contactPerson>Claudius Ptolomaeus</contactPerson>"
        "<addressCountry>Egypt</addressCountry></contact>"
        "<charset>UTF-8</charset><numDecimals>8</numDecimals>"
        "<proxyBaseUrl>http://proxy.url</proxyBaseUrl><verbose>false</verbose></settings>"
    )
    r = client.post(WS, content=body, headers={"Content-Type": "application/xml"})
    assert r.status_code == 201
    assert r.headers["location"].endswith("/rest/workspaces/topp/settings")
    dom = xml(client.get(WS + ".xml"))
    assert dom.findtext("workspace/name") == "topp"
    assert dom.findtext("proxyBaseUrl") == "http://proxy.url"
    assert dom.findtext("contact/addressCountry") == "Egypt"
    # a second create is GeoServer's 500
    again = client.post(WS, content=body, headers={"Content-Type": "application/xml"})
    assert again.status_code == 500


def test_create_workspace_settings_json_then_put_then_delete(client):
    body = {
        "settings": {"workspace": {"name": "topp"}, "numDecimals": 10, "verboseExceptions": "true"}
    }
    assert client.post(WS, json=body).status_code == 201
    s = client.get(WS + ".json").json()["settings"]
    assert s["workspace"] == {"name": "topp"}
    assert s["numDecimals"] == 10 and s["verboseExceptions"] is True
    assert s["id"].startswith("SettingsInfoImpl-")
    r = client.put(WS, json={"settings": {"onlineResource": "http://geoserver2.org"}})
    assert r.status_code == 200
    s = client.get(WS + ".json").json()["settings"]
    assert s["onlineResource"] == "http://geoserver2.org" and s["numDecimals"] == 10
    assert client.delete(WS).status_code == 200
    assert "workspace" not in client.get(WS + ".json").json()["settings"]
    assert client.delete(WS).status_code == 200


def test_put_workspace_settings_creates_when_absent(client, emu):
    assert client.put(WS, json={"settings": {"numDecimals": 2}}).status_code == 200
    assert emu.state.settings.settings("topp")["numDecimals"] == 2
    assert emu.state.settings.settings(None)["numDecimals"] == 8


@pytest.mark.parametrize("method", ["GET", "POST", "PUT", "DELETE"])
def test_workspace_settings_unknown_workspace(client, method):
    r = client.request(method, "/rest/workspaces/nope/settings", json={"settings": {}})
    assert r.status_code == 404
    assert "nope" in r.text


def test_workspace_settings_bad_body(client, emu):
    r = client.post(WS, json={"settings": {"numDecimals": "x"}})
    assert r.status_code == 400
    r = client.post(WS, json={"global": {}})
    assert r.status_code == 400
    assert "topp" not in emu.state.settings.workspace_settings


def test_deleting_the_workspace_takes_its_settings(client, emu):
    client.put(WS, json={"settings": {"numDecimals": 2}})
    client.put("/rest/services/wms/workspaces/topp/settings", json={"wms": {"title": "T"}})
    assert client.delete("/rest/workspaces/topp?recurse=true").status_code == 200
    assert emu.state.settings.workspaces_configured() == []
    assert emu.state.datadir.read("workspaces/topp/settings.xml") is None


def test_renaming_the_workspace_keeps_its_settings(client, emu):
    client.put(WS, json={"settings": {"numDecimals": 2}})
    r = client.put("/rest/workspaces/topp", json={"workspace": {"name": "topp2"}})
    assert r.status_code == 200
    s = client.get("/rest/workspaces/topp2/settings.json").json()["settings"]
    assert s["numDecimals"] == 2 and s["workspace"]["name"] == "topp2"
    data = emu.state.datadir.read("workspaces/topp2/settings.xml")
    assert b"<name>topp2</name>" in data


# -- services ----------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_service_settings_json_and_xml(client, kind):
    j = client.get(f"/rest/services/{kind}/settings.json")
    assert j.status_code == 200
    body = j.json()[kind]
    assert body["enabled"] is True
    assert "id" not in body and "workspace" not in body
    dom = xml(client.get(f"/rest/services/{kind}/settings.xml"))
    assert dom.tag == kind
    assert dom.findtext("enabled") == "true"
    assert dom.findall("versions/org.geotools.util.Version/version")


def test_wms_settings_stock_values(client):
    w = client.get("/rest/services/wms/settings.json").json()["wms"]
    assert w["name"] == "Maps"
    assert w["versions"] == {
        "org.geotools.util.Version": [{"version": "1.1.1"}, {"version": "1.3.0"}]
    }
    assert w["keywords"] == {"string": ["MAP", "WMS", "GEOSERVER"]}
    assert w["watermark"] == {"enabled": False, "position": "BOT_RIGHT", "transparency": 0}
    assert w["interpolation"] == "Nearest"
    assert w["maxRequestMemory"] == 65536 and w["maxRenderingTime"] == 60
    assert {"@key": "svgRenderer", "$": "Batik"} in w["metadata"]["entry"]


def test_wfs_gml_settings(client):
    dom = xml(client.get("/rest/services/wfs/settings.xml"))
    styles = {
        e.findtext("version"): e.findtext("gml/srsNameStyle") for e in dom.findall("gml/entry")
    }
    assert styles == {"V_10": "XML", "V_11": "URN", "V_20": "URN2"}
    assert dom.findtext("serviceLevel") == "COMPLETE"
    assert dom.findtext("maxFeatures") == "1000000"


def test_put_wms_settings_every_kind_of_field(client, emu):
    body = (
        "<wms><title>New title</title>"
        "<srs><string>EPSG:4326</string><string>EPSG:3857</string></srs>"
        "<bboxForEachCRS>true</bboxForEachCRS>"
        "<keywords><string>maps\\@language=en\\;\\@vocabulary=v\\;</string><string>x</string></keywords>"
        "<versions><org.geotools.util.Version><version>1.3.0</version></org.geotools.util.Version></versions>"
        "<internationalTitle><en>Maps</en><it>Mappe</it></internationalTitle>"
        "<watermark><enabled>true</enabled><position>TOP_LEFT</position></watermark>"
        "<interpolation>Bicubic</interpolation>"
        "<getFeatureInfoMimeTypes><string>text/html</string></getFeatureInfoMimeTypes>"
        "<maxRequestedDimensionValues>50</maxRequestedDimensionValues>"
        "<rootLayerTitle>Root</rootLayerTitle></wms>"
    )
    assert put_xml(client, "/rest/services/wms/settings", body).status_code == 200
    wms = emu.state.settings.service("wms")
    assert wms["srs"] == ["EPSG:4326", "EPSG:3857"]
    assert wms["keywords"] == [
        {"value": "maps", "language": "en", "vocabulary": "v"},
        {"value": "x"},
    ]
    assert wms["versions"] == ["1.3.0"]
    assert wms["internationalTitle"] == {"en": "Maps", "it": "Mappe"}
    assert wms["watermark"] == {"enabled": True, "position": "TOP_LEFT", "transparency": 0}
    assert wms["maxRequestedDimensionValues"] == 50
    assert wms["maxRenderingTime"] == 60  # kept
    j = client.get("/rest/services/wms/settings.json").json()["wms"]
    assert j["keywords"] == {"string": ["maps\\@language=en\\;\\@vocabulary=v\\;", "x"]}
    assert j["srs"] == {"string": ["EPSG:4326", "EPSG:3857"]}
    assert j["internationalTitle"] == {"en": "Maps", "it": "Mappe"}


def test_put_wfs_settings_json(client, emu):
    body = {
        "wfs": {
            "maxFeatures": 500,
            "serviceLevel": "BASIC",
            "hitsIgnoreMaxFeatures": True,
            "featureBounding": "true",
            "gml": {"entry": [{"version": "V_11", "gml": {"srsNameStyle": "URL"}}]},
        }
    }
    assert client.put("/rest/services/wfs/settings.json", json=body).status_code == 200
    wfs = emu.state.settings.service("wfs")
    assert wfs["maxFeatures"] == 500 and wfs["serviceLevel"] == "BASIC"
    assert wfs["hitsIgnoreMaxFeatures"] is True and wfs["featureBounding"] is True
    assert wfs["gml"] == {"V_11": {"srsNameStyle": "URL"}}


def test_geoserver_rest_update_service(client):
    # what geoserver-rest's update_service sends
    r = put_xml(
        client, "/rest/services/wms/settings", "<wms><maxRenderingTime>600</maxRenderingTime></wms>"
    )
    assert r.status_code == 200
    assert client.get("/rest/services/wms/settings.json").json()["wms"]["maxRenderingTime"] == 600


def test_unknown_service_is_404(client):
    assert client.get("/rest/services/wps/settings.json").status_code == 404
    assert client.put("/rest/services/csw/settings", json={"csw": {}}).status_code == 404
    assert client.get("/rest/services/wps/workspaces/topp/settings").status_code == 404


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ({"wfs": {"maxFeatures": 10}}, "wms"),
        ({"wms": {"interpolation": "Fancy"}}, "interpolation"),
        ({"wms": {"srs": "EPSG:4326"}}, "srs"),
        ({"wms": {"watermark": {"transparency": "opaque"}}}, "transparency"),
        ({"wms": {"versions": {"org.geotools.util.Version": {"version": "one"}}}}, "version"),
        ({"wms": {"metadata": {"entry": {"$": "x"}}}}, "key"),
        ({"wms": "x"}, "wms"),
    ],
)
def test_put_service_bad_input(client, emu, body, needle):
    before = dict(emu.state.settings.services["wms"])
    r = client.put("/rest/services/wms/settings", json=body)
    assert r.status_code == 400, r.text
    assert needle in r.text
    assert emu.state.settings.services["wms"] == before


def test_fields_of_other_versions_are_read_past(client, emu):
    body = {"wms": {"title": "T", "someFutureField": {"a": 1}, "defaultLocale": "en"}}
    assert client.put("/rest/services/wms/settings", json=body).status_code == 200
    wms = emu.state.settings.service("wms")
    assert wms["title"] == "T" and wms["defaultLocale"] == "en"
    assert "someFutureField" not in wms


@pytest.mark.parametrize("method", ["POST", "DELETE"])
def test_global_service_other_methods(client, method):
    assert client.request(method, "/rest/services/wms/settings").status_code == 405


# -- workspace services ------------------------------------------------------------------------

WMS_TOPP = "/rest/services/wms/workspaces/topp/settings"


def test_workspace_service_absent_is_404(client):
    assert client.get(WMS_TOPP + ".json").status_code == 404


def test_put_workspace_service_json_creates(client, emu):
    body = {
        "wms": {"workspace": {"name": "topp"}, "enabled": True, "name": "WMS", "title": "Topp maps"}
    }
    r = client.put(WMS_TOPP + ".json", json=body)
    assert r.status_code == 200
    w = client.get(WMS_TOPP + ".json").json()["wms"]
    assert w["workspace"] == {"name": "topp"}
    assert w["title"] == "Topp maps"
    assert list(w)[0] == "workspace"
    assert emu.state.settings.service("wms", "topp")["title"] == "Topp maps"
    assert emu.state.settings.service("wms", "sf")["title"] == "Maps"
    assert emu.state.settings.service("wfs", "topp")["name"] == "WFS"
    # a second PUT changes it
    assert client.put(WMS_TOPP, json={"wms": {"maxBuffer": 5}}).status_code == 200
    assert emu.state.settings.service("wms", "topp")["title"] == "Topp maps"
    assert emu.state.settings.service("wms", "topp")["maxBuffer"] == 5
    dom = xml(client.get(WMS_TOPP + ".xml"))
    assert dom.findtext("workspace/name") == "topp"
    assert client.delete(WMS_TOPP).status_code == 200
    assert client.get(WMS_TOPP).status_code == 404
    assert emu.state.settings.service("wms", "topp")["title"] == "Maps"


@pytest.mark.parametrize("method", ["GET", "PUT", "DELETE"])
def test_workspace_service_unknown_workspace(client, method):
    r = client.request(method, "/rest/services/wfs/workspaces/nope/settings", json={"wfs": {}})
    assert r.status_code == 404


def test_workspace_service_post_is_405(client):
    assert client.post(WMS_TOPP, json={"wms": {}}).status_code == 405


def test_workspace_service_bad_body_creates_nothing(client, emu):
    r = client.put(WMS_TOPP, json={"wms": {"maxBuffer": "big"}})
    assert r.status_code == 400
    assert emu.state.settings.own_service("wms", "topp") is None


@pytest.mark.parametrize("fmt", ["json", "xml"])
@pytest.mark.parametrize(
    "path",
    [
        SETTINGS,
        CONTACT,
        "/rest/logging",
        *(f"/rest/services/{k}/settings" for k in KINDS),
    ],
)
def test_what_a_get_answers_a_put_accepts_unchanged(client, emu, path, fmt):
    """geoserver-node-client's updateProxyBaseUrl: GET the document, change it, PUT it back."""
    before = emu.dump_scenario()["serverSettings"]
    got = client.get(f"{path}.{fmt}")
    ctype = "application/json" if fmt == "json" else "application/xml"
    r = client.put(path, content=got.content, headers={"Content-Type": ctype})
    assert r.status_code == 200, r.text
    after = emu.dump_scenario()["serverSettings"]
    for part in (before, after):
        part["global"].pop("updateSequence")
    assert after == before


def test_node_client_update_proxy_base_url(client, emu):
    doc = client.get(SETTINGS + ".json").json()
    doc["global"]["settings"]["proxyBaseUrl"] = "https://proxy.example.org/geoserver"
    assert client.put(SETTINGS, json=doc).status_code == 200
    assert emu.state.settings.settings()["proxyBaseUrl"] == "https://proxy.example.org/geoserver"
