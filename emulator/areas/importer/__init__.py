"""GeoServer's Importer extension (``/rest/imports…``), installed with ``--extensions importer``."""
