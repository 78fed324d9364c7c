"""The about area."""
