"""The inspector (``GET /__emulator/``) and the landing page at the context root.

Server-rendered HTML, one self-contained page: the styles and scripts are inline, and the
only other requests it makes go to this server (it works offline): the control plane for
its buttons and its live updates (``live.py``), and the emulated WMS for its map previews
and legends (``pictures.py``), which are never journaled (``http/own.py``). What it shows
comes from the scenario document of the current state (``dump_scenario()``: the same shapes
as a scenario file), the seed scheduler, the journal (``journal_view.py``), the faults and
the route table. Reading it changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from html import escape
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Mount

from ..http.context import emulator
from . import filters, journal_view, live, pictures, security_view

if TYPE_CHECKING:
    from ..emulator import Emulator

JOURNAL_SHOWN = journal_view.JOURNAL_SHOWN

STYLE = """
body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#1b1b1b;background:#fafafa}
header{background:#234;color:#fff;padding:.6em 1.2em}header h1{margin:0;font-size:1.3em}
header a{color:#cde}nav a{margin-right:1em}main{padding:0 1.2em 2em}
section{background:#fff;border:1px solid #ddd;border-radius:4px;margin:1em 0;padding:.4em 1em}
h2{font-size:1.1em;border-bottom:1px solid #eee;padding-bottom:.2em}
table{border-collapse:collapse;margin:.4em 0}td,th{border:1px solid #ddd;padding:.2em .5em;
text-align:left;vertical-align:top}th{background:#f0f0f0}
pre{background:#f6f6f6;padding:.5em;overflow:auto;max-height:30em;white-space:pre-wrap}
progress{width:12em}.muted{color:#777}.err{color:#a00}code{background:#f3f3f3}
ul.tree{list-style:none;padding-left:1.2em}.s2{color:#070}.s4{color:#a60}.s5{color:#a00}
main,section{min-width:0;max-width:100%}section{overflow-wrap:anywhere}
table{max-width:100%}td,th{overflow-wrap:anywhere;word-break:break-word}
table.journal{width:100%;table-layout:fixed}table.journal td{padding:.1em .4em}
table.journal summary{cursor:pointer}table.journal code{word-break:break-all}
pre{max-width:100%;box-sizing:border-box;word-break:break-word}
dl.headers{display:grid;grid-template-columns:max-content 1fr;gap:0 .8em;margin:.3em 0}
dl.headers dt{color:#555}dl.headers dd{margin:0;word-break:break-all}
h4{margin:.5em 0 .2em;font-size:1em}.preview img,img.legend{vertical-align:middle;
border:1px solid #ddd;background:#fff;max-width:100%;height:auto}
.levels{display:flex;flex-wrap:wrap;gap:.5em;margin:.3em 0}figure.level{margin:0}
figure.level figcaption{font-size:.85em;color:#555}svg rect.grid{fill:#f3f3f3;stroke:#bbb}
svg rect{fill:#3a7}svg polyline{fill:none;stroke:#36c;stroke-width:2}
header label{margin-left:1em}#live-state{color:#fc6;margin-left:.4em}
"""

SCRIPT = """
document.addEventListener("click", async function (event) {
  var b = event.target.closest("button[data-post]");
  if (!b) return;
  {
    var target = b.dataset.post;
    if (b.dataset.seconds !== undefined) {
      target += encodeURIComponent(document.getElementById("seconds").value);
    }
    var message = document.getElementById("message");
    message.textContent = "";
    var r = await fetch(new URL(target, location.origin + location.pathname), {method: "POST"});
    if (!r.ok) {
      var text = await r.text();
      try { text = JSON.parse(text).error; } catch (e) {}
      message.textContent = text;
      return;
    }
    location.reload();
  }
});
"""


def _e(value: object) -> str:
    return escape("" if value is None else str(value))


def _table(head: Iterable[str], rows: Iterable[Iterable[str]], cls: str = "") -> str:
    """A table of already-escaped cells."""
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    if not body:
        return '<p class="muted">none</p>'
    th = "".join(f"<th>{_e(h)}</th>" for h in head)
    attr = f' class="{cls}"' if cls else ""
    return f"<table{attr}><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


def _section(key: str, title: str, content: str) -> str:
    return f'<section id="{key}"><h2>{_e(title)}</h2>{content}</section>'


def _page(title: str, header: str, content: str, script: bool = False, stamp: str = "") -> str:
    """The page; ``script``: the inspector's buttons and live updates (``stamp``: the live
    stamp the page was made with). No favicon request (an empty inline icon), and the page's
    requests carry it as ``Referer`` (so the emulator knows them as its own)."""
    js = f"<script>{SCRIPT}</script><script>{live.SCRIPT}</script>" if script else ""
    data = f' data-stamp="{_e(stamp)}"' if stamp else ""
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{_e(title)}</title>"
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="referrer" content="same-origin"><link rel="icon" href="data:,">'
        f"<style>{STYLE}</style></head><body{data}><header>{header}</header>"
        f"<main>{content}</main>{js}</body></html>"
    )


# -- the landing page -----------------------------------------------------------------------


async def landing(request: Request) -> Response:
    """The context root: what this server is, and links to the REST root and the inspector."""
    emu = emulator(request)
    base = emu.context_path
    header = "<h1>geoserver-emulator</h1>"
    content = _section(
        "about",
        "An emulated GeoServer",
        f"<p>Scenario <b>{_e(emu.scenario.name)}</b>, profile <b>{_e(emu.profile)}</b>,"
        f" clock <b>{_e(emu.clock.kind)}</b>.</p><ul>"
        f'<li><a href="{_e(base)}/rest">REST API</a> (<code>{_e(base)}/rest</code>)</li>'
        f'<li><a href="{_e(base)}/__emulator/">Inspector</a>: the state, the seed tasks and the'
        " request journal (control credentials needed)</li>"
        f'<li><a href="{_e(base)}/__emulator/health">Health</a></li></ul>',
    )
    return HTMLResponse(_page("geoserver-emulator", header, content))


# -- the inspector --------------------------------------------------------------------------


async def inspector(request: Request) -> Response:
    emu = emulator(request)
    query = request.query_params
    error = ""
    try:
        entries = filters.journal_entries(emu.journal, query)
    except Exception as exc:  # a bad filter: show it, list nothing
        entries, error = [], getattr(exc, "message", str(exc))
    doc = emu.dump_scenario()
    nav = "".join(
        f'<a href="#{key}">{title}</a>'
        for key, title in (
            ("clock", "Clock"),
            ("seeding", "Seed tasks"),
            ("tiles", "Tile cache"),
            ("catalog", "Catalog"),
            ("styles", "Styles"),
            ("security", "Security"),
            ("journal", "Journal"),
            ("faults", "Faults"),
            ("coverage", "Coverage"),
        )
    )
    header = (
        f"<h1>geoserver-emulator inspector</h1><p>scenario <b>{_e(emu.scenario.name)}</b> ·"
        f" profile <b>{_e(emu.profile)}</b> · clock <b>{_e(emu.clock.kind)}</b> ·"
        f' simulated time <b id="now">{emu.clock.now():g}</b> s ·'
        f' <a href="{_e(emu.context_path)}/rest">REST root</a>'
        ' <label><input type="checkbox" id="live" checked> live</label>'
        f'<span id="live-state"></span></p><nav>{nav}</nav>'
    )
    emu.note_progress()  # the scheduler may have moved without the clock (a drain)
    pics = _Pictures(emu)
    content = "".join(
        (
            _clock(emu),
            _seeding(emu),
            _section("tiles", "Tile cache", pictures.tile_extents(emu)),
            _catalog(doc.get("catalog", {}), pics),
            _databases(emu),
            _styles(doc.get("styles", {}), pics),
            _section("security", "Security", security_view.section(doc)),
            _section("journal", "Request journal", journal_view.section(entries, query, error)),
            _faults(emu),
            _coverage(emu, _context_routes(request)),
        )
    )
    page = _page("geoserver-emulator inspector", header, content, True, live.current(emu))
    return HTMLResponse(page)


class _Pictures:
    """What the catalog and styles sections draw with: the context path, the layers' and
    groups' extents, a layer for each style's legend."""

    def __init__(self, emu: Emulator) -> None:
        self.ctx = emu.context_path
        self.layers, self.groups = pictures.layer_boxes(emu)
        self.style_layers = pictures.style_layers(emu)

    def layer(self, name: str) -> str:
        return pictures.preview(self.ctx, name, self.layers.get(name))

    def group(self, name: str) -> str:
        return pictures.preview(self.ctx, name, self.groups.get(name))

    def legend(self, style: str) -> str:
        layer = self.style_layers.get(style) or self.style_layers.get("")
        return pictures.legend(self.ctx, style, layer)


def _databases(emu: Emulator) -> str:
    """The databases mode, and per PostGIS store the back end it uses (``postgis`` when its
    database answered, ``memory`` when it did not or the mode says so)."""
    policy = emu.database_policy
    hosts = ", ".join(policy.hosts) or "loopback only"
    used = emu.databases.backends
    rows = "".join(
        f"<li>store <b>{_e(ws)}:{_e(store)}</b> uses <b>{_e(backend)}</b></li>"
        for (ws, store), backend in sorted(used.items())
    )
    body = f"<p>mode <b>{_e(policy.mode)}</b> · hosts: {_e(hosts)}</p>" + (
        f'<ul class="tree">{rows}</ul>' if rows else '<p class="muted">no database used yet</p>'
    )
    return _section("databases", "Databases", body)


def _clock(emu: Emulator) -> str:
    diagnostics = "".join(f'<p class="err">{_e(d)}</p>' for d in emu.journal.diagnostics)
    return _section(
        "clock",
        "Clock and scheduler",
        '<p><label>Seconds <input id="seconds" type="number" min="0" step="any" value="1"'
        ' size="6"></label> <button id="advance" data-post="clock/advance?seconds="'
        ' data-seconds>Advance the clock</button> <button id="drain"'
        ' data-post="scheduler/drain">Drain the scheduler</button> <button id="reset"'
        ' data-post="reset">Reset</button> <span id="message" class="err"></span></p>'
        + diagnostics,
    )


def _seeding(emu: Emulator) -> str:
    rows = []
    for t in emu.scheduler.tasks:
        done, total, remaining, _, _ = t.row
        if t.state == "DONE":  # the status row lags a metatile behind: show it finished
            bar = f'<progress value="1" max="1"></progress> done ({done}/{total} tiles listed)'
        elif total > 0 and done >= 0:
            bar = (
                f'<progress value="{min(done, total)}" max="{total}"></progress>'
                f" {done}/{total} tiles"
            )
        else:
            bar = '<progress max="1"></progress> waiting'
        rows.append(
            [
                _e(t.id),
                _e(t.layer),
                _e(t.type),
                _e(t.state),
                bar,
                _e(remaining if remaining >= 0 else "?") + " s",
                _e(t.gridset),
                _e(t.format),
                "listed" if t.listed else '<span class="muted">left the list</span>',
                pictures.progress_chart(emu.seed_history.points(t.id)),
            ]
        )
    table = _table(
        (
            "id",
            "layer",
            "type",
            "state",
            "progress",
            "remaining",
            "gridset",
            "format",
            "status",
            "over time",
        ),  # fmt: skip
        rows,
        "tasks",
    )
    return _section("seeding", "Seed tasks", table)


def _resources(store: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """A store's published resources, whatever the kind (feature types, coverages, ...)."""
    out: list[Mapping[str, Any]] = []
    for value in store.values():
        if isinstance(value, list) and value and isinstance(value[0], dict):
            out.extend(v for v in value if "name" in v)
    return out


def _group(group: Mapping[str, Any], pics: _Pictures) -> str:
    members = ", ".join(map(str, group.get("layers", [])))
    ws, name = group.get("workspace"), str(group.get("name"))
    key = f"{ws}:{name}" if ws else name
    return (
        f'<li class="group">layer group <b>{_e(name)}</b>: {_e(members)}'
        f"<div>{pics.group(key)}</div></li>"
    )


def _layer(workspace: str, resource: Mapping[str, Any], pics: _Pictures) -> str:
    """A published resource: its name, its default style, its map preview."""
    layer = resource.get("layer")
    style = (
        f' <span class="muted">style {_e(layer.get("defaultStyle"))}</span>'
        if isinstance(layer, dict)
        else ""
    )
    name = resource.get("name")
    return (
        f'<li class="layer">layer <b>{_e(name)}</b>{style}'
        f"<div>{pics.layer(f'{workspace}:{name}')}</div></li>"
    )


def _catalog(catalog: Mapping[str, Any], pics: _Pictures) -> str:
    store_kinds = [k for k in catalog if k.endswith("Stores")]
    items = []
    for ws in catalog.get("workspaces", []):
        name = ws.get("name")
        default = " (default)" if name == catalog.get("defaultWorkspace") else ""
        stores = []
        for kind in store_kinds:
            for store in catalog.get(kind, []):
                if store.get("workspace") != name:
                    continue
                layers = "".join(_layer(str(name), r, pics) for r in _resources(store))
                kind_name = kind[: -len("Stores")]
                stores.append(
                    f'<li><details data-key="store-{_e(name)}-{_e(store.get("name"))}">'
                    f"<summary>{_e(kind_name)} store <b>{_e(store.get('name'))}</b>"
                    f' <span class="muted">{_e(store.get("type", ""))}</span></summary>'
                    f'<ul class="tree">{layers}</ul></details></li>'
                )
        groups = "".join(
            _group(g, pics) for g in catalog.get("layerGroups", []) if g.get("workspace") == name
        )
        items.append(
            f'<li class="workspace"><details open data-key="workspace-{_e(name)}">'
            f"<summary>workspace <b>{_e(name)}</b>{default}"
            f' <span class="muted">{_e(ws.get("uri", ""))}</span></summary>'
            f'<ul class="tree">{"".join(stores)}{groups}</ul></details></li>'
        )
    global_groups = "".join(
        _group(g, pics) for g in catalog.get("layerGroups", []) if not g.get("workspace")
    )
    body = f'<ul class="tree">{"".join(items)}</ul>' if items else '<p class="muted">empty</p>'
    if global_groups:
        body += f'<h3>Global layer groups</h3><ul class="tree">{global_groups}</ul>'
    return _section("catalog", "Catalog", body)


def _styles(styles: Mapping[str, Any], pics: _Pictures) -> str:
    items = []
    for style in styles.get("styles", []):
        where = f"{style['workspace']}:" if style.get("workspace") else ""
        body = style.get("body")
        shown = (
            f"<pre>{_e(body)}</pre>" if isinstance(body, str) else '<p class="muted">no body</p>'
        )
        key = f"{where}{style.get('name')}"
        items.append(
            f'<li class="style"><details data-key="style-{_e(key)}"><summary>'
            f'<b>{_e(key)}</b> <span class="muted">{_e(style.get("format", ""))}'
            f" {_e(style.get('languageVersion', ''))}</span> {pics.legend(key)}</summary>"
            f"{shown}</details></li>"
        )
    body = f'<ul class="tree">{"".join(items)}</ul>' if items else '<p class="muted">none</p>'
    return _section("styles", "Styles", body)


def _faults(emu: Emulator) -> str:
    rows = [
        [
            _e(f.get("id")),
            _e(f.get("method")),
            f"<code>{_e(f.get('path'))}</code>",
            _e(f.get("status") if f.get("status") is not None else ""),
            _e(f.get("times")),
        ]
        for f in emu.faults.to_json()
    ]
    return _section(
        "faults", "Active faults", _table(("id", "method", "path", "status", "times"), rows)
    )


def _context_routes(request: Request) -> list[Any]:
    """The app's routes relative to the context root (as journal paths are)."""
    emu = emulator(request)
    routes: list[Any] = list(request.app.routes)
    for route in routes:
        if isinstance(route, Mount) and emu.context_path and route.path == emu.context_path:
            return list(route.routes)
    return routes


def _coverage(emu: Emulator, routes: list[Any]) -> str:
    from ..http.endpoints import count, endpoints, tally

    hits, unmatched = tally(count(emu.journal).items(), endpoints(routes))
    used = sorted(((e, n) for e, n in hits.items() if n), key=lambda x: (x[0][1], x[0][0]))
    unused = sorted((e for e, n in hits.items() if not n), key=lambda e: (e[1], e[0]))
    total = len(hits) or 1
    body = (
        f'<p id="coverage-summary">{len(used)} of {len(hits)} endpoints exercised'
        f" ({100 * len(used) / total:.0f}%) by the requests in the journal"
        + (f"; {unmatched} request(s) reached no endpoint" if unmatched else "")
        + "</p>"
        + _table(
            ("method", "path", "requests"),
            ([_e(m), f"<code>{_e(p)}</code>", _e(n)] for (m, p), n in used),
        )
        + f"<details><summary>never touched ({len(unused)})</summary>"
        + _table(("method", "path"), ([_e(m), f"<code>{_e(p)}</code>"] for m, p in unused))
        + "</details>"
    )
    return _section("coverage", "Endpoint coverage so far", body)
