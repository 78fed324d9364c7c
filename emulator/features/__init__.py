"""The data behind feature types, and the one interface to read and write it.

- ``model``: ``Attribute``, ``Feature``, ``FeatureTable``, ``FeatureStore`` (the state's
  ``features`` store: tables of uploaded data, grids, remote content).
- ``query``: ``Query`` (ids, bbox, filter tree, sort, page, properties, back-end params),
  ``Schema``, ``TypeRef`` (what a feature type must offer).
- ``source``: the ``FeatureSource`` and ``FeatureTransaction`` protocols.
- ``resolver``: ``source_for(state, feature_type)``, from the ordered ``PROVIDERS``.
- ``memory`` and ``select``: the source over a ``FeatureTable``, in Python.
- ``postgis`` and ``postgis_writes``: the source over a PostGIS table or SQL view used live.

Domain code: imports ``core/``, ``filters/`` and ``databases/``, never an area nor HTTP
(the uploads area's raster type is named for the type checker only).
"""

from .query import Query, Schema, TypeRef
from .resolver import PROVIDERS, schema, source_for
from .source import FeatureSource, FeatureTransaction

__all__ = [
    "PROVIDERS",
    "FeatureSource",
    "FeatureTransaction",
    "Query",
    "Schema",
    "TypeRef",
    "schema",
    "source_for",
]
