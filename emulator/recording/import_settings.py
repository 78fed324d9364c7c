"""The ``serverSettings`` section of an imported scenario: global settings, logging, the OWS
services, what each workspace has of its own, fonts, and the global and workspace
Freemarker templates, read through GeoServer's REST API (XML, parsed by the settings codec).

A field the emulator does not know (a newer GeoServer's) is left out with a note; a
workspace without settings or a service of its own is skipped (its GET answers blank
settings or 404).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..areas.settings import codec, schema
from ..core.errors import Invalid
from .import_values import names, seg

if TYPE_CHECKING:
    from .importer import Context


def read_server_settings(ctx: Context) -> dict[str, Any] | None:
    r = ctx.reader
    out: dict[str, Any] = {}
    found = _read(ctx, "/rest/settings.xml", "global", schema.GLOBAL)
    if found is None:
        return None
    out["global"] = found[0]
    logging = _read(ctx, "/rest/logging.xml", "logging", schema.LOGGING)
    if logging is not None:
        out["logging"] = logging[0]
    services: dict[str, Any] = {}
    for kind, table in schema.SERVICES.items():
        service = _read(ctx, f"/rest/services/{kind}/settings.xml", kind, table)
        if service is not None:
            services[kind] = service[0]
    out["services"] = services
    workspaces = names(r.json("/rest/workspaces.json"), "workspaces", "workspace")
    own: dict[str, dict[str, Any]] = {}
    templates = _templates(ctx, "/rest/templates", "templates")
    for ws in workspaces:
        mine: dict[str, Any] = {}
        settings = _read(
            ctx, f"/rest/workspaces/{seg(ws)}/settings.xml", "settings", schema.SETTINGS
        )
        if settings is not None and settings[1] is not None:
            mine["settings"] = settings[0]
        for kind, table in schema.SERVICES.items():
            path = f"/rest/services/{kind}/workspaces/{seg(ws)}/settings.xml"
            service = _read(ctx, path, kind, table)
            if service is not None:
                mine[kind] = service[0]
        if mine:
            own[ws] = mine
        templates.update(_workspace_templates(ctx, ws))
    out["workspaces"] = own
    fonts = r.json("/rest/fonts.json")
    if isinstance(fonts, dict) and isinstance(fonts.get("fonts"), list):
        out["fonts"] = [f for f in fonts["fonts"] if isinstance(f, str)]
    out["templates"] = templates
    return out


def _read(
    ctx: Context, path: str, root: str, table: schema.Table
) -> tuple[dict[str, Any], str | None] | None:
    r = ctx.reader
    raw = r.get(path, "application/xml")
    if raw is None:
        return None
    unknown: list[str] = []
    try:
        patch, workspace = codec.parse(raw, "xml", root, table, unknown)
    except Invalid as exc:
        r.notes.append(f"GET {path}: {exc.message}, left out")
        return None
    for name in unknown:
        r.notes.append(f"GET {path}: {name} is not emulated, left out")
    return patch, workspace


STORE_KINDS = (
    ("datastores", "dataStores", "dataStore", "featuretypes", "featureTypes", "featureType"),
    ("coveragestores", "coverageStores", "coverageStore", "coverages", "coverages", "coverage"),
)
"""(path, list key, item key, resources path, list key, item key) of each store kind whose
stores and resources have templates of their own"""


def _workspace_templates(ctx: Context, ws: str) -> dict[str, Any]:
    """The templates of a workspace, of its data and coverage stores and of their feature
    types and coverages (folders ``workspaces/<ws>[/<store>[/<resource>]]``)."""
    r = ctx.reader
    base = f"/rest/workspaces/{seg(ws)}"
    out = _templates(ctx, f"{base}/templates", f"workspaces/{ws}")
    for path, outer, inner, res_path, res_outer, res_inner in STORE_KINDS:
        for store in names(r.json(f"{base}/{path}.json"), outer, inner):
            at = f"{base}/{path}/{seg(store)}"
            out.update(_templates(ctx, f"{at}/templates", f"workspaces/{ws}/{store}"))
            for res in names(r.json(f"{at}/{res_path}.json"), res_outer, res_inner):
                folder = f"workspaces/{ws}/{store}/{res}"
                out.update(_templates(ctx, f"{at}/{res_path}/{seg(res)}/templates", folder))
    return out


def _templates(ctx: Context, listing: str, folder: str) -> dict[str, Any]:
    r = ctx.reader
    found = r.json(listing + ".json")
    out: dict[str, Any] = {}
    for name in names(found, "templates", "template"):
        if not name.endswith(".ftl"):
            continue
        body = r.get(f"{listing}/{seg(name)}", "*/*")
        if body is None:
            continue
        try:
            out[f"{folder}/{name}"] = body.decode("utf-8")
        except UnicodeDecodeError:
            import base64

            out[f"{folder}/{name}"] = {"base64": base64.b64encode(body).decode("ascii")}
    return out
