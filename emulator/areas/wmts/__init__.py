"""The WMTS service (see docs/ows.md)."""
