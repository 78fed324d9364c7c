"""Security on the OGC services: layer rules per role, catalog modes, service rules."""

from __future__ import annotations

import pytest

CAPS = {"service": "WMS", "request": "GetCapabilities", "version": "1.3.0"}


@pytest.fixture
def topp_for_readers(emu):
    """Only ROLE_READER (and administrators) may read the topp workspace."""
    emu.state.security.replace_rules(
        "layers", {"*.*.r": "*", "*.*.w": "GROUP_ADMIN,ADMIN", "topp.*.r": "ROLE_READER"}
    )


def test_hide_mode_hides_unreadable_layers_from_who_may_not_read_them(
    topp_for_readers, anon, reader, client, h
):
    anonymous = h.layer_names(h.caps(anon))
    assert not [n for n in anonymous if n.startswith("topp:")]
    assert "sf:roads" in anonymous
    assert "topp:states" in h.layer_names(h.caps(reader))
    assert "topp:states" in h.layer_names(h.caps(client))  # the administrator reads all


def test_a_group_of_hidden_layers_is_hidden_too(topp_for_readers, anon, h):
    assert "tasmania" not in h.layer_names(h.caps(anon))


def test_layer_specific_rule_beats_the_workspace_rule(emu, anon, h):
    emu.state.security.replace_rules(
        "layers", {"*.*.r": "*", "topp.*.r": "ROLE_READER", "topp.states.r": "*"}
    )
    names = h.layer_names(h.caps(anon))
    assert "topp:states" in names and "topp:tasmania_roads" not in names


def test_mixed_mode_hides_in_capabilities(emu, topp_for_readers, anon, h):
    emu.state.security.set_catalog_mode("MIXED")
    assert "topp:states" not in h.layer_names(h.caps(anon))


def test_challenge_mode_lists_unreadable_layers(emu, topp_for_readers, anon, h):
    emu.state.security.set_catalog_mode("CHALLENGE")
    assert "topp:states" in h.layer_names(h.caps(anon))


def test_layer_virtual_service_of_a_hidden_layer(topp_for_readers, anon, reader):
    assert anon.get("/topp/states/wms", params=CAPS).status_code == 200
    # the layer is not in the anonymous caller's document
    assert b"<Name>states</Name>" not in anon.get("/topp/states/wms", params=CAPS).content
    assert b"<Name>states</Name>" in reader.get("/topp/states/wms", params=CAPS).content


def test_service_rule_refuses_an_operation(emu, anon, reader, client):
    emu.state.security.replace_rules("services", {"wms.GetCapabilities": "ROLE_READER"})
    r = anon.get("/wms", params=CAPS)
    assert r.status_code == 401 and r.headers["www-authenticate"] == 'Basic realm="GeoServer Realm"'
    assert reader.get("/wms", params=CAPS).status_code == 200
    assert client.get("/wms", params=CAPS).status_code == 200


def test_service_rule_for_any_operation_and_authenticated_denial(emu, reader, client_for):
    emu.state.users.create_user(None, "other", "otherpw12", True)
    other = client_for(auth=("other", "otherpw12"))
    emu.state.security.replace_rules("services", {"wms.*": "ROLE_READER"})
    assert other.get("/wms", params=CAPS).status_code == 403
    assert reader.get("/wms", params=CAPS).status_code == 200


def test_bad_credentials_are_refused(client_for):
    bad = client_for(auth=("admin", "wrong"))
    assert bad.get("/wms", params=CAPS).status_code == 401
