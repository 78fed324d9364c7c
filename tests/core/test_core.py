from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from geoserver_emulator.core.antpath import ant_match
from geoserver_emulator.core.clock import ManualClock, RealtimeClock
from geoserver_emulator.core.datadir import DataDir, normalise
from geoserver_emulator.core.errors import Invalid
from geoserver_emulator.core.profile import GEOSERVER, SPEC, decisions_for, differing_rows
from geoserver_emulator.core.vendor import VendorNames


def test_vendor_accepts_both_prefixes_and_emits_configured():
    v = VendorNames("org.geoserver")
    a = v.canonical("org.service.security.config.X")
    b = v.canonical("org.geoserver.security.config.X")
    assert a == b == "security.config.X"
    assert v.emit(a) == "org.geoserver.security.config.X"
    assert VendorNames("org.service").emit(a) == "org.service.security.config.X"


def test_vendor_foreign_class_kept_and_known_suffix_recognised():
    v = VendorNames(known_suffixes={"security.config.X"})
    assert v.emit(v.canonical("com.example.MyProvider")) == "com.example.MyProvider"
    assert v.canonical("com.vendor.security.config.X") == "security.config.X"


def test_profiles_differ_exactly_on_the_decision_rows():
    assert set(differing_rows()) == {
        "provider_delete_unknown_status",
        "provider_delete_gone_status",
        "filter_create_status",
        "filter_create_location",
        "filter_get_missing_status",
        "filter_delete_missing_status",
        "acl_post_status",
        "acl_delete_without_key_status",
        "truncate_one_task",
        "kill_all_content_type",
        "seed_get_on_kill_path_allowed",
        "urlcheck_json_list_keys",
        "appschema_replace_status",
        "appschema_create_zip_status",
        "mosaic_upload_status",
        "mosaic_harvest_status",
        "upload_unreadable_status",
        "bad_argument_status",
    }
    assert decisions_for("spec") is SPEC and decisions_for("geoserver") is GEOSERVER
    with pytest.raises(ValueError):
        decisions_for("other")


def test_manual_clock_moves_only_when_advanced_and_notifies():
    seen: list[float] = []
    c = ManualClock()
    c.subscribe(seen.append)
    assert c.now() == 0.0
    c.advance(2.5)
    assert c.now() == 2.5 and seen == [2.5]
    with pytest.raises(ValueError):
        c.advance(-1)


def test_realtime_clock_follows_injected_monotonic():
    t = [100.0]
    c = RealtimeClock(monotonic=lambda: t[0])
    t[0] += 3
    assert c.now() == 3
    c.advance(10)
    assert c.now() == 13


@pytest.mark.parametrize("bad", ["../x", "a/../../b", "a/.."])
def test_datadir_refuses_escape(bad: str):
    with pytest.raises(Invalid):
        normalise(bad)


def test_datadir_lists_files_and_dirs():
    d = DataDir()
    d.write("styles/a.sld", b"x")
    d.write("styles/icons/i.png", b"y")
    d.mkdir("empty")
    assert d.listdir("") == [("empty", True), ("styles", True)]
    assert d.listdir("styles") == [("a.sld", False), ("icons", True)]
    assert d.delete("styles") and not d.exists("styles/a.sld")


@pytest.mark.parametrize(
    ("pattern", "path", "ok"),
    [
        ("/**", "/rest/workspaces", True),
        ("/**", "/", True),
        ("/rest/workspaces/*", "/rest/workspaces/topp", True),
        ("/rest/workspaces/*", "/rest/workspaces/topp/datastores", False),
        ("/rest/workspaces/**", "/rest/workspaces", True),
        ("/a?c", "/abc", True),
    ],
)
def test_ant_match(pattern: str, path: str, ok: bool):
    assert ant_match(pattern, path) is ok


@given(st.text(alphabet="abc/", max_size=20))
def test_double_star_matches_everything(path: str):
    assert ant_match("/**", "/" + path)


def test_datadir_move_carries_a_folder():
    d = DataDir()
    d.write("workspaces/a/styles/x.sld", b"x")
    d.mkdir("workspaces/a/empty")
    d.move("workspaces/a", "workspaces/b")
    assert d.read("workspaces/b/styles/x.sld") == b"x"
    assert d.is_dir("workspaces/b/empty") and not d.exists("workspaces/a")
