"""Hints about how a test uses the emulator, said on the terminal the moment they are made.

A test polling seed status under a frozen manual clock never ends by itself: the hint that
says so must reach the person watching the run while it hangs, not at the teardown it never
reaches. pytest captures the test's output, so the line is written to the terminal with
capture suspended (as pytest's own live logging does, from whichever thread logs); the
warning at teardown still comes too (``-W error`` makes it an error).
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import Any

import pytest

_LOCK = threading.Lock()


def announcer(config: pytest.Config, nodeid: str) -> Callable[[str], None]:
    """A hint listener (``Journal.hint_listeners``) writing ``nodeid``'s hints at once."""

    def say(message: str) -> None:
        line = f"geoserver-emulator: FrozenClockWarning in {nodeid}: {message}"
        reporter: Any = config.pluginmanager.get_plugin("terminalreporter")
        capture: Any = config.pluginmanager.get_plugin("capturemanager")
        with _LOCK:
            if reporter is None:  # an xdist worker: no terminal of its own
                stream = sys.__stderr__
                if stream is not None:
                    stream.write(line + "\n")
                    stream.flush()
                return
            suspended: AbstractContextManager[Any] = (
                capture.global_and_fixture_disabled() if capture is not None else nullcontext()
            )
            with suspended:
                reporter.ensure_newline()
                reporter.write_line(line, yellow=True)

    return say
