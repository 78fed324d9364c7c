"""Error bodies as GeoServer writes them, chosen by where the request went.

Most controllers answer with the message as plain text. The 2025 security controllers
(authentication providers and filters) answer with an ``ErrorResponse`` object: JSON
``{"status":…,"message":…}`` or XML ``<ErrorResponse><status/><message/></ErrorResponse>``,
in the format the client asked for (JSON unless it asked for XML).
"""

from __future__ import annotations

from . import json as wjson
from . import xml as wxml
from .negotiate import format_of_media_type

ENVELOPE_PREFIXES = (
    "/rest/security/authproviders",
    "/rest/security/authfilters",
    "/rest/security/usergroupservices",
    "/rest/security/filterchain",
)


def error_style(rest_path: str) -> str:
    """``envelope`` or ``text`` for a path relative to the context root."""
    return "envelope" if rest_path.startswith(ENVELOPE_PREFIXES) else "text"


def _wants_xml(rest_path: str, accept: str | None) -> bool:
    last = rest_path.rsplit("/", 1)[-1]
    if last.endswith(".xml"):
        return True
    if last.endswith(".json"):
        return False
    if accept:
        for part in accept.split(","):
            fmt = format_of_media_type(part.strip())
            if fmt == "xml":
                return True
            if fmt == "json":
                return False
    return False


def render(
    status: int, message: str, rest_path: str, accept: str | None, quiet: bool = False
) -> tuple[bytes, str]:
    """The (body, media type) of an error answer."""
    if quiet and status == 404:
        return b"", "text/plain; charset=utf-8"
    if error_style(rest_path) == "envelope":
        if _wants_xml(rest_path, accept):
            root = wxml.element("ErrorResponse")
            text = wxml.replace_unsafe(message)
            wxml.fields(root, [("status", status), ("message", text)])
            return wxml.dump(root), "application/xml"
        return wjson.dumps({"status": status, "message": message}), "application/json"
    return message.encode("utf-8"), "text/plain; charset=utf-8"
