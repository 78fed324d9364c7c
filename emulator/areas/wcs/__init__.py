"""The WCS service (see docs/ows.md)."""
