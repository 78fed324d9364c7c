"""Security by layer group, as GeoServer's ``DefaultResourceAccessManager`` decides it and
``SecureCatalogImplGroupsTest`` asserts it: in WMS (and WMTS) a layer's access follows the
groups holding it. A rule on a NAMED group restricts the layers it holds; an opaque
container's layers are reachable only through it; SINGLE groups play no part; WFS and WCS
ignore groups. Over HTTP, as an anonymous caller and as a reader."""

from __future__ import annotations

import pytest
from lxml import etree

STATES, ROADS, CITIES = "topp:states", "topp:tasmania_roads", "topp:tasmania_cities"
MAP = {
    "service": "WMS",
    "version": "1.1.1",
    "request": "GetMap",
    "styles": "",
    "format": "image/png",
    "bbox": "-180,-90,180,90",
    "width": "16",
    "height": "8",
    "srs": "EPSG:4326",
}
OPEN = {"*.*.r": "*", "*.*.w": "GROUP_ADMIN,ADMIN"}


def group(client, name: str, mode: str, *members: str) -> None:
    """A layer group of the topp workspace holding ``members`` (layers, or ``group:x``)."""
    published = [
        {"@type": "layerGroup", "name": f"topp:{m[6:]}"} if m.startswith("group:")
        else {"@type": "layer", "name": m}
        for m in members
    ]  # fmt: skip
    body = {"layerGroup": {"name": name, "mode": mode, "workspace": {"name": "topp"},
                           "publishables": {"published": published}}}  # fmt: skip
    r = client.post("/rest/workspaces/topp/layergroups", json=body)
    assert r.status_code == 201, r.text


def rules(emu, **extra: str) -> None:
    emu.state.security.replace_rules("layers", {**OPEN, **extra})


def drawn(client, layer: str) -> bool:
    """Whether GetMap draws ``layer`` for ``client`` (else: LayerNotDefined)."""
    r = client.get("/wms", params={**MAP, "layers": layer})
    if r.headers["content-type"] == "image/png":
        return True
    code = etree.fromstring(r.content).find(".//ServiceException").get("code")
    assert code == "LayerNotDefined", r.text
    return False


def wfs_reads(client, layer: str) -> bool:
    query = {"service": "WFS", "version": "2.0.0", "request": "GetFeature", "typeNames": layer,
             "count": "1", "outputFormat": "application/json"}  # fmt: skip
    return client.get("/wfs", params=query).status_code == 200


def caps_names(client) -> set[str]:
    query = {"service": "WMS", "version": "1.1.1", "request": "GetCapabilities"}
    root = etree.fromstring(client.get("/wms", params=query).content)
    return {e.text for e in root.iter("Name")}


def test_an_opaque_groups_layers_are_reached_only_through_it(client, anon, emu):
    group(client, "opaque", "OPAQUE_CONTAINER", STATES, ROADS)
    rules(emu)
    assert not drawn(anon, STATES) and not drawn(anon, ROADS)
    assert drawn(anon, "topp:opaque")
    assert wfs_reads(anon, STATES)  # groups play no part in WFS
    assert drawn(client, STATES)  # nor for an administrator


def test_a_named_group_opens_what_an_opaque_one_hides(client, anon, emu):
    group(client, "named", "NAMED", STATES, ROADS)
    group(client, "opaque", "OPAQUE_CONTAINER", STATES, ROADS)
    rules(emu)
    assert drawn(anon, STATES) and drawn(anon, ROADS) and drawn(anon, "topp:opaque")


def test_a_single_group_does_not(client, anon, emu):
    group(client, "single", "SINGLE", STATES, ROADS)
    group(client, "opaque", "OPAQUE_CONTAINER", STATES, ROADS)
    rules(emu)
    assert not drawn(anon, STATES)
    assert drawn(anon, "topp:single") and drawn(anon, "topp:opaque")


def test_a_rule_on_a_named_group_restricts_its_layers(client, anon, reader, emu):
    group(client, "named", "NAMED", STATES, ROADS)
    rules(emu, **{"topp.named.r": "ROLE_READER"})
    assert not drawn(anon, STATES) and not drawn(anon, "topp:named")
    assert drawn(anon, CITIES)  # not in the group
    assert drawn(reader, STATES) and drawn(reader, "topp:named")
    assert wfs_reads(anon, STATES)  # WFS follows the layer's own rules only
    names = caps_names(anon)
    assert STATES not in names and "topp:named" not in names and CITIES in names
    assert {STATES, "topp:named"} <= caps_names(reader)


def test_a_layer_rule_beats_its_groups(client, anon, emu):
    group(client, "named", "NAMED", STATES, ROADS)
    rules(emu, **{"topp.named.r": "ROLE_READER", "topp.states.r": "*"})
    assert drawn(anon, STATES) and not drawn(anon, ROADS)


def test_military_named_and_public_opaque(client, anon, reader, emu):
    group(client, "named", "NAMED", STATES, ROADS)
    group(client, "opaque", "OPAQUE_CONTAINER", STATES, ROADS)
    rules(emu, **{"topp.named.r": "ROLE_READER"})
    assert not drawn(anon, STATES) and not drawn(anon, ROADS)
    assert drawn(anon, "topp:opaque")
    assert drawn(reader, STATES) and drawn(reader, ROADS)


def test_public_single_and_secured_opaque(client, anon, reader, emu):
    group(client, "single", "SINGLE", STATES, ROADS)
    group(client, "opaque", "OPAQUE_CONTAINER", CITIES, ROADS)
    rules(emu, **{"topp.single.r": "*", "topp.opaque.r": "ROLE_READER"})
    assert drawn(anon, STATES) and not drawn(anon, CITIES) and not drawn(anon, ROADS)
    assert not drawn(anon, "topp:opaque")
    assert not drawn(reader, CITIES) and drawn(reader, "topp:opaque")


def test_a_secured_single_group_does_not_cascade(client, anon, emu):
    group(client, "single", "SINGLE", STATES, ROADS)
    group(client, "opaque", "OPAQUE_CONTAINER", CITIES, ROADS)
    rules(emu, **{"topp.single.r": "ROLE_READER", "topp.opaque.r": "*"})
    assert drawn(anon, STATES) and not drawn(anon, "topp:single")
    assert not drawn(anon, CITIES) and drawn(anon, "topp:opaque")


def test_an_opaque_group_nested_in_a_named_one(client, anon, reader, emu):
    group(client, "opaque", "OPAQUE_CONTAINER", STATES, ROADS)
    group(client, "named", "NAMED", CITIES, "group:opaque")
    rules(emu)
    assert drawn(anon, CITIES) and not drawn(anon, STATES) and not drawn(anon, ROADS)
    assert drawn(anon, "topp:named") and drawn(anon, "topp:opaque")
    rules(emu, **{"topp.opaque.r": "ROLE_READER"})
    assert drawn(anon, CITIES) and not drawn(anon, "topp:opaque")
    rules(emu, **{"topp.named.r": "ROLE_READER"})
    assert not drawn(anon, CITIES) and not drawn(anon, "topp:named")
    assert not drawn(anon, "topp:opaque")  # reached only through the secured group
    assert drawn(reader, CITIES) and not drawn(reader, STATES) and drawn(reader, "topp:opaque")


def test_mixed_mode_challenges_a_layer_a_group_rule_denies(client, anon, emu):
    group(client, "named", "NAMED", STATES)
    rules(emu, **{"topp.named.r": "ROLE_READER"})
    emu.state.security.catalog_mode = "MIXED"
    r = anon.get("/wms", params={**MAP, "layers": STATES})
    assert r.status_code == 401


def test_wmts_follows_the_groups_too(client, anon, emu):
    group(client, "named", "NAMED", STATES)
    rules(emu, **{"topp.named.r": "ROLE_READER"})
    tile = {"request": "GetTile", "layer": STATES, "format": "image/png",
            "tilematrixset": "EPSG:4326", "tilematrix": "EPSG:4326:0", "tilerow": "0",
            "tilecol": "0"}  # fmt: skip
    r = anon.get("/gwc/service/wmts", params=tile)
    assert r.status_code == 400 and b"is not known" in r.content
    assert client.get("/gwc/service/wmts", params=tile).status_code == 200


@pytest.mark.parametrize("mode,inside", [("NAMED", {STATES, ROADS}), ("OPAQUE_CONTAINER", set())])
def test_a_readers_group_is_listed_as_its_mode_lists_it(client, reader, emu, mode, inside):
    group(client, "grp", mode, STATES, ROADS)
    rules(emu, **{"topp.grp.r": "ROLE_READER"})
    query = {"service": "WMS", "version": "1.1.1", "request": "GetCapabilities"}
    root = etree.fromstring(reader.get("/wms", params=query).content)
    grp = next(e.getparent() for e in root.iter("Name") if e.text == "topp:grp")
    assert {e.text for e in grp.iterfind("Layer/Name")} == inside
