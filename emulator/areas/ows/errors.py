"""The OGC services' errors: domain errors under ``core.errors.EmulatorError``.

    EmulatorError
    ├── OwsError        a service exception (code, locator; the service and version the
    │                   dispatcher fills in): answered as the service's exception report
    └── Denied          the security rules refuse the caller: 401 with the challenge for the
                        anonymous caller, 403 for one who logged in

Handlers and the domain modules raise them; ``dispatch.answer`` turns an ``OwsError`` into
the report of its service (each service's ``Service.report``, one writer per exception
format: ``ows/exceptions.py`` for OWS common, ``wms/codec.py``, ``wfs/codec.py``), and
``routes.py`` answers a ``Denied``. No HTTP here.
"""

from __future__ import annotations

from ...core.errors import EmulatorError

MISSING = "MissingParameterValue"
INVALID = "InvalidParameterValue"
NOT_SUPPORTED = "OperationNotSupported"
LAYER_NOT_DEFINED = "LayerNotDefined"
STYLE_NOT_DEFINED = "StyleNotDefined"
INVALID_FORMAT = "InvalidFormat"
INVALID_SRS = "InvalidSRS"
INVALID_CRS = "InvalidCRS"
CURRENT_SEQUENCE = "CurrentUpdateSequence"
INVALID_SEQUENCE = "InvalidUpdateSequence"
NO_CODE = "NoApplicableCode"


class OwsError(EmulatorError):
    """A service exception: message, code (None: GeoServer writes none) and locator.

    ``service`` and ``version`` say which report answers it (the call's, filled in by the
    dispatcher when the raiser leaves them None); the HTTP status is the report's (most
    reports answer 200, OWS 2.0 ones a status by code)."""

    status = 400
    message = "Service exception"

    def __init__(
        self,
        message: str,
        code: str | None = None,
        locator: str | None = None,
        *,
        service: str | None = None,
        version: str | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.locator = locator
        self.service = service
        self.version = version


DATABASE_FAILURES: dict[str, tuple[str | None, str | None]] = {
    "GetFeature": ("Error occurred getting features", None),
    "GetMap": ("Rendering process failed", "internalError"),
    "GetTile": ("Rendering process failed", "internalError"),
    "GetFeatureInfo": ("Internal error occurred", None),
}
"""What GeoServer wraps a failure of the data's store in, per request (message, code); the
store's own message follows on the next line (a request not listed: that message alone)"""


def database_failure(request: str, message: str) -> OwsError:
    """The service exception of a database failure (a refused connection, a statement past
    its time, a view parameter refused) during ``request``."""
    wrapper, code = DATABASE_FAILURES.get(request, (None, None))
    return OwsError(message if wrapper is None else f"{wrapper}\n{message}", code or NO_CODE)


AUTHENTICATION_REQUIRED = "Full authentication is required to access this resource"


class Denied(EmulatorError):
    """Access refused by the security rules: 401 with a challenge for the anonymous caller,
    403 for one who logged in (Spring Security's answer, before any service runs)."""

    def __init__(self, anonymous: bool, message: str = "Access denied") -> None:
        super().__init__(
            AUTHENTICATION_REQUIRED if anonymous else message, status=401 if anonymous else 403
        )
        self.anonymous = anonymous
