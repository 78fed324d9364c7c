"""The HTTP face of the emulator: the Starlette app, its middleware and endpoint helpers."""
