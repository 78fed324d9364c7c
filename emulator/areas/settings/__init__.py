"""GeoServer settings, OWS service configuration, logging, fonts and templates."""
