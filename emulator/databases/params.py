"""A PostGIS store's connection parameters, read as GeoTools' ``PostgisNGDataStoreFactory``
(and the ``JDBCDataStoreFactory`` it extends) reads them: the same keys, the same defaults.

Values arrive as the text a store's ``connectionParameters`` hold; a value that does not read
as its type falls back to the default (GeoTools' ``Param.lookUp`` would refuse the store
instead; the emulator keeps the store usable and says so in ``docs/databases.md``).
"""

from __future__ import annotations

from collections.abc import Mapping

from ..core.record import record

DBTYPES = frozenset({"postgis", "postgisng"})
"""the ``dbtype`` values the PostGIS factory accepts"""

DEFAULT_PORT = 5432
DEFAULT_SCHEMA = "public"
DEFAULT_STATEMENT_TIMEOUT = 30.0
"""seconds a statement may run when the store's parameters name no limit (GeoTools has no
such parameter): documented in ``docs/databases.md``"""


@record(frozen=True)
class ConnectionParams:
    """What the emulator uses of a PostGIS store's parameters (GeoTools' keys in comments)."""

    host: str = "localhost"  # host
    port: int = DEFAULT_PORT  # port
    database: str = ""  # database
    schema: str = DEFAULT_SCHEMA  # schema
    user: str = ""  # user
    passwd: str = ""  # passwd
    expose_primary_keys: bool = False  # Expose primary keys
    loose_bbox: bool = True  # Loose bbox
    estimated_extents: bool = True  # Estimated extends
    max_connections: int = 10  # max connections
    min_connections: int = 1  # min connections
    connection_timeout: float = 20.0  # Connection timeout (seconds waited for a connection)
    fetch_size: int = 1000  # fetch size
    max_idle_time: float = 300.0  # Max connection idle time (seconds)
    validate_connections: bool = True  # validate connections
    encode_functions: bool = True  # encode functions
    prepared_statements: bool = False  # preparedStatements
    ssl_mode: str = "DISABLE"  # SSL mode

    @property
    def key(self) -> tuple[str, int, str, str, str]:
        """Where and as whom the store connects: stores with the same key share a pool."""
        return (self.host.lower(), self.port, self.database, self.user, self.passwd)

    @property
    def where(self) -> str:
        return f"{self.host}:{self.port}"


def is_postgis(params: Mapping[str, str]) -> bool:
    """Whether a data store's parameters name the PostGIS factory."""
    return str(params.get("dbtype", "")).strip().lower() in DBTYPES


def read(params: Mapping[str, str]) -> ConnectionParams:
    """The connection parameters of a PostGIS store (defaults for what is missing)."""
    d = ConnectionParams()
    return ConnectionParams(
        host=_text(params, "host", d.host),
        port=_int(params, "port", d.port),
        database=_text(params, "database", d.database),
        schema=_text(params, "schema", d.schema),
        user=_text(params, "user", d.user),
        passwd=str(params.get("passwd") or ""),
        expose_primary_keys=_bool(params, "Expose primary keys", d.expose_primary_keys),
        loose_bbox=_bool(params, "Loose bbox", d.loose_bbox),
        estimated_extents=_bool(params, "Estimated extends", d.estimated_extents),
        max_connections=max(1, _int(params, "max connections", d.max_connections)),
        min_connections=max(0, _int(params, "min connections", d.min_connections)),
        connection_timeout=float(_int(params, "Connection timeout", 20)),
        fetch_size=max(1, _int(params, "fetch size", d.fetch_size)),
        max_idle_time=float(max(0, _int(params, "Max connection idle time", 300))),
        validate_connections=_bool(params, "validate connections", d.validate_connections),
        encode_functions=_bool(params, "encode functions", d.encode_functions),
        prepared_statements=_bool(params, "preparedStatements", d.prepared_statements),
        ssl_mode=_text(params, "SSL mode", d.ssl_mode).upper(),
    )


def _text(params: Mapping[str, str], key: str, default: str) -> str:
    value = params.get(key)
    return str(value).strip() if value is not None and str(value).strip() else default


def _int(params: Mapping[str, str], key: str, default: int) -> int:
    try:
        return int(str(params.get(key, "")).strip())
    except ValueError:
        return default


def _bool(params: Mapping[str, str], key: str, default: bool) -> bool:
    value = str(params.get(key, "")).strip().lower()
    if value in ("true", "false"):
        return value == "true"
    return default
