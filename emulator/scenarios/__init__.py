"""Scenarios: the data an emulator starts from (built-in ``stock`` and ``empty``, or a file)."""
