"""The headless browser the inspector tests drive (Debian's Chromium through chromedriver),
one per test module, sending the control credentials with every request."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .webdriver import Browser

ADMIN = ("admin", "geoserver")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    found = Browser.start()
    if found is None:
        pytest.skip(f"browser tests need a headless browser: {Browser.missing}")
    found.basic_auth(*ADMIN)
    yield found
    found.quit()
