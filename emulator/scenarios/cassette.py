"""Cassettes: recorded HTTP exchanges as JSON Lines (the schema is in ``docs/recording.md``).

The first line is the header (format name, version, the scenario replay starts from, the
context path, how the recording was made); every further line is one exchange: the request
(method, path relative to the context root, raw query, headers, body) and the response
(status, headers, body). Text bodies sit inline as strings; other bodies are side files in
``<name>.files/`` next to the cassette, named by exchange number and direction.
"""

from __future__ import annotations

import itertools
import json
import mimetypes
import os
import re
from pathlib import Path
from typing import IO, Any

from ..core.errors import ScenarioError
from ..core.record import field, record
from .scrub import Scrubber

FORMAT = "geoserver-emulator-cassette"
VERSION = 1
WRITE_METHODS = frozenset({"POST", "PUT", "DELETE", "PATCH"})
PATH_SAFE = "/:@!$&'()*+,;=-._~%"
HOP_BY_HOP = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-connection",
        "transfer-encoding",
        "te",
        "trailer",
        "upgrade",
        "expect",
    }
)
UNRECORDED_REQUEST = HOP_BY_HOP | {"host", "content-length", "accept-encoding"}
UNRECORDED_RESPONSE = HOP_BY_HOP | {"date", "server", "content-length", "content-encoding"}
TEXT_MARKERS = ("xml", "json", "javascript", "css", "x-www-form-urlencoded", "sld", "csv")
SIDE_FILE = re.compile(r"\d{4,}-(request|response)\.[A-Za-z0-9]+")


@record
class RecordedRequest:
    method: str
    path: str
    """relative to the context root and percent-encoded as sent: ``/rest/styles/a%20b.json``"""
    query: str = ""
    """the raw query string, without ``?``"""
    headers: dict[str, str] = field(default_factory=dict)
    """names in lower case"""
    body: bytes = b""

    @property
    def content_type(self) -> str | None:
        return self.headers.get("content-type")

    def target(self) -> str:
        return self.path + (f"?{self.query}" if self.query else "")


@record
class RecordedResponse:
    status: int
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""

    @property
    def content_type(self) -> str | None:
        return self.headers.get("content-type")


@record
class Exchange:
    """One request and the answer it got."""

    number: int
    request: RecordedRequest
    response: RecordedResponse
    elapsed: float = 0.0
    """seconds since the recording started (simulated or wall time, see the header)"""
    line: int = 0
    """the line of the cassette it was read from (0 when not read from a file)"""

    @property
    def is_write(self) -> bool:
        return self.request.method in WRITE_METHODS

    def describe(self) -> str:
        where = f", line {self.line}" if self.line else ""
        return f"exchange {self.number} ({self.request.method} {self.request.target()}{where})"


@record
class Header:
    """The first line of a cassette."""

    scenario: str | dict[str, Any] | None = "stock"
    """where replay starts: a built-in name, a path (relative to the cassette), an inline
    scenario document, or None for a server with nothing at all"""
    context_path: str = "/geoserver"
    source: str = "proxy"
    """``proxy`` (``record``) or ``emulator`` (``serve --record``, ``journal.save``)"""
    timing: str = "wall"
    """``wall``: ``elapsed`` is wall time (replay ignores it); ``simulated``: the emulator's
    clock (replay advances its clock to each exchange's ``elapsed`` before sending it)"""
    profile: str | None = None
    vendor_prefix: str | None = None
    scrubbed: bool = True
    upstream: str | None = None
    """the origin the recorded answers' links point at (``http://recorded.invalid`` once
    scrubbed)"""

    def to_json(self) -> dict[str, Any]:
        return {
            "cassette": FORMAT,
            "version": VERSION,
            "scenario": self.scenario,
            "contextPath": self.context_path,
            "source": self.source,
            "timing": self.timing,
            "profile": self.profile,
            "vendorPrefix": self.vendor_prefix,
            "scrubbed": self.scrubbed,
            "upstream": self.upstream,
        }


@record
class Cassette:
    path: Path
    header: Header
    exchanges: list[Exchange]

    @property
    def base_dir(self) -> Path:
        return self.path.parent


def side_dir(path: Path) -> Path:
    """The folder of a cassette's non-text bodies: ``run.jsonl`` → ``run.files``."""
    return path.with_name(path.stem + ".files")


def is_text(body: bytes, content_type: str | None) -> bool:
    """Whether a body is kept inline: UTF-8 text of a textual (or unstated) media type."""
    if not body:
        return True
    media = (content_type or "").split(";", 1)[0].strip().lower()
    if media and not media.startswith("text/") and not any(m in media for m in TEXT_MARKERS):
        return False
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


# -- writing ------------------------------------------------------------------------------


class CassetteWriter:
    """Writes a cassette as exchanges arrive; it replaces the cassette at ``path`` (and the
    side files it owns) only when the recording ends normally.

    Until then the exchanges go to a partial file beside the target, ``.NAME.PID-N.partial``
    (side files in ``.NAME.PID-N.partial.files/``): each exchange is scrubbed (unless the
    scrubber is off), written and flushed there, so a recording stopped at any point is a
    valid cassette in that file. ``commit()`` (``close()``, or leaving the ``with`` block
    normally) moves it into place; ``discard()`` (leaving the block by an exception) removes
    it, leaving whatever was at ``path`` exactly as it was. Raises ``OSError`` when the
    target's folder cannot be written.
    """

    def __init__(self, path: Path, header: Header, scrubber: Scrubber | None = None) -> None:
        self.path = Path(path)
        self.header = header
        self.header.scrubbed = scrubber.enabled if scrubber is not None else True
        self.scrubber = scrubber if scrubber is not None else Scrubber()
        self.count = 0
        self._file: IO[str] | None = None
        self._made: list[Path] = _make_parents(self.path.parent)
        try:
            self.partial: Path | None = _partial_file(self.path)
        except OSError:
            _remove_made(self._made)
            raise
        self.restart()

    @property
    def done(self) -> bool:
        """Whether the recording has ended (committed or discarded)."""
        return self.partial is None

    def restart(self) -> None:
        """Start the recording over: header only, no side files."""
        self._close_file()
        partial = self._require()
        _remove_side_files(_partial_side(partial))
        self.count = 0
        self._file = partial.open("w", encoding="utf-8", newline="\n")
        header = self.header.to_json()
        if isinstance(self.header.scenario, str) and os.path.isabs(self.header.scenario):
            header["scenario"] = _relative(Path(self.header.scenario), self.path.parent)
        self._line(header)

    def add(
        self, request: RecordedRequest, response: RecordedResponse, elapsed: float = 0.0
    ) -> Exchange:
        """Scrub and append one exchange; returns it as written."""
        self.count += 1
        n = self.count
        s = self.scrubber
        req = RecordedRequest(
            request.method.upper(),
            s.text(request.path),
            s.query(request.query),
            s.headers({k: v for k, v in request.headers.items() if k not in UNRECORDED_REQUEST}),
            _scrub_body(s, request.body, request.content_type),
        )
        res = RecordedResponse(
            response.status,
            s.headers({k: v for k, v in response.headers.items() if k not in UNRECORDED_RESPONSE}),
            _scrub_body(s, response.body, response.content_type),
        )
        exchange = Exchange(n, req, res, round(elapsed, 6))
        self._line(
            {
                "exchange": n,
                "elapsed": exchange.elapsed,
                "request": {
                    "method": req.method,
                    "path": req.path,
                    "query": req.query,
                    "headers": req.headers,
                    **self._body(n, "request", req.body, req.content_type),
                },
                "response": {
                    "status": res.status,
                    "headers": res.headers,
                    **self._body(n, "response", res.body, res.content_type),
                },
            }
        )
        return exchange

    def commit(self) -> Path:
        """End the recording normally: the cassette and its side files replace what was at
        ``path`` (the old side files it owned go). Idempotent; returns ``path``."""
        self._close_file()
        if self.partial is None:
            return self.path
        partial, self.partial = self.partial, None
        final_side, new_side = side_dir(self.path), _partial_side(partial)
        _remove_side_files(final_side)
        if new_side.is_dir():
            final_side.mkdir(exist_ok=True)
            for file in sorted(new_side.iterdir()):
                os.replace(file, final_side / file.name)
            new_side.rmdir()
        os.replace(partial, self.path)
        return self.path

    def discard(self) -> None:
        """End the recording as failed: the partial files go, ``path`` is left as it was
        (folders this writer made go too, when empty). Idempotent."""
        self._close_file()
        if self.partial is None:
            return
        partial, self.partial = self.partial, None
        _remove_side_files(_partial_side(partial))
        partial.unlink(missing_ok=True)
        _remove_made(self._made)

    def close(self) -> None:
        """``commit()``: the recording ended normally."""
        self.commit()

    def __enter__(self) -> CassetteWriter:
        return self

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        if kind is None:
            self.commit()
        else:
            self.discard()

    def _require(self) -> Path:
        if self.partial is None:
            raise RuntimeError(f"the recording to {self.path} has ended")
        return self.partial

    def _close_file(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def _line(self, data: dict[str, Any]) -> None:
        assert self._file is not None, "cassette writer is closed"
        self._file.write(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n")
        self._file.flush()

    def _body(
        self, n: int, direction: str, body: bytes, content_type: str | None
    ) -> dict[str, Any]:
        if is_text(body, content_type):
            return {"body": body.decode("utf-8")}
        media = (content_type or "").split(";", 1)[0].strip().lower()
        ext = (mimetypes.guess_extension(media) or ".bin").lstrip(".") if media else "bin"
        folder = _partial_side(self._require())
        folder.mkdir(exist_ok=True)
        name = f"{n:04d}-{direction}.{ext}"
        (folder / name).write_bytes(body)
        return {"bodyFile": f"{side_dir(self.path).name}/{name}"}


def _partial_file(path: Path) -> Path:
    """A new, empty partial file beside ``path`` (its name not taken before)."""
    for n in itertools.count(1):
        candidate = path.with_name(f".{path.name}.{os.getpid()}-{n}.partial")
        try:
            candidate.open("x").close()
        except FileExistsError:
            continue
        return candidate
    raise AssertionError("unreachable")  # pragma: no cover


def _partial_side(partial: Path) -> Path:
    return partial.with_name(partial.name + ".files")


def _make_parents(folder: Path) -> list[Path]:
    """Make ``folder`` and its missing parents; the ones made, innermost first."""
    missing = []
    for candidate in (folder, *folder.parents):
        if candidate.exists():
            break
        missing.append(candidate)
    folder.mkdir(parents=True, exist_ok=True)
    return missing


def _remove_made(folders: list[Path]) -> None:
    for folder in folders:
        try:
            folder.rmdir()
        except OSError:
            return


def _scrub_body(scrubber: Scrubber, body: bytes, content_type: str | None) -> bytes:
    return scrubber.body(body, content_type) if is_text(body, content_type) else body


def _relative(path: Path, start: Path) -> str:
    try:
        return os.path.relpath(path, start.resolve())
    except ValueError:  # another drive
        return str(path)


def _remove_side_files(folder: Path) -> None:
    """Remove the side files a cassette owns from ``folder`` (nothing else), and the folder
    when that leaves it empty."""
    if not folder.is_dir():
        return
    for file in folder.iterdir():
        if file.is_file() and SIDE_FILE.fullmatch(file.name):
            file.unlink()
    if not any(folder.iterdir()):
        folder.rmdir()


# -- reading ------------------------------------------------------------------------------


def read(path: str | Path) -> Cassette:
    """Read a cassette, or raise ``ScenarioError`` naming the file and line."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise ScenarioError(f"{path}: cannot read: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise ScenarioError(f"{path}: not UTF-8 text") from None
    if not lines:
        raise ScenarioError(f"{path}: empty cassette (no header line)")
    header = _header(_json_line(path, 1, lines[0]), path)
    exchanges = []
    for number, text in enumerate(lines[1:], start=2):
        if text.strip():
            exchanges.append(_exchange(_json_line(path, number, text), path, number))
    return Cassette(path, header, exchanges)


def _json_line(path: Path, number: int, text: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ScenarioError(f"{path}:{number}: not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ScenarioError(f"{path}:{number}: expected a JSON object")
    return data


def _header(data: dict[str, Any], path: Path) -> Header:
    if data.get("cassette") != FORMAT:
        raise ScenarioError(f'{path}:1: not a cassette header (expected "cassette": "{FORMAT}")')
    if data.get("version") != VERSION:
        raise ScenarioError(
            f"{path}:1: cassette version {data.get('version')!r} is not supported "
            f"(expected {VERSION})"
        )
    scenario = data.get("scenario", "stock")
    if scenario is not None and not isinstance(scenario, str | dict):
        raise ScenarioError(f"{path}:1: scenario: expected a name, a path or a scenario document")
    context = data.get("contextPath", "/geoserver")
    timing = data.get("timing", "wall")
    if not isinstance(context, str) or timing not in ("wall", "simulated"):
        raise ScenarioError(f"{path}:1: contextPath must be a string and timing wall or simulated")
    return Header(
        scenario,
        context,
        str(data.get("source", "proxy")),
        timing,
        _opt_str(data, "profile", path),
        _opt_str(data, "vendorPrefix", path),
        bool(data.get("scrubbed", True)),
        _opt_str(data, "upstream", path),
    )


def _opt_str(data: dict[str, Any], key: str, path: Path) -> str | None:
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise ScenarioError(f"{path}:1: {key}: expected a string")
    return value


def _exchange(data: dict[str, Any], path: Path, line: int) -> Exchange:
    where = f"{path}:{line}"
    req, res = data.get("request"), data.get("response")
    if not isinstance(req, dict) or not isinstance(res, dict):
        raise ScenarioError(f"{where}: an exchange needs request and response objects")
    method, target = req.get("method"), req.get("path")
    if not isinstance(method, str) or not isinstance(target, str) or not target.startswith("/"):
        raise ScenarioError(f"{where}: request needs a method and a path starting with /")
    status = res.get("status")
    if not isinstance(status, int) or isinstance(status, bool):
        raise ScenarioError(f"{where}: response needs an integer status")
    number = data.get("exchange", line - 1)
    elapsed = data.get("elapsed", 0.0)
    if not isinstance(number, int) or not isinstance(elapsed, int | float):
        raise ScenarioError(f"{where}: exchange must be an integer and elapsed a number")
    request = RecordedRequest(
        method.upper(),
        target,
        str(req.get("query") or ""),
        _headers(req, where),
        _read_body(req, path, where),
    )
    response = RecordedResponse(status, _headers(res, where), _read_body(res, path, where))
    return Exchange(number, request, response, float(elapsed), line)


def _headers(part: dict[str, Any], where: str) -> dict[str, str]:
    headers = part.get("headers") or {}
    if not isinstance(headers, dict) or not all(isinstance(v, str) for v in headers.values()):
        raise ScenarioError(f"{where}: headers must be an object of strings")
    return {str(k).lower(): v for k, v in headers.items()}


def _read_body(part: dict[str, Any], path: Path, where: str) -> bytes:
    if "bodyFile" in part:
        name = part["bodyFile"]
        file = (path.parent / str(name)).resolve()
        if not isinstance(name, str) or not file.is_relative_to(path.parent.resolve()):
            raise ScenarioError(f"{where}: bodyFile must name a file beside the cassette")
        try:
            return file.read_bytes()
        except OSError as exc:
            raise ScenarioError(f"{where}: bodyFile {name}: {exc.strerror}") from None
    body = part.get("body", "")
    if not isinstance(body, str):
        raise ScenarioError(f"{where}: body must be a string (or use bodyFile)")
    return body.encode("utf-8")
