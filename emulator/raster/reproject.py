"""Coordinate transforms between two CRSs (pyproj, longitude/easting first), for the
sampling of a grid onto a target grid in another CRS and for envelopes."""

from __future__ import annotations

import functools
from typing import Any

from ..crs.envelope import Envelope
from ..crs.registry import lookup

Array = Any


class NoTransform(Exception):
    """No transform between the two CRSs; the message says why."""


@functools.lru_cache(maxsize=64)
def _transformer(source: str, target: str) -> Any:
    from pyproj import Transformer

    try:
        return Transformer.from_crs(lookup(source), lookup(target), always_xy=True)
    except Exception as exc:  # pyproj or the registry refusing either CRS
        raise NoTransform(f"cannot transform {source} to {target}: {exc}") from None


def same(source: str | None, target: str | None) -> bool:
    """Whether the two codes name one CRS (``EPSG:4326``, its URN and URL spellings)."""
    if source is None or target is None or source == target:
        return True
    return bool(lookup(source).equals(lookup(target), ignore_axis_order=True))


def points(source: str, target: str) -> Any:
    """``(xs, ys) -> (xs, ys)`` from ``source`` to ``target`` on numpy arrays."""
    transformer = _transformer(source, target)

    def apply(xs: Array, ys: Array) -> tuple[Array, Array]:
        out_x, out_y = transformer.transform(xs, ys)
        return out_x, out_y

    return apply


def envelope(env: Envelope, source: str, target: str) -> Envelope:
    """The extent of ``env`` in ``target`` (its outline densified, 21 points a side)."""
    import numpy as np

    t = np.linspace(0.0, 1.0, 21)
    xs = np.concatenate([env.minx + (env.maxx - env.minx) * t, np.full(21, env.maxx)])
    ys = np.concatenate([np.full(21, env.miny), env.miny + (env.maxy - env.miny) * t])
    xs = np.concatenate([xs, env.minx + (env.maxx - env.minx) * t, np.full(21, env.minx)])
    ys = np.concatenate([ys, np.full(21, env.maxy), env.miny + (env.maxy - env.miny) * t])
    out_x, out_y = _transformer(source, target).transform(xs, ys)
    ok = np.isfinite(out_x) & np.isfinite(out_y)
    if not ok.any():
        raise NoTransform(f"the envelope has no image in {target}")
    return Envelope(
        float(out_x[ok].min()),
        float(out_y[ok].min()),
        float(out_x[ok].max()),
        float(out_y[ok].max()),
    )
