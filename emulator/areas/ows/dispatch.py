"""The OGC dispatcher as data: each service is a ``Service`` (its name, versions, exception
report) with a table of ``Operation`` rows; ``answer`` finds the row a call names, checks
what every operation needs (the service enabled, the service rules, the row's required
parameters and POSTed document) and runs its handler.

A handler is ``(View, Call) -> Result``: it reads the published items through the ``View``
(security included), raises ``OwsError`` for a service exception and ``Denied`` for a
refusal, and returns data (``results.py``). Adding an operation is adding a row to its
service's ``OPERATIONS``; adding a service is a ``Service`` in a new folder and its line in
``routes.SERVICES``. Rows without a handler are operations GeoServer has and the emulator
does not: they answer ``OperationNotSupported`` as an unknown one does, and
``docs/coverage.md`` lists them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from ...core.budget import TooCostly
from ...databases.errors import DatabaseError
from ...databases.virtual import InvalidParameter
from ...wire import text as wtext
from . import sources
from .errors import INVALID, MISSING, NOT_SUPPORTED, OwsError, database_failure
from .kvp import Call
from .model import Published, View
from .results import Result

if TYPE_CHECKING:
    from ...core.state import State
    from ..access import Principal

Handler = Callable[[View, Call], Result]
Report = Callable[[OwsError, Call], Result]

EMULATED, CANNED, NOT_EMULATED = "emulated", "canned", "not emulated"


class Operation(NamedTuple):
    """One row of a service's table."""

    name: str
    """the request name as GeoServer spells it (matched case-insensitively)"""
    handler: Handler | None
    """None: an operation GeoServer has that the emulator does not answer"""
    required: tuple[str, ...] = ()
    """parameters the request must carry, checked in order before the handler
    (``MissingParameterValue``: ``Missing X parameter``, locator ``x``)"""
    document: bool = False
    """only as a POSTed XML document (``OperationNotSupported`` for key-value pairs)"""
    versions: tuple[str, ...] = ()
    """the versions that define it (empty: every version of the service)"""
    support: str = EMULATED
    """``emulated``, ``canned`` (a fixed answer) or ``not emulated`` (``docs/coverage.md``)"""
    note: str = ""
    """what ``docs/coverage.md`` says beside the row"""
    repeatable: tuple[str, ...] = ()
    """keys (upper case) the operation reads as a list when repeated (WCS 2.0.1's
    ``subset``): exempt from ``check_repeated``"""


class Service:
    """A service: its name, versions, table of operations and exception report."""

    __slots__ = ("_index", "accepted", "gwc", "name", "operations", "report", "versions")

    def __init__(
        self,
        name: str,
        versions: tuple[str, ...],
        operations: tuple[Operation, ...],
        report: Report,
        gwc: bool = False,
        accepted: tuple[str, ...] = (),
    ) -> None:
        self.name = name
        """lower case, as ``SERVICE`` is matched: ``wms``…"""
        self.versions = versions
        self.operations = operations
        self.report = report
        """the exception report of a failed call (the service's exception format)"""
        self.accepted = accepted or versions
        """the versions GeoServer registers for the service, as ``AcceptVersions`` may name
        them (``negotiate``)"""
        self.gwc = gwc
        """answered by GeoWebCache, not GeoServer's dispatcher: none of the dispatcher's
        key-value checks (``check_repeated``) nor its headers (``headers``)"""
        self._index = {op.name.lower(): op for op in operations if op.handler is not None}

    def operation(self, request: str) -> Operation | None:
        """The row of ``request`` (any case) that has a handler."""
        return self._index.get(request.lower())


def answer(
    state: State,
    principal: Principal,
    call: Call,
    only: Published | None,
    find: Callable[[str], Service | None],
    parse_error: OwsError | None = None,
    pairs: Sequence[tuple[str, str]] = (),
) -> Result:
    """The result of ``call``, or its service's exception report; ``Denied`` is raised.

    ``find`` names the services (``routes.service``); ``only`` is the layer or group of a
    layer's virtual service; ``pairs`` the query's raw key-value pairs (checked for text XML
    cannot carry); ``parse_error`` a POSTed document that did not parse."""
    service = find(call.service) if call.service else None
    try:
        if parse_error is not None:
            raise parse_error
        check_text(pairs)
        op = _operation(call, service)
        assert service is not None
        if op.name == "GetCapabilities" and not service.gwc:
            check_accepted_versions(call, service)
        settings = sources.service(state, call.service, call.workspace)
        if not settings.get("enabled", True):
            raise OwsError(f"Service {call.service.upper()} is disabled", "ServiceUnavailable")
        view = View(state, principal, call.workspace, only, call.service, call.request)
        view.check_service()
        if not service.gwc:
            check_repeated(pairs, op.repeatable)
        _check_required(op, call)
        assert op.handler is not None
        return op.handler(view, call)
    except OwsError as err:
        return failure(err, call, service)
    except TooCostly as err:  # a style's or filter's patterns past their time bound
        return failure(OwsError(err.message, INVALID), call, service)
    except (DatabaseError, InvalidParameter) as err:  # the data's database failed, or refused
        return failure(database_failure(call.request, err.message), call, service)


def _operation(call: Call, service: Service | None) -> Operation:
    """The row ``call`` names (its ``request`` made canonical), or the exception GeoServer's
    dispatcher answers."""
    if not call.service:
        raise OwsError("Could not determine service", MISSING, "service")
    if service is None:
        raise OwsError(f"No service: ( {call.service} )", INVALID, "service")
    if not call.request:
        raise OwsError(
            "Could not determine geoserver request from http request " + call.url,
            MISSING,
            "request",
        )
    op = service.operation(call.request)
    if op is None:
        text = f"No such operation {call.service.upper()} {call.version or ''} {call.request}"
        raise OwsError(text.replace("  ", " "), NOT_SUPPORTED, call.request)
    call.request = op.name
    return op


def _check_required(op: Operation, call: Call) -> None:
    if op.document and call.document is None:
        raise OwsError(f"{op.name} requests must be POSTed as XML", NOT_SUPPORTED, "request")
    for key in op.required:
        call.require(key)


def failure(err: OwsError, call: Call, service: Service | None) -> Result:
    """The exception report of ``err``: its service's (the call's when it names none), the OWS
    1.0 report when the service is not known."""
    from . import exceptions

    if err.service == "ows":  # refused before the service was known (GeoServer's guess)
        return exceptions.report(err, "ows", err.version or "1.0.0", call.base)
    err.service = err.service or call.service
    err.version = err.version or call.version
    if service is None:
        return exceptions.report(err, "ows", "1.0.0", call.base)
    return service.report(err, call)


def check_accepted_versions(call: Call, service: Service) -> None:
    """GeoServer's dispatcher on a GetCapabilities naming no ``VERSION``: the first of
    ``AcceptVersions`` the service has is negotiated (the service picks it), none is
    ``VersionNegotiationFailed``, refused before the service is known, so in the OWS 1.1
    report GeoServer guesses for a request with ``AcceptVersions``."""
    if call.get("VERSION") is not None:
        return
    listed = call.get("ACCEPTVERSIONS")
    if listed is None or not listed.strip():
        return
    if not any(v in service.accepted for v in listed.split(",")):
        raise OwsError(
            "Could not determine version",
            "VersionNegotiationFailed",
            "acceptVersions",
            service="ows",
            version="1.1.0",
        )


def check_repeated(pairs: Sequence[tuple[str, str]], repeatable: tuple[str, ...] = ()) -> None:
    """GeoServer's ``KvpRequestReader``: a key given twice with different values (the
    same value repeated is fine) is refused, naming the key upper-cased and the distinct
    values in the order given (Java's list text)."""
    values: dict[str, list[str]] = {}
    for key, value in pairs:
        found = values.setdefault(key.upper(), [])
        text = value.strip()
        if text not in found:
            found.append(text)
    for key, found in values.items():
        if len(found) > 1 and key not in repeatable:
            shown = wtext.replace_unsafe(", ".join(found))
            raise OwsError(
                f"Found multiple, inconsistent values for parameter {key}: [{shown}]",
                INVALID,
                wtext.replace_unsafe(key),
            )


CACHE_CONTROL = "max-age=0, must-revalidate"
"""what GeoServer's ``CapabilitiesCacheHeadersCallback`` sends with every capabilities
document"""
DISPOSITIONS = ("inline", "attachment")


def headers(call: Call, result: Result, service: Service | None) -> dict[str, str]:
    """The headers GeoServer's dispatcher adds to a successful answer: ``Content-Disposition``
    (the response's file name, else ``geoserver-<Operation>.<major type>``; the ``FILENAME``
    and ``CONTENT-DISPOSITION`` parameters override name and disposition) and, for
    GetCapabilities, ``Cache-Control``. Reports and GeoWebCache's answers get none."""
    from . import results
    from .collections import FeatureCollection

    if service is None or service.gwc or isinstance(result, results.Report):
        return {}
    if isinstance(result, FeatureCollection):
        name: str | None = result.filename
    else:
        name = result.filename
    if name is None:
        major = result.media_type.split(";")[0].split("/")[0].strip()
        name = f"geoserver-{call.request}.{major}"
    name = call.get("FILENAME") or name
    disposition = call.get("CONTENT-DISPOSITION")
    if disposition not in DISPOSITIONS:
        disposition = "inline"
    out = {"Content-Disposition": f"{disposition}; filename={_header_text(name)}"}
    if call.request == "GetCapabilities":
        out["Cache-Control"] = CACHE_CONTROL
    return out


def _header_text(text: str) -> str:
    """``text`` as a header value can carry it: controls dropped, characters outside ASCII
    as ``?`` (``docs/fidelity.md``)."""
    kept = "".join(c for c in text if c >= " " and c != "\x7f")
    return kept.encode("ascii", "replace").decode("ascii")


def check_text(pairs: Sequence[tuple[str, str]]) -> None:
    """A parameter XML 1.0 cannot carry: an ``InvalidParameterValue`` exception (the route
    leaves the query to the service, ``routes.OwsRoute``)."""
    for key, value in pairs:
        for text in (key, value):
            bad = wtext.unsafe_in(text)
            if bad is not None:
                where = f"the parameter {wtext.replace_unsafe(key)[:40]}"
                locator = wtext.replace_unsafe(key.lower())
                raise OwsError(wtext.refusal(bad, where), INVALID, locator)
