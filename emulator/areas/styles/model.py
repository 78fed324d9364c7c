"""``StyleStore``: the style records, global and per workspace, and their files.

A style is a record (name, workspace, format, language version, file name, legend,
metadata, dates) plus a body file in the data directory (``files.py`` says where). Rules are
GeoServer's ``StyleController`` and catalog rules, with their messages:

- a body upload whose name is taken → 403 ``Style X already exists.``; a record (two-step
  entry, rename, move) whose name is taken → 500 ``Style named 'X' already exists`` (the
  catalog's validation, uncaught in GeoServer);
- the built-in styles (point, line, polygon, raster, generic) cannot be renamed, moved or
  deleted (500, GeoServer's messages);
- a style used by a layer cannot be deleted (403) unless ``recurse``, which sets those layers
  to another of their styles or back to their resource's default style.

Mutations take an ``Env``: the data directory, the catalog (layers refer to styles by
``StyleRef``), the id counters, and the time to stamp.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from ...core.datadir import DataDir
from ...core.errors import Forbidden, Invalid, NotFound, ServerError
from ...core.ids import Ids
from ...core.record import field, record
from ...core.trackeddict import TrackedDict
from ...core.tracking import tracked
from ..catalog.entities import StyleRef
from ..catalog.model import Catalog
from . import files
from .formats import KNOWN_FORMATS, SLD, V10, Handler

DEFAULT_STYLES: Final = ("point", "line", "polygon", "raster", "generic")
"""GeoServer's built-in global styles"""


@record
class Legend:
    """A style's legend graphic: ``onlineResource`` is a file next to the style, or a URL."""

    width: int | None = None
    height: int | None = None
    format: str | None = None
    online_resource: str | None = None

    def fields(self) -> list[tuple[str, int | str]]:
        """(tag, value) in XStream's order, absent values left out."""
        pairs = (
            ("width", self.width),
            ("height", self.height),
            ("format", self.format),
            ("onlineResource", self.online_resource),
        )
        return [(tag, value) for tag, value in pairs if value is not None]


@record
class Style:
    name: str
    workspace: str | None = None
    format: str = SLD
    version: str | None = V10
    filename: str | None = None
    legend: Legend | None = None
    metadata: dict[str, str] = field(default_factory=dict)
    date_created: str | None = None
    date_modified: str | None = None
    id: str | None = None

    @property
    def ref(self) -> StyleRef:
        return StyleRef(self.workspace, self.name)

    @property
    def builtin(self) -> bool:
        return self.workspace is None and self.name in DEFAULT_STYLES


class _Unset:
    def __repr__(self) -> str:
        return "UNSET"


UNSET: Final = _Unset()


@record
class StyleChanges:
    """What a record PUT sets; None (or ``UNSET`` for the workspace) leaves a field alone.
    ``workspace=None`` makes the style global."""

    name: str | None = None
    filename: str | None = None
    format: str | None = None
    version: str | None = None
    legend: Legend | None = None
    metadata: dict[str, str] | None = None
    workspace: str | None | _Unset = UNSET


@record
class Env:
    """What a mutation needs besides the store."""

    datadir: DataDir
    catalog: Catalog
    ids: Ids
    when: str | None = None
    """the time to stamp, in GeoServer's catalog date format"""
    now: float = 0.0
    """seconds since start, for file modification times"""
    icons: Callable[[bytes], list[str]] = lambda data: []
    """the relative icon file names a body refers to (``sld.icons``; lxml stays out of here)"""


@record(frozen=True)
class Body:
    """A style body that passed its format's checks, ready to be written."""

    data: bytes
    handler: Handler
    named_layers: tuple[str, ...] = ()
    """NamedLayer names, checked against the catalog when there is more than one layer"""
    layer_count: int = 1


Key = tuple[str | None, str]


@tracked
class StyleStore:
    def __init__(self) -> None:
        self.styles: dict[Key, Style] = TrackedDict()

    # -- lookups ------------------------------------------------------------------------

    def get(self, workspace: str | None, name: str) -> Style | None:
        return self.styles.get((workspace, name))

    def find(self, name: str, workspace: str | None = None) -> Style | None:
        """GeoServer's ``getStyleByName``: ``ws:name``; else in ``workspace``, then global, then
        the first workspace holding one of that name."""
        if ":" in name and workspace is None:
            ws, _, local = name.partition(":")
            found = self.get(ws, local)
            if found is not None:
                return found
        for key in ((workspace, name), (None, name)):
            if key in self.styles:
                return self.styles[key]
        return next((s for s in self.list_all() if s.name == name), None)

    def list_styles(self, workspace: str | None) -> list[Style]:
        """Styles of one workspace (None: the global ones), sorted by name."""
        return sorted(
            (s for s in self.styles.values() if s.workspace == workspace), key=lambda s: s.name
        )

    def list_all(self) -> list[Style]:
        return sorted(self.styles.values(), key=lambda s: (s.workspace or "", s.name))

    def body(self, datadir: DataDir, style: Style) -> bytes | None:
        path = files.body_path(style)
        return None if path is None else datadir.read(path)

    # -- creation ------------------------------------------------------------------------

    def add(self, env: Env, style: Style) -> Style:
        """Add a record (the two-step method's first step; no file is written)."""
        style.workspace = _workspace_name(env, style.workspace)
        _check_record(env, style)
        if (style.workspace, style.name) in self.styles:
            raise ServerError(_taken(style.name, style.workspace))
        style.id = style.id or env.ids.catalog_id("StyleInfoImpl")
        style.date_created = style.date_created or env.when
        self.styles[(style.workspace, style.name)] = style
        self._persist(env, style)
        return style

    def create(self, env: Env, workspace: str | None, name: str, body: Body) -> Style:
        """One-step creation from a body: the record is ``name.<ext>`` in the body's format."""
        if (workspace, name) in self.styles:
            raise Forbidden(f"Style {name} already exists.")
        style = Style(
            name,
            workspace,
            body.handler.format,
            body.handler.version,
            f"{name}.{body.handler.extension}",
        )
        _check_record(env, style)
        path = files.body_path(style)
        assert path is not None
        if env.datadir.exists(path):
            raise Forbidden(f"Style resource {style.filename} already exists.")
        check_layers(env.catalog, body)
        env.datadir.write(path, body.data, env.now)
        return self.add(env, style)

    def save_files(self, env: Env, workspace: str | None, found: dict[str, bytes]) -> None:
        """Write a package's icons into the style folder (existing ones are replaced)."""
        folder = files.style_dir(workspace)
        for name, data in found.items():
            env.datadir.write(f"{folder}/{name}", data, env.now)

    # -- bodies ---------------------------------------------------------------------------

    def write(self, env: Env, workspace: str | None, name: str, body: Body) -> Style:
        """Replace a style's body; its record takes the body's format and version."""
        style = self._require(workspace, name)
        check_layers(env.catalog, body)
        style.format, style.version = body.handler.format, body.handler.version
        self._write_body(env, style, body.data)
        return style

    def write_raw(
        self, env: Env, workspace: str | None, name: str, data: bytes, version: str | None
    ) -> Style:
        """Store bytes as given; a version read from them (if any) is recorded."""
        style = self._require(workspace, name)
        if version is not None:
            style.version = version
        self._write_body(env, style, data)
        return style

    def _write_body(self, env: Env, style: Style, data: bytes) -> None:
        if not style.filename:
            style.filename = f"{style.name}.{'css' if style.format == 'css' else 'sld'}"
        path = files.body_path(style)
        assert path is not None
        env.datadir.write(path, data, env.now)
        style.date_modified = env.when
        self._persist(env, style)

    # -- record updates ---------------------------------------------------------------------

    def update(self, env: Env, workspace: str | None, name: str, changes: StyleChanges) -> Style:
        """Apply a record PUT: the non-None fields, then a rename, then a move."""
        style = self._require(workspace, name)
        new_name = style.name if changes.name is None else changes.name
        new_ws = style.workspace if changes.workspace is UNSET else changes.workspace
        assert not isinstance(new_ws, _Unset)
        new_ws = _workspace_name(env, new_ws)
        self._check_update(env, style, new_name, new_ws, changes)
        old_ref, old_record = style.ref, files.record_path(style)
        for attr in ("filename", "format", "version", "legend", "metadata"):
            value = getattr(changes, attr)
            if value is not None:
                setattr(style, attr, value)
        if new_name != style.name:
            self._rename_file(env, style, new_name)
        if new_ws != style.workspace:
            self._move_files(env, style, new_ws)
        del self.styles[(old_ref.workspace, old_ref.name)]
        style.name, style.workspace = new_name, new_ws
        self.styles[(style.workspace, style.name)] = style
        env.datadir.delete(old_record)
        style.date_modified = env.when
        self._persist(env, style)
        if style.ref != old_ref:
            env.catalog.rename_style_references(old_ref, style.ref)
        return style

    def _check_update(
        self, env: Env, style: Style, new_name: str, new_ws: str | None, changes: StyleChanges
    ) -> None:
        if not new_name.strip():
            raise Invalid("Style name must not be null")
        if changes.filename is not None:
            if not changes.filename.strip():
                raise Invalid("Style fileName must not be null")
            _check_filename(changes.filename)
        if changes.format is not None and changes.format not in KNOWN_FORMATS:
            raise Invalid(f"Unknown style format: {changes.format}")
        _check_name(new_name)
        if new_ws is not None and env.catalog.workspace(new_ws) is None:
            raise ServerError(f"No such workspace: '{new_ws}'")
        target = (new_ws, new_name)
        if target != (style.workspace, style.name) and target in self.styles:
            raise ServerError(_taken(new_name, new_ws))
        if style.builtin and new_name != style.name:
            raise ServerError("Cannot rename default styles")
        if style.builtin and new_ws is not None:
            raise ServerError("Cannot change the workspace of default styles")

    def _rename_file(self, env: Env, style: Style, new_name: str) -> None:
        """GeoServer renames the body to ``<new name>.<ext>`` (or ``<new name>1.<ext>``…)."""
        folder = files.style_dir(style.workspace)
        current = files.body_path(style)
        ext = "css" if style.format == "css" else "sld"
        style.filename = files.unique_name(env.datadir, folder, new_name, ext, current)
        if current is not None:
            files.move(env.datadir, current, f"{folder}/{style.filename}", env.now)

    def _move_files(self, env: Env, style: Style, new_ws: str | None) -> None:
        """The body moves to the new folder; icons it uses are copied (others may share them)."""
        source = files.body_path(style)
        if source is None:
            return
        target_dir = files.style_dir(new_ws)
        data = env.datadir.read(source)
        if data is not None:
            for icon in env.icons(data):
                icon_data = env.datadir.read(files.sibling(source, icon))
                if icon_data is not None:
                    env.datadir.write(f"{target_dir}/{icon}", icon_data, env.now)
        files.move(env.datadir, source, f"{target_dir}/{style.filename}", env.now)

    # -- deletion ------------------------------------------------------------------------

    def delete(
        self,
        env: Env,
        workspace: str | None,
        name: str,
        *,
        recurse: bool = False,
        purge: bool = False,
    ) -> Style:
        """Remove a style. Its body is deleted with ``purge``, else kept as ``.bak``."""
        style = self.get(workspace, name)
        if style is None:
            raise NotFound(f"Style {name} not found")
        layers = env.catalog.layers_using_style(style.ref)
        if not recurse and layers:
            raise Forbidden("Can't delete style referenced by existing layers.")
        if not recurse:
            for group in env.catalog.groups_using_style(style.ref):
                raise ServerError(
                    f"Unable to delete style referenced by layer group '{group.name}'"
                )
        if style.builtin:
            raise ServerError("Unable to delete a default style")
        if recurse:
            env.catalog.remove_style_references(style.ref)
        del self.styles[(style.workspace, style.name)]
        env.datadir.delete(files.record_path(style))
        path = files.body_path(style)
        if path is not None and env.datadir.read(path) is not None:
            if purge:
                env.datadir.delete(path)
            else:
                files.backup(env.datadir, path, env.now)
        return style

    # -- workspace hooks (for the catalog's workspace rename and recursive delete) ---------

    def drop_workspace(self, workspace: str) -> list[Style]:
        """Forget every style of a workspace (its folder goes with the workspace's)."""
        gone = self.list_styles(workspace)
        for style in gone:
            del self.styles[(workspace, style.name)]
        return gone

    def rename_workspace(self, old: str, new: str) -> None:
        """Re-key the styles of a renamed workspace (its folder moves with the workspace's)."""
        for style in self.list_styles(old):
            del self.styles[(old, style.name)]
            style.workspace = new
            self.styles[(new, style.name)] = style

    # -- helpers ----------------------------------------------------------------------------

    def _require(self, workspace: str | None, name: str) -> Style:
        style = self.get(workspace, name)
        if style is None:
            raise NotFound(not_found_message(workspace, name))
        return style

    def _persist(self, env: Env, style: Style) -> None:
        env.datadir.write(files.record_path(style), files.record_xml(style), env.now)


def not_found_message(workspace: str | None, name: str) -> str:
    if workspace is None:
        return f"No such style: {name}"
    return f"No such style {name} in workspace {workspace}"


def check_layers(catalog: Catalog, body: Body) -> None:
    """A body with several styled layers is a style group: each NamedLayer must name a layer
    or layer group of the catalog (GeoServer's ``SLDNamedLayerValidator``)."""
    if body.layer_count <= 1:
        return
    for name in body.named_layers:
        if catalog.find_layer(name) is None and catalog.find_layer_group(name) is None:
            raise Invalid(
                f"Invalid style:No layer or layer group named '{name}' found in the catalog"
            )


def _check_name(name: str) -> None:
    if "/" in name or "\\" in name or name in (".", ".."):
        raise Invalid(f"Invalid style name '{name}': a name cannot contain '/'")


def _check_record(env: Env, style: Style) -> None:
    if not style.name or not style.name.strip():
        raise Invalid("Style name must not be null")
    if not style.filename or not style.filename.strip():
        raise Invalid("Style fileName must not be null")
    _check_name(style.name)
    if style.format not in KNOWN_FORMATS:
        raise Invalid(f"Unknown style format: {style.format}")
    if style.workspace is not None and env.catalog.workspace(style.workspace) is None:
        raise ServerError(f"No such workspace: '{style.workspace}'")
    _check_filename(style.filename)


def _check_filename(filename: str) -> None:
    parts = filename.replace("\\", "/").split("/")
    if filename.startswith(("/", "\\")) or ".." in parts:
        raise Invalid(f"Invalid style file name '{filename}': it must stay in the style folder")


def _workspace_name(env: Env, workspace: str | None) -> str | None:
    """The real name of a workspace (``default`` names the default one); unknown names stay."""
    if workspace is None:
        return None
    found = env.catalog.workspace(workspace)
    return workspace if found is None else found.name


def _taken(name: str, workspace: str | None) -> str:
    where = f" in workspace {workspace}" if workspace is not None else ""
    return f"Style named '{name}' already exists{where}"
