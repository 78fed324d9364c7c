"""``geoserver_emulated``: an emulator (and a live server) for a test outside pytest's
fixtures, such as a ``unittest.TestCase`` method.

    class StylesTest(unittest.TestCase):
        @geoserver_emulated(scenario="empty", profile="geoserver")
        def test_upload(self, emulator, url):
            requests.post(f"{url}/rest/workspaces", ...)
            emulator.journal.assert_called("POST", "/rest/workspaces")

The test gets ``emulator`` (a fresh ``Emulator``) and ``url`` (the base URL of a live server
backed by it, on 127.0.0.1 and a free port; ``None`` with ``serve=False``) as keyword
arguments. Decorating a class decorates each of its ``test*`` methods. After the test the
server stops, the emulator is closed, and the test fails if the emulator hit an unexpected
error (a bug of the emulator, answered 500).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any, TypeVar

from .core.clock import DEFAULT_STEP
from .emulator import Emulator
from .scenarios.loader import ScenarioRef

T = TypeVar("T")


def geoserver_emulated(
    scenario: ScenarioRef = "stock",
    *,
    profile: str | None = None,
    clock: str = "manual",
    clock_step: float = DEFAULT_STEP,
    port: int = 0,
    serve: bool = True,
    context_path: str = "/geoserver",
) -> Callable[[T], T]:
    """Decorate a test function (or every ``test*`` method of a class) to run it against a
    fresh emulator; the arguments are ``Emulator``'s, plus ``port`` and ``serve`` for the
    live server."""

    def start(stack: ExitStack) -> tuple[Emulator, str | None]:
        emu = stack.enter_context(
            Emulator(
                scenario,
                profile=profile,
                clock=clock,
                clock_step=clock_step,
                context_path=context_path,
            )
        )
        url = stack.enter_context(emu.serve(port=port)) if serve else None
        return emu, url

    def wrap(test: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(test)
        def run(*args: Any, **kwargs: Any) -> Any:
            with ExitStack() as stack:
                emu, url = start(stack)
                result = test(*args, emulator=emu, url=url, **kwargs)
            if emu.internal_errors:
                raise AssertionError(
                    "the emulator hit unexpected errors (a geoserver-emulator bug):\n"
                    + "\n".join(emu.internal_errors)
                )
            return result

        # a runner inspecting the signature (pytest) must not take emulator/url for fixtures
        signature = inspect.signature(test)
        params = [p for n, p in signature.parameters.items() if n not in ("emulator", "url")]
        run.__signature__ = signature.replace(parameters=params)  # type: ignore[attr-defined]
        return run

    def decorate(target: T) -> T:
        if isinstance(target, type):
            for name, value in list(vars(target).items()):
                if name.startswith("test") and callable(value):
                    setattr(target, name, wrap(value))
            return target
        if not callable(target):
            raise TypeError(
                f"geoserver_emulated decorates a test function or class, not {target!r}"
            )
        return wrap(target)  # type: ignore[return-value]

    return decorate
