"""Checked reads of scenario sections: every error names the file and the key path."""

from __future__ import annotations

import builtins
from collections.abc import Iterable
from typing import Any

from ..core.errors import ScenarioError


class Section:
    """A JSON object from a scenario file, read with type checks."""

    def __init__(self, data: Any, where: builtins.str) -> None:
        if not isinstance(data, dict):
            raise ScenarioError(f"{where}: expected an object")
        self.data: dict[str, Any] = data
        self.where = where

    def only(self, allowed: Iterable[builtins.str]) -> Section:
        unknown = sorted(set(self.data) - set(allowed))
        if unknown:
            raise ScenarioError(f"{self.where}.{unknown[0]}: unknown key")
        return self

    def has(self, key: builtins.str) -> builtins.bool:
        return key in self.data

    def _get(self, key: builtins.str, required: builtins.bool) -> Any:
        if key not in self.data:
            if required:
                raise ScenarioError(f"{self.where}.{key}: missing")
            return None
        return self.data[key]

    def str(
        self,
        key: builtins.str,
        default: builtins.str | None = None,
        required: builtins.bool = False,
    ) -> Any:
        v = self._get(key, required)
        if v is None:
            return default
        if not isinstance(v, str):
            raise ScenarioError(f"{self.where}.{key}: expected a string")
        return v

    def bool(
        self,
        key: builtins.str,
        default: builtins.bool | None = None,
        required: builtins.bool = False,
    ) -> Any:
        v = self._get(key, required)
        if v is None:
            return default
        if not isinstance(v, bool):
            raise ScenarioError(f"{self.where}.{key}: expected true or false")
        return v

    def int(
        self,
        key: builtins.str,
        default: builtins.int | None = None,
        required: builtins.bool = False,
    ) -> Any:
        v = self._get(key, required)
        if v is None:
            return default
        if isinstance(v, bool) or not isinstance(v, int):
            raise ScenarioError(f"{self.where}.{key}: expected an integer")
        return v

    def number(
        self, key: builtins.str, default: float | None = None, required: builtins.bool = False
    ) -> Any:
        v = self._get(key, required)
        if v is None:
            return default
        if isinstance(v, bool) or not isinstance(v, int | float):
            raise ScenarioError(f"{self.where}.{key}: expected a number")
        return v

    def list(self, key: builtins.str, required: builtins.bool = False) -> builtins.list[Any]:
        v = self._get(key, required)
        if v is None:
            return []
        if not isinstance(v, list):
            raise ScenarioError(f"{self.where}.{key}: expected a list")
        return v

    def strings(
        self, key: builtins.str, required: builtins.bool = False
    ) -> builtins.list[builtins.str]:
        items = self.list(key, required)
        for i, item in enumerate(items):
            if not isinstance(item, str):
                raise ScenarioError(f"{self.where}.{key}[{i}]: expected a string")
        return items

    def obj(self, key: builtins.str, required: builtins.bool = False) -> Section | None:
        v = self._get(key, required)
        if v is None:
            return None
        return Section(v, f"{self.where}.{key}")

    def dict(
        self, key: builtins.str, required: builtins.bool = False
    ) -> builtins.dict[builtins.str, Any]:
        v = self._get(key, required)
        if v is None:
            return {}
        if not isinstance(v, dict):
            raise ScenarioError(f"{self.where}.{key}: expected an object")
        return v

    def items(self, key: builtins.str, required: builtins.bool = False) -> builtins.list[Section]:
        return [
            Section(v, f"{self.where}.{key}[{i}]") for i, v in enumerate(self.list(key, required))
        ]
