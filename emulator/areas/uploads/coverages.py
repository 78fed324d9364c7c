"""``PUT …/coveragestores/{store}/{method}.{format}`` for single-file coverages (stub)."""

from __future__ import annotations

from ...core.errors import Invalid
from ..catalog.entities import CoverageStore
from .context import Context, Request


def upload(ctx: Context, req: Request) -> CoverageStore | None:
    raise Invalid(f"Uploads of {req.format} are not supported yet")
