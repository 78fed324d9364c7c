"""Reading and writing ZIP archives (``archive.py``)."""

from __future__ import annotations

import io
import zipfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from geoserver_emulator.areas.appschema.archive import find_main, read_zip, safe_name, write_zip
from geoserver_emulator.core.errors import Invalid

from .conftest import make_zip, short_id


def test_read_skips_directories_and_keeps_nested_paths():
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("schemas/", b"")
        z.writestr("schemas/a.xsd", b"<a/>")
        z.writestr("./main.appschema", b"<m/>")
    assert read_zip(buf.getvalue()) == {"schemas/a.xsd": b"<a/>", "main.appschema": b"<m/>"}


@pytest.mark.parametrize("name", ["../x", "a/../../x", "/etc/passwd", "C:/x", "..\\x", "a/.."])
def test_escaping_names_are_refused(name):
    with pytest.raises(Invalid, match="escapes the store directory"):
        safe_name(name)
    with pytest.raises(Invalid, match="escapes the store directory"):
        read_zip(make_zip({"ok.txt": b"x", name: b"x"}))


def test_dot_segments_inside_are_normalised():
    assert safe_name("./a//b/./c.xsd") == "a/b/c.xsd"
    assert safe_name("a\\b.xsd") == "a/b.xsd"


@pytest.mark.parametrize(
    "body",
    [b"", b"not a zip", b"PK\x03\x04garbage", make_zip({"a": b"x" * 100})[:-30]],
    ids=short_id,
)
def test_corrupt_archives(body):
    with pytest.raises(Invalid, match="Error occured unzipping file"):
        read_zip(body)


def test_crc_mismatch_is_refused():
    data = bytearray(make_zip({"a.txt": b"hello world " * 10}))
    data[data.index(b"a.txt") + 5 + 3] ^= 0xFF
    with pytest.raises(Invalid, match="Error occured unzipping file"):
        read_zip(bytes(data))


def test_limits_are_counted_while_inflating():
    bomb = make_zip({"a": b"\0" * 5000, "b": b"\0" * 5000})
    with pytest.raises(Invalid, match="expands past 4000 bytes"):
        read_zip(bomb, max_entry_bytes=4000)
    with pytest.raises(Invalid, match="archive b expands past"):
        read_zip(bomb, max_total_bytes=8000)
    with pytest.raises(Invalid, match="more than 1 entries"):
        read_zip(bomb, max_entries=1)
    assert len(read_zip(bomb, max_total_bytes=10000)) == 2


def test_find_main_prefers_the_shallowest_then_the_name():
    assert find_main(["x/a.appschema", "b.APPSCHEMA", "c.appschema", "d.xml"]) == "b.APPSCHEMA"
    assert find_main(["a.xml"]) is None


def test_write_zip_is_deterministic():
    files = {"b.xsd": b"<b/>", "a.appschema": b"<a/>"}
    assert write_zip(files) == write_zip(dict(reversed(files.items())))
    with zipfile.ZipFile(io.BytesIO(write_zip(files))) as z:
        assert z.namelist() == ["a.appschema", "b.xsd"]


segment = st.text(alphabet="abcXYZ019_-.", min_size=1, max_size=8).filter(
    lambda s: s not in (".", "..")
)
paths = st.lists(segment, min_size=1, max_size=3).map("/".join)


@settings(deadline=None)
@given(st.dictionaries(paths, st.binary(max_size=200), max_size=6))
def test_write_then_read_gives_the_files_back(files):
    # a file and a folder of the same name cannot both exist; keep the files that can
    names = sorted(files)
    keep = {n: files[n] for n in names if not any(o.startswith(n + "/") for o in names)}
    assert read_zip(write_zip(keep)) == {safe_name(n): d for n, d in keep.items()}
