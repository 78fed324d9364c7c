"""``/rest/resource/<path>``: the emulated data directory (ResourceController).

GET a file: its bytes, with ``Resource-Type``, ``Resource-Parent``, ``Location``,
``Last-Modified`` and ``Content-Disposition``. GET a directory: a ``ResourceDirectory``
listing in ``?format=xml|json|html`` (HTML by default; the path extension is part of the
file name here, not a format). ``?operation=metadata`` describes a file or directory. PUT
writes a file (201 new, 200 replaced) or, with ``?operation=copy|move``, copies or moves the
file the body names; DELETE removes a file or a directory tree.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from email.utils import format_datetime
from typing import Any
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core.datadir import DataDir, normalise
from ...core.errors import MethodNotAllowed, NotFound, ServerError
from ...http import context
from ...http.routing import Route
from ...wire import json as wjson
from ...wire import xml as wxml
from ...wire.geoserver.dates import resource_timestamp
from ...wire.geoserver.html import esc
from ...wire.geoserver.html import page as html_page
from . import web

TYPES = {
    "xml": "application/xml",
    "sld": "application/xml",
    "json": "application/json",
    "png": "image/png",
    "jpg": "image/jpeg",
    "jpeg": "image/jpeg",
    "gif": "image/gif",
    "tif": "image/tiff",
    "tiff": "image/tiff",
    "txt": "text/plain",
    "properties": "text/plain",
    "css": "text/css",
    "html": "text/html",
    "htm": "text/html",
    "js": "text/javascript",
    "zip": "application/zip",
    "pdf": "application/pdf",
}
BLOCKED = ("text/html", "text/javascript")
FORMATS = {"xml": "application/xml", "json": "application/json"}


def media_type(name: str, data: bytes) -> str:
    """As Java's ``URLConnection`` guesses: by name, then by the first bytes."""
    ext = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    if ext in TYPES:
        return TYPES[ext]
    head = data[:16].lstrip()
    if head.startswith(b"\x89PNG"):
        return "image/png"
    if head.startswith(b"<"):
        return "application/xml"
    return "application/octet-stream"


def _modified(request: Request, seconds: float) -> datetime:
    clock = context.emulator(request).clock
    return clock.datetime() - timedelta(seconds=max(0.0, clock.now() - seconds))


def _stamp(dt: datetime) -> str:
    """``yyyy-MM-dd HH:mm:ss.S z`` (milliseconds unpadded, as SimpleDateFormat writes S)."""
    return resource_timestamp(dt)


def _last_modified(dd: DataDir, path: str) -> float:
    if path in dd.files:
        return dd.files[path].modified
    prefix = path + "/" if path else ""
    times = [e.modified for p, e in dd.files.items() if p.startswith(prefix)]
    return max(times, default=0.0)


def _href(request: Request, path: str) -> str:
    return context.rest_url(request, "resource/") + quote(path, safe="/")


def _parent(path: str) -> str:
    return path.rpartition("/")[0]


async def resource(request: Request) -> Response:
    dd = web.state(request).datadir
    path = normalise(request.path_params.get("path", ""))
    if request.method == "DELETE":
        if not dd.exists(path) or not path:
            raise NotFound(f"Resource '{path}' not found")
        dd.delete(path)
        return Response(status_code=200)
    if request.method == "PUT":
        return await _put(request, dd, path)
    fmt = (request.query_params.get("format") or "html").lower()
    operation = (request.query_params.get("operation") or "default").lower()
    if operation not in ("default", "metadata", "move", "copy"):
        raise ServerError(f"Unknown operation '{operation.upper()}' requested")
    if not dd.exists(path):
        raise NotFound("Undefined resource path.")
    is_dir = dd.is_dir(path) and path not in dd.files
    doc = _describe(request, dd, path, is_dir, fmt, listing=is_dir and operation != "metadata")
    headers = {
        "Location": _href(request, path),
        "Resource-Type": "directory" if is_dir else "resource",
        "Last-Modified": format_datetime(_modified(request, _last_modified(dd, path)), usegmt=True),
    }
    if path:
        headers["Resource-Parent"] = _href(request, _parent(path))
    if operation == "metadata" or is_dir:
        body, mtype = _render(doc, fmt)
    else:
        body = dd.read(path) or b""
        mtype = media_type(path.rsplit("/", 1)[-1], body)
        mtype = "text/plain" if mtype in BLOCKED else mtype
        headers["Content-Disposition"] = f'attachment; filename="{path.rsplit("/", 1)[-1]}"'
    if request.method == "HEAD":
        body = b""
    return Response(body, headers=headers, media_type=mtype)


async def _put(request: Request, dd: DataDir, path: str) -> Response:
    operation = (request.query_params.get("operation") or "default").lower()
    if dd.is_dir(path) and path not in dd.files:
        raise MethodNotAllowed("Attempting to write data to a directory.")
    if operation == "metadata":
        raise MethodNotAllowed("Attempting to write data to metadata.")
    is_new = not dd.exists(path)
    data = await context.body(request)
    now = context.emulator(request).clock.now()
    if operation in ("copy", "move"):
        source = normalise(data.decode("utf-8", "replace").strip())
        if not dd.exists(source):
            raise NotFound(f"Unable to locate '{source}'.")
        if operation == "copy":
            if source not in dd.files:
                raise MethodNotAllowed("Cannot copy directory.")
            dd.write(path, dd.files[source].data, now)
        else:
            _move(dd, source, path)
    elif operation == "default":
        dd.write(path, data, now)
    else:
        raise ServerError(f"Unknown operation '{operation.upper()}' requested")
    return Response(status_code=201 if is_new else 200)


def _move(dd: DataDir, source: str, target: str) -> None:
    if source in dd.files:
        dd.files[target] = dd.files.pop(source)
        return
    prefix = source + "/"
    for p in [p for p in dd.files if p.startswith(prefix)]:
        dd.files[target + "/" + p[len(prefix) :]] = dd.files.pop(p)
    for d in [d for d in dd.dirs if d == source or d.startswith(prefix)]:
        dd.dirs.discard(d)
        dd.dirs.add(target + d[len(source) :])


def _describe(
    request: Request, dd: DataDir, path: str, is_dir: bool, fmt: str, listing: bool
) -> dict[str, Any]:
    link_type = FORMATS.get(fmt, "text/html")
    doc: dict[str, Any] = {
        "root": "ResourceDirectory" if listing else "ResourceMetadata",
        "name": path.rsplit("/", 1)[-1],
    }
    if path:
        doc["parent"] = {
            "path": _parent(path),
            "href": _href(request, _parent(path)),
            "type": link_type,
        }
    doc["lastModified"] = _modified(request, _last_modified(dd, path))
    if not listing:
        doc["type"] = "directory" if is_dir else "resource"
        return doc
    children = []
    for name, child_is_dir in dd.listdir(path):
        child = f"{path}/{name}" if path else name
        ctype = link_type if child_is_dir else media_type(name, dd.read(child) or b"")
        children.append({"name": name, "href": _href(request, child), "type": ctype})
    doc["children"] = children
    return doc


def _render(doc: dict[str, Any], fmt: str) -> tuple[bytes, str]:
    if fmt == "json":
        return wjson.dumps({doc["root"]: _json(doc)}), "application/json"
    if fmt == "xml":
        root = wxml.element(doc["root"])
        wxml.sub(root, "name", doc["name"])
        if "parent" in doc:
            parent = wxml.sub(root, "parent")
            wxml.sub(parent, "path", doc["parent"]["path"])
            wxml.atom_link(parent, doc["parent"]["href"], doc["parent"]["type"])
        wxml.sub(root, "lastModified", _stamp(doc["lastModified"]))
        if doc.get("type"):
            wxml.sub(root, "type", doc["type"])
        if doc.get("children"):
            kids = wxml.sub(root, "children")
            for c in doc["children"]:
                el = wxml.sub(kids, "child")
                wxml.sub(el, "name", c["name"])
                wxml.atom_link(el, c["href"], c["type"])
        return wxml.dump(root), "application/xml"
    return _html(doc).encode("utf-8"), "text/html"


def _json(doc: dict[str, Any]) -> dict[str, Any]:
    def link(d: dict[str, str]) -> dict[str, str]:
        return {"href": d["href"], "rel": "alternate", "type": d["type"]}

    out: dict[str, Any] = {"name": doc["name"]}
    if "parent" in doc:
        out["parent"] = {"path": doc["parent"]["path"], "link": link(doc["parent"])}
    out["lastModified"] = _stamp(doc["lastModified"])
    if doc.get("type"):
        out["type"] = doc["type"]
    if doc.get("children"):
        out["children"] = {"child": [{"name": c["name"], "link": link(c)} for c in doc["children"]]}
    return out


def _html(doc: dict[str, Any]) -> str:
    items = [f"<li>Name: '{esc(doc['name'])}'</li>"]
    parent = doc.get("parent")
    items.append(
        f'<li>Parent: <a href="{esc(parent["href"])}">{esc(parent["path"])}</a></li>'
        if parent
        else "<li>Parent: </li>"
    )
    if doc.get("type"):
        items.append(f"<li>Type: {esc(doc['type'])}</li>")
    items.append(
        f"<li>Last modified: {doc['lastModified'].strftime('%a %b %d %H:%M:%S UTC %Y')}</li>"
    )
    if doc.get("children"):
        kids = "".join(
            f'<li><a href="{esc(c["href"])}">{esc(c["name"])}</a></li>' for c in doc["children"]
        )
        items.append(f"<li>Children: <ul>{kids}</ul></li>")
    page = "".join(items)
    return html_page(f"<ul>{page}</ul>", title="GeoServer Resource")


routes: list[BaseRoute] = [
    Route("/rest/resource", resource, methods=["GET", "HEAD", "PUT", "DELETE"]),
    Route("/rest/resource/{path:path}", resource, methods=["GET", "HEAD", "PUT", "DELETE"]),
]
