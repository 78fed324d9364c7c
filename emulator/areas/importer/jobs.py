"""Asynchronous imports on the simulated clock (``async=true``).

GeoServer hands an asynchronous import to a thread pool and answers at once; the emulator
hands it to the simulated clock, the way the seed scheduler runs tile tasks: work is done
only when the clock moves (``POST /__emulator/clock/advance``, a ``step`` clock's requests,
the wall clock with ``--clock realtime``) or the scheduler is drained, never as a side
effect of reading. Each import's job runs on its own (GeoServer's pool runs imports side by
side):

- initialising the import (reading its data into tasks) takes ``INIT_SECONDS``; until then
  the import is ``INIT``;
- its ready tasks then run one after the other, each ``TASK_SECONDS`` plus one second per
  ``FEATURES_PER_SECOND`` features; a task is ``RUNNING`` (its ``progress`` counting the
  features of an indirect import) until its time is up, when it is published (or fails) as
  a synchronous run would publish it.

The jobs live in the state (``ImportStore.jobs``): a reset forgets them with the imports.
"""

from __future__ import annotations

import math

from ..uploads.context import Context
from . import run
from .init import initialise
from .model import ImportContext, ImportStore, ImportTask, Job

INIT_SECONDS = 1.0
TASK_SECONDS = 1.0
FEATURES_PER_SECOND = 1000.0


def duration(task: ImportTask) -> float:
    return TASK_SECONDS + task.total / FEATURES_PER_SECOND


def schedule(
    rt: Context, store: ImportStore, context: ImportContext, *, init: bool, execute: bool
) -> Job:
    """Start a job now: initialise the import (``init``), run its ready tasks
    (``execute``), or both."""
    job = Job(context.id, rt.seconds, init=init, run=execute, task_start=rt.seconds)
    store.jobs.append(job)
    advance(rt, store, rt.seconds)
    return job


def pending(store: ImportStore) -> bool:
    return bool(store.jobs)


def advance(rt: Context, store: ImportStore, now: float) -> None:
    """Do the work simulated time up to ``now`` allows (``math.inf``: all of it)."""
    for job in list(store.jobs):
        if _advance(rt, store, job, now):
            store.jobs.remove(job)


def drain(rt: Context, store: ImportStore) -> None:
    advance(rt, store, math.inf)


def _advance(rt: Context, store: ImportStore, job: Job, now: float) -> bool:
    """Move one job on; True when it is over."""
    context = store.get(job.import_id)
    if context is None:
        return True
    if job.init:
        if now < job.start + INIT_SECONDS:
            return False
        initialise(rt, context)
        job.init, job.start = False, job.start + INIT_SECONDS
        if not job.run or context.state == "INIT_ERROR":
            store.save(context)
            return True
        job.task_start = job.start
    while True:
        if job.task is None:
            task = next((t for t in context.tasks if run.ready(t) and t.id not in job.done), None)
            if task is None:
                store.save(context)
                return True
            job.task, task.state, task.processed = task.id, "RUNNING", 0
            context.state = "RUNNING"
        task_now = context.task(job.task)
        if task_now is None:  # deleted while it ran
            job.task = None
            continue
        end = job.task_start + duration(task_now)
        if now < end:
            elapsed = max(0.0, now - job.task_start - TASK_SECONDS)
            done = int(elapsed * FEATURES_PER_SECOND)
            task_now.processed = min(task_now.total, done)
            return False
        task_now.state = "READY"
        run.run_task(rt, context, task_now)
        job.done.append(task_now.id)
        job.task, job.task_start = None, end


def running_task(context: ImportContext) -> ImportTask | None:
    """The task an asynchronous run is copying features for now (an indirect vector task:
    GeoServer's ``getCurrentlyProcessingTask``)."""
    return next(
        (t for t in context.tasks if t.state == "RUNNING" and not t.direct and t.chain == "vector"),
        None,
    )
