"""Request reading and error text of the app-schema endpoints (``codec.py``)."""

from __future__ import annotations

import pytest

from geoserver_emulator.areas.appschema.codec import (
    NEED_ONE,
    is_zip,
    java_split,
    parse_rebuild_query,
    rest_exception,
    upload_filename,
)
from geoserver_emulator.core.errors import Invalid
from geoserver_emulator.core.vendor import VendorNames

ID0 = "58e5889ce4b02461ad5af080"


@pytest.mark.parametrize(
    ("content_type", "zipped"),
    [
        ("application/zip", True),
        ("application/x-zip-compressed", True),
        ("multipart/x-zip", True),
        ("Application/ZIP; charset=binary", True),
        ("text/xml", False),
        ("application/xml", False),
        ("application/octet-stream", False),
        (None, False),
    ],
)
def test_is_zip(content_type, zipped):
    assert is_zip(content_type) is zipped


def test_upload_filename():
    assert upload_filename("lcv", None) == "lcv.appschema"
    assert upload_filename("lcv", "  ") == "lcv.appschema"
    assert upload_filename("lcv", "LandCoverVector.xml") == "LandCoverVector.xml"
    with pytest.raises(Invalid):
        upload_filename("lcv", "../x.xml")
    with pytest.raises(Invalid):
        upload_filename("lcv", "./")


def test_java_split_drops_trailing_empties_only():
    assert java_split("a,,b,,") == ["a", "", "b"]
    assert java_split(",") == []


@pytest.mark.parametrize(
    ("ids", "max_objects", "parsed"),
    [
        (ID0, None, ([ID0], 1)),
        (f"{ID0},", None, ([ID0], 1)),
        (None, "5", ([], 5)),
        (None, "-1", ([], -1)),
        ("", " 3 ", ([], 3)),
        (ID0.upper(), "2", ([ID0], 2)),
    ],
)
def test_parse_rebuild_query(ids, max_objects, parsed):
    assert parse_rebuild_query(ids, max_objects) == parsed


@pytest.mark.parametrize(
    ("ids", "max_objects", "message"),
    [
        (None, None, NEED_ONE),
        ("  ", "", NEED_ONE),
        (None, "x", "For input string"),
        (None, "99999999999", "For input string"),
        ("nope", "1", "invalid hexadecimal representation of an ObjectId: [nope]"),
    ],
)
def test_parse_rebuild_query_refusals(ids, max_objects, message):
    with pytest.raises(Invalid) as info:
        parse_rebuild_query(ids, max_objects)
    assert message in info.value.message


def test_rest_exception_text_uses_the_vendor_prefix():
    assert rest_exception(VendorNames(), 400, "Workspace not found.") == (
        "org.geoserver.rest.RestException 400 BAD_REQUEST: Workspace not found."
    )
    assert rest_exception(VendorNames("org.service"), 400, "x").startswith(
        "org.service.rest.RestException 400"
    )
