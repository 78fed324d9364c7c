"""``paused()``: the cyclic garbage collector held off while a burst of objects is made.

Unpickling a big store or building a big scenario makes hundreds of thousands of objects at
once; each burst of allocations would start a collection that walks every object alive,
about 40% of the work for a ten-thousand-layer catalog (``benchmarks/scale.py``). What such a
burst makes is either kept or freed by reference counting, so nothing waits on the collector.
It resumes afterwards as it was; a thread that finds it already paused leaves it so.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused() -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
