"""The appschema model. (Filled in by the appschema issue.)"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class AppSchemaStore:
    pass
