"""The appschema area."""
