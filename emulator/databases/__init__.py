"""Database stores used for real: PostGIS, as GeoServer's JDBC data store uses it.

Below the areas, above ``core/``; psycopg is imported only when a database is first used.

- ``params``: a store's connection parameters, GeoTools' keys and defaults.
- ``policy``: the mode (``auto``, ``live``, ``memory``) and the hosts that may be contacted.
- ``pool``: a bounded pool per database, with a wait limit and a statement time limit.
- ``service``: ``Databases``, one per emulator: pools, the back end each store uses, and
  ``session``/``translated``, which turn psycopg's failures into GeoServer's errors.
- ``dialect``: ``createSchema``, describing a table or view, listing a schema, the SRID of a
  CRS (GeoTools' ``JDBCDataStore`` with ``PostGISDialect``).
- ``bindings``: attribute bindings and column types, both ways.
- ``virtual``: SQL views (``JDBC_VIRTUAL_TABLE``): parse, dump, validated expansion.
- ``where`` and ``rows``: safe WHERE pieces; select, count, bounds, insert, update, delete.
- ``filtersql`` and ``literals``: a filter tree as parameterised SQL (literals converted to
  the columns' types), and the part left for Python.
- ``relations``, ``fetch``, ``convert``: what a feature source knows of a table or SQL view
  (columns, key, SRIDs), GeoServer's feature ids, reading rows, values both ways.
- ``units``: one database transaction shared by a request's writes; ``held``, a
  connection whose transaction ends with the REST write.
- ``errors``: GeoServer's texts for a refused connection, a full pool, a statement timeout.
"""
