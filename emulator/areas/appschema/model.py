"""The app-schema area's state: what each app-schema store was loaded from, the document
databases its mappings read, and the schemas persisted for their internal stores.

- ``MappingDoc`` (with ``SourceDataStore`` and ``TypeMapping``): one parsed mapping file
  (``mapping.py`` parses it).
- ``AppSchemaRecord``: an app-schema store of the catalog as the emulator loaded it: main
  mapping file, included ones, whether it came as a ZIP, and its internal document-database
  stores (the main file's sources whose ``dbtype`` is ``mongodb``).
- ``AppSchemaStore`` (``state.appschema``): the records, and the document databases by
  connection URL (``data_store`` parameter), each a set of collections of sample documents.

The catalog holds the store, its feature types and layers; the data directory holds the
files. Records are keyed by (workspace, store) and checked against the catalog on use, so a
store deleted or renamed through the catalog leaves no stale state behind.
"""

from __future__ import annotations

from ...core.record import field, record
from ...core.tracking import tracked
from .documents import Document, DocumentSchema, infer_schema, object_id

MONGO_SCHEMES = ("mongodb://", "mongodb+srv://")
Key = tuple[str, str]


@record(frozen=True)
class SourceDataStore:
    """A ``sourceDataStores/DataStore``: the id mappings refer to and its parameters."""

    id: str
    parameters: tuple[tuple[str, str], ...] = ()

    @property
    def params(self) -> dict[str, str]:
        return dict(self.parameters)

    @property
    def is_document_database(self) -> bool:
        """A MongoDB source: ``dbtype`` mongodb, or a ``data_store`` MongoDB URI."""
        params = self.params
        if params.get("dbtype", "").strip().lower() == "mongodb":
            return True
        return params.get("data_store", "").strip().lower().startswith(MONGO_SCHEMES)

    @property
    def database_url(self) -> str:
        """The connection URL that names the document database (``data_store``)."""
        params = self.params
        return params.get("data_store") or params.get("url") or params.get("uri") or ""


@record(frozen=True)
class TypeMapping:
    """One ``FeatureTypeMapping``."""

    source_data_store: str
    source_type: str
    target_element: str
    mapping_name: str | None = None

    @property
    def name(self) -> str:
        """The type's name in GeoServer: ``mappingName``, else ``targetElement``'s local part."""
        if self.mapping_name:
            return self.mapping_name.rpartition(":")[2]
        return self.target_element.rpartition(":")[2]


@record(frozen=True)
class MappingDoc:
    """One parsed mapping file; ``path`` is relative to the store folder."""

    path: str
    namespaces: tuple[tuple[str, str], ...] = ()
    includes: tuple[str, ...] = ()
    source_data_stores: tuple[SourceDataStore, ...] = ()
    schema_uris: tuple[str, ...] = ()
    type_mappings: tuple[TypeMapping, ...] = ()

    @property
    def names(self) -> list[str]:
        """Names of the mapped types, in document order."""
        return [t.name for t in self.type_mappings]

    def source(self, store_id: str) -> SourceDataStore | None:
        return next((s for s in self.source_data_stores if s.id == store_id), None)


@record
class InternalStore:
    """A document-database source of the main mapping and its persisted schemas."""

    id: str
    url: str
    collections: list[str] = field(default_factory=list)
    """the source types the main file maps from it, in order"""
    schemas: dict[str, DocumentSchema] = field(default_factory=dict)


@record
class AppSchemaRecord:
    workspace: str
    store: str
    folder: str
    """the store's folder in the data directory (``data/<ws>/<store>``)"""
    main: MappingDoc
    included: tuple[MappingDoc, ...] = ()
    from_zip: bool = False
    internal: dict[str, InternalStore] = field(default_factory=dict)

    @property
    def main_path(self) -> str:
        return f"{self.folder}/{self.main.path}"


@record
class Collection:
    """Sample documents of one collection; ``geometry`` names its indexed geometry field."""

    documents: list[Document] = field(default_factory=list)
    geometry: str | None = None


def internal_stores(main: MappingDoc) -> dict[str, InternalStore]:
    """The document-database sources the main file's type mappings read, by id."""
    out: dict[str, InternalStore] = {}
    for tm in main.type_mappings:
        source = main.source(tm.source_data_store)
        if source is None or not source.is_document_database:
            continue
        store = out.setdefault(source.id, InternalStore(source.id, source.database_url))
        if tm.source_type not in store.collections:
            store.collections.append(tm.source_type)
    return out


@tracked
class AppSchemaStore:
    """``state.appschema``: records by (workspace, store) and document databases by URL."""

    def __init__(self) -> None:
        self.records: dict[Key, AppSchemaRecord] = {}
        self.databases: dict[str, dict[str, Collection]] = {}

    # -- document databases (Python API for tests and scenarios) -----------------------

    def add_documents(
        self, url: str, collection: str, docs: list[Document], geometry: str | None = None
    ) -> Collection:
        """Append sample documents to a collection (created when new); ``_id`` is given a
        counter-based object id when missing."""
        coll = self.databases.setdefault(url, {}).setdefault(collection, Collection())
        for doc in docs:
            doc = dict(doc)
            if object_id(doc.get("_id")) is None:
                doc["_id"] = f"{len(coll.documents) + 1:024x}"
            coll.documents.append(doc)
        if geometry is not None:
            coll.geometry = geometry
        return coll

    def collection(self, url: str, name: str) -> Collection:
        """A collection's documents (an empty one when the database or collection is unknown)."""
        return self.databases.get(url, {}).get(name) or Collection()

    def has_collection(self, url: str, name: str) -> bool:
        return name in self.databases.get(url, {})

    # -- records -----------------------------------------------------------------------

    def record(self, ws: str, store: str) -> AppSchemaRecord | None:
        return self.records.get((ws, store))

    def schemas(self, ws: str, store: str, internal_id: str) -> dict[str, DocumentSchema]:
        """The persisted schemas of an internal store (empty when there is none)."""
        rec = self.records.get((ws, store))
        found = rec.internal.get(internal_id) if rec is not None else None
        return dict(found.schemas) if found is not None else {}

    def remember(self, record: AppSchemaRecord) -> AppSchemaRecord:
        """Store a freshly loaded record; schemas persisted for an internal store of the
        same id and database survive (they live in the store's schema folder)."""
        old = self.records.get((record.workspace, record.store))
        if old is not None:
            for sid, internal in record.internal.items():
                prev = old.internal.get(sid)
                if prev is not None and prev.url == internal.url:
                    internal.schemas = dict(prev.schemas)
        self.records[(record.workspace, record.store)] = record
        return record

    def forget(self, ws: str, store: str) -> None:
        self.records.pop((ws, store), None)

    # -- schemas -------------------------------------------------------------------------

    def infer_missing(self, record: AppSchemaRecord) -> None:
        """What GeoServer does on first access: each collection with documents and no
        persisted schema gets one inferred from its first document."""
        for internal in record.internal.values():
            for name in internal.collections:
                coll = self.collection(internal.url, name)
                if name not in internal.schemas and coll.documents:
                    internal.schemas[name] = infer_schema(
                        name, coll.documents, [], 1, coll.geometry
                    )

    @staticmethod
    def clean(internal: InternalStore) -> None:
        internal.schemas.clear()

    def rebuild(
        self, internal: InternalStore, ids: list[str], max_objects: int, only: str | None = None
    ) -> None:
        """Drop every persisted schema, then infer the used ones (or only ``only``)."""
        internal.schemas.clear()
        for name in [only] if only else internal.collections:
            coll = self.collection(internal.url, name)
            internal.schemas[name] = infer_schema(
                name, coll.documents, ids, max_objects, coll.geometry
            )
