"""Authentication filter chains: the request chains of the security configuration, in the
order they are tried (``GeoServerSecurityFilterChain``), as ``/rest/security/filterchain``
manages them.

A fresh install has GeoServer's initial chains: ``web``, ``webLogin``, ``webLogout``,
``rest``, ``gwc``, ``default``. Classes are canonical (vendor part dropped); constant
chains (``ConstantFilterChain``, ``LogoutFilterChain``) cannot be removed.
"""

from __future__ import annotations

import re

from ...core.errors import EmulatorError, Invalid, NotFound
from ...core.record import field, record

VARIABLE = ("security.HtmlLoginFilterChain", "security.ServiceLoginFilterChain")
CONSTANT = ("security.ConstantFilterChain", "security.LogoutFilterChain")
ALLOWED = (*VARIABLE, *CONSTANT, "security.VariableFilterChain")
"""the chain classes GeoServer accepts (``AllowedAuthFilterChainClasses`` built-ins)"""
SAFE_NAME = re.compile(r"[A-Za-z0-9_.-]{1,64}")
RESERVED = frozenset({"order"})


class Gone(EmulatorError):
    status = 410


@record
class FilterChain:
    name: str
    cls: str
    patterns: list[str] = field(default_factory=list)
    filters: list[str] = field(default_factory=list)
    disabled: bool = False
    allow_session_creation: bool = False
    require_ssl: bool = False
    match_http_method: bool = False
    interceptor_name: str | None = None
    exception_translation_name: str | None = None
    role_filter_name: str | None = None

    @property
    def removable(self) -> bool:
        return self.cls not in CONSTANT


def _variable(name: str, cls: str, patterns: str, filters: list[str], **kw: object) -> FilterChain:
    chain = FilterChain(name, cls, patterns.split(","), filters, **kw)  # type: ignore[arg-type]
    chain.interceptor_name = chain.interceptor_name or "interceptor"
    chain.exception_translation_name = "exception"
    return chain


def initial_chains() -> list[FilterChain]:
    """GeoServer's initial chains (``GeoServerSecurityFilterChain.INITIAL``)."""
    html, service = VARIABLE
    constant, logout = CONSTANT
    return [
        _variable(
            "web",
            html,
            "/web/**,/gwc/rest/web/**",
            ["rememberme", "form", "anonymous"],
            allow_session_creation=True,
        ),  # fmt: skip
        FilterChain(
            "webLogin",
            constant,
            "/j_spring_security_check,/j_spring_security_check/,/login".split(","),
            ["form"],
            allow_session_creation=True,
        ),  # fmt: skip
        FilterChain(
            "webLogout",
            logout,
            "/j_spring_security_logout,/j_spring_security_logout/,/logout".split(","),
            ["formLogout"],
        ),  # fmt: skip
        _variable(
            "rest",
            service,
            "/rest.*,/rest/**",
            ["basic", "anonymous"],
            interceptor_name="restInterceptor",
        ),  # fmt: skip
        _variable(
            "gwc",
            service,
            "/gwc/rest.*,/gwc/rest/**",
            ["basic"],
            interceptor_name="restInterceptor",
        ),  # fmt: skip
        _variable("default", service, "/**", ["basic", "anonymous"]),
    ]


@record
class FilterChainStore:
    chains: list[FilterChain] = field(default_factory=initial_chains)

    def find(self, name: str) -> FilterChain:
        for chain in self.chains:
            if chain.name == name:
                return chain
        raise NotFound(f"Cannot find the filter chain {name} in the Security configuration.")

    def _index(self, name: str) -> int:
        return next((i for i, c in enumerate(self.chains) if c.name == name), -1)

    def create(self, chain: FilterChain, position: int | None) -> None:
        if not SAFE_NAME.fullmatch(chain.name):
            raise Invalid("Invalid chain name")
        _check(chain)
        if self._index(chain.name) >= 0:
            raise Invalid(
                f"Cannot create the filter chain {chain.name} because one with that name"
                " already exists."
            )
        at = len(self.chains) if position is None else position
        if not 0 <= at <= len(self.chains):
            raise Invalid("position out of range")
        self.chains.insert(at, chain)

    def update(self, name: str, chain: FilterChain, position: int | None) -> None:
        _check(chain)
        if chain.name != name:
            raise Invalid("chainName must match payload name")
        at = self._index(name)
        if at < 0:
            self.find(name)
        self.chains[at] = chain
        if position is not None and 0 <= position < len(self.chains) and position != at:
            self.chains.insert(position, self.chains.pop(at))

    def delete(self, name: str) -> None:
        at = self._index(name)
        if at < 0:
            raise Gone(f"Cannot delete {name} as no filter exists")
        if not self.chains[at].removable:
            raise Invalid(f"Filter chain {name} cannot be removed.")
        del self.chains[at]

    def reorder(self, names: list[str]) -> None:
        if not names:
            raise Invalid("`order` list required")
        if set(names) != {c.name for c in self.chains}:
            raise Invalid("Order must include exactly the current set of chains")
        by_name = {c.name: c for c in self.chains}
        self.chains = [by_name[n] for n in names]


def _check(chain: FilterChain) -> None:
    if not chain.name:
        raise Invalid("name is required")
    if chain.name.lower() in RESERVED:
        raise Invalid(f"'{chain.name}' is reserved")
    if chain.cls not in ALLOWED:
        raise Invalid("Unsupported className")
