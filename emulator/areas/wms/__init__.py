"""The WMS service (see docs/ows.md)."""
