"""GeoServer extensions an emulator can install: a declared table, one row per extension.

A stock GeoServer has none of them: their endpoints answer 404 until an extension is
installed (``serve --extensions importer,monitor``, the scenario setting ``extensions``,
``Emulator(extensions=[...])``, the pytest option ``--geoserver-extensions``). An installed
extension's routes answer, and ``/rest/about/status`` and ``/rest/about/manifest`` list its
modules and jars as GeoServer lists them.

Adding an extension means adding a row: the areas holding its routes (``areas/<area>/
routes.py``, each with a module-level ``routes`` list; named by area, as the core names no
area's module) and the path prefixes they answer under (as ``http/app.py``'s ``AREAS``
writes them), the jars ``/rest/about/manifest`` lists, and the module statuses
``/rest/about/status`` lists (``ModuleStatusImpl`` beans of the extension's
``applicationContext.xml``).

Source of the names: the extensions' ``pom.xml`` (artifact ids and names) and
``applicationContext.xml`` files (module statuses) in geoserver/geoserver ``src/extension``.
"""

from __future__ import annotations

from collections.abc import Iterable

from .record import record


@record(frozen=True)
class Jar:
    """A jar of the extension, as ``/rest/about/manifest`` lists it (``<artifact>-<version>``)."""

    artifact: str
    title: str
    """the ``Specification-Title``/``Implementation-Title`` (the module's Maven name)"""


@record(frozen=True)
class Module:
    """A ``ModuleStatusImpl`` bean, as ``/rest/about/status`` lists it."""

    module: str
    name: str
    component: str | None = None


@record(frozen=True)
class Extension:
    name: str
    routes: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """(area, path prefixes) pairs: the routes of ``areas/<area>/routes.py``"""
    jars: tuple[Jar, ...] = ()
    modules: tuple[Module, ...] = ()


EXTENSIONS: dict[str, Extension] = {
    e.name: e
    for e in (
        Extension(
            "importer",
            routes=(("importer", ("/rest/imports",)),),
            jars=(
                Jar("gs-importer-core", "Importer Core Module"),
                Jar("gs-importer-rest", "Importer REST API Module-ng"),
                Jar("gs-importer-web", "Importer Web UI Module"),
            ),
            modules=(
                Module("gs-importer-core", "Importer Core", "Importer"),
                Module("gs-importer-rest", "Importer REST", "Importer REST API"),
                Module("gs-importer-web", "Importer Web UI", "Importer Page"),
            ),
        ),
        Extension(
            "geofence",
            jars=(
                Jar("gs-geofence", "GeoFence core auth"),
                Jar("gs-geofence-server", "GeoFence Server"),
            ),
            modules=(Module("gs-geofence", "GeoFence"),),
        ),
        Extension(
            "monitor",
            jars=(Jar("gs-monitor-core", "Core Monitor Extension"),),
            modules=(Module("gs-monitor-core", "Monitor Core Extension", "Monitor Core plugin"),),
        ),
        Extension(
            "ogcapi-features",
            routes=(("ogcapi_features", ("/ogc", "/*/ogc", "/*/*/ogc")),),
            jars=(
                Jar("gs-ogcapi-core", "OGC API Core"),
                Jar("gs-ogcapi-features", "OGC API Features"),
            ),
        ),
    )
}
"""Every extension by name, in the order ``--help`` and the docs list them."""


def check(names: Iterable[str] | str, where: str = "extensions") -> frozenset[str]:
    """The extension names (or one comma-separated string of them), checked: ``ValueError``
    (one line) naming an unknown one."""
    if isinstance(names, str):
        names = names.split(",")
    out = frozenset(n.strip() for n in names if n.strip())
    unknown = sorted(out - EXTENSIONS.keys())
    if unknown:
        raise ValueError(
            f"{where}: unknown extension {unknown[0]!r}; known: {', '.join(EXTENSIONS)}"
        )
    return out


def parse(text: str, where: str = "--extensions") -> frozenset[str]:
    """``importer,geofence`` (commas, blanks ignored) as checked names."""
    return check(text, where)


def installed(names: frozenset[str]) -> list[Extension]:
    """The rows of the installed extensions, in table order."""
    return [e for n, e in EXTENSIONS.items() if n in names]
