"""What the app-schema endpoints read from a request and write back, besides mapping files
(``mapping.py``) and archives (``archive.py``): the upload's body kind, the schema-rebuild
query, and the error text of the document-database schema controller.
"""

from __future__ import annotations

from ...core.errors import Invalid
from ...core.vendor import VendorNames
from .archive import safe_name
from .documents import check_ids

ZIP_TYPES = frozenset({"application/zip", "multipart/x-zip", "application/x-zip-compressed"})
REASONS = {400: "BAD_REQUEST", 404: "NOT_FOUND", 500: "INTERNAL_SERVER_ERROR"}
NEED_ONE = "At least one schema generation parameter is required: 'ids' or 'max'"


def is_zip(content_type: str | None) -> bool:
    """Whether an upload is a ZIP archive (GeoServer's three ZIP media types)."""
    from werkzeug.http import parse_options_header  # slow to import: on first use

    mime, _ = parse_options_header(content_type or "")
    return mime.lower() in ZIP_TYPES


def upload_filename(store: str, given: str | None) -> str:
    """The name the uploaded body is saved under: ``?filename=`` or ``<store>.appschema``."""
    if given is None or not given.strip():
        return f"{store}.appschema"
    name = safe_name(given.strip())
    if not name:
        raise Invalid(f"Invalid file name: {given}")
    return name


def java_split(value: str, sep: str = ",") -> list[str]:
    """``String.split``: empty strings at the end are dropped."""
    parts = value.split(sep)
    while parts and parts[-1] == "":
        parts.pop()
    return parts


def parse_rebuild_query(ids: str | None, max_objects: str | None) -> tuple[list[str], int]:
    """``ids`` (comma-separated object ids) and ``max`` (default 1), as the controller reads
    them; neither given → ``Invalid`` with GeoServer's message."""
    number: int | None = None
    if max_objects is not None and max_objects.strip():
        try:
            number = int(max_objects.strip())
        except ValueError:
            raise Invalid(
                "Failed to convert value of type 'java.lang.String' to required type "
                f"'java.lang.Integer'; For input string: \"{max_objects}\""
            ) from None
        if not -(2**31) <= number < 2**31:
            raise Invalid(f'For input string: "{max_objects}"')
    blank = ids is None or not ids.strip()
    if blank and number is None:
        raise Invalid(NEED_ONE)
    id_list = [] if blank or ids is None else check_ids(java_split(ids))
    return id_list, 1 if number is None else number


def rest_exception(vendor: VendorNames, status: int, message: str) -> str:
    """``RestException.toString()``, the body the schema controller answers errors with."""
    reason = REASONS.get(status, "BAD_REQUEST")
    return f"{vendor.emit('rest.RestException')} {status} {reason}: {message}"
