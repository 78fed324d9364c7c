"""The geoserver-emulator pytest plugin (entry point ``geoserver_emulator``)."""
