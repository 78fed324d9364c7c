"""GeoServer's wire conventions, written once for every area.

- ``java``: Java's number texts (``Double.toString``, ``Float.toString``, ``parseDouble``,
  ``String.format``) and ``URLEncoder``;
- ``jettison``: how GeoServer's JSON types a leaf it wrote as XML text first;
- ``dates``: the catalog's timestamps and ISO instants;
- ``xstream``: the name-and-link lists (``<workspaces><workspace><name/><atom:link/>``) in
  XML and JSON;
- ``html``: the REST HTML page frame and escaping;
- ``xmltext``: escaping for XML written as text (GWC's pretty-printed documents);
- ``archive``: reading an uploaded ZIP within one set of limits, with each caller's
  refusals worded in one table.

Nothing here imports lxml or an area; ``xstream`` builds its XML through ``wire/xml.py``.
"""
