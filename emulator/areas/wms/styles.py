"""What the services read from a style: its description (capabilities ``Title`` and
``Abstract``) and, for legends and maps, its rules (``symbolizers.py``).

Bodies are parsed once per distinct content (``functools.lru_cache`` on the bytes), so a
capabilities document of a catalog with many layers costs a dictionary look-up per style.
"""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING

from ...core.errors import EmulatorError
from ...core.record import record
from ...wire import xml as wxml
from ..catalog.entities import StyleRef

if TYPE_CHECKING:
    from ...core.state import State


@record(frozen=True)
class StyleText:
    name: str
    """the style's name as the catalog writes it (``ws:name`` for a workspace style)"""
    title: str | None
    abstract: str | None
    legend: tuple[int | None, int | None, str | None, str | None] | None
    """(width, height, format, onlineResource) of a legend the style declares"""


def body(state: State, ref: StyleRef) -> bytes | None:
    style = state.styles.get(ref.workspace, ref.name)
    if style is None:
        return None
    return state.styles.body(state.datadir, style)


def text_of(state: State, ref: StyleRef) -> StyleText:
    style = state.styles.get(ref.workspace, ref.name)
    legend = None
    if style is not None and style.legend is not None:
        lg = style.legend
        legend = (lg.width, lg.height, lg.format, lg.online_resource)
    data = body(state, ref)
    title, abstract = _description(data) if data else (None, None)
    return StyleText(ref.prefixed, title, abstract, legend)


@functools.lru_cache(maxsize=512)
def _description(data: bytes) -> tuple[str | None, str | None]:
    """Title and Abstract of the first UserStyle (SLD 1.0, or SE 1.1's Description)."""
    try:
        root = wxml.parse(data, "SLD")
    except EmulatorError:  # a body that is not XML (CSS...) has no description
        return None, None
    for el in root.iter():
        if isinstance(el.tag, str) and wxml.local(el.tag) == "UserStyle":
            holder = wxml.child(el, "Description")
            source = holder if holder is not None else el
            return wxml.text(source, "Title"), wxml.text(source, "Abstract")
    return None, None


def scale_range(state: State, refs: list[StyleRef]) -> tuple[float, float]:
    """(min, max) scale denominators over every rule of the styles, as GeoServer's
    ``CapabilityUtil`` aggregates them: a rule without limits counts as 0 and infinity;
    no rule at all gives (0, infinity)."""
    from .symbolizers import rules

    low, high = math.inf, -math.inf
    for ref in refs:
        data = body(state, ref)
        for rule in rules(data) if data else ():
            low = min(low, rule.min_scale if rule.min_scale is not None else 0.0)
            high = max(high, rule.max_scale if rule.max_scale is not None else math.inf)
    return (0.0 if low == math.inf else low), (math.inf if high == -math.inf else high)
