"""Makes ``provider_helpers`` importable by this folder's test modules (importlib mode
does not put test folders on ``sys.path``)."""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = str(Path(__file__).parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
