"""Checked reads of scenario sections: every error names the file and the key path."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..core.errors import ScenarioError


class Section:
    """A JSON object from a scenario file, read with type checks."""

    def __init__(self, data: Any, where: str) -> None:
        if not isinstance(data, dict):
            raise ScenarioError(f"{where}: expected an object")
        self.data: dict[str, Any] = data
        self.where = where

    def only(self, allowed: Iterable[str]) -> Section:
        unknown = sorted(set(self.data) - set(allowed))
        if unknown:
            raise ScenarioError(f"{self.where}.{unknown[0]}: unknown key")
        return self

    def has(self, key: str) -> bool:
        return key in self.data

    def _get(self, key: str, required: bool) -> Any:
        if key not in self.data:
            if required:
                raise ScenarioError(f"{self.where}.{key}: missing")
            return None
        return self.data[key]

    def str(self, key: str, default: str | None = None, required: bool = False) -> Any:
        v = self._get(key, required)
        if v is None:
            return default
        if not isinstance(v, str):
            raise ScenarioError(f"{self.where}.{key}: expected a string")
        return v

    def bool(self, key: str, default: bool | None = None, required: bool = False) -> Any:
        v = self._get(key, required)
        if v is None:
            return default
        if not isinstance(v, bool):
            raise ScenarioError(f"{self.where}.{key}: expected true or false")
        return v

    def int(self, key: str, default: int | None = None, required: bool = False) -> Any:
        v = self._get(key, required)
        if v is None:
            return default
        if isinstance(v, bool) or not isinstance(v, int):
            raise ScenarioError(f"{self.where}.{key}: expected an integer")
        return v

    def number(self, key: str, default: float | None = None, required: bool = False) -> Any:
        v = self._get(key, required)
        if v is None:
            return default
        if isinstance(v, bool) or not isinstance(v, int | float):
            raise ScenarioError(f"{self.where}.{key}: expected a number")
        return v

    def list(self, key: str, required: bool = False) -> list[Any]:
        v = self._get(key, required)
        if v is None:
            return []
        if not isinstance(v, list):
            raise ScenarioError(f"{self.where}.{key}: expected a list")
        return v

    def strings(self, key: str, required: bool = False) -> list[str]:
        items = self.list(key, required)
        for i, item in enumerate(items):
            if not isinstance(item, str):
                raise ScenarioError(f"{self.where}.{key}[{i}]: expected a string")
        return items

    def obj(self, key: str, required: bool = False) -> Section | None:
        v = self._get(key, required)
        if v is None:
            return None
        return Section(v, f"{self.where}.{key}")

    def dict(self, key: str, required: bool = False) -> dict[str, Any]:
        v = self._get(key, required)
        if v is None:
            return {}
        if not isinstance(v, dict):
            raise ScenarioError(f"{self.where}.{key}: expected an object")
        return v

    def items(self, key: str, required: bool = False) -> list[Section]:
        return [Section(v, f"{self.where}.{key}[{i}]") for i, v in enumerate(self.list(key, required))]
