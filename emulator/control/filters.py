"""The journal filters the control plane takes (``?method=&path=&status=``), checked."""

from __future__ import annotations

from collections.abc import Mapping

from ..core.errors import Invalid
from ..core.journal import Journal, JournalEntry

FILTERS = ("method", "path", "status")
MAX_FILTER_LENGTH = 512
MAX_STARS_PER_SEGMENT = 2


def journal_entries(
    journal: Journal, query: Mapping[str, str], allowed: tuple[str, ...] = FILTERS
) -> list[JournalEntry]:
    """The journal entries the filters in ``query`` select; ``Invalid`` for a bad filter or
    an unknown parameter (``allowed`` names the parameters the caller takes)."""
    unknown = sorted(set(query) - set(allowed))
    if unknown:
        raise Invalid(f"unknown filter {unknown[0]!r}: filter by method, path or status")
    method = query.get("method", "").strip() or None
    status = query.get("status", "").strip() or None
    if status is not None and not (status.isdigit() and len(status) == 3):
        raise Invalid(f"status must be an HTTP status code, got {status!r}")
    path = query.get("path", "").strip() or None
    if path is not None:
        check_path_filter(path)
    return journal.calls(method, path, status=int(status) if status else None)


def check_path_filter(path: str) -> None:
    """A path filter's matching time is bounded by its shape: it starts with ``/``, has no
    template variables and at most two ``*`` in a segment (a segment of ``*`` runs matches
    in polynomial time whose degree is their number)."""
    if not path.startswith("/"):
        raise Invalid(
            f"path must start with / (an Ant pattern such as /rest/styles/**), got {path!r}"
        )
    if len(path) > MAX_FILTER_LENGTH:
        raise Invalid(f"path filter longer than {MAX_FILTER_LENGTH} characters")
    if "{" in path:
        raise Invalid("path filter: template variables ({name}) are not supported; use * or **")
    for segment in path.split("/"):
        if segment != "**" and segment.count("*") > MAX_STARS_PER_SEGMENT:
            raise Invalid(
                f"path filter: at most {MAX_STARS_PER_SEGMENT} * in a segment, got {segment!r}"
            )
