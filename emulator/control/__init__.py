"""The control plane under /__emulator: reset, clock, scheduler, journal, health."""
