"""``GET …/datastores/{store}/file.{format}``: the files of a data store's folder as a ZIP."""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlette.responses import Response

from ...core.errors import NotFound
from ..appschema.archive import write_zip
from ..mosaics.sources import DATADIR, FileRef, Remote, locate

if TYPE_CHECKING:
    from ...state import State

FILE_PARAMS = ("url", "directory", "database")


def store_folder(state: State, ws: str, name: str) -> str | None:
    """The data-directory folder a data store's file parameter points into, if any."""
    info = state.catalog.data_store(ws, name)
    if info is None:
        raise NotFound(f"No such datastore {name}")
    for key in FILE_PARAMS:
        value = info.connection_parameters.get(key)
        if not value:
            continue
        try:
            ref = locate(str(value))
        except Exception:  # a malformed parameter: no folder, as GeoServer finds none
            return None
        if isinstance(ref, Remote) or not isinstance(ref, FileRef) or ref.tree != DATADIR:
            return None
        if (
            key == "directory"
            or state.datadir.is_dir(ref.path)
            and ref.path not in (state.datadir.files)
        ):
            return ref.path
        return ref.parent.path
    return None


def data_store_zip(state: State, ws: str, name: str) -> Response:
    folder = store_folder(state, ws, name)
    files = {}
    if folder is not None:
        for child, is_dir in state.datadir.listdir(folder):
            if not is_dir:
                files[child] = state.datadir.read(f"{folder}/{child}") or b""
    if not files:
        raise NotFound(f"No files for datastore {name}")
    info = state.catalog.data_store(ws, name)
    assert info is not None
    headers = {"content-disposition": f"attachment; filename={info.name}.zip"}
    return Response(write_zip(files), headers=headers, media_type="application/zip")
