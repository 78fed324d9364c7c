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
from . import capabilities, codec, describe, getcoverage, kvp20

V100, V111, V201 = "1.0.0", "1.1.1", "2.0.1"
VERSIONS = (V100, V111, V201)


def coverages(view: View) -> list[Coverage]:
    out = []
    for layer in view.layers(maps=False):
        res = view.resource(layer)
        if isinstance(res, Coverage):
            out.append(res)
    return sorted(out, key=lambda c: (c.workspace, c.name))


REGISTERED = {"1.0.0": V100, "1.1": V111, "1.1.0": V111, "1.1.1": V111, "2.0.1": V201}
"""the WCS versions GeoServer registers (``AcceptVersions`` may name any), and the document
the emulator writes for each"""


def _version(view: View, call: Call) -> str:
    """The version answered. GetCapabilities as GeoServer's dispatcher negotiates it:
    ``VERSION`` against every registered version (the nearest lower one, else the lowest or
    the highest), else the first of ``AcceptVersions`` registered (``dispatch`` refused a
    list naming none), else the highest enabled. Other requests: the version named."""
    enabled = list(sources.service(view.state, sources.WCS, view.workspace).get("versions") or [])
    known = [v for v in VERSIONS if v in enabled or v == V201] or list(VERSIONS)
    if call.request == "GetCapabilities":
        asked = call.get("VERSION")
        if asked:
            return REGISTERED[_pre_ows(asked.strip())]
        for candidate in (call.get("ACCEPTVERSIONS") or "").split(","):
            if candidate.strip() in REGISTERED:
                return REGISTERED[candidate.strip()]
        return known[-1]
    asked = call.get("VERSION") or call.version
    if not asked:
        return known[-1]
    found = {**REGISTERED, "2.0.0": V201, "2.0": V201}.get(asked.strip())
    if found is None:
        raise OwsError(
            f"Could not understand version:{asked}", "VersionNegotiationFailed", "version"
        )
    return found


def check_service_name(call: Call, version: str) -> None:
    """WCS 2.0.1 wants the service named exactly ``WCS`` (the dispatcher found it in any
    case): GeoServer's ``checkService``."""
    given = call.params.get("SERVICE")
    if version == V201 and given is not None and given != "WCS":
        raise OwsError("Error in service name, expected value: WCS", INVALID, given)


def _pre_ows(asked: str) -> str:
    """``RequestUtils.getVersionPreOws``: the version itself when registered, else the
    highest registered below it (the lowest when none is)."""
    if asked in REGISTERED:
        return asked
    wanted = _version_key(asked)
    below = sorted((v for v in REGISTERED if _version_key(v) < wanted), key=_version_key)
    return below[-1] if below else "1.0.0"


def _version_key(version: str) -> tuple[int, ...]:
    try:
        return tuple(int(p) for p in version.split("."))
    except ValueError:
        return (0,)


def _name(view: View, cov: Coverage, version: str) -> str:
    """A coverage's identifier as each version writes it: 1.0.0 its layer name (local in a
    workspace's service), 1.1.1 always ``ws:name``, 2.0.1 always ``ws__name``."""
    if version == V201:
        return f"{cov.workspace}__{cov.name}"
    if version == V111 or view.workspace is None:
        return f"{cov.workspace}:{cov.name}"
    return cov.name


def _find(view: View, ident: str, version: str, locator: str) -> Coverage | None:
    """The coverage an identifier names (2.0.1: ``ws__name``, or a bare name); None when
    none the caller may see has it (a challenge, ``Denied``, in MIXED and CHALLENGE)."""
    name = ident.replace("__", ":", 1) if version == V201 and ":" not in ident else ident
    if view.workspace is not None and ":" not in name:
        name = f"{view.workspace}:{name}"
    listed = coverages(view)
    for cov in listed:
        if f"{cov.workspace}:{cov.name}" == name or (":" not in name and cov.name == name):
            return cov
    ws, _, local = name.partition(":")
    layer = view.catalog.layer(ws, local) if local else None
    if layer is not None and view.enabled(layer):
        try:
            view.find(name, locator)  # a challenge (Denied) for MIXED and CHALLENGE
        except OwsError:
            pass  # HIDE: as if it did not exist
    return None


def get_capabilities(view: View, call: Call) -> Document:
    version = _version(view, call)
    call.version = version
    check_service_name(call, version)
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
        capabilities.sections(call, version),
    )
    body = capabilities.write(ctx, [(cov, _name(view, cov, version)) for cov in covs])
    return Document(body, "text/xml")


def describe_coverage(view: View, call: Call) -> Document:
    """DescribeCoverage, its parameters refused in each version's words: 1.0.0 describes
    every coverage when none is named, 1.1.1 and 2.0.1 need their identifiers."""
    version = _version(view, call)
    call.version = version
    check_service_name(call, version)
    key, locator = {
        V100: ("COVERAGE", "coverage"),
        V111: ("IDENTIFIERS", "identifiers"),
        V201: ("COVERAGEID", "coverageId"),
    }[version]
    wanted = call.get(key) or (call.get("IDENTIFIER") if version == V111 else None)
    idents = [i.strip() for i in (wanted or "").split(",") if i.strip()]
    if not idents and version == V201:
        raise OwsError("Required parameter coverageId missing", "emptyCoverageIdList", locator)
    if not idents and version == V111:
        raise OwsError("identifiers parameter is required", MISSING, locator)
    found = [(i, _find(view, i, version, locator)) for i in idents]
    missing = [i for i, cov in found if cov is None]
    if missing and version == V201:
        text = ",".join(missing)
        raise OwsError(
            f"Could not find the requested coverage(s): {text}", "NoSuchCoverage", locator
        )
    if missing:
        text = f"Could not find coverage '{missing[0]}'" if version == V100 else (
            f"Could not find the specified coverage: {missing[0]}"
        )  # fmt: skip
        raise OwsError(text, INVALID, locator)
    covs = [cov for _, cov in found if cov is not None] if idents else coverages(view)
    named = [(cov, _name(view, cov, version)) for cov in covs]
    if version == V100:
        return describe.describe_10(call, named)
    if version == V111:
        return describe.describe_111(call, named)
    stores = view.catalog.stores
    return describe.describe_201(
        [(c, n, describe.native_format_20(c, stores.get((c.workspace, c.store)))) for c, n in named]
    )


def get_coverage(view: View, call: Call) -> Document | Image:
    version = _version(view, call)
    call.version = version
    return getcoverage.handle(view, call, version, _find_or_fail)


def _find_or_fail(view: View, ident: str, version: str, locator: str) -> Coverage:
    """The coverage GetCoverage names; its version's exception when there is none."""
    cov = _find(view, ident, version, locator)
    if cov is None:
        code = "NoSuchCoverage" if version == V201 else INVALID
        raise OwsError(f"Could not find coverage {ident}", code, locator)
    return cov


def report(err: OwsError, call: Call) -> Report:
    """1.0.0's ``ServiceExceptionReport`` (GeoServer's legacy handler), the OWS 1.1 report
    (1.1.1) or the OWS 2.0 one (2.0.1, HTTP status by code)."""
    version = err.version or V100
    if version == V100:
        return codec.legacy_report(err)
    found = exceptions.report(err, "wcs", version, call.base)
    status = kvp20.STATUS.get(err.code or "")
    if status is not None and version.startswith("2.0"):
        return found._replace(status=status)
    return found


SERVICE = Service(
    "wcs",
    VERSIONS,
    (
        Operation("GetCapabilities", get_capabilities),
        Operation("DescribeCoverage", describe_coverage),
        Operation("GetCoverage", get_coverage, repeatable=("SUBSET",)),
    ),
    report,
    accepted=tuple(REGISTERED),
)
