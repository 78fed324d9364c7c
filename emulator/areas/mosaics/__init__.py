"""The mosaics area."""
