"""The ``when`` condition language's evaluation, never ``eval``.

A parsed condition (condition_syntax.py) is a tree of tuples, so it can be marshalled into
the policy cache; the hook walks it (:func:`evaluate`), processes that decide many events
compile it into closures (condition_compile.py, with the helpers here). A missing field is
``null``; comparing values of different types is false, never an error, so a condition
cannot crash the hook.
"""

from __future__ import annotations

from hookwise.policy.rules.globs import glob_match

TYPE_CHECKING = False
if TYPE_CHECKING:  # the hot path imports no typing
    from collections.abc import Callable
    from typing import Any, TypeAlias

    Node: TypeAlias = tuple[Any, ...]
    Evaluator: TypeAlias = Callable[[Callable[[str], Any], Callable[[str], Any]], Any]


# ------------------------------------------------------------------------- evaluator

_WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


def time_view(epoch: float) -> dict[str, Any]:
    """The ``time`` root for a moment (local time of the hook process)."""
    import time

    t = time.localtime(epoch)
    return {
        "year": t.tm_year,
        "month": t.tm_mon,
        "day": t.tm_mday,
        "hour": t.tm_hour,
        "minute": t.tm_min,
        "second": t.tm_sec,
        "weekday": _WEEKDAYS[t.tm_wday],
        "weekday_num": t.tm_wday,
        "date": f"{t.tm_year:04d}-{t.tm_mon:02d}-{t.tm_mday:02d}",
        "clock": f"{t.tm_hour:02d}:{t.tm_min:02d}",
        "epoch": int(epoch),
    }


def lookup(value: Any, key: Any) -> Any:
    """``value[key]``, or None when the step does not apply (a condition never raises)."""
    if isinstance(value, dict):
        return value.get(key) if isinstance(key, str) else None
    if isinstance(value, (list, tuple, str)) and isinstance(key, int) and not isinstance(key, bool):
        try:
            return value[key]
        except IndexError:
            return None
    return None


def _same_type(a: Any, b: Any) -> bool:
    num = (int, float)
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool)
    if isinstance(a, num) and isinstance(b, num):
        return True
    return type(a) is type(b)


def _equal(a: Any, b: Any) -> bool:
    return _same_type(a, b) and a == b


def compare(op: str, a: Any, b: Any) -> bool:
    """A comparison; values of different types compare false rather than raise."""
    if op == "==":
        return _equal(a, b)
    if op == "!=":
        return not _equal(a, b)
    if op in ("<", "<=", ">", ">="):
        if not _same_type(a, b) or not isinstance(a, (int, float, str)):
            return False
        if op == "<":
            return bool(a < b)
        if op == "<=":
            return bool(a <= b)
        if op == ">":
            return bool(a > b)
        return bool(a >= b)
    if op in ("in", "not in"):
        found = _contains(b, a)
        return found if op == "in" else not found
    if op == "contains":
        return _contains(a, b)
    if op == "startswith":
        return isinstance(a, str) and isinstance(b, str) and a.startswith(b)
    if op == "endswith":
        return isinstance(a, str) and isinstance(b, str) and a.endswith(b)
    return False


def _contains(container: Any, item: Any) -> bool:
    if isinstance(container, str):
        return isinstance(item, str) and item in container
    if isinstance(container, (list, tuple)):
        return any(_equal(x, item) for x in container)
    if isinstance(container, dict):
        return isinstance(item, str) and item in container
    return False


def truthy(value: Any) -> bool:
    """A value as a condition reads it (a missing field is false)."""
    return bool(value) if value is not None else False


def call_function(name: str, args: list[Any]) -> Any:
    """One of the condition language's functions; None when it does not apply."""
    (arg,) = args
    if name == "len":
        return len(arg) if isinstance(arg, (str, list, tuple, dict)) else None
    if name == "lower":
        return arg.lower() if isinstance(arg, str) else None
    if name == "upper":
        return arg.upper() if isinstance(arg, str) else None
    if name == "basename":
        return arg.rstrip("/").rsplit("/", 1)[-1] if isinstance(arg, str) else None
    if name == "dirname":
        return arg.rstrip("/").rsplit("/", 1)[0] if isinstance(arg, str) and "/" in arg else ""
    if name == "exists":
        return arg is not None
    if name == "int":
        if isinstance(arg, bool):
            return int(arg)
        if isinstance(arg, (int, float)):
            return int(arg)
        if isinstance(arg, str):
            try:
                return int(arg.strip())
            except ValueError:
                return None
        return None
    if name == "str":
        if arg is None:
            return ""
        if isinstance(arg, bool):
            return "true" if arg else "false"
        return arg if isinstance(arg, str) else str(arg)
    if name == "any":
        return any(truthy(x) for x in arg) if isinstance(arg, (list, tuple)) else False
    if name == "all":
        return all(truthy(x) for x in arg) if isinstance(arg, (list, tuple)) else False
    return None


def evaluate(node: Node, resolve: Callable[[str], Any], regex: Callable[[str], Any]) -> Any:
    """Evaluate a parsed condition once; ``resolve`` gives a root's value, ``regex`` a
    pattern.

    A walk of the tuple tree: for one evaluation it costs a third of building the closure
    (condition_compile.py), which pays off only from the second event. The two agree on
    every condition (tests/policy/rules/test_condition.py checks it on generated ones).
    """
    kind = node[0]
    if kind == "lit":
        return node[1]
    if kind == "path":
        value = resolve(node[1])
        for step in node[2]:
            if value is None:
                return None
            value = lookup(value, evaluate(step, resolve, regex))
        return value
    if kind == "and":
        return truthy(evaluate(node[1], resolve, regex)) and truthy(
            evaluate(node[2], resolve, regex)
        )
    if kind == "or":
        return truthy(evaluate(node[1], resolve, regex)) or truthy(
            evaluate(node[2], resolve, regex)
        )
    if kind == "not":
        return not truthy(evaluate(node[1], resolve, regex))
    if kind == "cmp":
        return compare(
            node[1], evaluate(node[2], resolve, regex), evaluate(node[3], resolve, regex)
        )
    if kind == "matches":
        value = evaluate(node[1], resolve, regex)
        return isinstance(value, str) and regex(node[2]).search(value) is not None
    if kind == "glob":
        value = evaluate(node[1], resolve, regex)
        return isinstance(value, str) and glob_match(node[2], value)
    if kind == "list":
        return [evaluate(item, resolve, regex) for item in node[1]]
    if kind == "call":
        return call_function(node[1], [evaluate(arg, resolve, regex) for arg in node[2]])
    raise ValueError(f"unknown condition node {kind!r}")
