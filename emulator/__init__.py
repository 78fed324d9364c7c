"""geoserver-emulator: an in-memory, deterministic emulator of GeoServer's REST interface."""

from .core.errors import ScenarioError
from .emulator import Emulator
from .http.app import create_app

__version__ = "0.1.0"

__all__ = ["Emulator", "ScenarioError", "__version__", "create_app"]
