"""WFS Transaction (1.0.0, 1.1.0, 2.0.0): Insert, Update and Delete on the features the
emulator holds. Every operation is checked and applied to copies first; the state changes
only when the whole transaction succeeded (all or nothing), as a database transaction does.

The data is written through ``features.source_for`` (one ``FeatureTransaction`` per feature
type, committed together once every operation succeeded). A feature type without data yet
(a database-backed type) gets a table on its first write, with the feature type's
attributes. Layer write rules (``ws.layer.w``) apply.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ...core.errors import EmulatorError
from ...databases.errors import DatabaseError
from ...databases.virtual import InvalidParameter
from ...features.model import GEOMETRY_PACKAGES
from ...features.query import Query
from ...features.resolver import source_for
from ...features.source import FeatureSource, FeatureTransaction, ReadOnly
from ...filters import ogc_xml
from ..catalog.entities import FeatureType
from ..ows import collections, gml
from ..ows.errors import INVALID, MISSING, NO_CODE, Denied, OwsError
from ..ows.model import View
from . import query as wfs_query


def _local(tag: Any) -> str:
    return str(tag).rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _ns(tag: Any) -> str | None:
    text = str(tag)
    return text[1:].split("}", 1)[0] if text.startswith("{") else None


def _convert(text: str, binding: str) -> Any:
    """A property's text as the value its binding holds."""
    value = text.strip()
    try:
        if binding in (
            "java.lang.Integer",
            "java.lang.Long",
            "java.lang.Short",
            "java.math.BigInteger",
        ):
            return int(value)
        if binding in ("java.lang.Double", "java.lang.Float", "java.math.BigDecimal"):
            return float(value)
        if binding == "java.lang.Boolean":
            return value.lower() in ("true", "1")
        if binding in ("java.util.Date", "java.sql.Timestamp"):
            return datetime.datetime.fromisoformat(value.replace("Z", "+00:00"))
        if binding == "java.sql.Date":
            return datetime.date.fromisoformat(value[:10])
    except ValueError:
        raise OwsError(
            f"Could not convert '{value}' to {binding}", INVALID, "Transaction"
        ) from None
    return value


GML_IDS = ("{http://www.opengis.net/gml}id", "{http://www.opengis.net/gml/3.2}id", "fid")


@contextmanager
def _write_errors() -> Iterator[None]:
    """A write the source refuses (a read-only type, an id that names no key) as a service
    exception; the database's own failures go on (``dispatch.answer``)."""
    try:
        yield
    except (DatabaseError, InvalidParameter):
        raise
    except ReadOnly as exc:
        raise OwsError(exc.message, NO_CODE, "typeName") from None
    except EmulatorError as exc:
        raise OwsError(exc.message, INVALID, "typeName") from None


def _feature_id(el: Any) -> str | None:
    """The id a feature element carries (``gml:id``, or GML 2's ``fid``)."""
    return next((el.get(key) for key in GML_IDS if el.get(key)), None)


class Transaction:
    def __init__(self, view: View, version: str) -> None:
        self.view = view
        self.version = version
        self.writes: dict[tuple[str, str, str], tuple[FeatureSource, FeatureTransaction]] = {}
        """the source and open transaction of each type written, by (workspace, store,
        native name)"""
        self.inserted: list[str] = []
        self.updated = 0
        self.deleted = 0

    # -- resolving ---------------------------------------------------------------------

    def _type(self, name: str | None, namespace: str | None = None) -> FeatureType:
        if not name:
            raise OwsError("Missing typeName", MISSING, "typeName")
        local = name.rsplit(":", 1)[-1]
        prefix = name.rsplit(":", 1)[0] if ":" in name else None
        catalog = self.view.catalog
        if prefix is None and namespace:
            ns = catalog.namespace_by_uri(namespace)
            prefix = ns.prefix if ns is not None else None
        if prefix is None:
            prefix = self.view.workspace
        candidates = [
            r
            for (ws, n), r in catalog.resources.items()
            if isinstance(r, FeatureType) and n == local and (prefix is None or ws == prefix)
        ]
        if not candidates:
            raise OwsError(f"Feature type {name} unknown", INVALID, "typeName")
        ft = candidates[0]
        layer = catalog.layer(ft.workspace, ft.name)
        if layer is not None and not self.view.enabled(layer):
            raise OwsError(f"Feature type {name} unknown", INVALID, "typeName")
        if layer is not None and not self.view.readable(layer):
            try:
                self.view.find(f"{ft.workspace}:{ft.name}", "typeName")
            except OwsError:
                raise OwsError(f"Feature type {name} unknown", INVALID, "typeName") from None
        if layer is not None:
            self.view.check_write(layer)
        elif not self.view.ask(ft.workspace, ft.name, "write"):
            raise Denied(self.view.principal.anonymous)
        return ft

    def _write(self, ft: FeatureType) -> tuple[FeatureSource, FeatureTransaction]:
        """The type's source and this request's transaction on it (a type without data
        gets a new table, stored on commit)."""
        key = (ft.workspace, ft.store, ft.native_name or ft.name)
        if key not in self.writes:
            source = source_for(self.view.state, ft, create=True)
            if source is None:
                raise OwsError(
                    "The emulator keeps no feature data: transactions are refused", INVALID
                )
            self.writes[key] = (source, source.transaction())
        return self.writes[key]

    # -- operations --------------------------------------------------------------------

    def insert(self, el: Any) -> None:
        existing = (el.get("idgen") or "").strip() == "UseExisting"
        for feature_el in el:
            if not isinstance(feature_el.tag, str):
                continue
            ft = self._type(_local(feature_el.tag), _ns(feature_el.tag))
            _, tx = self._write(ft)
            bindings = {a.name: a.binding for a in tx.attributes}
            props: dict[str, Any] = {name: None for name in bindings}
            for prop in feature_el:
                if not isinstance(prop.tag, str):
                    continue
                name = _local(prop.tag)
                if name not in bindings:
                    raise OwsError(
                        f"Unknown property {name} for feature type {ft.name}", INVALID, name
                    )
                props[name] = self._value(prop, bindings[name], ft)
            given = _feature_id(feature_el) if existing else None
            with _write_errors():
                self.inserted += tx.insert([props], [given])

    def _value(self, prop: Any, binding: str, ft: FeatureType) -> Any:
        geom_el = next((c for c in prop if isinstance(c.tag, str)), None)
        if binding.startswith(GEOMETRY_PACKAGES):
            if geom_el is None:
                return None
            try:
                geom = gml.read_geometry(geom_el, collections.flips(ft, self.version))
            except gml.GeometryError as exc:
                raise OwsError(f"Invalid geometry: {exc}", INVALID, _local(prop.tag)) from None
            return _native(geom, geom_el.get("srsName"), ft, _local(prop.tag))
        return _convert(prop.text or "", binding)

    def _selection(self, el: Any) -> Query:
        """The features an Update or Delete names: its filter's ids or condition (no
        filter: every feature)."""
        flt = next((c for c in el if _local(c.tag) == "Filter"), None)
        if flt is None:
            return Query()
        ids = ogc_xml.resource_ids(flt)
        if ids is not None:
            return Query(fids=tuple(i for i in ids if i))
        cql = ogc_xml.filter_cql(ogc_xml.first_condition(flt)) or "INCLUDE"
        return Query(filter=wfs_query.parse_filter(cql))

    def update(self, el: Any) -> None:
        ft = self._type(el.get("typeName") or el.get("typeNames"))
        _, tx = self._write(ft)
        bindings = {a.name: a.binding for a in tx.attributes}
        changes: dict[str, Any] = {}
        for prop in el:
            if _local(prop.tag) != "Property":
                continue
            name_el = next((c for c in prop if _local(c.tag) in ("Name", "ValueReference")), None)
            name = (name_el.text or "").strip().rsplit(":", 1)[-1] if name_el is not None else ""
            if name not in bindings:
                raise OwsError(f"Unknown property {name} for feature type {ft.name}", INVALID, name)
            value_el = next((c for c in prop if _local(c.tag) == "Value"), None)
            changes[name] = None if value_el is None else self._value(value_el, bindings[name], ft)
        selection = self._selection(el)
        with _write_errors(), wfs_query.filter_errors():
            self.updated += tx.update(selection, changes)

    def delete(self, el: Any) -> None:
        ft = self._type(el.get("typeName") or el.get("typeNames"))
        _, tx = self._write(ft)
        selection = self._selection(el)
        with _write_errors(), wfs_query.filter_errors():
            self.deleted += tx.delete(selection)

    def commit(self) -> None:
        for _, tx in self.writes.values():
            tx.commit()

    def discard(self) -> None:
        for _, tx in self.writes.values():
            tx.discard()


def run(view: View, root: Any, version: str) -> Transaction:
    tx = Transaction(view, version)
    try:
        _apply(tx, root)
    except BaseException:
        tx.discard()
        raise
    tx.commit()
    return tx


def _apply(tx: Transaction, root: Any) -> None:
    for op in root:
        kind = _local(op.tag)
        if kind == "Insert":
            tx.insert(op)
        elif kind == "Update":
            tx.update(op)
        elif kind == "Delete":
            tx.delete(op)
        elif kind in ("Native", "LockId", "Replace") or not kind:
            if kind:
                raise OwsError(f"{kind} is not supported by the emulator", INVALID, kind)


def _native(geom: Any, srs_name: str | None, ft: FeatureType, locator: str) -> Any:
    """A geometry given in ``srs_name`` transformed into the type's own CRS (as GeoServer
    reprojects what a transaction writes); an unknown CRS is ``InvalidParameterValue``."""
    if not srs_name or geom is None or not ft.srs:
        return geom
    from ...core.errors import EmulatorError
    from ...crs import geometries

    try:
        return geometries.reproject([geom], srs_name, ft.srs)[0]
    except EmulatorError:
        raise OwsError(f"Unable to support srsName: {srs_name}", INVALID, locator) from None
