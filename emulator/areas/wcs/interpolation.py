"""Interpolation names per version, read into ``raster.resample``'s methods: WCS 1.0.0
``nearest neighbor``/``bilinear``/``bicubic`` (checked against the coverage's list), WCS
1.1.1 ``nearest``/``linear``/``bilinear``/``cubic``/``bicubic``, WCS 2.0.1 the interpolation
extension's URIs (``…/OGC/1/nearest-neighbor``, ``…/linear``, ``…/cubic``)."""

from __future__ import annotations

from ...raster.resample import BICUBIC, BILINEAR, NEAREST
from ..catalog.entities import Coverage
from ..ows.errors import INVALID, OwsError

_WCS10 = {"nearest neighbor": NEAREST, "nearest": NEAREST, "bilinear": BILINEAR, "bicubic": BICUBIC}
_WCS11 = {
    "nearest": NEAREST,
    "linear": BILINEAR,
    "bilinear": BILINEAR,
    "cubic": BICUBIC,
    "bicubic": BICUBIC,
}
_WCS20 = {
    "nearest-neighbor": NEAREST,
    "nearest": NEAREST,
    "linear": BILINEAR,
    "bilinear": BILINEAR,
    "cubic": BICUBIC,
    "bicubic": BICUBIC,
}
NOT_SUPPORTED_10 = "The requested Interpolation method is not supported by this Coverage."


def wcs10(value: str | None, cov: Coverage) -> str:
    if value is None or not value.strip():
        return NEAREST
    text = value.strip().lower()
    method = _WCS10.get(text)
    if method is None:
        raise OwsError(f"Invalid interpolation method: {value}", INVALID, "interpolation")
    name = "nearest neighbor" if text.startswith("nearest") else text
    listed = [m.lower() for m in cov.interpolation_methods]
    default = (cov.default_interpolation_method or "").lower()
    if name != "nearest neighbor" and name not in listed and name != default:
        raise OwsError(NOT_SUPPORTED_10, INVALID, "RangeSubset")
    return method


def wcs11(value: str | None, cov: Coverage) -> str:
    if value is None or not value.strip():
        return NEAREST
    method = _WCS11.get(value.strip().lower())
    wanted = {NEAREST: "nearest", BILINEAR: "bilinear", BICUBIC: "bicubic"}.get(method or "", "")
    if method is None or not any(m.lower().startswith(wanted) for m in cov.interpolation_methods):
        raise OwsError(NOT_SUPPORTED_10, INVALID, "RangeSubset")
    return method


def wcs20(value: str | None) -> str:
    if value is None or not value.strip():
        return NEAREST
    name = value.strip().rstrip("/").rsplit("/", 1)[-1].lower()
    method = _WCS20.get(name)
    if method is None:
        raise OwsError(
            f"Unsupported interpolation method {value}",
            "InterpolationMethodNotSupported",
            "interpolation",
        )
    return method
