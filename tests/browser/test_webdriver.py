"""Without a browser the browser tests skip and say why (the summary shows it: ``-rs``)."""

from __future__ import annotations

from . import webdriver


def test_missing_browser_is_named_with_the_install_command(monkeypatch):
    monkeypatch.setattr(webdriver.shutil, "which", lambda name: None)
    monkeypatch.setattr(webdriver.Browser, "missing", "")
    assert webdriver.Browser.start() is None
    assert webdriver.Browser.missing == (
        "no chromium on this machine (install it: apt-get install chromium chromium-driver)"
    )


def test_missing_driver_is_named(monkeypatch):
    monkeypatch.setattr(
        webdriver.shutil, "which", lambda name: None if name == "chromedriver" else f"/x/{name}"
    )
    monkeypatch.setattr(webdriver.Browser, "missing", "")
    assert webdriver.Browser.start() is None
    assert webdriver.Browser.missing.startswith("no chromedriver on this machine")
