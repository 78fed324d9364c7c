"""WCS 1.0.0, 1.1.1 and 2.0.1: GetCapabilities and DescribeCoverage from the catalog's
coverages, GetCoverage over the pixels the emulator holds (``getcoverage.py``). Each
handler takes the caller's ``View`` and the ``Call`` and returns its result; ``SERVICE`` is
the table."""

from __future__ import annotations

from ..catalog.entities import Coverage
from ..ows import exceptions, published, sources
from ..ows.dispatch import Operation, Service
from ..ows.errors import INVALID, MISSING, OwsError
from ..ows.kvp import Call
from ..ows.model import View
from ..ows.results import Document, Image, Report
from . import capabilities, codec, getcoverage, kvp20

V100, V111, V201 = "1.0.0", "1.1.1", "2.0.1"
VERSIONS = (V100, V111, V201)


def coverages(view: View) -> list[Coverage]:
    out = []
    for layer in view.layers(maps=False):
        res = view.resource(layer)
        if isinstance(res, Coverage):
            out.append(res)
    return sorted(out, key=lambda c: (c.workspace, c.name))


def _version(view: View, call: Call) -> str:
    enabled = list(sources.service(view.state, sources.WCS, view.workspace).get("versions") or [])
    known = [v for v in VERSIONS if v in enabled or v == V201] or list(VERSIONS)
    asked = call.get("ACCEPTVERSIONS") or call.version
    if not asked:
        return known[-1]
    for candidate in (v.strip() for v in asked.split(",")):
        if candidate in ("1.1.0", "1.1.1", "1.1"):
            return V111
        if candidate in ("2.0.0", "2.0.1", "2.0"):
            return V201
        if candidate == V100:
            return V100
    if call.request == "GetCapabilities":
        return known[-1]
    raise OwsError(f"Could not understand version:{asked}", "VersionNegotiationFailed", "version")


def _name(view: View, cov: Coverage, version: str) -> str:
    local = cov.name
    if view.workspace is not None:
        return local
    return f"{cov.workspace}__{local}" if version == V201 else f"{cov.workspace}:{local}"


def _find(view: View, ident: str, version: str, locator: str) -> Coverage:
    name = ident.replace("__", ":", 1) if version == V201 and ":" not in ident else ident
    if view.workspace is not None and ":" not in name:
        name = f"{view.workspace}:{name}"
    for cov in coverages(view):
        if f"{cov.workspace}:{cov.name}" == name:
            return cov
    ws, _, local = name.partition(":")
    layer = view.catalog.layer(ws, local) if local else None
    if layer is not None and view.enabled(layer):
        try:
            view.find(name, locator)  # a challenge (Denied) for MIXED and CHALLENGE
        except OwsError:
            pass  # HIDE: as if it did not exist
    code = "NoSuchCoverage" if version == V201 else INVALID
    raise OwsError(f"Could not find coverage {ident}", code, locator)


def get_capabilities(view: View, call: Call) -> Document:
    version = _version(view, call)
    call.version = version
    s = sources.service(view.state, sources.WCS, view.workspace)
    covs = coverages(view)
    langs = published.wanted_languages(call.get("AcceptLanguages") if version == V201 else None)
    published.check_languages(langs, published.holders(s, [], list(covs)))
    ctx = capabilities.Context(
        call,
        version,
        s,
        sources.contact(view.state, view.workspace),
        str(sources.update_sequence(view.state)),
        langs,
    )
    body = capabilities.write(ctx, [(cov, _name(view, cov, version)) for cov in covs])
    return Document(body, "text/xml")


def describe_coverage(view: View, call: Call) -> Document:
    version = _version(view, call)
    call.version = version
    key, locator = {
        V100: ("COVERAGE", "coverage"),
        V111: ("IDENTIFIERS", "identifiers"),
        V201: ("COVERAGEID", "coverageId"),
    }[version]
    wanted = call.get(key) or (call.get("IDENTIFIER") if version == V111 else None)
    if not wanted:
        raise OwsError(f"{key.lower()} parameter is required", MISSING, locator)
    found = [
        _find(view, ident.strip(), version, locator) for ident in wanted.split(",") if ident.strip()
    ]
    described = [(cov, _name(view, cov, version), _grid(view, cov, version)) for cov in found]
    if version == V100:
        return codec.describe_10(call, described)
    if version == V111:
        return codec.describe_111(described)
    return codec.describe_201(described)


def _grid(view: View, cov: Coverage, version: str) -> codec.Grid | None:
    """The grid the uploads area read from the coverage's file (1.0.0 describes it)."""
    if version != V100:
        return None
    native = cov.native_coverage_name or cov.native_name or cov.name
    return sources.coverage_grid(view.state, cov.workspace, cov.store, native)


def get_coverage(view: View, call: Call) -> Document | Image:
    version = _version(view, call)
    call.version = version
    return getcoverage.handle(view, call, version, _find)


def report(err: OwsError, call: Call) -> Report:
    """OWS 1.0 (1.0.0), 1.1 (1.1.1) or 2.0 (2.0.1, HTTP status by code) exception report."""
    found = exceptions.report(err, "wcs", err.version or V100, call.base)
    status = kvp20.STATUS.get(err.code or "")
    if status is not None and (err.version or V100).startswith("2.0"):
        return found._replace(status=status)
    return found


SERVICE = Service(
    "wcs",
    VERSIONS,
    (
        Operation("GetCapabilities", get_capabilities),
        Operation("DescribeCoverage", describe_coverage),
        Operation("GetCoverage", get_coverage),
    ),
    report,
)
