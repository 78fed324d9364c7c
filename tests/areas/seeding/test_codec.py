"""Wire forms: a seed request reads the same from XML and from JSON (Jettison's mapping)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from geoserver_emulator.areas.seeding import codec
from geoserver_emulator.areas.seeding.request import SeedRequest, canonical_format
from geoserver_emulator.core.errors import Invalid

names = st.text(
    st.characters(min_codepoint=0x21, max_codepoint=0x7E, exclude_characters="<>&"), min_size=1
)
requests = st.builds(
    SeedRequest,
    name=st.one_of(st.none(), names),
    bounds=st.one_of(st.none(), st.tuples(*[st.floats(-1e7, 1e7, allow_nan=False)] * 4)),
    gridset_id=st.one_of(st.none(), names),
    srs=st.one_of(st.none(), st.integers(1, 999999)),
    zoom_start=st.one_of(st.none(), st.integers(-5, 40)),
    zoom_stop=st.one_of(st.none(), st.integers(-5, 40)),
    format=st.one_of(
        st.none(), st.sampled_from(["image/png", "image/jpeg", "application/json;type=utfgrid"])
    ),
    type=st.one_of(st.none(), st.sampled_from(["seed", "reseed", "truncate", "Other"])),
    thread_count=st.one_of(st.none(), st.integers(-3, 64)),
    parameters=st.one_of(st.none(), st.lists(st.tuples(names, names), min_size=1, max_size=3)),
)


def _scalars(req: SeedRequest) -> list[tuple[str, object]]:
    return [
        ("gridSetId", req.gridset_id), ("zoomStart", req.zoom_start), ("zoomStop", req.zoom_stop),
        ("format", req.format), ("type", req.type), ("threadCount", req.thread_count),
    ]  # fmt: skip


def to_xml(req: SeedRequest) -> bytes:
    parts = []
    if req.name is not None:
        parts.append(f"<name>{req.name}</name>")
    if req.bounds is not None:
        parts.append(
            "<bounds><coords>"
            + "".join(f"<double>{v!r}</double>" for v in req.bounds)
            + "</coords></bounds>"
        )
    for tag, value in _scalars(req):
        if value is not None:
            parts.append(f"<{tag}>{value}</{tag}>")
    if req.srs is not None:
        parts.append(f"<srs><number>{req.srs}</number></srs>")
    if req.parameters is not None:
        entries = "".join(
            f"<entry><string>{k}</string><string>{v}</string></entry>" for k, v in req.parameters
        )
        parts.append(f"<parameters>{entries}</parameters>")
    return ("<seedRequest>" + "".join(parts) + "</seedRequest>").encode()


def to_json(req: SeedRequest) -> bytes:
    doc: dict[str, object] = {}
    if req.name is not None:
        doc["name"] = req.name
    if req.bounds is not None:
        doc["bounds"] = {"coords": {"double": [repr(v) for v in req.bounds]}}
    for key, value in _scalars(req):
        if value is not None:
            doc[key] = value
    if req.srs is not None:
        doc["srs"] = {"number": req.srs}
    if req.parameters is not None:
        entries = [{"string": [k, v]} for k, v in req.parameters]
        doc["parameters"] = {"entry": entries[0] if len(entries) == 1 else entries}
    return json.dumps({"seedRequest": doc}).encode()


@given(requests)
def test_xml_and_json_read_the_same(req):
    from_xml = codec.parse_seed_request_xml(to_xml(req))
    assert from_xml == codec.parse_seed_request_json(to_json(req)) == req


def test_xstream_integers():
    assert codec.java_decode("0x10", "n") == 16 and codec.java_decode("#10", "n") == 16
    assert codec.java_decode("010", "n") == 8 and codec.java_decode("-7", "n") == -7
    assert codec.java_decode("4294967295", "n") == -1
    for bad in ("", "1.5", "08", "1_0", "4294967296"):
        with pytest.raises(Invalid):
            codec.java_decode(bad, "n")


def test_type_is_case_insensitive_and_defaults_to_seed():
    assert SeedRequest(type="TrUnCaTe").task_type() == "TRUNCATE"
    assert SeedRequest().task_type() == "SEED" and SeedRequest(type="x").task_type() == "SEED"
    assert SeedRequest(type="seed", enum_type="RESEED").task_type() == "RESEED"


def test_canonical_formats():
    assert canonical_format("image/png") == "image/png"
    assert canonical_format("image/png; mode=8bit") == "image/png"
    assert canonical_format("image/PNG8") == "image/png8"
    assert (
        canonical_format("application/x-protobuf;type=mapbox-vector")
        == "application/vnd.mapbox-vector-tile"
    )
    assert canonical_format("image/webp") is None and canonical_format("nonsense") is None


def test_task_list_forms():
    rows = [[-1, -1, -2, 3, 0], [16, 178, 5, 4, 1]]
    assert (
        codec.dump_task_list_json(rows) == b'{"long-array-array":[[-1,-1,-2,3,0],[16,178,5,4,1]]}'
    )
    assert codec.dump_task_list_json([]) == b'{"long-array-array":[]}'
    xml = codec.dump_task_list_xml(rows[:1]).decode()
    assert xml == (
        "<long-array-array>\n  <long-array>\n    <long>-1</long>\n    <long>-1</long>\n"
        "    <long>-2</long>\n    <long>3</long>\n    <long>0</long>\n  </long-array>\n"
        "</long-array-array>"
    )


def test_forms_split_as_gwc_does():
    assert codec.parse_form(b"kill_all=all", decode=False) == {"kill_all": "all"}
    assert codec.parse_form(b"kill_all=all other=1", decode=False) == {
        "kill_all": "all",
        "other": "1",
    }
    assert codec.parse_form(b"a=x+y&b=%41", decode=True) == {"a": "x y", "b": "A"}
    for bad in (b"", b"a", b"a=1&a=2", b"a=b=c"):
        with pytest.raises(Invalid):
            codec.parse_form(bad, decode=False)
