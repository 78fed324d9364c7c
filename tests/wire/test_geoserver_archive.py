"""The shared archive guard (``wire/geoserver/archive.py``): one set of limits, each upload
path's refusals from one table."""

from __future__ import annotations

import io
import zipfile

import pytest

from geoserver_emulator.core.errors import Invalid, PayloadTooLarge
from geoserver_emulator.wire.geoserver.archive import LIMITS, POLICIES, Archive, Limits, safe_path


def make_zip(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            z.writestr(name, data)
    return out.getvalue()


def test_one_set_of_limits() -> None:
    assert LIMITS == Limits(
        entries=10_000,
        entry_bytes=64 * 1024 * 1024,
        total_bytes=256 * 1024 * 1024,
        ratio=200,
        ratio_floor=1024 * 1024,
    )
    assert set(POLICIES) == {"appschema", "uploads", "styles"}


@pytest.mark.parametrize(
    ("policy", "status"), [("appschema", 400), ("uploads", 413), ("styles", 413)]
)
def test_past_a_limit_each_path_answers_its_status(policy: str, status: int) -> None:
    data = make_zip({"a": b"\0" * 5000, "b": b"\0" * 5000})
    with pytest.raises((Invalid, PayloadTooLarge)) as caught:
        with Archive(data, POLICIES[policy], Limits(total_bytes=8000)) as archive:
            archive.read_all()
    assert caught.value.status == status
    with pytest.raises((Invalid, PayloadTooLarge)) as caught:
        Archive(data, POLICIES[policy], Limits(entries=1))
    assert caught.value.status == status and "more than 1 entries" in caught.value.message


def test_declared_sizes_are_checked_before_inflating_where_the_policy_says() -> None:
    bomb = make_zip({"zeros.bin": b"\0" * 4_000_000})
    with pytest.raises(PayloadTooLarge, match="compression ratio"):
        Archive(bomb, POLICIES["uploads"])
    with Archive(bomb, POLICIES["styles"], Limits(total_bytes=100)) as archive:
        ((info, _),) = archive.files()
        with pytest.raises(PayloadTooLarge, match="expands past 100 bytes"):
            archive.read(info)  # counted while inflating, whatever was declared


@pytest.mark.parametrize("name", ["../x", "a/../../x", "/etc/passwd", "C:/x", "..\\x"])
@pytest.mark.parametrize("policy", sorted(POLICIES))
def test_escaping_names_are_refused_with_each_paths_words(name: str, policy: str) -> None:
    with pytest.raises(Invalid) as caught:
        Archive(make_zip({"ok": b"x", name: b"x"}), POLICIES[policy])
    assert caught.value.message == POLICIES[policy].outside(name)


def test_paths_are_normalised_and_folders_dropped() -> None:
    assert safe_path("./a//b/./c.xsd", POLICIES["uploads"]) == "a/b/c.xsd"
    assert safe_path("dir/", POLICIES["uploads"]) == ""
    data = make_zip({"d/": b"", "d/x.txt": b"1", "y": b"2"})
    with Archive(data, POLICIES["uploads"]) as archive:
        assert archive.read_all() == {"d/x.txt": b"1", "y": b"2"}


@pytest.mark.parametrize("policy", sorted(POLICIES))
def test_a_corrupt_archive_is_400_with_the_paths_words(policy: str) -> None:
    with pytest.raises(Invalid) as caught:
        Archive(b"PK\x03\x04 nope", POLICIES[policy])
    assert caught.value.message.startswith(POLICIES[policy].corrupt + ": not a ZIP archive")
