"""The one domain error tree. Models and codecs raise these; one HTTP handler renders them.

    EmulatorError (500)
    ├── Invalid (400)
    ├── Unauthorized (401)
    ├── Forbidden (403)
    ├── NotFound (404)
    ├── MethodNotAllowed (405)
    ├── NotAcceptable (406)
    ├── Conflict (409)          alias AlreadyExists
    ├── Gone (410)
    ├── PayloadTooLarge (413)
    ├── UnsupportedMediaType (415)
    ├── Unprocessable (422)
    └── ServerError (500)       a deliberate 500, as GeoServer answers in some places

    ScenarioError (not HTTP): a scenario file that cannot be loaded.

``status`` and ``message`` live on the class; both can be overridden per instance, which is
how a fidelity-profile decision turns, say, a 404 into GeoServer's 500.
"""

from __future__ import annotations


class EmulatorError(Exception):
    """Base of every error an HTTP client may see."""

    status: int = 500
    message: str = "Internal error"

    def __init__(
        self,
        message: str | None = None,
        *,
        status: int | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        if message is not None:
            self.message = message
        if status is not None:
            self.status = status
        self.headers = dict(headers or {})
        super().__init__(self.message)


class Invalid(EmulatorError):
    status = 400
    message = "Bad request"


class Unauthorized(EmulatorError):
    status = 401
    message = "Unauthorized"


class Forbidden(EmulatorError):
    status = 403
    message = "Access denied"


class NotFound(EmulatorError):
    status = 404
    message = "Not found"


class MethodNotAllowed(EmulatorError):
    status = 405
    message = "Method not allowed"


class NotAcceptable(EmulatorError):
    status = 406
    message = "Not acceptable"


class Conflict(EmulatorError):
    status = 409
    message = "Conflict"


AlreadyExists = Conflict


class Gone(EmulatorError):
    status = 410
    message = "Gone"


class PayloadTooLarge(EmulatorError):
    status = 413
    message = "Request body too large"


class UnsupportedMediaType(EmulatorError):
    status = 415
    message = "Unsupported media type"


class Unprocessable(EmulatorError):
    status = 422
    message = "Unprocessable entity"


class ServerError(EmulatorError):
    status = 500
    message = "Internal error"


class ScenarioError(Exception):
    """A scenario that cannot be loaded; the message names the file and the bad key."""
