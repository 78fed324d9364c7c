"""Keystore password, root login, catalog mode and the three access-rule sets.

Every change is checked completely before anything is written, so a refused request leaves
the store as it was.
"""

from __future__ import annotations

from collections.abc import Mapping

from ...core.errors import Conflict, Invalid, NotFound, Unprocessable
from ...core.record import field, record
from . import rules as keys

CATALOG_MODES = ("HIDE", "MIXED", "CHALLENGE")
KEYSTORE_PASSWORD_MIN_LENGTH = 8
"""the ``master`` password policy of a stock install: a minimum length and nothing else"""


@record
class SecurityStore:
    keystore_password: str = "geoserver"
    root_login: bool = False
    catalog_mode: str = "HIDE"
    layer_rules: dict[str, list[str]] = field(default_factory=dict)
    service_rules: dict[str, list[str]] = field(default_factory=dict)
    rest_rules: dict[str, list[str]] = field(default_factory=dict)
    """``antPattern:METHOD[,METHOD]`` → roles, in evaluation order"""
    reloads: int = 0
    """how many times the security configuration was reloaded (provider, filter writes…)"""

    def reload(self) -> None:
        self.reloads += 1

    # -- keystore password ---------------------------------------------------------------

    def change_keystore_password(self, current: object, new: object) -> None:
        """Replace the keystore password; both values are trimmed first.

        Missing or blank values are a 400; a wrong current password, a new one the policy
        refuses, or a new one equal to the current are a 422, checked in that order.
        """
        if not isinstance(current, str) or not current.strip():
            raise Invalid("no master password")
        if not isinstance(new, str) or not new.strip():
            raise Invalid("no master password")
        current, new = current.strip(), new.strip()
        if current != self.keystore_password:
            raise Unprocessable("Cannot change master password: the current password is wrong")
        if len(new) < KEYSTORE_PASSWORD_MIN_LENGTH:
            raise Unprocessable(
                "Cannot change master password: the new password must have at least "
                f"{KEYSTORE_PASSWORD_MIN_LENGTH} characters"
            )
        if new == current:
            raise Unprocessable(
                "Cannot change master password: the new password equals the current one"
            )
        self.keystore_password = new

    # -- catalog mode --------------------------------------------------------------------

    def set_catalog_mode(self, mode: object) -> None:
        """Set the mode from a request's ``mode`` value (None when the element was missing)."""
        if mode is None:
            raise NotFound("Element mode is missing")
        if mode not in CATALOG_MODES:
            raise Unprocessable(f"Not a valid mode: {mode}")
        assert isinstance(mode, str)
        self.catalog_mode = mode

    # -- access rules --------------------------------------------------------------------

    def rules(self, kind: str) -> dict[str, list[str]]:
        """The live rule set of ``kind`` (``layers``, ``services`` or ``rest``)."""
        if kind == keys.LAYERS:
            return self.layer_rules
        if kind == keys.SERVICES:
            return self.service_rules
        if kind == keys.REST:
            return self.rest_rules
        raise NotFound(f"No such rule set: {kind}")

    def replace_rules(self, kind: str, entries: Mapping[str, str]) -> None:
        """Replace the whole rule set of ``kind`` (scenario loading); keys are checked."""
        parsed = self._checked(kind, entries)
        self._store(kind, parsed)

    def add_rules(self, kind: str, entries: Mapping[str, str]) -> None:
        """Add new rules; if any key exists already nothing is added (409)."""
        parsed = self._checked(kind, entries)
        current = self.rules(kind)
        existing = [k for k in parsed if k in current]
        if existing:
            raise Conflict("Already existing rules: " + ",".join(existing))
        self._store(kind, {**current, **parsed})

    def modify_rules(self, kind: str, entries: Mapping[str, str]) -> None:
        """Give existing rules new roles; if any key is unknown nothing changes (409)."""
        parsed = self._checked(kind, entries)
        current = self.rules(kind)
        unknown = [k for k in parsed if k not in current]
        if unknown:
            raise Conflict("Unknown rules: " + ",".join(unknown))
        self._store(kind, {**current, **parsed})

    def delete_rule(self, kind: str, key: str) -> None:
        """Remove the rule with exactly this key (422 when malformed, 404 when absent)."""
        error = keys.key_error(kind, key)
        if error is not None:
            raise Unprocessable(error)
        current = self.rules(kind)
        if key not in current:
            raise NotFound(f"Rule not found: {key}")
        self._store(kind, {k: v for k, v in current.items() if k != key})

    def _checked(self, kind: str, entries: Mapping[str, str]) -> dict[str, list[str]]:
        """Keys validated (the first bad one is a 422) and normalised; roles parsed."""
        self.rules(kind)
        for key in entries:
            error = keys.key_error(kind, key)
            if error is not None:
                raise Unprocessable(error)
        return {keys.normal_key(kind, k): keys.parse_roles(v) for k, v in entries.items()}

    def _store(self, kind: str, rules: dict[str, list[str]]) -> None:
        ordered = {k: rules[k] for k in keys.ordered(kind, rules)}
        if kind == keys.LAYERS:
            self.layer_rules = ordered
        elif kind == keys.SERVICES:
            self.service_rules = ordered
        else:
            self.rest_rules = ordered
