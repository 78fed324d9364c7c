"""The inspector (``GET /__emulator/``) and the landing page at the context root.

Server-rendered HTML, one self-contained page: the styles are inline, there are no external
assets (it works offline), and the only script posts the clock and scheduler buttons to the
control plane and reloads. What it shows comes from the scenario document of the current
state (``dump_scenario()``: the same shapes as a scenario file), the seed scheduler, the
journal, the faults and the route table. Reading it changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from html import escape
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Mount

from ..http.context import emulator
from . import filters

if TYPE_CHECKING:
    from ..core.journal import JournalEntry
    from ..emulator import Emulator

JOURNAL_SHOWN = 500
"""the most recent entries listed (the filters narrow them first)"""
BODY_SHOWN = 64 * 1024

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
"""

SCRIPT = """
document.querySelectorAll("button[data-post]").forEach(function (b) {
  b.addEventListener("click", async function () {
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
  });
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


def _page(title: str, header: str, content: str, script: bool = False) -> str:
    js = f"<script>{SCRIPT}</script>" if script else ""
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{_e(title)}</title>"
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<style>{STYLE}</style></head><body><header>{header}</header>"
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
        f' <a href="{_e(emu.context_path)}/rest">REST root</a></p><nav>{nav}</nav>'
    )
    content = "".join(
        (
            _clock(emu),
            _seeding(emu),
            _catalog(doc.get("catalog", {})),
            _databases(emu),
            _styles(doc.get("styles", {})),
            _security(doc),
            _journal(emu, entries, query, error),
            _faults(emu),
            _coverage(emu, _context_routes(request)),
        )
    )
    return HTMLResponse(_page("geoserver-emulator inspector", header, content, script=True))


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
            ]
        )
    table = _table(
        ("id", "layer", "type", "state", "progress", "remaining", "gridset", "format", "status"),
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


def _group(group: Mapping[str, Any]) -> str:
    members = ", ".join(map(str, group.get("layers", [])))
    return f"<li>layer group <b>{_e(group.get('name'))}</b>: {_e(members)}</li>"


def _catalog(catalog: Mapping[str, Any]) -> str:
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
                layers = "".join(
                    f"<li>layer <b>{_e(r.get('name'))}</b>"
                    + (
                        f' <span class="muted">style {_e(r["layer"].get("defaultStyle"))}</span>'
                        if isinstance(r.get("layer"), dict)
                        else ""
                    )
                    + "</li>"
                    for r in _resources(store)
                )
                kind_name = kind[: -len("Stores")]
                stores.append(
                    f"<li><details><summary>{_e(kind_name)} store <b>{_e(store.get('name'))}</b>"
                    f' <span class="muted">{_e(store.get("type", ""))}</span></summary>'
                    f'<ul class="tree">{layers}</ul></details></li>'
                )
        groups = "".join(
            _group(g) for g in catalog.get("layerGroups", []) if g.get("workspace") == name
        )
        items.append(
            f'<li class="workspace"><details open><summary>workspace <b>{_e(name)}</b>{default}'
            f' <span class="muted">{_e(ws.get("uri", ""))}</span></summary>'
            f'<ul class="tree">{"".join(stores)}{groups}</ul></details></li>'
        )
    global_groups = "".join(
        _group(g) for g in catalog.get("layerGroups", []) if not g.get("workspace")
    )
    body = f'<ul class="tree">{"".join(items)}</ul>' if items else '<p class="muted">empty</p>'
    if global_groups:
        body += f'<h3>Global layer groups</h3><ul class="tree">{global_groups}</ul>'
    return _section("catalog", "Catalog", body)


def _styles(styles: Mapping[str, Any]) -> str:
    items = []
    for style in styles.get("styles", []):
        where = f"{style['workspace']}:" if style.get("workspace") else ""
        body = style.get("body")
        shown = (
            f"<pre>{_e(body)}</pre>" if isinstance(body, str) else '<p class="muted">no body</p>'
        )
        items.append(
            f'<li class="style"><details><summary><b>{_e(where)}{_e(style.get("name"))}</b>'
            f' <span class="muted">{_e(style.get("format", ""))}'
            f" {_e(style.get('languageVersion', ''))}</span></summary>{shown}</details></li>"
        )
    body = f'<ul class="tree">{"".join(items)}</ul>' if items else '<p class="muted">none</p>'
    return _section("styles", "Styles", body)


def _rules(rules: Mapping[str, Any]) -> str:
    return _table(("rule", "roles"), ([f"<code>{_e(k)}</code>", _e(v)] for k, v in rules.items()))


def _security(doc: Mapping[str, Any]) -> str:
    users = doc.get("users", {})
    role_services = users.get("roleServices", [])
    user_roles: dict[str, list[str]] = {}
    for rs in role_services:
        for user, roles in rs.get("userRoles", {}).items():
            user_roles.setdefault(user, []).extend(roles)
    user_rows = [
        [
            _e(service.get("name")),
            f"<b>{_e(u.get('name'))}</b>",
            "yes" if u.get("enabled", True) else "no",
            _e(", ".join(user_roles.get(str(u.get("name")), []))),
        ]
        for service in users.get("services", [])
        for u in service.get("users", [])
    ]
    role_rows = [
        [_e(rs.get("name")), _e(", ".join(map(str, rs.get("roles", []))))] for rs in role_services
    ]
    providers = doc.get("authProviders", {})
    active = list(providers.get("active", []))
    by_name = {p.get("name"): p for p in providers.get("providers", [])}
    provider_rows = [
        [_e(i + 1), f"<b>{_e(n)}</b>", _e(by_name.get(n, {}).get("className", "?"))]
        for i, n in enumerate(active)
    ] + [
        ['<span class="muted">inactive</span>', _e(n), _e(p.get("className"))]
        for n, p in by_name.items()
        if n not in active
    ]
    filter_rows = [
        [f"<b>{_e(f.get('name'))}</b>", _e(f.get("className"))]
        for f in doc.get("authFilters", {}).get("filters", [])
    ]
    security = doc.get("security", {})
    body = (
        f'<p>Catalog mode: <b id="catalog-mode">{_e(security.get("catalogMode"))}</b></p>'
        f"<h3>Users</h3>{_table(('service', 'user', 'enabled', 'roles'), user_rows, 'users')}"
        f"<h3>Roles</h3>{_table(('role service', 'roles'), role_rows)}"
        "<h3>Authentication providers, in order</h3>"
        f"{_table(('#', 'provider', 'class'), provider_rows, 'providers')}"
        f"<h3>Authentication filters</h3>{_table(('filter', 'class'), filter_rows)}"
        f"<h3>Layer rules</h3>{_rules(security.get('layerRules', {}))}"
        f"<h3>Service rules</h3>{_rules(security.get('serviceRules', {}))}"
        f"<h3>REST rules</h3>{_rules(security.get('restRules', {}))}"
    )
    return _section("security", "Security", body)


def _body(data: bytes) -> str:
    if not data:
        return '<span class="muted">(empty)</span>'
    try:
        text = data[:BODY_SHOWN].decode("utf-8")
    except UnicodeDecodeError:
        return f'<span class="muted">({len(data)} bytes, binary)</span>'
    more = f"\n… ({len(data)} bytes in all)" if len(data) > BODY_SHOWN else ""
    return f"<pre>{_e(text + more)}</pre>"


def _journal(
    emu: Emulator, entries: list[JournalEntry], query: Mapping[str, str], error: str
) -> str:
    def field(name: str, size: int) -> str:
        return (
            f'<label>{name} <input name="{name}" value="{_e(query.get(name, ""))}"'
            f' size="{size}"></label> '
        )

    form = (
        '<form method="get" action="#journal">'
        + field("method", 6)
        + field("path", 30)
        + field("status", 4)
        + '<button type="submit">Filter</button> <a href="./#journal">all</a></form>'
    )
    if error:
        form += f'<p class="err" id="filter-error">{_e(error)}</p>'
    shown = entries[-JOURNAL_SHOWN:]
    rows = []
    for e in shown:
        target = e.path + (f"?{e.query}" if e.query else "")
        status = "dropped" if e.status == 0 else str(e.status)
        rows.append(
            [
                _e(f"{e.at:g}"),
                _e(e.method),
                f"<code>{_e(target)}</code>",
                f'<span class="s{status[:1]}">{_e(status)}</span>',
                _e(e.content_type or ""),
                f"<details><summary>request</summary>{_body(e.body)}</details>"
                f"<details><summary>answer {_e(e.response_type or '')}</summary>"
                f"{_body(e.response_body)}</details>",
            ]
        )
    count = f"<p>{len(entries)} request(s)"
    if len(entries) > len(shown):
        count += f", the last {len(shown)} shown"
    count += "</p>"
    table = _table(("time (s)", "method", "path", "status", "type", "bodies"), rows, "journal")
    return _section("journal", "Request journal", form + count + table)


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
