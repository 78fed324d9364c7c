"""The urlchecks area."""
