"""The styles area."""
