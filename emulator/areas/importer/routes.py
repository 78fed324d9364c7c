"""HTTP routes of the importer: imports and their data (``ImportController``,
``ImportDataController``); tasks, layers, targets and transforms are in ``routes_tasks.py``.

Installed only with the ``importer`` extension (``core/extensions.py``); elsewhere
``/rest/imports`` answers 404, as on a stock GeoServer.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core.errors import Invalid, NotFound
from ...http.routing import Route
from . import reader, routes_tasks, service, web
from .model import Data, ImportContext

BASE = "/rest/imports"


async def imports(request: Request) -> Response:
    web.check_accept(request)
    if request.method == "GET":
        w = web.writer(request)
        return web.answer(w.contexts(web.store(request).imports.values(), web.depth(request, 0)))
    if request.method == "DELETE":
        store = web.store(request)
        for key in list(store.imports):
            store.delete(key)
        return web.empty(204)
    body = reader.context(await web.json_body(request, optional=True))
    return _created(request, body, None)


def _created(request: Request, body: reader.ContextBody | None, import_id: int | None) -> Response:
    async_, execute = web_flag(request, "async"), web_flag(request, "exec")
    context = service.create(web.rt(request), body, import_id, async_, execute)
    w = web.writer(request)
    location = w.href(f"/imports/{context.id}")
    doc = {"import": w.context(context, web.depth(request, 1))}
    return web.answer(doc, 201, {"Location": location})


def web_flag(request: Request, name: str) -> bool:
    """A boolean query parameter as Spring reads one (``true``/``false``, any case)."""
    value = request.query_params.get(name)
    if value is None or value == "":
        return False
    if value.strip().lower() in ("true", "on", "yes", "1"):
        return True
    if value.strip().lower() in ("false", "off", "no", "0"):
        return False
    raise Invalid(f"Invalid boolean value for {name}: '{value}'")


async def one_import(request: Request) -> Response:
    web.check_accept(request)
    if request.method == "PUT":
        return _created(request, None, web.number(request, "id"))
    context = web.import_of(request)
    if request.method == "GET":
        doc = {"import": web.writer(request).context(context, web.depth(request, 1))}
        return web.answer(doc)
    if request.method == "DELETE":
        web.store(request).delete(context.id)
        return web.empty(204)
    service.run_import(web.rt(request), context, web_flag(request, "async"))
    return web.empty(204)


def _data(context: ImportContext) -> Data:
    if context.data is None:
        raise NotFound(f"No data for import {context.id}")
    return context.data


def _directory(context: ImportContext) -> Data:
    data = context.data
    if data is None or data.type != "directory":
        raise Invalid("Data is not a directory")
    return data


async def import_data(request: Request) -> Response:
    web.check_accept(request)
    context = web.import_of(request)
    w = web.writer(request)
    if "task" in request.path_params:
        _, task = web.task_of(request)
        if task.data is None:
            raise NotFound(f"No data for task {task.id}")
        return web.answer(w.data(task.data, w.task_path(context, task), web.depth(request, 1)))
    return web.answer(w.data(_data(context), f"/imports/{context.id}", web.depth(request, 1)))


async def data_files(request: Request) -> Response:
    """The files of the import's directory (GeoServer answers the import's even under a
    task's path), one of them, or its removal from the list."""
    web.check_accept(request)
    context = web.import_of(request)
    if "task" in request.path_params:
        web.task_of(request)
    data = _directory(context)
    w = web.writer(request)
    path = f"/imports/{context.id}/data"
    name = request.path_params.get("file")
    if name is None:
        return web.answer(w.directory(data, path, web.depth(request, 1)))
    entry = data.entry(name)
    if entry is None:
        raise NotFound(f"No such file: {name}")
    if request.method == "DELETE":
        data.files.remove(entry)
        return web.empty(204)
    doc = {"type": "file", "format": entry.format, "location": data.place.absolute if data.place
           else "", **w.file_contents(entry, path, web.depth(request, 1))}  # fmt: skip
    return web.answer(doc)


ONE = BASE + "/{id}"
T = ONE + "/tasks/{task}"

routes: list[BaseRoute] = [
    Route(BASE, imports, methods=["GET", "POST", "DELETE"], name="importer.imports"),
    Route(ONE, one_import, methods=["GET", "POST", "PUT", "DELETE"], name="importer.import"),
    Route(ONE + "/data", import_data, methods=["GET"], name="importer.data"),
    Route(ONE + "/data/files", data_files, methods=["GET"], name="importer.files"),
    Route(ONE + "/data/files/{file}", data_files, methods=["GET", "DELETE"], name="importer.file"),
    *routes_tasks.routes,
    Route(T + "/data", import_data, methods=["GET"], name="importer.task_data"),
    Route(T + "/data/files", data_files, methods=["GET"], name="importer.task_files"),
    Route(
        T + "/data/files/{file}", data_files, methods=["GET", "DELETE"], name="importer.task_file"
    ),  # fmt: skip
]
