"""The HTML fragments GWC answers on the kill and form paths (``SeedService``, ``FormService``)."""

from __future__ import annotations

from html import escape

from .scheduler import KillReport, TaskView


def header() -> str:
    """``FormService.makeHeader``: GWC's page head and logo."""
    return (
        "<html>\n<head>\n<title>GWC Seed Form</title>\n"
        '<link rel="stylesheet" href="../../rest/web/gwc.css" type="text/css"/>\n'
        '<script src="../../rest/web/seed.js"></script>\n</head>\n<body>\n'
        '<div id="pageHeader"><a id="logo" href="../../">'
        '<img src="../../rest/web/geowebcache_logo.png"/></a></div>\n'
    )


def kill_reply(report: KillReport, layer: str | None) -> str:
    """The kill_all reply: all layers (a bare fragment) or one layer (a page)."""
    text = f"<p>Requested to terminate {report.code} tasks.Terminated tasks: <ul>"
    text += "".join(f"<li>{t}</li>" for t in report.terminated)
    text += "</ul>Tasks already finished: <ul>"
    if layer is None:
        return text
    return header() + text + f'</ul><p><a href="./{layer}">Go back</a></p>\n'


def kill_thread_reply(task_id: str, terminated: bool, layer: str) -> str:
    if terminated:
        body = f"<ul><li>Requested to terminate task {task_id}.</li></ul>"
    else:
        body = (
            f"<ul><li>Sorry, either task {task_id} has not started yet, or it is a truncate task"
            " that cannot be interrutped.</li></ul>"
        )
    return header() + body + f'<p><a href="./{layer}">Go back</a></p>\n'


def task_page(layer: str, tasks: list[TaskView], title: str) -> str:
    """A page with the running and pending tasks (of one layer, or all of them)."""
    parts = [
        header(),
        f"<h3>{escape(title)}</h3>\n",
        "<h4>List of currently executing tasks:</h4>\n",
    ]
    shown = [t for t in tasks if t.listed and t.state in ("UNSET", "READY", "RUNNING")]
    if not shown:
        parts.append("<ul><li><i>none</i></li></ul>\n")
    else:
        parts.append('<table border="0"><tr style="font-weight: bold;"><td>Id</td><td>Layer</td>'
                     "<td>Status</td><td>Type</td><td>Estimated # of tiles</td>"
                     "<td>Tiles completed</td><td>Time remaining</td></tr>")  # fmt: skip
        for t in shown:
            done, total, remaining = t.row[0], t.row[1], t.row[2]
            parts.append(
                f"<tr><td>{t.id}</td><td>{escape(t.layer)}</td><td>{t.state}</td><td>{t.type}</td>"
                f"<td>{'Too many to count' if total < 0 else f'{total:,}'}</td><td>{done:,}</td>"
                f"<td>{remaining}</td></tr>"
            )
        parts.append("</table>")
    parts.append(f'<p><a href="./{escape(layer)}">Refresh list</a></p>\n</body></html>')
    return "".join(parts)
