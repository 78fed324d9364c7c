"""The errors of OGC API Features, as GeoServer's ``FeaturesExceptionHandler`` writes them:
``{"code": …, "description": …}`` in ``application/json``, with the status of the error.

    EmulatorError
    └── ApiError        code (OWS 2.0's exception codes, or ``NotFound``), description, status

Raised by the area's modules, answered by ``routes.py``. No HTTP here.
"""

from __future__ import annotations

from ...core.errors import EmulatorError
from ...wire.json import dumps

NOT_FOUND = "NotFound"
RESOURCE_NOT_FOUND = "ResourceNotFound"
INVALID = "InvalidParameterValue"
NO_CODE = "NoApplicableCode"

MEDIA_TYPE = "application/json"


class ApiError(EmulatorError):
    """An OGC API error: ``code`` and ``message`` (the description) at ``status``."""

    def __init__(self, code: str, description: str, status: int = 400) -> None:
        super().__init__(description, status=status)
        self.code = code


def not_found(description: str) -> ApiError:
    return ApiError(NOT_FOUND, description, 404)


def invalid(description: str) -> ApiError:
    return ApiError(INVALID, description, 400)


def body(error: ApiError) -> bytes:
    return dumps({"code": error.code, "description": error.message})
