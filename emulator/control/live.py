"""The inspector keeps itself current: its page polls ``GET /__emulator/inspector/stamp``
(a few figures that change whenever what the page shows may have: the clock, the journal,
the seed tasks, the faults, a start-over) and, when the stamp moved, fetches the page again
and replaces the sections that changed, in place: the reader's scroll position, the entries
they opened and what they are typing stay as they were. A checkbox turns it off (remembered
in the browser's local storage). Control-plane requests: never journaled."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.responses import Response

from ..http.context import emulator
from ..wire.json import dumps

if TYPE_CHECKING:
    from ..emulator import Emulator

INTERVAL_MS = 1000
"""how often the page asks for the stamp"""


async def stamp(request: Request) -> Response:
    """``{"stamp": "..."}``: changes whenever the inspector's page may have."""
    return Response(dumps({"stamp": current(emulator(request))}), media_type="application/json")


def current(emu: Emulator) -> str:
    """The stamp of ``emu`` now (the page carries the one it was made with)."""
    journal = emu.journal
    rows = [t.row for t in emu.scheduler.tasks] if emu.state.view("seeding").tasks else []
    figures = (
        emu.generation,
        emu.clock.now(),
        len(journal) + journal.dropped,
        len(journal.diagnostics),
        dumps(emu.faults.to_json()),
        rows,
    )
    return hashlib.blake2b(repr(figures).encode(), digest_size=8).hexdigest()


SCRIPT = """
(function () {
  var box = document.getElementById("live");
  var state = document.getElementById("live-state");
  var stamp = document.body.dataset.stamp;
  box.checked = localStorage.getItem("geoserver-emulator-live") !== "off";
  box.addEventListener("change", function () {
    localStorage.setItem("geoserver-emulator-live", box.checked ? "on" : "off");
    state.textContent = box.checked ? "" : "paused";
  });
  state.textContent = box.checked ? "" : "paused";
  var base = location.origin + location.pathname;
  async function refresh() {
    var r = await fetch(location.href, {cache: "no-store"});
    if (!r.ok) return;
    var fresh = new DOMParser().parseFromString(await r.text(), "text/html");
    var sections = [...document.querySelectorAll("main > section[id]")];
    var anchor = sections.find(function (s) { return s.getBoundingClientRect().bottom > 0; });
    var before = anchor ? anchor.getBoundingClientRect().top : 0;
    fresh.querySelectorAll("main > section[id]").forEach(function (next) {
      var old = document.getElementById(next.id);
      var active = document.activeElement;
      var typing = active && /INPUT|SELECT|TEXTAREA/.test(active.tagName);
      if (!old || (typing && old.contains(active))) return;
      var open = {};
      old.querySelectorAll("details[data-key]").forEach(function (d) {
        open[d.dataset.key] = d.open;
      });
      next.querySelectorAll("details[data-key]").forEach(function (d) {
        if (d.dataset.key in open) d.open = open[d.dataset.key];
      });
      if (old.innerHTML !== next.innerHTML) old.innerHTML = next.innerHTML;
    });
    stamp = fresh.body.dataset.stamp;
    var now = fresh.getElementById("now");
    if (now) document.getElementById("now").textContent = now.textContent;
    if (anchor) window.scrollBy(0, anchor.getBoundingClientRect().top - before);
    document.body.dataset.updates = String(Number(document.body.dataset.updates || 0) + 1);
  }
  async function tick() {
    if (box.checked && !document.hidden) {
      try {
        var r = await fetch(new URL("inspector/stamp", base), {cache: "no-store"});
        if (r.ok) {
          var next = (await r.json()).stamp;
          if (next !== stamp) await refresh();
        }
      } catch (e) {}
    }
    setTimeout(tick, INTERVAL);
  }
  tick();
})();
""".replace("INTERVAL", str(INTERVAL_MS))
