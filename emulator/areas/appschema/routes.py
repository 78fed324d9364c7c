"""HTTP routes of the app-schema area.

- ``PUT …/datastores/<store>/file.appschema``: upload a mapping file or a ZIP
  (``upload.py``); ``GET`` the same path answers the store's folder as a ZIP.
- ``POST …/appschemastores/<store>[/datastores/<id>]/cleanSchemas|rebuildMongoSchemas``:
  the document-database schema endpoints (``maintenance.py``), 200 with an empty body;
  their 400s carry ``RestException.toString()`` as GeoServer's controller writes them.

The store view itself (``GET …/datastores/<store>.xml``) is the catalog's route.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core.errors import Invalid, NotFound
from ...http import context
from ...http.routing import Route
from ..catalog import web
from . import archive, codec, maintenance, upload

WS = "/rest/workspaces/{workspace}"
Endpoint = Callable[[Request], Awaitable[Response]]


async def mapping_file(request: Request) -> Response:
    """PUT: upload a mapping; GET: the store's files as a ZIP."""
    if request.method == "GET":
        return _download(request)
    emu = context.emulator(request)
    ws, store = request.path_params["workspace"], request.path_params["store"]
    workspace = emu.state.catalog.workspace(ws)
    if workspace is None:
        raise NotFound(f"No such workspace: {ws}")
    body = await context.body(request)
    query = request.query_params
    filename = codec.upload_filename(store, query.get("filename"))
    prefix = upload.folder_of(workspace.name, store) + "/"
    current = {
        p[len(prefix) :]: e.data for p, e in emu.state.datadir.files.items() if p.startswith(prefix)
    }
    staged = upload.stage_upload(
        current, body, is_zip=codec.is_zip(request.headers.get("content-type")), filename=filename
    )
    outcome = upload.apply_upload(
        emu.state,
        workspace.name,
        store,
        staged,
        configure=query.get("configure"),
        decisions=emu.decisions,
        when=web.now(request),
        now=emu.clock.now(),
        charset=query.get("charset"),
    )
    return Response(status_code=outcome.status)


def _download(request: Request) -> Response:
    state = context.emulator(request).state
    ws, store = request.path_params["workspace"], request.path_params["store"]
    info = state.catalog.data_store(ws, store)
    if info is None:
        raise NotFound(f"No such datastore {store}")
    url = info.connection_parameters.get("url", "")
    path = url[len("file:") :] if url.startswith("file:") else ""
    folder = path.rpartition("/")[0] if path and state.datadir.read(path) is not None else path
    files = {
        name: state.datadir.read(f"{folder}/{name}") or b""
        for name, is_dir in (state.datadir.listdir(folder) if folder else [])
        if not is_dir
    }
    if not files:
        raise NotFound(f"No files for datastore {store}")
    headers = {"content-disposition": f"attachment; filename={info.name}.zip"}
    return Response(archive.write_zip(files), headers=headers, media_type="application/zip")


def _schema_endpoint(action: str, one_store: bool) -> Endpoint:
    """An endpoint of the schema controller: path checks, then the action."""

    async def endpoint(request: Request) -> Response:
        emu = context.emulator(request)
        p = request.path_params
        sid = p["storeId"] if one_store else None
        try:
            maintenance.check_path(p["workspace"], p["store"], sid)
            if action == "clean":
                maintenance.clean_schemas(emu.state, p["workspace"], p["store"], sid)
            else:
                q = request.query_params
                ids, max_objects = codec.parse_rebuild_query(q.get("ids"), q.get("max"))
                schema = q.get("schema") if one_store else None
                maintenance.rebuild_schemas(
                    emu.state, p["workspace"], p["store"], sid, ids, max_objects, schema
                )
        except Invalid as exc:
            raise Invalid(codec.rest_exception(emu.vendor, 400, exc.message)) from None
        return Response(status_code=200)

    return endpoint


routes: list[BaseRoute] = [
    Route(WS + "/datastores/{store}/file.appschema", mapping_file, methods=["GET", "PUT"]),
    Route(
        WS + "/appschemastores/{store}/cleanSchemas",
        _schema_endpoint("clean", False),
        methods=["POST"],
    ),
    Route(
        WS + "/appschemastores/{store}/datastores/{storeId}/cleanSchemas",
        _schema_endpoint("clean", True),
        methods=["POST"],
    ),
    Route(
        WS + "/appschemastores/{store}/rebuildMongoSchemas",
        _schema_endpoint("rebuild", False),
        methods=["POST"],
    ),
    Route(
        WS + "/appschemastores/{store}/datastores/{storeId}/rebuildMongoSchemas",
        _schema_endpoint("rebuild", True),
        methods=["POST"],
    ),
]
