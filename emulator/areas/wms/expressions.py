"""Style expressions: what an SLD parameter, label, size or priority computes per feature.

An OGC expression element (``ogc:Literal``, ``ogc:PropertyName``, ``ogc:Function``,
``ogc:Add``/``Sub``/``Mul``/``Div``, or mixed text and elements, which concatenate) reads as
an ``Expr`` tree; ``evaluate(expr, props, env)`` gives its value for one feature. ``env``
carries the request's values (``language``: the ``LANGUAGE`` parameter). The functions are
the GeoTools functions the stock styles and common client styles use (``FUNCTIONS``); an
unknown function evaluates to None (GeoTools refuses such a style on upload; the renderer
draws with the symbolizer's default instead).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from ...core.record import record
from ...wire import xml as wxml

ARITHMETIC = {"Add": "+", "Sub": "-", "Mul": "*", "Div": "/"}


@record(frozen=True)
class Expr:
    """One node: ``kind`` is ``literal`` (``value``), ``property`` (``value``: the name),
    ``function`` (``value``: the name; ``args``), ``arithmetic`` (``value``: ``+ - * /``) or
    ``concat`` (``args``)."""

    kind: str
    value: Any = None
    args: tuple[Expr, ...] = ()

    @property
    def constant(self) -> bool:
        return self.kind == "literal"


def parse(el: Any) -> Expr:
    """The expression an element holds (its children and text, concatenated)."""
    parts: list[Expr] = []
    if (el.text or "").strip():
        parts.append(Expr("literal", el.text.strip()))
    for child in el:
        if isinstance(child.tag, str):
            parts.append(_node(child))
        if (child.tail or "").strip():
            parts.append(Expr("literal", child.tail.strip()))
    if not parts:
        return Expr("literal", "")
    return parts[0] if len(parts) == 1 else Expr("concat", None, tuple(parts))


def _node(el: Any) -> Expr:
    name = wxml.local(el.tag)
    if name == "Literal":
        children = [c for c in el if isinstance(c.tag, str)]
        return _node(children[0]) if children else Expr("literal", (el.text or "").strip())
    if name == "PropertyName":
        return Expr("property", (el.text or "").strip().rsplit(":", 1)[-1])
    if name == "Function":
        args = tuple(_node(c) for c in el if isinstance(c.tag, str))
        return Expr("function", el.get("name") or "", args)
    if name in ARITHMETIC:
        args = tuple(_node(c) for c in el if isinstance(c.tag, str))
        return Expr("arithmetic", ARITHMETIC[name], args)
    return Expr("literal", (el.text or "").strip())


def evaluate(expr: Expr, props: Mapping[str, Any], env: Mapping[str, Any]) -> Any:
    if expr.kind == "literal":
        return expr.value
    if expr.kind == "property":
        return props.get(expr.value)
    if expr.kind == "concat":
        values = [evaluate(a, props, env) for a in expr.args]
        return "".join("" if v is None else _text(v) for v in values)
    if expr.kind == "arithmetic":
        return _arithmetic(expr, props, env)
    fn = FUNCTIONS.get(expr.value.lower())
    if fn is None:
        return None
    return fn(expr.args, props, env)


def _text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value)) if abs(value) < 1e15 else str(value)
    return str(value)


def number(value: Any) -> float | None:
    """A value as a number (a numeric text too); None when it is not one."""
    if isinstance(value, bool) or value is None:
        return None
    try:
        out = float(value)
    except (TypeError, ValueError):
        return None
    return out if math.isfinite(out) else None


def _arithmetic(expr: Expr, props: Mapping[str, Any], env: Mapping[str, Any]) -> Any:
    values = [number(evaluate(a, props, env)) for a in expr.args[:2]]
    if len(values) != 2:
        return None
    a, b = values
    if a is None or b is None:
        return None
    if expr.value == "+":
        return a + b
    if expr.value == "-":
        return a - b
    if expr.value == "*":
        return a * b
    return a / b if b else None


def _equal(a: Any, b: Any) -> bool:
    na, nb = number(a), number(b)
    if na is not None and nb is not None:
        return na == nb
    return ("" if a is None else _text(a)) == ("" if b is None else _text(b))


Args = tuple[Expr, ...]
Env = Mapping[str, Any]
Props = Mapping[str, Any]


def _recode(args: Args, props: Props, env: Env) -> Any:
    """``Recode(input, key1, value1, key2, value2, …)``: the value of the first key equal to
    the input; None when none is."""
    if not args:
        return None
    found = evaluate(args[0], props, env)
    pairs = args[1:]
    for i in range(0, len(pairs) - 1, 2):
        if _equal(found, evaluate(pairs[i], props, env)):
            return evaluate(pairs[i + 1], props, env)
    return None


def _categorize(args: Args, props: Props, env: Env) -> Any:
    """``Categorize(input, value0, threshold1, value1, …)``: thresholds belong to the
    category above them (GeoTools' default ``succeeding``)."""
    if len(args) < 2:
        return None
    found = number(evaluate(args[0], props, env))
    rest = args[1:]
    chosen = rest[0]
    for i in range(1, len(rest) - 1, 2):
        limit = number(evaluate(rest[i], props, env))
        if found is not None and limit is not None and found >= limit:
            chosen = rest[i + 1]
    return evaluate(chosen, props, env)


def _compare(op: Callable[[Any, Any], bool]) -> Callable[[Args, Props, Env], Any]:
    def run(args: Args, props: Props, env: Env) -> Any:
        if len(args) != 2:
            return None
        a, b = (evaluate(x, props, env) for x in args)
        na, nb = number(a), number(b)
        if na is not None and nb is not None:
            return op(na, nb)
        if a is None or b is None:
            return False
        return op(_text(a), _text(b))

    return run


def _if_then_else(args: Args, props: Props, env: Env) -> Any:
    if len(args) != 3:
        return None
    test = evaluate(args[0], props, env)
    return evaluate(args[1] if test is True or test == "true" else args[2], props, env)


def _concatenate(args: Args, props: Props, env: Env) -> Any:
    return "".join(_text(v) for v in (evaluate(a, props, env) for a in args) if v is not None)


def _env(args: Args, props: Props, env: Env) -> Any:
    if not args:
        return None
    key = evaluate(args[0], props, env)
    found = env.get(str(key).lower()) if key is not None else None
    return found if found is not None or len(args) < 2 else evaluate(args[1], props, env)


FUNCTIONS: dict[str, Callable[[Args, Props, Env], Any]] = {
    "recode": _recode,
    "categorize": _categorize,
    "if_then_else": _if_then_else,
    "lessthan": _compare(lambda a, b: a < b),
    "lessequalthan": _compare(lambda a, b: a <= b),
    "greaterthan": _compare(lambda a, b: a > b),
    "greaterequalthan": _compare(lambda a, b: a >= b),
    "equalto": _compare(lambda a, b: a == b),
    "notequalto": _compare(lambda a, b: a != b),
    "concatenate": _concatenate,
    "strconcat": _concatenate,
    "language": lambda args, props, env: env.get("language") or "",
    "env": _env,
    "strtouppercase": lambda args, props, env: _str_call(args, props, env, str.upper),
    "strtolowercase": lambda args, props, env: _str_call(args, props, env, str.lower),
}
"""GeoTools' functions by lower-case name (GeoTools looks function names up ignoring case)"""


def _str_call(args: Args, props: Props, env: Env, fn: Callable[[str], str]) -> Any:
    value = evaluate(args[0], props, env) if args else None
    return None if value is None else fn(_text(value))
