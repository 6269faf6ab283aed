"""Compiling a parsed ``when`` condition into closures, for repeated evaluation.

Cold: needed by processes that decide many events (the service, the framework bridges);
the hook walks a condition on a rule's first use in a process (condition.py) and
compiles it only from the second, which a hook call reaches only when it looks at a rule
twice (a rewritten call is checked again). The closures use condition.py's helpers, so
the two agree on every condition.
"""

from __future__ import annotations

import operator

from hookwise.policy.rules.condition import call_function, compare, lookup, truthy
from hookwise.policy.rules.globs import glob_match

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from hookwise.policy.rules.condition import Evaluator, Node


_ORDER: dict[str, Callable[[Any, Any], bool]] = {
    "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge
}  # fmt: skip


def compile_condition(node: Node) -> Evaluator:
    """A parsed condition as a closure ``f(resolve, regex)``, for repeated evaluation.

    Processes that decide many events (the service, the framework bridges) build it once
    per rule; calling it costs a fraction of walking the tree each time (``evaluate``).
    """
    kind = node[0]
    if kind == "lit":
        constant = node[1]
        return lambda r, x: constant
    if kind == "path":
        root = node[1]
        steps = [compile_condition(step) for step in node[2]]
        if len(node[2]) == 1 and node[2][0][0] == "lit" and isinstance(node[2][0][1], str):
            key = node[2][0][1]  # input.timeout, env.CI: the shape conditions use most

            def field(r: Callable[[str], Any], x: Callable[[str], Any]) -> Any:
                value = r(root)
                return value.get(key) if isinstance(value, dict) else None

            return field
        if all(step[0] == "lit" for step in node[2]):
            keys = [step[1] for step in node[2]]

            def path(r: Callable[[str], Any], x: Callable[[str], Any]) -> Any:
                value = r(root)
                for key in keys:
                    if value is None:
                        return None
                    value = lookup(value, key)
                return value

            return path

        def dynamic_path(r: Callable[[str], Any], x: Callable[[str], Any]) -> Any:
            value = r(root)
            for step in steps:
                if value is None:
                    return None
                value = lookup(value, step(r, x))
            return value

        return dynamic_path
    if kind in ("and", "or", "not"):
        left = compile_condition(node[1])
        if kind == "not":
            return lambda r, x: not truthy(left(r, x))
        right = compile_condition(node[2])
        if kind == "and":
            return lambda r, x: truthy(left(r, x)) and truthy(right(r, x))
        return lambda r, x: truthy(left(r, x)) or truthy(right(r, x))
    if kind == "cmp":
        op = node[1]
        a = compile_condition(node[2])
        constant = node[3][1] if node[3][0] == "lit" else None
        order = _ORDER.get(op)
        if order is not None and type(constant) in (int, float):
            # input.timeout > 600: compare's rule for numbers (bool and other types: false)
            def number(r: Callable[[str], Any], x: Callable[[str], Any]) -> bool:
                value = a(r, x)
                return (type(value) is int or type(value) is float) and order(value, constant)

            return number
        if op == "==" and type(constant) is str:

            def same_text(r: Callable[[str], Any], x: Callable[[str], Any]) -> bool:
                value = a(r, x)
                return type(value) is str and value == constant

            return same_text
        b = compile_condition(node[3])
        return lambda r, x: compare(op, a(r, x), b(r, x))
    if kind == "matches":
        subject = compile_condition(node[1])
        pattern = node[2]

        def matches(r: Callable[[str], Any], x: Callable[[str], Any]) -> bool:
            value = subject(r, x)
            return isinstance(value, str) and x(pattern).search(value) is not None

        return matches
    if kind == "glob":
        subject = compile_condition(node[1])
        glob = node[2]

        def globbing(r: Callable[[str], Any], x: Callable[[str], Any]) -> bool:
            value = subject(r, x)
            return isinstance(value, str) and glob_match(glob, value)

        return globbing
    if kind == "list":
        items = [compile_condition(item) for item in node[1]]
        return lambda r, x: [item(r, x) for item in items]
    if kind == "call":
        name = node[1]
        args = [compile_condition(arg) for arg in node[2]]
        return lambda r, x: call_function(name, [arg(r, x) for arg in args])
    raise ValueError(f"unknown condition node {kind!r}")
