"""The filter engine: ECQL/CQL text and OGC Filter XML read into one tree, compiled into
Python predicates, walked by other back ends.

- ``ecql.parse(text) -> Filter`` reads ECQL (``Invalid`` with GeoServer's message);
  ``ogc_xml.parse_xml(element) -> Filter`` reads an OGC filter element (the only module
  here that touches XML), ``ogc_xml.resource_ids`` an id filter.
- ``tree.Filter`` is the parsed filter: ``Filter.ast`` is pygeofilter's AST, the tree a back
  end (a SQL compiler) walks; ``Filter.attributes()`` the names it reads.
- ``predicates.predicate(filter, budget) -> Predicate | None`` compiles it for in-memory
  evaluation (GeoTools' rules, under a ``core.budget.Budget``); ``compile_filter(text,
  budget)`` does both steps.
- ``converters``: GeoTools' text of values and its lenient reading of ISO 8601 instants.

Domain code: it imports ``core/`` and ``wire/`` (``ogc_xml`` only), never an area nor HTTP.
pygeofilter, lark and shapely are imported on first use: a common filter (comparisons,
``LIKE``, ``AND``/``OR``/``NOT``) is read and evaluated without any of them.
"""
