"""Java number and collection semantics GeoWebCache's observable numbers depend on.

GWC computes tile counts with ``long`` arithmetic, rounds estimates with ``Math.round``,
narrows with ``(int)`` casts, and lists sets and JSON objects in ``HashMap`` order. These
helpers reproduce exactly those behaviours so that the emulator prints the same numbers
and the same orders.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

LONG_MAX = (1 << 63) - 1
LONG_MIN = -(1 << 63)


def to_long(value: int) -> int:
    """Wrap an integer to a Java ``long`` (two's complement, 64 bits)."""
    return ((value + (1 << 63)) % (1 << 64)) - (1 << 63)


def to_int(value: int) -> int:
    """Narrow an integer to a Java ``int`` as ``(int)`` does: keep the low 32 bits."""
    return ((value + (1 << 31)) % (1 << 32)) - (1 << 31)


def rem(a: int, b: int) -> int:
    """Java's ``%``: the remainder takes the sign of the dividend."""
    r = abs(a) % abs(b)
    return -r if a < 0 else r


def int_div(a: int, b: int) -> int:
    """Java's integer ``/``: truncates toward zero."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def math_round(x: float) -> int:
    """``Math.round(double)``: half up, NaN → 0, saturating at the ``long`` range."""
    if math.isnan(x):
        return 0
    if x >= 9.223372036854775807e18:
        return LONG_MAX
    if x <= -9.223372036854775808e18:
        return LONG_MIN
    floor = math.floor(x)
    return floor + 1 if x - floor >= 0.5 else floor


def double_to_long(x: float) -> int:
    """``(long) x`` for a double: truncation toward zero, NaN → 0, saturating."""
    if math.isnan(x):
        return 0
    if x >= 9.223372036854775807e18:
        return LONG_MAX
    if x <= -9.223372036854775808e18:
        return LONG_MIN
    return int(x)


def string_hash(s: str) -> int:
    """``String.hashCode()`` as an unsigned 32-bit value."""
    data = s.encode("utf-16-be")
    h = 0
    for i in range(0, len(data), 2):
        h = (31 * h + (data[i] << 8 | data[i + 1])) & 0xFFFFFFFF
    return h


def _bucket_key(s: str) -> int:
    h = string_hash(s)
    return (h ^ (h >> 16)) & 0xFFFFFFFF


def hash_order(keys: Iterable[str], capacity: int = 16) -> list[str]:
    """The iteration order of a ``java.util.HashSet``/``HashMap`` holding ``keys``.

    Entries iterate by bucket (spread hash masked by the table size); within a bucket in
    insertion order, which resizing preserves. ``capacity`` is the initial table size; the
    table doubles whenever the size exceeds three quarters of it.
    """
    items = list(dict.fromkeys(keys))
    while len(items) > capacity * 3 // 4:
        capacity *= 2
    mask = capacity - 1
    position = {k: i for i, k in enumerate(items)}
    return sorted(items, key=lambda k: (_bucket_key(k) & mask, position[k]))
