"""OGC API - Features, as GeoServer's ``ogcapi-features`` extension answers it
(``docs/ogcapi-features.md``)."""
