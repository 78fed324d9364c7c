"""The seeding area."""
