"""Scenario section ``authProviders``: the provider configurations and the active list.

    "authProviders": {
      "providers": [
        {"name": "default", "id": "...",
         "className": "org.geoserver.security.auth.UsernamePasswordAuthenticationProvider",
         "configClass":
           "org.geoserver.security.config.UsernamePasswordAuthenticationProviderConfig",
         "userGroupServiceName": "default", "fields": {}}],
      "active": ["default"]
    }

``configClass`` may be left out for a known provider class. ``fields`` holds the other
fields: typed and checked for the known classes (LDAP's ``serverURL``, ``useTLS``…), kept
as given for any other class. Providers left out of ``active`` are configured but disabled.
"""

from __future__ import annotations

from typing import Any

from ...core.errors import Invalid, ScenarioError
from ...core.state import State
from ...scenarios.context import ScenarioContext
from ...scenarios.fields import Section
from ...wire import xml as wxml
from .classes import USER_GROUP_SERVICE, ProviderClass, known_provider, typed_fields
from .model import USERNAME_PASSWORD_CONFIG, ProviderConfig, config_fields


def apply(state: State, sec: Section, ctx: ScenarioContext) -> None:
    sec.only({"providers", "active"})
    store = state.auth_providers
    for p in sec.items("providers"):
        p.only({"name", "id", "className", "configClass", "userGroupServiceName", "fields"})
        name = p.str("name", required=True)
        class_name = ctx.vendor.canonical(p.str("className", required=True))
        known = known_provider(class_name)
        default_config = known.config if known else USERNAME_PASSWORD_CONFIG
        config_class = ctx.vendor.canonical(p.str("configClass") or ctx.vendor.emit(default_config))
        _check_tag(ctx.vendor.emit(config_class), f"{p.where}.configClass")
        pclass = known or ProviderClass(class_name, config_class)
        raw = {**p.dict("fields"), USER_GROUP_SERVICE: p.str("userGroupServiceName")}
        try:
            fields = typed_fields(pclass, raw)
        except Invalid as exc:
            raise ScenarioError(f"{p.where}.fields: {exc.message}") from None
        store.configs[name] = ProviderConfig(
            id=p.str("id") or state.ids.object_id("authprovider"),
            name=name,
            class_name=class_name,
            config_class=config_class,
            user_group_service=fields.pop(USER_GROUP_SERVICE, None),
            extra=fields,
        )
    if sec.has("active"):
        active = sec.strings("active")
        unknown = [n for n in active if n not in store.configs]
        if unknown:
            raise ScenarioError(f"{sec.where}.active: unknown provider {unknown[0]}")
        if len(set(active)) != len(active):
            raise ScenarioError(f"{sec.where}.active: a provider is listed twice")
        store.active = list(active)


def dump(state: State, ctx: ScenarioContext) -> dict[str, Any]:
    store = state.auth_providers
    providers = []
    for p in store.configs.values():
        fields = dict(config_fields(p, store.class_of(p)))
        fields.pop(USER_GROUP_SERVICE, None)
        providers.append(
            {
                "name": p.name,
                "id": p.id,
                "className": ctx.vendor.emit(p.class_name),
                "configClass": ctx.vendor.emit(p.config_class),
                "userGroupServiceName": p.user_group_service,
                "fields": {k: v for k, v in fields.items() if v is not None},
            }
        )
    return {"providers": providers, "active": list(store.active)}


def _check_tag(name: str, where: str) -> None:
    try:
        wxml.check_name(name)
    except ValueError:
        raise ScenarioError(f"{where}: {name!r} cannot be an XML element name") from None
