"""The OGC services of the catalog (WMS, WFS, WCS, WMTS), derived live from the state."""
