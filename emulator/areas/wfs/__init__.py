"""The WFS service (see docs/ows.md)."""
