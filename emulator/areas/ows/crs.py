"""The OGC services' side of coordinate reference systems: a request's CRS decoded as the
service's reader decodes it (its exception when it cannot), and the small questions the
writers and the renderer ask. The database and the arithmetic are ``emulator/crs/``
(PROJ's EPSG database through pyproj, with a fast path for WGS 84 and spherical Mercator).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...core.errors import EmulatorError
from ...crs import axes, names, registry
from ...crs.transform import between
from .errors import OwsError

Transform = Callable[[float, float], tuple[float, float]]

GEOGRAPHIC = frozenset({"EPSG:4326", "CRS:84", "EPSG:4269", "EPSG:4258"})
"""common geographic CRSs (kept for callers that test membership)"""


def decode(
    text: str, code: str | None, locator: str | None, message: str, epsg_xy: bool = True
) -> names.Ref:
    """The CRS ``text`` names, known to the database; else the service exception ``code``
    with ``message`` (``{}``: the text) at ``locator``. ``epsg_xy``: ``EPSG:n`` is x/y (all
    but WMS 1.3.0)."""
    try:
        ref = names.read(text, epsg_xy=epsg_xy)
    except EmulatorError:
        raise OwsError(message.format(text), code, locator) from None
    if not registry.known(ref):
        raise OwsError(message.format(text), code, locator)
    return ref


def north_first(ref: names.Ref) -> bool:
    return axes.north_first(ref)


def normalise(code: str) -> str:
    """``EPSG:4326`` from the URN and URL spellings a client may send (the text upper-cased
    when it names no authority)."""
    try:
        return names.read(code).id
    except EmulatorError:
        return code.strip().upper()


def valid(code: str) -> bool:
    """Whether the database knows ``code``."""
    try:
        return registry.known(names.read(code))
    except EmulatorError:
        return False


def transform(source: str, target: str) -> Transform | None:
    """x/y in ``source`` to x/y in ``target``; None when either CRS is unknown."""
    try:
        return between(source, target).point
    except EmulatorError:
        return None


def transform_array(source: str, target: str) -> Callable[[Any], Any] | None:
    """Like ``transform``, on an (N, 2) numpy array of x/y (for ``shapely.transform``)."""
    try:
        return between(source, target).coords
    except EmulatorError:
        return None


def is_geographic(code: str) -> bool:
    """Whether ``code`` names a geographic CRS (degrees)."""
    return metres_per_unit(code) is None


def metres_per_unit(code: str) -> float | None:
    """Metres in one unit of ``code``'s first axis (None: degrees, a geographic CRS)."""
    try:
        return axes.metres_per_unit(names.read(code).id)
    except EmulatorError:
        return 1.0
