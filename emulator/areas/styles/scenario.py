"""Scenario section ``styles``: style records with their bodies, and other style-folder files.

    "styles": {
      "styles": [{"name": "burg", "filename": "burg.sld", "file": "styles/burg.sld"},
                 {"name": "countries", "workspace": "ne", "filename": "countries.sld",
                  "format": "sld", "languageVersion": "1.0.0", "body": "<StyledLayerDescriptor …"},
                 {"name": "roads_style", "filename": "roads.sld"}],
      "files": [{"path": "styles/burg02.svg", "file": "styles/burg02.svg"},
                {"path": "styles/old.sld.bak", "text": "…"}, {"path": "…", "base64": "…"}]
    }

A style's body is a side file (``file``, relative to the scenario's folder), inline text
(``body``) or ``bodyBase64``; without any, the style has a record and no file (as after the
first step of a two-step creation). ``files`` are other data-directory files (icons,
orphans). The section comes after ``catalog``: workspace styles need their workspace.
"""

from __future__ import annotations

import base64
import binascii
from pathlib import Path
from typing import Any

from ...core.datadir import normalise
from ...core.errors import EmulatorError, ScenarioError
from ...core.state import State
from ...scenarios.context import ScenarioContext
from ...scenarios.fields import Section
from . import files
from .formats import SLD, V10
from .model import Env, Legend, Style

STYLE_KEYS = {
    "name",
    "workspace",
    "filename",
    "format",
    "languageVersion",
    "file",
    "body",
    "bodyBase64",
    "legend",
    "metadata",
    "dateCreated",
    "dateModified",
}
FILE_KEYS = {"path", "file", "text", "base64"}


def apply(state: State, sec: Section, ctx: ScenarioContext) -> None:
    sec.only({"styles", "files"})
    env = Env(state.datadir, state.catalog, state.ids)
    for s in sec.items("styles"):
        s.only(STYLE_KEYS)
        style = Style(
            s.str("name", required=True),
            s.str("workspace"),
            s.str("format", SLD),
            s.str("languageVersion", V10),
            s.str("filename", required=True),
            _legend(s.obj("legend")),
            _metadata(s),
            s.str("dateCreated"),
            s.str("dateModified"),
        )
        data = _content(s, ctx, "file", "body", "bodyBase64")
        try:
            state.styles.add(env, style)
            if data is not None:
                path = files.body_path(style)
                assert path is not None
                state.datadir.write(path, data)
        except EmulatorError as exc:
            raise ScenarioError(f"{s.where}: {exc.message}") from None
    for f in sec.items("files"):
        f.only(FILE_KEYS)
        data = _content(f, ctx, "file", "text", "base64")
        if data is None:
            raise ScenarioError(f"{f.where}: give file, text or base64")
        try:
            state.datadir.write(f.str("path", required=True), data)
        except EmulatorError as exc:
            raise ScenarioError(f"{f.where}.path: {exc.message}") from None


def _legend(sec: Section | None) -> Legend | None:
    if sec is None:
        return None
    sec.only({"width", "height", "format", "onlineResource"})
    return Legend(sec.int("width"), sec.int("height"), sec.str("format"), sec.str("onlineResource"))


def _metadata(sec: Section) -> dict[str, str]:
    values = sec.dict("metadata")
    for key, value in values.items():
        if not isinstance(value, str):
            raise ScenarioError(f"{sec.where}.metadata.{key}: expected a string")
    return dict(values)


def _content(
    sec: Section, ctx: ScenarioContext, file_key: str, text_key: str, b64_key: str
) -> bytes | None:
    """Bytes from a side file, inline text or base64; None when none is given."""
    given = [k for k in (file_key, text_key, b64_key) if sec.has(k)]
    if len(given) > 1:
        raise ScenarioError(f"{sec.where}: give only one of {', '.join(given)}")
    if sec.has(file_key):
        if ctx.base_dir is None:
            raise ScenarioError(f"{sec.where}.{file_key}: side files need a scenario folder")
        path = Path(ctx.base_dir) / str(sec.str(file_key))
        try:
            return path.read_bytes()
        except OSError as exc:
            raise ScenarioError(
                f"{sec.where}.{file_key}: cannot read {path}: {exc.strerror}"
            ) from None
    if sec.has(text_key):
        return str(sec.str(text_key)).encode("utf-8")
    if sec.has(b64_key):
        try:
            return base64.b64decode(sec.str(b64_key), validate=True)
        except binascii.Error:
            raise ScenarioError(f"{sec.where}.{b64_key}: not valid base64") from None
    return None


def dump(state: State, ctx: ScenarioContext) -> dict[str, Any]:
    """Every style with its body inline, and the other files of the style folders."""
    out: list[dict[str, Any]] = []
    owned: set[str] = set()
    for style in state.styles.list_all():
        item: dict[str, Any] = {"name": style.name}
        if style.workspace is not None:
            item["workspace"] = style.workspace
        item.update(
            {"format": style.format, "languageVersion": style.version, "filename": style.filename}
        )
        if style.legend is not None:
            item["legend"] = dict(style.legend.fields())
        for key, value in (
            ("metadata", style.metadata),
            ("dateCreated", style.date_created),
            ("dateModified", style.date_modified),
        ):
            if value:
                item[key] = value
        owned.add(files.record_path(style))
        path = files.body_path(style)
        data = state.datadir.read(path) if path else None
        if data is not None and path is not None:
            owned.add(path)
            item.update(_encoded(data, "body", "bodyBase64"))
        out.append(item)
    extra = [
        {"path": p, **_encoded(state.datadir.files[p].data, "text", "base64")}
        for p in sorted(state.datadir.files)
        if _in_style_folder(p) and p not in owned
    ]
    return {"styles": out, "files": extra}


def _in_style_folder(path: str) -> bool:
    parts = normalise(path).split("/")
    return parts[0] == "styles" or (
        len(parts) > 3 and parts[0] == "workspaces" and parts[2] == "styles"
    )


def _encoded(data: bytes, text_key: str, b64_key: str) -> dict[str, str]:
    try:
        return {text_key: data.decode("utf-8")}
    except UnicodeDecodeError:
        return {b64_key: base64.b64encode(data).decode("ascii")}
