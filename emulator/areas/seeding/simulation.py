"""The simulated thread pool: when tasks start, take metatiles, finish; driven by time only.

Time is integer milliseconds. A running seed task takes one metatile from its request's
shared iterator when it starts, and another each time it completes one; at ``rate``
metatiles per second its n-th take happens at ``start + ceil(n * 1000 / rate)`` ms. The
iterator runs dry at the M-th take of the whole group (ties in the same millisecond go to
the lower task id); each task then ends at its first take that finds nothing. A kill lets
the task finish the metatile in hand and take one more (GWC's loop does; a task killed
while pending makes that take when it starts), a failure ends it when its next metatile
fails. Everything a task does is therefore known in closed form from its start, its rate
and its cap: advancing the clock only moves through task ends (events), never through
tiles, and costs O(tasks) per event.
"""

from __future__ import annotations

import heapq

from .model import SeedGroup, SeedingStore, SeedTask
from .request import canonical_format
from .tiles import requested_levels, stored_between

TRANSITIONS: dict[tuple[str, str], str] = {
    ("READY", "start"): "RUNNING",
    ("UNSET", "start"): "RUNNING",
    ("RUNNING", "done"): "DONE",
    ("RUNNING", "abort"): "DEAD",
    ("RUNNING", "crash"): "RUNNING",
}
"""GWC's task states (``GWCTask.STATE``) and what moves them; a crash (an exception out of
the task) leaves it RUNNING although its thread has returned."""

END_EVENTS = {"DONE": "done", "DEAD": "abort", "RUNNING": "crash"}


def transition(task: SeedTask, event: str) -> None:
    task.state = TRANSITIONS[(task.state, event)]


def _ceil_div(a: int, b: int) -> int:
    return -((-a) // b)


def takes(task: SeedTask, group: SeedGroup, t: int) -> int:
    """Takes from the iterator scheduled at or before ``t`` (ignoring caps)."""
    if task.start is None or t < task.start:
        return 0
    num, den = group.rate
    return ((t - task.start) * num) // (1000 * den) + 1


def take_time(task: SeedTask, group: SeedGroup, n: int) -> int:
    """When the task makes its take number ``n`` (0 = at its start)."""
    num, den = group.rate
    assert task.start is not None
    return task.start + _ceil_div(n * 1000 * den, num)


def _capped(task: SeedTask, group: SeedGroup, t: int) -> int:
    n = takes(task, group, t)
    return n if task.cap is None else min(n, task.cap)


def _running_members(store: SeedingStore, group: SeedGroup) -> list[SeedTask]:
    """The group's members holding a pool thread: found among the running tasks (at most
    the pool's size), not among all the members (pending ones wait in the queue)."""
    tasks = (store.tasks[i] for i in store.running)
    return [t for t in tasks if t.group == group.id and t.start is not None and not t.finished]


def _exhaustion(store: SeedingStore, group: SeedGroup, members: list[SeedTask]) -> int | None:
    """The millisecond of the group's M-th take, or None if its members never get there."""
    need = group.metatiles
    if all(r.cap is not None for r in members):
        if group.consumed + sum(r.cap for r in members if r.cap is not None) < need:
            return None
        hi = max(take_time(r, group, r.cap - 1) for r in members if r.cap is not None)
    else:
        num, den = group.rate
        starts = [r.start for r in members if r.start is not None]
        hi = max(starts) + _ceil_div(max(need - group.consumed, 1) * 1000 * den, num)
    lo = min(r.start for r in members if r.start is not None) - 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if group.consumed + sum(_capped(r, group, mid) for r in members) >= need:
            hi = mid
        else:
            lo = mid
    return hi


def schedule(store: SeedingStore, group: SeedGroup) -> None:
    """Work out when and how each running member of a seed group ends."""
    members = sorted(_running_members(store, group), key=lambda r: r.id)
    if not members:
        return
    at = _exhaustion(store, group, members)
    if at is None:
        for r in members:
            r.real = r.cap
    else:
        need = group.metatiles - group.consumed
        need -= sum(_capped(r, group, at - 1) for r in members)
        for r in members:
            before = _capped(r, group, at - 1)
            take = max(0, min(_capped(r, group, at) - before, need))
            need -= take
            r.real = before + take
    for r in members:
        _plan_end(r, group)
        if r.end is not None:
            heapq.heappush(store.events, (r.end, r.id))


def _plan_end(task: SeedTask, group: SeedGroup) -> None:
    null_at = None
    if task.real is not None and (task.cap is None or task.real < task.cap):
        null_at = take_time(task, group, task.real)
    natural = None
    if task.cap_kind == "fail" and task.cap is not None:
        natural = take_time(task, group, task.cap)
    elif task.cap_kind == "kill" and task.cap is not None:
        natural = take_time(task, group, task.cap - 1)
    if null_at is not None and (natural is None or null_at <= natural):
        task.end, task.end_state = null_at, "DONE"
        task.completed = task.consumed = task.real or 0
    elif natural is not None and task.cap is not None:
        task.end = natural
        task.end_state = group.fail_state if task.cap_kind == "fail" else "DONE"
        task.completed, task.consumed = task.cap - 1, task.cap
    else:
        task.end = None


def commit(store: SeedingStore, group: SeedGroup, t: int) -> None:
    """Write the metatiles the group has stored by ``t`` into the cache model."""
    if group.type == "TRUNCATE" or group.crash is not None:
        return
    done = group.completed + sum(
        max(_capped(r, group, t) - 1, 0) for r in _running_members(store, group)
    )
    if done > group.cached:
        if _still_cached(store, group):
            store.cache.add(group.cache_key(), stored_between(group.range, group.cached, done))
        group.cached = done


def _still_cached(store: SeedingStore, group: SeedGroup) -> bool:
    """Whether the layer still caches the group's gridset and format: tiles a task renders
    after its layer was deleted or lost them go nowhere (GeoServer drops that cache)."""
    layer = store.tile_layers.get(group.layer)
    if layer is None or group.gridset not in layer.gridsets:
        return False
    return group.format is None or group.format in {canonical_format(f) for f in layer.formats}


def _start(store: SeedingStore, task: SeedTask, t: int) -> SeedGroup | None:
    """Give the task a pool thread at ``t``; the seed group to reschedule, if any."""
    group = store.groups[task.group]
    task.start = t
    transition(task, "start")
    if group.type == "TRUNCATE":
        failing = group.crash in ("zoom", "format") or _rule_fails_truncate(store, group)
        task.end_state = "DEAD" if failing else "DONE"
        if group.crash is not None:
            _end_now(task, t)
        else:
            task.end = t + round(store.settings.truncate_seconds * 1000)
            store.running[task.id] = None
            heapq.heappush(store.events, (task.end, task.id))
        return None
    if _crashes(group, task):
        task.tiles_total = {"zoom": -1, "order": 0}.get(group.crash, group.tiles_total)
        task.end_state = "RUNNING"
        _end_now(task, t)
        return None
    task.tiles_total = group.tiles_total
    if group.fail_after is not None and task.cap is None:
        task.cap, task.cap_kind = group.fail_after + 1, "fail"
    store.running[task.id] = None
    return group


def _crashes(group: SeedGroup, task: SeedTask) -> bool:
    """Whether the task's request makes it fail as it starts. A bad zoom range fails
    before the first take; an unknown format only when the first metatile is rendered,
    which a task killed before it started never tries."""
    return group.crash is not None and not (group.crash == "format" and task.terminate)


def kill(store: SeedingStore, task: SeedTask) -> None:
    """``terminateNicely``: the task's loop stops at its next take, whose metatile it drops.

    A running seed task first finishes the metatile in hand. A pending one makes that take
    when a pool thread starts it (it is its first), so it still uses up a metatile of the
    shared iterator, in turn with its siblings like any take, and its thread returns in the
    same millisecond. A failure due before the kill stays; a truncate ignores the flag."""
    task.terminate = True
    group = store.groups[task.group]
    if task.finished or group.type == "TRUNCATE":
        return
    n = takes(task, group, store.now)  # 0 while pending
    if not (task.cap_kind == "fail" and task.cap is not None and task.cap <= n):
        task.cap, task.cap_kind = n + 1, "kill"
    if task.start is not None:
        schedule(store, group)
        store.next_event = next_event(store)


def _end_now(task: SeedTask, t: int) -> None:
    """A task whose thread returns as soon as it starts (it never holds a pool thread)."""
    task.end = t
    task.finished = True
    transition(task, END_EVENTS[task.end_state])


def _rule_fails_truncate(store: SeedingStore, group: SeedGroup) -> bool:
    rule = store.settings.failures.get(group.layer)
    return rule is not None and rule.truncate


def _finish(store: SeedingStore, task: SeedTask) -> None:
    """The task's thread returns. (Seed progress reaches the cache model lazily: before a
    truncate of the same key, before a read of the cache, before its group is forgotten.)"""
    group = store.groups[task.group]
    assert task.end is not None
    del store.running[task.id]
    if group.type == "TRUNCATE":
        if task.end_state == "DONE" and group.crash is None:
            for other in store.groups.values():
                if other.cache_key() == group.cache_key():
                    commit(store, other, task.end)
            store.cache.remove(group.cache_key(), requested_levels(group.range))
    elif group.crash is None:
        group.completed += task.completed
        group.consumed += task.consumed
    task.finished = True
    transition(task, END_EVENTS[task.end_state])


def _fill(store: SeedingStore, t: int) -> None:
    touched: dict[int, SeedGroup] = {}
    while store.queue and len(store.running) < store.settings.pool_size:
        group = _start(store, store.tasks[store.queue.popleft()], t)
        if group is not None:
            touched[group.id] = group
    for group in touched.values():
        schedule(store, group)


def _due(store: SeedingStore, task_id: int, t: int) -> bool:
    task = store.tasks.get(task_id)
    return task is not None and task_id in store.running and task.end == t


def next_event(store: SeedingStore) -> int | None:
    """The earliest task end still ahead (stale heap entries are dropped on the way)."""
    while store.events and not _due(store, store.events[0][1], store.events[0][0]):
        heapq.heappop(store.events)
    return store.events[0][0] if store.events else None


def run(store: SeedingStore, until: int | None) -> None:
    """Do all the work up to ``until`` ms (None: until every task has ended)."""
    _fill(store, store.now)
    t = next_event(store)
    while t is not None and (until is None or t <= until):
        ending: set[int] = set()
        while store.events and store.events[0][0] == t:
            _, task_id = heapq.heappop(store.events)
            if _due(store, task_id, t):
                ending.add(task_id)
        for task_id in sorted(ending):
            _finish(store, store.tasks[task_id])
        _fill(store, t)
        t = next_event(store)
    store.next_event = t
    if until is not None:
        store.now = max(store.now, until)


def commit_all(store: SeedingStore) -> None:
    for group in store.groups.values():
        commit(store, group, store.now)
