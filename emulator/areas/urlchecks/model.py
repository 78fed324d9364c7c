"""URL checks: the regular expressions that say which user-supplied URLs GeoServer may fetch.

The store keeps the checks in insertion order, as GeoServer's ``URLCheckDAO`` does, with a
global switch that is on in a fresh install. A URL is allowed when the checks are off, or
when it fully matches the regex of any enabled check (first match wins; an empty URL, or no
enabled check at all, denies). Every match is time-bounded (``regexes.MATCH_TIMEOUT``); a
match that runs out of time counts as no match, and one evaluation never takes longer
than ``regexes.TOTAL_TIMEOUT`` in all: past it, it stops with ``core.budget.TooCostly``
(400), however many checks there are.
"""

from __future__ import annotations

from ...core.budget import Budget
from ...core.errors import Conflict, Invalid, NotFound
from ...core.record import field, record
from . import regexes
from .regexes import regex


@record
class UrlCheck:
    """A ``RegexURLCheck``: a named, switchable regular expression."""

    name: str
    regex: str
    description: str | None = None
    enabled: bool = False


@record(frozen=True)
class CheckInput:
    """A check as a client sent it: ``None`` where a field was absent."""

    name: str | None = None
    description: str | None = None
    enabled: bool | None = None
    regex: str | None = None


@record(frozen=True)
class Evaluation:
    """Why a URL is allowed or not."""

    url: str
    allowed: bool
    checks_enabled: bool
    matched_by: str | None = None
    timed_out: tuple[str, ...] = ()
    """enabled checks whose match ran out of time (counted as no match)"""


@record
class UrlCheckStore:
    enabled: bool = True
    """the global switch; off means every URL is allowed"""
    checks: list[UrlCheck] = field(default_factory=list)

    # -- reads -----------------------------------------------------------------------------

    def find(self, name: str | None) -> UrlCheck | None:
        """The check with exactly this name (case-sensitive), or None."""
        return next((c for c in self.checks if c.name == name), None)

    def get(self, name: str) -> UrlCheck:
        check = self.find(name)
        if check is None:
            raise NotFound(f"No such URL check found: '{name}'")
        return check

    # -- writes ----------------------------------------------------------------------------

    def create(self, given: CheckInput) -> UrlCheck:
        """Add a check; GeoServer's order of complaints: duplicate, name, regex."""
        if given.name is not None and self.find(given.name) is not None:
            raise Conflict(f"URL check '{given.name}' already exists")
        if not given.name:
            raise Invalid("The URL check name is required")
        if not given.regex:
            raise Invalid("The URL check configuration is required")
        regexes.vet(given.regex)
        check = UrlCheck(given.name, given.regex, given.description, bool(given.enabled))
        self.checks.append(check)
        return check

    def update(self, name: str, given: CheckInput) -> UrlCheck:
        """Copy the given fields onto the check called ``name``, in place.

        As the newest GeoServer: a given name renames the check; ``enabled`` is always
        copied, so leaving it out disables the check.
        """
        check = self.find(name)
        if check is None:
            raise NotFound(f"Can't change a non existent URL check ({name})")
        if given.regex is not None:
            if not given.regex:
                raise Invalid("The URL check configuration is required")
            regexes.vet(given.regex)
        if given.name is not None and given.name != check.name:
            if not given.name:
                raise Invalid("The URL check name is required")
            if self.find(given.name) is not None:
                raise Conflict(f"URL check '{given.name}' already exists")
            check.name = given.name
        if given.description is not None:
            check.description = given.description
        if given.regex is not None:
            check.regex = given.regex
        check.enabled = bool(given.enabled)
        return check

    def delete(self, name: str) -> None:
        self.checks.remove(self.get(name))

    # -- evaluation ------------------------------------------------------------------------

    def evaluate(self, url: str | None) -> Evaluation:
        """Whether GeoServer would let ``url`` be fetched, and which check allowed it."""
        text = url or ""
        if not self.enabled:
            return Evaluation(text, True, False)
        if not text:
            return Evaluation(text, False, True)
        timed_out: list[str] = []
        budget = Budget("URL checks against this URL", regexes.TOTAL_TIMEOUT)
        for check in self.checks:
            if not check.enabled:
                continue
            try:
                if regexes.fullmatch(check.regex, text, budget):
                    return Evaluation(text, True, True, check.name, tuple(timed_out))
            except regexes.PatternTimeout:
                timed_out.append(check.name)
            except regex.error:
                continue  # only a scenario edited by hand can hold one; GeoServer fails here
        return Evaluation(text, False, True, None, tuple(timed_out))

    def allows(self, url: str | None) -> bool:
        return self.evaluate(url).allowed
