"""HTTP routes of an import's tasks (``ImportTaskController``, ``ImportTransformController``):
tasks made by uploading files, their progress, target store, layer and transforms.

- ``POST …/tasks``: a multipart form of files (a ZIP is unpacked) or a URL-encoded form
  whose ``url`` names a file or folder (``file:`` only); other bodies 415.
- ``PUT …/tasks/<name>``: a file upload named ``<name>``, unless the body is JSON and the
  name a task id: then it updates that task (204).
- A request that adds tasks answers 201 with the task (``Location`` too) or the tasks;
  one that adds none answers 200 with an empty body.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core.errors import Invalid, NotFound, UnsupportedMediaType
from ...http import context
from ...http.routing import Route
from ...wire import json as wjson
from ..mosaics.sources import DATADIR, FileRef
from . import jobs, places, reader, service, transforms, web
from .model import ImportContext, ImportTask, Transform

T = "/rest/imports/{id}/tasks"


async def tasks_root(request: Request) -> Response:
    web.check_accept(request)
    c = web.import_of(request)
    if request.method == "GET":
        return web.answer(web.writer(request).tasks(c, c.tasks, web.depth(request, 0)))
    body = await context.body(request)
    kind = web.media(request)
    rt = web.rt(request)
    if kind == "multipart/form-data":
        folder = service.upload_folder(rt, c)
        for name, data in web.multipart(request, body):
            places.accept(rt, folder, name, data)
        data_ = places.directory(rt, FileRef(DATADIR, folder))
    elif kind == "application/x-www-form-urlencoded":
        url = web.form_url(body)
        if not url.lower().startswith("file:"):
            raise Invalid("Invalid url in request")
        data_ = places.describe(rt, places.locate_local(url))
    else:
        shown = request.headers.get("content-type") or "none"
        raise UnsupportedMediaType(f"Content type '{shown}' not supported")
    return _accepted(request, c, service.accept_data(rt, c, data_))


def _accepted(request: Request, c: ImportContext, added: list[ImportTask]) -> Response:
    if not added:
        return web.empty(200)
    w = web.writer(request)
    if len(added) == 1:
        location = w.href(w.task_path(c, added[0]))
        doc = {"task": w.task(c, added[0], web.depth(request, 1))}
        return web.answer(doc, 201, {"Location": location})
    return web.answer(w.tasks(c, added, web.depth(request, 0)), 201)


async def one_task(request: Request) -> Response:
    web.check_accept(request)
    raw = request.path_params["task"]
    if request.method == "PUT" and not (web.is_json(request) and raw.isdigit()):
        c = web.import_of(request)
        rt = web.rt(request)
        folder = service.upload_folder(rt, c)
        places.accept(rt, folder, raw, await context.body(request))
        data_ = places.directory(rt, FileRef(DATADIR, folder))
        return _accepted(request, c, service.accept_data(rt, c, data_))
    c, task = web.task_of(request)
    if request.method == "GET":
        return web.answer({"task": web.writer(request).task(c, task, web.depth(request, 1))})
    if request.method == "DELETE":
        c.tasks.remove(task)
        web.store(request).save(c)
        return web.empty(204)
    body = reader.task(await web.json_body(request))
    service.update_task(web.rt(request), c, task, body)
    return web.empty(204)


async def progress(request: Request) -> Response:
    web.check_accept(request)
    c, task = web.task_of(request)
    running = jobs.running_task(c)
    shown = running if running is not None else task
    return web.answer(web.writer(request).progress(shown, running is not None))


async def target(request: Request) -> Response:
    web.check_accept(request)
    c, task = web.task_of(request)
    if request.method == "GET":
        if task.target is None:
            raise NotFound("Task has no target store")
        return web.answer(web.writer(request).target(c, task, web.depth(request, 1)))
    doc = reader.parse(await web.json_body(request))
    if not isinstance(doc, dict) or not doc:
        raise NotFound("Task has no target store")
    rt = web.rt(request)
    service.update_target(rt, task, reader.store(doc))
    service.changed(rt, c, task)
    return web.empty(204)


async def layer(request: Request) -> Response:
    web.check_accept(request)
    c, task = web.task_of(request)
    if task.layer is None:
        raise NotFound(f"No layer for task {task.id}")
    w = web.writer(request)
    if request.method == "GET":
        return web.answer({"layer": w.layer(c, task, web.depth(request, 1))})
    doc = reader.parse(await web.json_body(request))
    if not isinstance(doc, dict):
        raise Invalid("A JSON object was expected")
    rt = web.rt(request)
    service.update_layer(rt, task, reader.layer(doc))
    service.changed(rt, c, task)
    return web.answer({"layer": w.layer(c, task, web.depth(request, 1))}, 202)


def _transform(task: ImportTask, raw: str) -> tuple[int, Transform]:
    index = int(raw) if raw.isdigit() else -1
    if not 0 <= index < len(task.transforms):
        raise NotFound("No such transform")
    return index, task.transforms[index]


async def transform_list(request: Request) -> Response:
    web.check_accept(request)
    c, task = web.task_of(request)
    w = web.writer(request)
    if request.method == "GET":
        return web.answer({"transformChain": w.chain(c, task, web.depth(request, 1))})
    task.transforms.append(transforms.read(_json(await web.json_body(request))))
    location = w.href(f"{w.task_path(c, task)}/transforms/{len(task.transforms) - 1}")
    return Response(b"", status_code=201, headers={"Location": location})


def _json(body: bytes) -> object:
    return wjson.loads(body, "transform")


async def one_transform(request: Request) -> Response:
    web.check_accept(request)
    c, task = web.task_of(request)
    index, current = _transform(task, request.path_params["index"])
    w = web.writer(request)
    href = w.href(f"{w.task_path(c, task)}/transforms/{index}")
    if request.method == "DELETE":
        task.transforms.pop(index)
        return web.empty(200)
    if request.method == "PUT":
        current = transforms.update(current, _json(await web.json_body(request)))
        task.transforms[index] = current
    return web.answer(transforms.dump(current, href, web.depth(request, 1)))


routes: list[BaseRoute] = [
    Route(T, tasks_root, methods=["GET", "POST"], name="importer.tasks"),
    Route(T + "/{task}", one_task, methods=["GET", "PUT", "DELETE"], name="importer.task"),
    Route(T + "/{task}/progress", progress, methods=["GET"], name="importer.progress"),
    Route(T + "/{task}/target", target, methods=["GET", "PUT"], name="importer.target"),
    Route(T + "/{task}/layer", layer, methods=["GET", "PUT"], name="importer.layer"),
    Route(
        T + "/{task}/transforms",
        transform_list,
        methods=["GET", "POST"],
        name="importer.transforms",
    ),  # fmt: skip
    Route(
        T + "/{task}/transforms/{index}",
        one_transform,
        methods=["GET", "PUT", "DELETE"],
        name="importer.transform",
    ),  # fmt: skip
]
