"""Hypothesis strategies for property tests of GeoServer clients (needs ``hypothesis``).

Each strategy draws a *valid* payload as the interface spec shapes it, in its JSON form (a
dict ready for ``json=``); the ``*_xml`` functions write the same payload as XML. Use them to
check that a client survives any valid configuration, not just the one in its fixtures:

    @given(rules=strategies.access_rules("layers"))
    def test_roundtrip(rules, geoserver_client): ...

Names are drawn from a conservative alphabet (letters, digits, ``_`` and ``-``, starting
with a letter) that every GeoServer endpoint accepts.
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape, quoteattr

from hypothesis import strategies as st

PREFIX = "org.geoserver"
"""Scenario and spec payloads accept any vendor prefix; GeoServer itself writes this one."""

GRID_SETS: dict[str, tuple[int, tuple[float, float, float, float], int]] = {
    "EPSG:4326": (4326, (-180.0, -90.0, 180.0, 90.0), 22),
    "EPSG:900913": (900913, (-20037508.34, -20037508.34, 20037508.34, 20037508.34), 31),
}
"""GeoServer's default gridsets: SRS number, extent, number of zoom levels."""

FORMATS = ("image/png", "image/jpeg")
SEED_TYPES = ("seed", "reseed", "truncate")
RESERVED_PROVIDER_NAMES = frozenset({"order"})
RULE_ROLES = ("ROLE_ADMINISTRATOR", "ROLE_AUTHENTICATED", "ADMIN", "GROUP_ADMIN", "ROLE_AUTHOR")
REST_METHODS = ("GET", "POST", "PUT", "DELETE", "HEAD")
WELL_KNOWN_MARKS = ("circle", "square", "triangle", "star", "cross", "x")
_FIRST = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_REST = _FIRST + "0123456789_-"


# -- names ------------------------------------------------------------------------------


def names(min_size: int = 1, max_size: int = 16) -> st.SearchStrategy[str]:
    """Object names GeoServer accepts everywhere: a letter, then letters, digits, ``_``, ``-``."""
    return st.builds(
        lambda first, rest: first + rest,
        st.sampled_from(_FIRST),
        st.text(_REST, min_size=max(0, min_size - 1), max_size=max(0, max_size - 1)),
    )


def layer_names() -> st.SearchStrategy[str]:
    """Qualified layer names, ``workspace:layer``."""
    return st.builds(lambda ws, layer: f"{ws}:{layer}", names(), names())


# -- seed requests ----------------------------------------------------------------------


def seed_requests(
    layers: st.SearchStrategy[str] | None = None,
    grid_sets: tuple[str, ...] = tuple(GRID_SETS),
    formats: tuple[str, ...] = FORMATS,
    types: tuple[str, ...] = SEED_TYPES,
    max_zoom: int = 10,
    max_threads: int = 4,
) -> st.SearchStrategy[dict[str, Any]]:
    """Seed, reseed and truncate requests, ``{"seedRequest": {...}}``.

    The grid is named either by ``gridSetId`` or by ``srs``; bounds, when present, lie inside
    the gridset's extent (minx, miny, maxx, maxy); ``zoomStart <= zoomStop <= max_zoom``.
    """
    return st.builds(
        _seed_request,
        layers if layers is not None else layer_names(),
        st.sampled_from(grid_sets),
        st.booleans(),
        st.none() | st.tuples(*[st.floats(0, 1, allow_nan=False)] * 4),
        st.tuples(st.integers(0, max_zoom), st.integers(0, max_zoom)),
        st.sampled_from(formats),
        st.sampled_from(types),
        st.integers(1, max_threads),
        st.dictionaries(st.sampled_from(("STYLES", "CQL_FILTER", "TIME")), names(), max_size=2),
    )


def _seed_request(
    layer: str,
    grid_set: str,
    by_srs: bool,
    fractions: tuple[float, float, float, float] | None,
    zooms: tuple[int, int],
    fmt: str,
    kind: str,
    threads: int,
    parameters: dict[str, str],
) -> dict[str, Any]:
    srs, extent, levels = GRID_SETS[grid_set]
    body: dict[str, Any] = {"name": layer}
    if by_srs:
        body["srs"] = {"number": srs}
    else:
        body["gridSetId"] = grid_set
    if fractions is not None:
        body["bounds"] = {"coords": {"double": [str(v) for v in _bounds(extent, fractions)]}}
    start, stop = sorted(min(z, levels - 1) for z in zooms)
    body.update(zoomStart=start, zoomStop=stop, format=fmt, type=kind, threadCount=threads)
    if parameters:
        body["parameters"] = {"entry": [{"string": [k, v]} for k, v in sorted(parameters.items())]}
    return {"seedRequest": body}


def _bounds(
    extent: tuple[float, float, float, float], f: tuple[float, float, float, float]
) -> list[float]:
    minx, miny, maxx, maxy = extent
    x0, x1 = sorted((f[0], f[2]))
    y0, y1 = sorted((f[1], f[3]))
    x0, y0 = min(x0, 0.99), min(y0, 0.99)
    x1, y1 = max(x1, x0 + 0.01), max(y1, y0 + 0.01)  # at least 1% of the extent each way
    w, h = maxx - minx, maxy - miny
    return [
        round(minx + x0 * w, 6),
        round(miny + y0 * h, 6),
        round(minx + x1 * w, 6),
        round(miny + y1 * h, 6),
    ]


def seed_request_xml(request: dict[str, Any]) -> str:
    """A ``seed_requests()`` value as GeoWebCache's XML ``<seedRequest>``."""
    body = request["seedRequest"]
    parts = [f"<name>{escape(body['name'])}</name>"]
    if "srs" in body:
        parts.append(f"<srs><number>{body['srs']['number']}</number></srs>")
    if "gridSetId" in body:
        parts.append(f"<gridSetId>{escape(body['gridSetId'])}</gridSetId>")
    if "bounds" in body:
        coords = "".join(f"<double>{v}</double>" for v in body["bounds"]["coords"]["double"])
        parts.append(f"<bounds><coords>{coords}</coords></bounds>")
    for key in ("zoomStart", "zoomStop", "format", "type", "threadCount"):
        parts.append(f"<{key}>{escape(str(body[key]))}</{key}>")
    if "parameters" in body:
        entries = "".join(
            "<entry>" + "".join(f"<string>{escape(s)}</string>" for s in e["string"]) + "</entry>"
            for e in body["parameters"]["entry"]
        )
        parts.append(f"<parameters>{entries}</parameters>")
    return "<seedRequest>" + "".join(parts) + "</seedRequest>"


# -- authentication providers and filters ------------------------------------------------


def auth_provider_configs(
    prefix: str = PREFIX, envelope: bool | None = None, user_group_service: str = "default"
) -> st.SearchStrategy[dict[str, Any]]:
    """Username/password provider configurations, as POSTed to ``/rest/security/authproviders``.

    ``className`` is the provider class or its config class (both are accepted); the name is
    never the reserved ``order``. ``envelope``: wrap in ``{"authprovider": ...}`` (True), never
    (False) or either (None).
    """
    classes = (
        f"{prefix}.security.auth.UsernamePasswordAuthenticationProvider",
        f"{prefix}.security.config.UsernamePasswordAuthenticationProviderConfig",
    )
    plain = st.builds(
        lambda name, cls: {
            "name": name,
            "className": cls,
            "userGroupServiceName": user_group_service,
        },
        names().filter(lambda n: n.lower() not in RESERVED_PROVIDER_NAMES),
        st.sampled_from(classes),
    )
    wrap = st.just(envelope) if envelope is not None else st.booleans()
    return st.builds(lambda config, w: {"authprovider": config} if w else config, plain, wrap)


def auth_provider_xml(config: dict[str, Any], prefix: str = PREFIX) -> str:
    """An ``auth_provider_configs()`` value as XML (the root is the config class name)."""
    body = config.get("authprovider", config)
    root = f"{prefix}.security.config.UsernamePasswordAuthenticationProviderConfig"
    fields = "".join(f"<{k}>{escape(str(v))}</{k}>" for k, v in body.items())
    return f"<{root}>{fields}</{root}>"


def auth_filter_configs(prefix: str = PREFIX) -> st.SearchStrategy[dict[str, Any]]:
    """Filter configurations of the three types the spec shows (anonymous, security
    interceptor, OpenID Connect), as ``{"<config class>": {...}}`` for POST."""
    return st.one_of(_anonymous(prefix), _interceptor(prefix), _openid(prefix))


def _anonymous(prefix: str) -> st.SearchStrategy[dict[str, Any]]:
    cls = f"{prefix}.security.filter.GeoServerAnonymousAuthenticationFilter"
    return st.builds(
        lambda name: {
            f"{prefix}.security.config.AnonymousAuthenticationFilterConfig": {
                "name": name,
                "className": cls,
            }
        },
        names(),
    )


def _interceptor(prefix: str) -> st.SearchStrategy[dict[str, Any]]:
    cls = f"{prefix}.security.filter.GeoServerSecurityInterceptorFilter"
    return st.builds(
        lambda name, allow, source: {
            f"{prefix}.security.config.SecurityInterceptorFilterConfig": {
                "name": name,
                "className": cls,
                "allowIfAllAbstainDecisions": allow,
                "securityMetadataSource": source,
            }
        },
        names(),
        st.booleans(),
        st.sampled_from(("geoserverMetadataSource", "restFilterDefinitionMap")),
    )


def _openid(prefix: str) -> st.SearchStrategy[dict[str, Any]]:
    host = st.sampled_from(("https://idp.example.com", "https://login.example.org/realms/x"))
    urls = (
        "accessTokenUri",
        "userAuthorizationUri",
        "checkTokenEndpointUrl",
        "logoutUri",
        "jwkURI",
    )
    flags = (
        "enableRedirectAuthenticationEntryPoint",
        "sendClientSecret",
        "allowBearerTokens",
        "usePKCE",
    )

    def build(
        name: str, base: str, client: str, secret: str, scopes: list[str], on: list[bool]
    ) -> dict[str, Any]:
        config: dict[str, Any] = {
            "name": name,
            "className": f"{prefix}.security.oauth2.OpenIdConnectAuthenticationFilter",
            "roleSource": {
                "@class": f"{prefix}.security.config.PreAuthenticatedUserNameFilterConfig"
                "$PreAuthenticatedUserNameRoleSource",
                "$": "RoleService",
            },
            "roleServiceName": "default",
            "clientId": client,
            "clientSecret": secret,
            "scopes": " ".join(scopes),
            "redirectUri": "http://localhost:8080/geoserver",
            "principalKey": "email",
        }
        config.update({key: f"{base}/{key.lower()}" for key in urls})
        config.update(zip(flags, on, strict=True))
        return {f"{prefix}.security.oauth2.OpenIdConnectFilterConfig": config}

    return st.builds(
        build,
        names(),
        host,
        names(),
        names(min_size=8),
        st.lists(
            st.sampled_from(("openid", "profile", "email")), min_size=1, max_size=3, unique=True
        ),
        st.lists(st.booleans(), min_size=len(flags), max_size=len(flags)),
    )


def auth_filter_xml(config: dict[str, Any]) -> str:
    """An ``auth_filter_configs()`` value as XML (root: the config class; ``roleSource`` as
    an element with a ``class`` attribute)."""
    ((root, body),) = config.items()
    parts = []
    for key, value in body.items():
        if isinstance(value, dict):
            parts.append(f"<{key} class={quoteattr(value['@class'])}>{escape(value['$'])}</{key}>")
        else:
            text = str(value).lower() if isinstance(value, bool) else str(value)
            parts.append(f"<{key}>{escape(text)}</{key}>")
    return f"<{root}>{''.join(parts)}</{root}>"


# -- access rules -----------------------------------------------------------------------


def access_rule_keys(kind: str = "layers") -> st.SearchStrategy[str]:
    """Valid rule keys: ``ws.layer.mode`` (layers), ``service.method`` (services) or
    ``/ant/pattern:METHODS`` (rest), following GeoServer's validation."""
    if kind == "layers":
        ws_layer = st.one_of(
            st.just(("*", "*")),
            st.tuples(names(), st.just("*")),
            st.tuples(names(), names()),
        )
        return st.builds(_layer_key, ws_layer, st.sampled_from("rwa"))
    if kind == "services":
        return st.one_of(
            st.just("*.*"),
            st.builds(
                lambda s, m: f"{s}.{m}",
                st.sampled_from(("wms", "wfs", "wcs", "wps")),
                names() | st.just("*"),
            ),
        )
    if kind == "rest":
        segment = names() | st.sampled_from(("*", "**"))
        pattern = st.lists(segment, min_size=1, max_size=4).map(lambda s: "/" + "/".join(s))
        methods = st.lists(st.sampled_from(REST_METHODS), min_size=1, max_size=3, unique=True)
        return st.builds(lambda p, m: f"{p}:{','.join(m)}", pattern, methods)
    raise ValueError(f"kind must be layers, services or rest, got {kind!r}")


def _layer_key(ws_layer: tuple[str, str], mode: str) -> str:
    ws, layer = ws_layer
    if mode == "a":
        layer = "*"  # admin rules apply to a whole workspace
    return f"{ws}.{layer}.{mode}"


def access_rules(
    kind: str = "layers", min_size: int = 0, max_size: int = 5
) -> st.SearchStrategy[dict[str, str]]:
    """Access rule maps, ``{"key": "ROLE_A,ROLE_B"}``: the JSON body of
    ``/rest/security/acl/<kind>``."""
    roles = st.one_of(
        st.just("*"),
        st.lists(st.sampled_from(RULE_ROLES), min_size=1, max_size=3, unique=True).map(",".join),
    )
    return st.dictionaries(access_rule_keys(kind), roles, min_size=min_size, max_size=max_size)


def access_rules_xml(rules: dict[str, str]) -> str:
    """An ``access_rules()`` value as ``<rules><rule resource="...">roles</rule></rules>``."""
    items = "".join(f"<rule resource={quoteattr(k)}>{escape(v)}</rule>" for k, v in rules.items())
    return f"<rules>{items}</rules>"


# -- styles -----------------------------------------------------------------------------


def style_entries() -> st.SearchStrategy[dict[str, Any]]:
    """Style catalog entries for the two-step create, ``{"style": {"name", "filename"}}``."""
    return names().map(lambda n: {"style": {"name": n, "filename": f"{n}.sld"}})


def style_entry_xml(entry: dict[str, Any]) -> str:
    """A ``style_entries()`` value as XML."""
    name, filename = escape(entry["style"]["name"]), escape(entry["style"]["filename"])
    return f"<style><name>{name}</name><filename>{filename}</filename></style>"


_colours = st.integers(0, 0xFFFFFF).map(lambda c: f"#{c:06X}")


def sld_styles(style_names: st.SearchStrategy[str] | None = None) -> st.SearchStrategy[str]:
    """SLD 1.0.0 documents: one named layer, one user style (named as the layer, which is the
    name a one-step POST gives the style), one to three rules, each with a point, line or
    polygon symbolizer and optionally a scale range."""
    rule = st.builds(
        _rule, names(), st.integers(0, 2), _colours, _colours, st.integers(1, 12), st.booleans()
    )
    return st.builds(
        _sld,
        style_names if style_names is not None else names(),
        st.lists(rule, min_size=1, max_size=3),
    )


def _rule(name: str, kind: int, fill: str, stroke: str, size: int, scaled: bool) -> str:
    css = '<CssParameter name="{}">{}</CssParameter>'.format
    if kind == 0:
        mark = (
            f"<Mark><WellKnownName>{WELL_KNOWN_MARKS[size % len(WELL_KNOWN_MARKS)]}</WellKnownName>"
        )
        mark += f"<Fill>{css('fill', fill)}</Fill></Mark>"
        symbolizer = (
            f"<PointSymbolizer><Graphic>{mark}<Size>{size}</Size></Graphic></PointSymbolizer>"
        )
    elif kind == 1:
        line = f"<Stroke>{css('stroke', stroke)}{css('stroke-width', size)}</Stroke>"
        symbolizer = f"<LineSymbolizer>{line}</LineSymbolizer>"
    else:
        area = f"<Fill>{css('fill', fill)}</Fill><Stroke>{css('stroke', stroke)}</Stroke>"
        symbolizer = f"<PolygonSymbolizer>{area}</PolygonSymbolizer>"
    scale = (
        "<MinScaleDenominator>1000</MinScaleDenominator>"
        "<MaxScaleDenominator>5000000</MaxScaleDenominator>"
    )
    return f"<Rule><Name>{name}</Name>{scale if scaled else ''}{symbolizer}</Rule>"


def _sld(name: str, rules: list[str]) -> str:
    return (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<StyledLayerDescriptor version="1.0.0" xmlns="http://www.opengis.net/sld" '
        'xmlns:ogc="http://www.opengis.net/ogc" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
        'xsi:schemaLocation="http://www.opengis.net/sld StyledLayerDescriptor.xsd">'
        f"<NamedLayer><Name>{name}</Name><UserStyle><Name>{name}</Name><Title>{name}</Title>"
        f"<FeatureTypeStyle>{''.join(rules)}</FeatureTypeStyle></UserStyle></NamedLayer>"
        "</StyledLayerDescriptor>"
    )
