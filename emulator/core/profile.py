"""Fidelity profiles: where the interface spec and the newest GeoServer disagree.

Each field of ``Decisions`` is one row of the decisions table in
``shared/reference/README.md`` whose two columns differ. ``SPEC`` answers as the spec states
(the default profile); ``GEOSERVER`` answers as the newest GeoServer does. An area consults
``emulator.decisions.<row>`` at the one place the row matters; nothing else checks the
profile. Rows where both columns agree are not here: there is nothing to decide.
"""

from __future__ import annotations

from .record import fields, record

PROFILES = ("spec", "geoserver")


@record(frozen=True)
class Decisions:
    # Authentication providers
    provider_delete_unknown_status: int
    """DELETE of a provider name that never existed."""
    provider_delete_gone_status: int
    """DELETE of a provider name that was already deleted."""

    # Authentication filters
    filter_create_status: int
    """Status of a successful filter create."""
    filter_create_location: bool
    """Whether a filter create answers with a ``Location`` header."""
    filter_get_missing_status: int
    """GET of a filter that does not exist (GeoServer: 200 with an empty object)."""
    filter_delete_missing_status: int
    """DELETE of a filter that does not exist or was already deleted."""

    # Access rules
    acl_post_status: int
    """Status of a successful access-rule POST (layer rules; service and REST rules answer
    200 in both profiles)."""
    acl_delete_without_key_status: int
    """DELETE on a rule collection itself (no rule key): 404 ``Rule not found``, or GeoServer's
    500 (its controller cuts the key out of the path past its end)."""

    # Seeding
    truncate_one_task: bool
    """A truncate with threadCount N makes one task (spec) or N tasks (GeoServer)."""
    kill_all_content_type: str
    """Content type of the kill_all reply."""
    seed_get_on_kill_path_allowed: bool
    """GET on /gwc/rest/seed and /gwc/rest/seed/<layer>: 405 (spec) or a listing (GeoServer)."""

    # URL checks
    urlcheck_json_list_keys: tuple[str, str]
    """JSON list keys of /rest/urlchecks: (collection, item)."""

    # Application-schema uploads
    appschema_create_file_status: int
    """Store created from one mapping file with configure=all."""
    appschema_replace_status: int
    """Mapping of an existing store replaced (configure=none)."""
    appschema_create_zip_status: int
    """Store created from a ZIP with configure=all."""

    # Image mosaics
    mosaic_upload_status: int
    """PUT file.imagemosaic."""
    mosaic_harvest_status: int
    """POST external.imagemosaic."""

    # Data and coverage store uploads
    upload_unreadable_status: int
    """An uploaded file that cannot be read as its format (truncated, corrupt): 400 (the
    spec's rule for bad input) or GeoServer's 500."""

    # Arguments GeoServer's controllers refuse with IllegalArgumentException
    bad_argument_status: int
    """A query or path argument a controller refuses by throwing ``IllegalArgumentException``
    (``/rest/crs``: paging out of range, an identifier without authority): 400 (the REST
    reference's) or GeoServer's 500 (its advice answers any such exception with 500)."""


SPEC = Decisions(
    provider_delete_unknown_status=404,
    provider_delete_gone_status=410,
    filter_create_status=201,
    filter_create_location=True,
    filter_get_missing_status=404,
    filter_delete_missing_status=410,
    acl_post_status=201,
    acl_delete_without_key_status=404,
    truncate_one_task=True,
    kill_all_content_type="text/html",
    seed_get_on_kill_path_allowed=False,
    urlcheck_json_list_keys=("urlchecks", "urlcheck"),
    appschema_create_file_status=201,
    appschema_replace_status=200,
    appschema_create_zip_status=200,
    mosaic_upload_status=200,
    mosaic_harvest_status=201,
    upload_unreadable_status=400,
    bad_argument_status=400,
)

GEOSERVER = Decisions(
    provider_delete_unknown_status=500,
    provider_delete_gone_status=500,
    filter_create_status=200,
    filter_create_location=False,
    filter_get_missing_status=200,
    filter_delete_missing_status=404,
    acl_post_status=200,
    acl_delete_without_key_status=500,
    truncate_one_task=False,
    kill_all_content_type="text/plain",
    seed_get_on_kill_path_allowed=True,
    urlcheck_json_list_keys=("urlChecks", "urlCheck"),
    appschema_create_file_status=201,
    appschema_replace_status=201,  # configure=none answers 201 in every DataStoreFileController
    appschema_create_zip_status=201,
    mosaic_upload_status=201,
    mosaic_harvest_status=202,
    upload_unreadable_status=500,
    bad_argument_status=500,
)


def decisions_for(profile: str) -> Decisions:
    if profile == "spec":
        return SPEC
    if profile == "geoserver":
        return GEOSERVER
    raise ValueError(f"unknown profile {profile!r}; expected one of {', '.join(PROFILES)}")


def differing_rows() -> list[str]:
    """Names of the rows where the two profiles answer differently."""
    return [name for name in fields(Decisions) if getattr(SPEC, name) != getattr(GEOSERVER, name)]
