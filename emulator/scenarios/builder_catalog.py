"""The catalog part of ``ScenarioBuilder``: workspaces, stores, resources, layers, groups.

It writes the ``catalog`` scenario section (see ``emulator/areas/catalog/scenario.py``):

    b = ScenarioBuilder("stock")
    ws = b.workspace("acme", uri="http://acme.example.com")
    ws.datastore("roads_db", type="PostGIS", connection_parameters={"host": "db"}) \\
      .feature_type("roads", attributes=["the_geom:MultiLineString", "name:String"],
                    bbox=(-10, 40, 5, 50), default_style="line")
    ws.coverage_store("dem", type="GeoTIFF", url="file:data/dem.tif").coverage("dem")
    b.layer_group("basemap", ["acme:roads", "acme:dem"])

The catalog section only adds: a workspace the base already has is referred to, not
created again; stores, resources and groups must be new.
"""

from __future__ import annotations

from typing import Any

BBox = tuple[float, float, float, float]
"""minx, miny, maxx, maxy"""


def bbox_section(box: BBox, crs: str | None = None) -> dict[str, Any]:
    minx, miny, maxx, maxy = box
    out: dict[str, Any] = {"minx": minx, "maxx": maxx, "miny": miny, "maxy": maxy}
    if crs is not None:
        out["crs"] = crs
    return out


def layer_section(
    layer: bool, default_style: str | None, styles: list[str] | tuple[str, ...]
) -> Any:
    if not layer:
        return False
    out: dict[str, Any] = {}
    if default_style is not None:
        out["defaultStyle"] = default_style
    if styles:
        out["styles"] = list(styles)
    return out


def resource_section(
    name: str,
    srs: str,
    bbox: BBox | None,
    title: str | None,
    layer: bool,
    default_style: str | None,
    styles: list[str] | tuple[str, ...],
    extra: dict[str, Any],
) -> dict[str, Any]:
    out: dict[str, Any] = {"name": name, "srs": srs}
    if title is not None:
        out["title"] = title
    if bbox is not None:
        out["nativeBoundingBox"] = bbox_section(bbox)
    out["layer"] = layer_section(layer, default_style, styles)
    out.update(extra)
    return out


class CatalogSection:
    """The catalog additions of one builder, in the section's shape."""

    def __init__(self, changed: Any) -> None:
        self._changed = changed
        self.workspaces: dict[str, dict[str, Any]] = {}
        self.data_stores: list[dict[str, Any]] = []
        self.coverage_stores: list[dict[str, Any]] = []
        self.layer_groups: list[dict[str, Any]] = []
        self.default_workspace: str | None = None

    def touched(self) -> None:
        self._changed()

    def document(self, existing_workspaces: set[str]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        new = [w for name, w in self.workspaces.items() if name not in existing_workspaces]
        if new:
            out["workspaces"] = new
        if self.default_workspace is not None:
            out["defaultWorkspace"] = self.default_workspace
        if self.data_stores:
            out["dataStores"] = self.data_stores
        if self.coverage_stores:
            out["coverageStores"] = self.coverage_stores
        if self.layer_groups:
            out["layerGroups"] = self.layer_groups
        return out

    def __bool__(self) -> bool:
        return bool(
            self.workspaces
            or self.data_stores
            or self.coverage_stores
            or self.layer_groups
            or self.default_workspace
        )


class WorkspaceBuilder:
    """A workspace of the scenario; its methods add stores to it."""

    def __init__(self, section: CatalogSection, name: str) -> None:
        self._section = section
        self.name = name

    def datastore(
        self,
        name: str,
        *,
        type: str | None = None,
        connection_parameters: dict[str, str] | None = None,
        description: str | None = None,
        enabled: bool = True,
    ) -> DataStoreBuilder:
        """A vector store; add its feature types with ``feature_type``."""
        entry: dict[str, Any] = {"workspace": self.name, "name": name, "enabled": enabled}
        if type is not None:
            entry["type"] = type
        if description is not None:
            entry["description"] = description
        entry["connectionParameters"] = dict(connection_parameters or {})
        entry["featureTypes"] = []
        self._section.data_stores.append(entry)
        self._section.touched()
        return DataStoreBuilder(self._section, entry)

    def coverage_store(
        self,
        name: str,
        *,
        type: str | None = "GeoTIFF",
        url: str | None = None,
        description: str | None = None,
        enabled: bool = True,
    ) -> CoverageStoreBuilder:
        """A raster store; add its coverages with ``coverage``."""
        entry: dict[str, Any] = {"workspace": self.name, "name": name, "enabled": enabled}
        for key, value in (("type", type), ("url", url), ("description", description)):
            if value is not None:
                entry[key] = value
        entry["coverages"] = []
        self._section.coverage_stores.append(entry)
        self._section.touched()
        return CoverageStoreBuilder(self._section, entry)


class DataStoreBuilder:
    """A data store of the scenario."""

    def __init__(self, section: CatalogSection, entry: dict[str, Any]) -> None:
        self._section = section
        self.entry = entry

    def feature_type(
        self,
        name: str,
        *,
        srs: str = "EPSG:4326",
        bbox: BBox | None = None,
        attributes: list[str | dict[str, Any]] | None = None,
        title: str | None = None,
        layer: bool = True,
        default_style: str | None = None,
        styles: list[str] | tuple[str, ...] = (),
    ) -> DataStoreBuilder:
        """A feature type, published as a layer unless ``layer=False``. Attributes are
        ``"name:Binding"`` strings (``"the_geom:MultiPolygon"``) or objects."""
        extra = {"attributes": list(attributes)} if attributes else {}
        self.entry["featureTypes"].append(
            resource_section(name, srs, bbox, title, layer, default_style, styles, extra)
        )
        self._section.touched()
        return self


class CoverageStoreBuilder:
    """A coverage store of the scenario."""

    def __init__(self, section: CatalogSection, entry: dict[str, Any]) -> None:
        self._section = section
        self.entry = entry

    def coverage(
        self,
        name: str,
        *,
        srs: str = "EPSG:4326",
        bbox: BBox | None = None,
        native_coverage_name: str | None = None,
        title: str | None = None,
        layer: bool = True,
        default_style: str | None = None,
        styles: list[str] | tuple[str, ...] = (),
    ) -> CoverageStoreBuilder:
        """A coverage, published as a layer unless ``layer=False``."""
        extra = {"nativeCoverageName": native_coverage_name} if native_coverage_name else {}
        self.entry["coverages"].append(
            resource_section(name, srs, bbox, title, layer, default_style, styles, extra)
        )
        self._section.touched()
        return self
