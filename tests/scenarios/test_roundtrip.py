"""``Emulator.dump_scenario()`` → save → load gives the same state."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from geoserver_emulator import Emulator
from geoserver_emulator.wire.text import xml_safe

names = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_-.0123456789ÄÉ", min_size=1, max_size=8)
passwords = st.text(max_size=12).filter(xml_safe)  # a scenario refuses what XML cannot carry
rule_names = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_-0123456789", min_size=1, max_size=8)
roles = st.sampled_from(["ADMIN", "GROUP_ADMIN"]) | names.map(str.upper)


@st.composite
def changes(draw: st.DrawFn) -> list[tuple]:
    """A list of operations on a fresh stock emulator."""
    ops: list[tuple] = []
    for _ in range(draw(st.integers(0, 12))):
        ops.append(
            draw(
                st.one_of(
                    st.tuples(st.just("user"), names, passwords, st.booleans()),
                    st.tuples(st.just("group"), names),
                    st.tuples(st.just("join"), names, names),
                    st.tuples(st.just("role"), roles),
                    st.tuples(st.just("user_role"), roles, names),
                    st.tuples(st.just("group_role"), roles, names),
                    st.tuples(st.just("keystore"), passwords.map(str.strip).filter(bool)),
                    st.tuples(st.just("root"), st.booleans()),
                    st.tuples(
                        st.just("rest_rule"), rule_names, st.lists(roles, min_size=1, max_size=3)
                    ),
                    st.tuples(st.just("disable_group"), names),
                )
            )
        )
    return ops


def _apply(emu: Emulator, ops: list[tuple]) -> None:
    users = emu.state.users
    svc = users.service()
    for op, *args in ops:
        if op == "user" and args[0] not in svc.users:
            users.create_user(None, args[0], args[1], args[2])
        elif op == "group" and args[0] not in svc.groups:
            users.create_group(None, args[0])
        elif op == "join" and args[0] in svc.users and args[1] in svc.groups:
            users.join(None, args[0], args[1])
        elif op == "role" and args[0] not in users.role_service().roles:
            users.create_role(None, args[0])
        elif op == "user_role" and args[0] in users.role_service().roles:
            users.assign_user_role(None, args[0], args[1], True)
        elif op == "group_role" and args[0] in users.role_service().roles:
            users.assign_group_role(None, args[0], args[1], True)
        elif op == "keystore":
            emu.state.security.keystore_password = args[0]
        elif op == "root":
            emu.state.security.root_login = args[0]
        elif op == "rest_rule" and f"/rest/{args[0]}/**:GET" not in emu.state.security.rest_rules:
            emu.state.security.add_rules("rest", {f"/rest/{args[0]}/**:GET": ",".join(args[1])})
        elif op == "disable_group" and args[0] in svc.groups:
            svc.groups[args[0]].enabled = False


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(changes(), st.sampled_from(["spec", "geoserver"]))
def test_dump_save_load_gives_the_same_state(ops, profile):
    emu = Emulator("stock", profile=profile)
    _apply(emu, ops)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "saved.json"
        emu.save_scenario(path)
        again = Emulator(path)
    assert again.state.users == emu.state.users
    assert again.state.security == emu.state.security
    assert again.state.auth_providers.active == emu.state.auth_providers.active
    assert again.profile == emu.profile and again.vendor.prefix == emu.vendor.prefix
    assert again.dump_scenario() == emu.dump_scenario()


def test_empty_round_trips(tmp_path):
    emu = Emulator("empty")
    emu.save_scenario(tmp_path / "s.json")
    assert Emulator(tmp_path / "s.json").dump_scenario() == emu.dump_scenario()


def test_saved_file_is_plain_json_without_extends(tmp_path):
    emu = Emulator("stock")
    emu.save_scenario(tmp_path / "s.json")
    doc = json.loads((tmp_path / "s.json").read_text())
    assert "extends" not in doc
    assert {"settings", "users", "security", "authProviders", "authFilters"} <= set(doc)
    assert (
        doc["settings"]["profile"] == "spec" and doc["settings"]["vendorPrefix"] == "org.geoserver"
    )


def test_loaded_dump_then_reset_returns_to_the_dump(tmp_path):
    emu = Emulator("stock")
    emu.state.users.create_user(None, "kept", "pw", True)
    emu.save_scenario(tmp_path / "s.json")
    again = Emulator(tmp_path / "s.json")
    again.state.users.create_user(None, "dropped", "pw", True)
    again.reset()
    assert sorted(again.state.users.service().users) == ["admin", "kept"]


def test_reset_restores_lazily_and_keeps_linked_stores_linked():
    emu = Emulator("stock")
    groups = [names for names, _ in emu.scenario.baseline.parts]
    assert ("catalog", "seeding") in groups  # the catalog keeps the tile layers
    emu.reset()
    assert "catalog" not in emu.state.__dict__  # nothing unpickled yet
    assert emu.state.seeding is emu.state.catalog.tiles
    users = emu.state.users
    users.create_user(None, "temp", "pw", True)
    emu.reset()
    assert "temp" not in emu.state.users.service().users
    assert emu.dump_scenario() == Emulator("stock").dump_scenario()  # every store comes back


def test_concurrent_first_use_gives_one_copy():
    import threading

    emu = Emulator("stock")
    seen: list[object] = []
    barrier = threading.Barrier(8)

    def touch() -> None:
        barrier.wait()
        seen.append(emu.state.catalog)

    threads = [threading.Thread(target=touch) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(c is emu.state.catalog for c in seen)
    assert emu.state.catalog.tiles is emu.state.seeding
