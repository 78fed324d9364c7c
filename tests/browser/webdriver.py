"""A small W3C WebDriver client for Debian's ``chromium`` and ``chromedriver`` (packages
``chromium`` and ``chromium-driver``), over httpx: no browser automation package is needed.

``Browser.start()`` returns None, with ``Browser.missing`` saying why, when either program
is not installed.
"""

from __future__ import annotations

import base64
import os
import shutil
import socket
import subprocess
import time
from typing import Any

import httpx

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"
CHROMIUM = ("chromium", "chromium-browser", "google-chrome")
INSTALL = "apt-get install chromium chromium-driver"


def _which(names: tuple[str, ...]) -> str | None:
    return next((found for n in names if (found := shutil.which(n))), None)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class WebDriverError(RuntimeError):
    pass


class Browser:
    """One headless Chromium session driven through chromedriver."""

    missing = ""

    def __init__(self, driver: str, binary: str) -> None:
        port = _free_port()
        self.proc = subprocess.Popen(
            [driver, f"--port={port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        self.http = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60)
        deadline = time.monotonic() + 30
        while True:
            try:
                if self.http.get("/status").json()["value"]["ready"]:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or self.proc.poll() is not None:
                self.proc.kill()
                raise WebDriverError("chromedriver did not start")
            time.sleep(0.05)
        args = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
        if os.environ.get("CI"):
            args.append("--disable-extensions")
        value = self._call(
            "POST",
            "/session",
            {
                "capabilities": {
                    "alwaysMatch": {
                        "browserName": "chrome",
                        "goog:chromeOptions": {"binary": binary, "args": args},
                    }
                }
            },
        )
        self.session = f"/session/{value['sessionId']}"

    @classmethod
    def start(cls) -> Browser | None:
        binary, driver = _which(CHROMIUM), _which(("chromedriver",))
        if binary is None or driver is None:
            what = "chromium" if binary is None else "chromedriver"
            cls.missing = f"no {what} on this machine (install it: {INSTALL})"
            return None
        return cls(driver, binary)

    def _call(self, method: str, path: str, body: Any = None) -> Any:
        r = self.http.request(method, path, json=body)
        data = r.json()
        if r.status_code >= 400:
            raise WebDriverError(f"{method} {path}: {data.get('value', data)}")
        return data.get("value")

    def call(self, method: str, path: str, body: Any = None) -> Any:
        return self._call(method, self.session + path, body)

    # -- what the tests use ----------------------------------------------------------------

    def basic_auth(self, user: str, password: str) -> None:
        """Send these credentials with every request the page makes (DevTools protocol)."""
        token = base64.b64encode(f"{user}:{password}".encode()).decode()
        self.call("POST", "/goog/cdp/execute", {"cmd": "Network.enable", "params": {}})
        self.call(
            "POST",
            "/goog/cdp/execute",
            {
                "cmd": "Network.setExtraHTTPHeaders",
                "params": {"headers": {"Authorization": f"Basic {token}"}},
            },
        )

    def get(self, url: str) -> None:
        self.call("POST", "/url", {"url": url})

    def find(self, css: str) -> str:
        return str(self.call("POST", "/element", {"using": "css selector", "value": css})[ELEMENT])

    def find_all(self, css: str) -> list[str]:
        found = self.call("POST", "/elements", {"using": "css selector", "value": css})
        return [str(e[ELEMENT]) for e in found]

    def text(self, css: str) -> str:
        return str(self.call("GET", f"/element/{self.find(css)}/text"))

    def click(self, css: str) -> None:
        self.call("POST", f"/element/{self.find(css)}/click", {})

    def type(self, css: str, text: str) -> None:
        element = self.find(css)
        self.call("POST", f"/element/{element}/clear", {})
        self.call("POST", f"/element/{element}/value", {"text": text})

    def script(self, source: str, *args: Any) -> Any:
        return self.call("POST", "/execute/sync", {"script": source, "args": list(args)})

    def title(self) -> str:
        return str(self.call("GET", "/title"))

    def wait_for(self, source: str, timeout: float = 20.0) -> Any:
        """Poll a script until it returns something truthy."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.script(source)
            if value:
                return value
            if time.monotonic() > deadline:
                raise WebDriverError(f"timed out waiting for: {source}")
            time.sleep(0.05)

    def resize(self, width: int, height: int) -> None:
        """The window's outer size; the page's width (``innerWidth``) is then checked by
        the caller, since window decorations differ."""
        self.call("POST", "/window/rect", {"width": width, "height": height})

    def screenshot(self) -> bytes:
        """The visible part of the page, as PNG."""
        return base64.b64decode(self.call("GET", "/screenshot"))

    def element_screenshot(self, css: str) -> bytes:
        """One element, as PNG."""
        return base64.b64decode(self.call("GET", f"/element/{self.find(css)}/screenshot"))

    def quit(self) -> None:
        try:
            self._call("DELETE", self.session)
        finally:
            self.http.close()
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
