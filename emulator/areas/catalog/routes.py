"""HTTP routes of this area. (Filled in by the area's issue.)"""

from __future__ import annotations

from starlette.routing import BaseRoute

routes: list[BaseRoute] = []
