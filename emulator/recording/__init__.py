"""Recording real traffic, replaying and verifying cassettes, importing a scenario from a live
server, and the CLI commands that drive them: the layer above the root ``Emulator``."""
