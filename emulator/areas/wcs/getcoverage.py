"""The GetCoverage handler of every version: the coverage found and access checked, its
parameters read by the version's reader (``kvp10``, ``kvp11``, ``kvp20``), the request run
(``coverage.run``) and the grid encoded in the requested format, answered as GeoServer
answers it (1.0.0 and 2.0.1 the file with ``Content-Disposition: inline;
filename=<coverage>.<ext>``, 1.1.1 a multipart message or, with ``store=true``, a
``wcs:Coverages`` document pointing at the stored file)."""

from __future__ import annotations

import gzip
from typing import Any

from ...raster import decode, encode
from ...raster.model import Grid
from ..catalog.entities import Coverage
from ..ows import dimensions, sources
from ..ows.errors import MISSING, NO_CODE, Denied, OwsError
from ..ows.kvp import Call
from ..ows.model import View
from ..ows.results import Document, Image
from . import coverage, kvp10, kvp11, kvp20, multipart, xml
from .formats import Format

V100, V111, V201 = "1.0.0", "1.1.1", "2.0.1"
KEYS = {
    V100: ("COVERAGE", "source coverage parameter is mandatory", "source coverage"),
    V111: ("IDENTIFIER", "identifier parameter is mandatory", "identifier"),
    V201: ("COVERAGEID", "coverageid parameter is required", "coverageId"),
}
READERS = {V100: kvp10.read, V111: kvp11.read, V201: kvp20.read}
STORED = 16
"""stored 1.1.1 answers (``store=true``) kept in the data directory's ``temp/wcs``"""


def handle(view: View, call: Call, version: str, find: Any) -> Document | Image:
    if call.document is not None:  # a POSTed GetCoverage: its elements as key-value pairs
        found = xml.pairs(call.document, version)
        call.pairs = found
        call.params.update({k.upper(): v for k, v in reversed(found)})
    key, missing, locator = KEYS[version]
    ident = call.get(key)
    if not ident:
        raise OwsError(missing, MISSING, locator)
    cov: Coverage = find(view, ident.strip(), version, locator.split()[-1])
    layer = view.catalog.layer(cov.workspace, cov.name)
    if layer is not None and not view.readable(layer):
        raise Denied(view.principal.anonymous)  # listed in CHALLENGE mode, the data is not
    raster = coverage.raster_of(view.state, cov)
    dims = {d.name for d in dimensions.dimensions(view.state, cov, call.instant())}
    req = READERS[version](call, cov, ident.strip(), raster, dims)
    if version == V201:
        _defaults(view, call, req, raster, dims)
    service = sources.service(view.state, sources.WCS, view.workspace)
    try:
        grid = coverage.run(view.state, req, raster, service)
    except decode.Undecodable as exc:
        raise OwsError(f"Failed to read the coverage {ident}: {exc}", NO_CODE) from None
    data = _encode(grid, req.format)
    if version == V111:
        return _answer_111(view, call, cov, data, req.format)
    return Image(data, req.format.mime, f"{ident.strip()}.{req.format.extension}")


def _encode(grid: Grid, fmt: Format) -> bytes:
    try:
        if fmt.key == "geotiff":
            return encode.geotiff(grid)
        if fmt.key in ("png", "jpeg", "gif"):
            return encode.image(grid, fmt.key)
        text = encode.arcgrid(grid)
        return gzip.compress(text, mtime=0) if fmt.key == "arcgrid-gzip" else text
    except encode.Unencodable as exc:
        raise OwsError(f"Could not encode the coverage as {fmt.mime}: {exc}", NO_CODE) from None


def _defaults(view: View, call: Call, req: coverage.Request, raster: Any, dims: set[str]) -> None:
    """The dimensions' default values where a 2.0.1 request names none (GeoServer's
    ``WCSDefaultValuesHelper``: each dimension's default value strategy)."""
    if not raster.mosaic:
        return
    for dim in dimensions.dimensions(view.state, req.coverage, call.instant()):
        if dim.name == "time" and req.time is None and raster.time_attribute:
            known = coverage.domain(raster, raster.time_attribute, coverage.instant)
            value = coverage.instant(dim.default) if dim.default != "current" else None
            value = value or (known[-1] if known else None)
            req.time = [(value, value)] if value is not None else None
        if dim.name == "elevation" and req.elevation is None and raster.elevation_attribute:
            number = coverage.number(dim.default)
            req.elevation = [(number, number)] if number is not None else None


def _answer_111(
    view: View, call: Call, cov: Coverage, data: bytes, fmt: Format
) -> Document | Image:
    store = (call.get("STORE") or "false").strip().lower() == "true"
    if not store:
        body, media = multipart.message(call.base, cov, data, fmt.mime)
        name = f"{cov.workspace}:{cov.name}".replace(":", "_")
        return Image(body, media, None, f'attachment;filename="{name}.eml"')
    folder = "temp/wcs"
    taken = sorted(p for p in view.state.datadir.files if p.startswith(folder + "/"))
    for old in taken[: max(0, len(taken) - STORED + 1)]:
        view.state.datadir.delete(old)
    file = f"{cov.name}_{_serial(view, folder):010d}.{fmt.extension}"
    view.state.datadir.write(f"{folder}/{file}", data)
    reference = f"{call.base}/temp/wcs/{file}"
    return Document(multipart.coverages_document(call.base, cov, reference), "application/xml")


def _serial(view: View, folder: str) -> int:
    """The next number for a stored answer (one more than the highest stored)."""
    highest = 0
    for path in view.state.datadir.files:
        if path.startswith(folder + "/"):
            stem = path.rsplit("/", 1)[-1].split(".", 1)[0]
            tail = stem.rsplit("_", 1)[-1]
            if tail.isdigit():
                highest = max(highest, int(tail))
    return highest + 1
