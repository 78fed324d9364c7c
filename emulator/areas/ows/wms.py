"""The WMS operations: each handler takes the caller's ``View`` and the ``Call``."""

from __future__ import annotations

from starlette.responses import Response

from . import sources, wms_capabilities
from .errors import CURRENT_SEQUENCE, INVALID, INVALID_SEQUENCE, OwsError
from .kvp import Call
from .model import View


def exception_version(call: Call) -> str:
    version = call.version or ""
    return "1.1.1" if version.startswith(("1.0", "1.1")) else "1.3.0"


def get_capabilities(view: View, call: Call) -> Response:
    settings = sources.service(view.state, sources.WMS, view.workspace)
    version = wms_capabilities.negotiate(call.version, list(settings.get("versions") or []))
    call.version = version
    _check_sequence(view, call)
    body = wms_capabilities.write(view, call, version)
    return Response(body, 200, media_type=wms_capabilities.content_type(version))


def _check_sequence(view: View, call: Call) -> None:
    asked = call.get("UPDATESEQUENCE")
    if asked is None or asked == "":
        return
    try:
        number = int(asked)
    except ValueError:
        raise OwsError(
            f"GetCapabilities request contains invalid updateSequence: {asked}",
            INVALID,
            "updateSequence",
        ) from None
    current = sources.update_sequence(view.state)
    if number > current:
        raise OwsError(
            "Client supplied an updateSequence that is greater than the current sever "
            "updateSequence",
            INVALID_SEQUENCE,
        )
    if number == current:
        raise OwsError(
            f"WMS capabilities document is current (updateSequence = {current})",
            CURRENT_SEQUENCE,
        )


HANDLERS = {"GetCapabilities": get_capabilities}
