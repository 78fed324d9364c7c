"""The importer's JSON, as GeoServer's ``ImportJSONWriter`` writes it.

Every object carries an absolute ``href`` built from the request's base URL
(``http://host/geoserver/rest/imports/0/tasks/1``). ``expand`` says how many levels are
written in full (``self`` 1, ``all`` every level, ``none`` 0, a number; anything else the
endpoint's default); each nested object gets one level less. Numbers are written as
json-lib writes a Java double (``12.5``, ``2`` for ``2.0``). Catalog objects (a target
store in full, a target workspace, a style) are written as GeoServer's XStream JSON
persister writes them: the REST representation without links.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..catalog.codec import Links, store_node
from ..catalog.entities import COVERAGE_STORE, BBox, CoverageStore, DataStore, Store
from ..catalog.model import Catalog
from ..catalog.tree import Node, to_json
from ..styles.model import StyleStore
from . import geo, transforms
from .model import Data, FileEntry, ImportContext, ImportTask, LayerPlan, Target

ALL = 2**31 - 1


def expand(raw: str | None, default: int) -> int:
    """``ImportJSONWriter.expand``."""
    if raw is None:
        return default
    text = raw.strip().lower()
    if text == "self":
        return 1
    if text == "all":
        return ALL
    if text == "none":
        return 0
    try:
        return int(raw)
    except ValueError:
        return default


def number(value: float) -> float | int:
    """A double as json-lib writes it: trailing zeros (and the point) shaved."""
    if value == int(value) and abs(value) < 1e7:
        return int(value)
    return value


def unlinked(node: Node) -> Node:
    """A catalog node without its links (what the XStream persister writes)."""
    children = [unlinked(c) for c in node.children if not c.collection_link]
    return Node(node.tag, node.value, children, dict(node.attrs), arrays=node.arrays)


class Writer:
    """Writes importer objects under ``root`` (``http://host/geoserver/rest``)."""

    def __init__(self, root: str, catalog: Catalog, styles: StyleStore, vendor: str) -> None:
        self.root = root.rstrip("/")
        self.catalog = catalog
        self.styles = styles
        self.links = Links(self.root, "json", vendor)

    def href(self, path: str) -> str:
        return f"{self.root}{path}"

    # -- contexts ----------------------------------------------------------------------

    def contexts(self, contexts: Iterable[ImportContext], depth: int) -> dict[str, Any]:
        return {"imports": [self.context(c, depth) for c in contexts]}

    def context(self, c: ImportContext, depth: int) -> dict[str, Any]:
        path = f"/imports/{c.id}"
        out: dict[str, Any] = {"id": c.id, "href": self.href(path), "state": c.state}
        if c.message is not None:
            out["message"] = c.message
        if depth > 0:
            out["archive"] = c.archive
            if c.target_workspace is not None:
                out["targetWorkspace"] = self._workspace(c.target_workspace)
            if c.target_store is not None:
                store = self.catalog.store(*c.target_store)
                if store is not None:
                    out["targetStore"] = self._store_body(store, depth - 1)
            if c.data is not None:
                out["data"] = self.data(c.data, path, depth - 1)
            if c.default_transforms:
                out["transforms"] = [
                    transforms.dump(t, self.href(f"{path}/transforms/{i}"), depth - 1)
                    for i, t in enumerate(c.default_transforms)
                ]
            out["tasks"] = [self.task(c, t, depth - 1) for t in c.tasks]
        return out

    def _workspace(self, name: str) -> dict[str, Any]:
        """The target workspace as the importer writes it (its name: the user manual's
        examples show no other field)."""
        return {"workspace": {"name": name}}

    # -- tasks -------------------------------------------------------------------------

    def tasks(self, c: ImportContext, tasks: Iterable[ImportTask], depth: int) -> dict[str, Any]:
        return {"tasks": [self.task(c, t, depth) for t in tasks]}

    def task_path(self, c: ImportContext, t: ImportTask) -> str:
        return f"/imports/{c.id}/tasks/{t.id}"

    def task(self, c: ImportContext, t: ImportTask, depth: int) -> dict[str, Any]:
        path = self.task_path(c, t)
        href = self.href(path)
        out: dict[str, Any] = {"id": t.id, "href": href, "state": t.state}
        if depth <= 0:
            return out
        out["updateMode"] = t.update_mode
        if t.data is not None:
            out["data"] = self.data(t.data, path, depth - 1)
        if t.target is not None:
            out["target"] = self.target(c, t, depth - 1)
        out["progress"] = href + "/progress"
        if t.layer is not None:
            out["layer"] = self.layer(c, t, depth - 1)
        if t.error is not None:
            out["errorMessage"] = t.error
        out["transformChain"] = self.chain(c, t, depth - 1)
        if t.messages:
            out["messages"] = [{"level": lv, "message": m} for lv, m in t.messages]
        return out

    def chain(self, c: ImportContext, t: ImportTask, depth: int) -> dict[str, Any]:
        base = self.task_path(c, t) + "/transforms/"
        return {
            "type": t.chain,
            "transforms": [
                transforms.dump(x, self.href(f"{base}{i}"), depth)
                for i, x in enumerate(t.transforms)
            ],
        }

    def progress(self, t: ImportTask, running: bool) -> dict[str, Any]:
        """``/progress``: the counts while an indirect import copies features, else the
        state (and the error of a failed task)."""
        if running:
            return {"progress": t.processed, "total": t.total, "state": t.state}
        out: dict[str, Any] = {"state": t.state}
        if t.state == "ERROR" and t.error is not None:
            out["message"] = t.error
        return out

    # -- stores ------------------------------------------------------------------------

    def target(self, c: ImportContext, t: ImportTask, depth: int) -> dict[str, Any]:
        """A task's target: ``href`` and the store (name and type, or in full)."""
        assert t.target is not None
        out: dict[str, Any] = {"href": self.href(self.task_path(c, t) + "/target")}
        out.update(self._store_body(self.store_of(c, t.target), depth))
        return out

    def store_of(self, c: ImportContext, target: Target) -> Store:
        """The store a target names: the catalog's, else the one a direct import will add."""
        name = target.name if target.existing else c.stores.get(target.group)
        found = self.catalog.store(target.workspace, name) if name is not None else None
        if found is not None:
            return found
        if target.kind == COVERAGE_STORE:
            return CoverageStore(
                target.name, target.workspace, type=target.type, url=target.url,
                enabled=target.enabled, description=target.description,
            )  # fmt: skip
        store = DataStore(target.name, target.workspace, type=target.type, enabled=target.enabled)
        store.description = target.description
        store.connection_parameters = dict(sorted(target.params.items()))
        return store

    def _store_body(self, store: Store, depth: int) -> dict[str, Any]:
        kind = store.kind
        if depth > 0:
            return {kind: to_json(unlinked(store_node(store, self.links, "json")))}
        return {kind: {"name": store.name, "type": store.type}}

    # -- layers ------------------------------------------------------------------------

    def layer(self, c: ImportContext, t: ImportTask, depth: int) -> dict[str, Any]:
        assert t.layer is not None
        plan = t.layer
        path = self.task_path(c, t) + "/layer"
        out: dict[str, Any] = {"name": plan.name, "href": self.href(path)}
        if depth <= 0:
            return out
        for key, value in (("title", plan.title), ("abstract", plan.abstract),
                           ("description", plan.description)):  # fmt: skip
            if value is not None:
                out[key] = value
        out["originalName"] = plan.original_name
        out["nativeName"] = plan.native_name
        if plan.srs is not None:
            out["srs"] = plan.srs
        if plan.bbox is not None:
            out["bbox"] = self.bbox(plan.bbox, plan)
        if plan.kind == "featureType":
            out["attributes"] = [{"name": a.name, "binding": a.binding} for a in plan.attributes]
        style = self.style(plan, self.href(path + "/style"), depth - 1)
        if style is not None:
            out["style"] = style
        return out

    def bbox(self, box: BBox, plan: LayerPlan) -> dict[str, Any]:
        out: dict[str, Any] = {
            "minx": number(box.minx), "miny": number(box.miny),
            "maxx": number(box.maxx), "maxy": number(box.maxy),
        }  # fmt: skip
        crs = geo.wkt(box.crs) if box.crs else None
        if crs is None and plan.native_crs and not plan.native_crs.startswith("EPSG:"):
            crs = plan.native_crs
        if crs is not None:
            out["crs"] = crs
        return out

    def style(self, plan: LayerPlan, href: str, depth: int) -> dict[str, Any] | None:
        if plan.generated is not None:
            name, ws, fmt, version = plan.generated.name, None, "sld", "1.0.0"
            filename = f"{name}.sld"
        elif plan.style is not None:
            found = self.styles.get(plan.style.workspace, plan.style.name)
            name, ws = plan.style.name, plan.style.workspace
            fmt = found.format if found is not None else "sld"
            version = (found.version if found is not None else None) or "1.0.0"
            filename = (found.filename if found is not None else None) or f"{name}.sld"
        else:
            return None
        if depth <= 0:
            return {"name": name, "href": href}
        out: dict[str, Any] = {"name": name}
        if ws is not None:
            out["workspace"] = {"name": ws}
        out.update(format=fmt, languageVersion={"version": version}, filename=filename)
        out["href"] = href
        return out

    # -- data --------------------------------------------------------------------------

    def data(self, data: Data, parent: str, depth: int) -> dict[str, Any]:
        """Import data; ``parent`` is the path of its context or task."""
        path = parent + "/data"
        if data.type == "remote":
            out: dict[str, Any] = {"type": "remote", "location": data.location}
            for key in ("username", "password", "domain"):
                value = getattr(data, key)
                if value is not None:
                    out[key] = value
            return out
        if data.type == "directory":
            return self.directory(data, path, depth)
        return self._file(data, path, depth)

    def _location(self, data: Data) -> str:
        return data.place.absolute if data.place is not None else ""

    def _file(self, data: Data, path: str, depth: int) -> dict[str, Any]:
        entry = data.file or FileEntry("")
        out: dict[str, Any] = {"type": "file", "format": entry.format}
        if depth > 0:
            out["location"] = self._location(data)
            if data.charset is not None:
                out["charset"] = data.charset
            out.update(self.file_contents(entry, path, depth))
            if data.message is not None:
                out["message"] = data.message
        else:
            out["file"] = entry.basename
        return out

    def file_contents(self, entry: FileEntry, path: str, depth: int) -> dict[str, Any]:
        out: dict[str, Any] = {
            "file": entry.basename,
            "href": self.href(f"{path}/files/{entry.basename}"),
        }
        if depth > 0 and entry.format is not None:
            out["prj"] = entry.prj.rsplit("/", 1)[-1] if entry.prj else None
            out["other"] = [o.rsplit("/", 1)[-1] for o in entry.other]
        return out

    def directory(self, data: Data, path: str, depth: int) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "directory"}
        if data.format is not None:
            out["format"] = data.format
        out["location"] = self._location(data)
        out["href"] = self.href(path)
        if depth > 0:
            if data.charset is not None:
                out["charset"] = data.charset
            out["files"] = self.files(data, path, depth - 1)
            if data.message is not None:
                out["message"] = data.message
        return out

    def files(self, data: Data, path: str, depth: int) -> list[dict[str, Any]]:
        return [self.file_contents(e, path, depth - 1) for e in data.files]
