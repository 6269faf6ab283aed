"""Writing the compiled policy cache (policy/cache.py describes the file and reads it).

Cold: only after a recompile, which imports the compiler anyway. What only ``policy show``,
``explain`` and ``scan`` read stays out of the hook's copy of each rule.
"""

from __future__ import annotations

import marshal
import os
import sys
from typing import Any

from hookwise.policy.safe_files import replace_with

# What only `policy show`, `explain` and `scan` read (they compile afresh): not in the
# hook's cache, where every byte of a rule is unmarshalled on each call that looks at it.
_SHOW_ONLY = (
    "metadata",
    "column",
    "when_src",
    "replaces",
    "overridden",
    "file",
    "line",
    "pack",
    "enabled",
)


def hook_rule(rule: dict[str, Any]) -> dict[str, Any]:
    """The rule as the hook reads it (the description only stands in for a reason), its
    literal globs as their text. A validator keeps its rule's file: it runs where that
    policy is (rules/validator.validator_directory), and without it a cached rule's ran in
    "/" (the linked-trust test's whole-suite failure: a cache hit when the trust store's
    bytes came back to an earlier state; ``hookwise run`` guarded its files from "/" too)."""
    slim = {k: v for k, v in rule.items() if k not in _SHOW_ONLY or _needed(k, rule)}
    if slim.get("reason"):
        slim.pop("description", None)
    matchers = slim.get("m")
    if matchers and "command" in matchers:
        commands = [
            {k: v for k, v in c.items() if k not in _SHOW_ONLY_COMMAND} for c in matchers["command"]
        ]
        slim["m"] = {**matchers, "command": commands}
    literal: dict[str, Any] = _literal_globs(slim)
    return literal


def _needed(key: str, rule: dict[str, Any]) -> bool:
    """A show-only key the hook reads after all: a validator's ``file``."""
    return key == "file" and bool(rule.get("validator"))


# what only `explain` and `policy fuzz` read of a command matcher
_SHOW_ONLY_COMMAND = ("source", "pattern")


def _literal_globs(value: Any) -> Any:
    """``value`` with each compiled glob that is one literal, ``((("L", text),),)``, as its
    text: glob_match takes both, and three tuples fewer per literal is what a hook call
    unmarshals for each program and word a rule names. (The shape, a literal token alone
    in a glob of one alternative, belongs to compiled globs only: globs.py.)"""
    if isinstance(value, dict):
        return {key: _literal_globs(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_literal_globs(item) for item in value]
    if isinstance(value, tuple):
        if (
            len(value) == 1
            and isinstance(value[0], tuple)
            and len(value[0]) == 1
            and isinstance(value[0][0], tuple)
            and len(value[0][0]) == 2
            and value[0][0][0] == "L"
            and isinstance(value[0][0][1], str)
        ):
            return value[0][0][1]
        return tuple(_literal_globs(item) for item in value)
    return value


def rule_groups(index: dict[str, Any], count: int) -> list[list[int]]:
    """The rules in groups, each marshalled as one blob: a rule joins the group of the first
    index list it is found in (events in order; in each, every rule, shell rules, MCP rules,
    then tools, programs, arguments and literals by name). A hook call reads whole groups
    of the rules it looks at: a key they share is made and hashed once per group instead
    of once per rule. Rules no list holds are a group of their own."""
    seen: set[int] = set()
    groups: list[list[int]] = []

    def take(positions: list[int]) -> None:
        group = [p for p in positions if p not in seen]
        if group:
            seen.update(group)
            groups.append(group)

    for event in sorted(index):
        bucket = index[event]
        for kind in ("any", "shell", "mcp"):
            take(bucket[kind])
        for kind in ("tool", "prog", "lit"):
            for key in sorted(bucket[kind]):
                take(bucket[kind][key])
        for program in sorted(bucket["arg"]):
            for word in sorted(bucket["arg"][program]):
                take(bucket["arg"][program][word])
    for position in range(count):
        take([position])
    return groups


def store(
    path: str,
    version: tuple[int, str, tuple[tuple[str, ...], tuple[int, ...]]],
    sources: list[tuple[str, str, bytes | None]],
    trust_bytes: bytes | None,
    policy: dict[str, Any],
) -> None:
    """Write ``policy`` and its key to ``path`` (atomically): ``version`` (the cache format,
    hookwise's version, the compiler's code stamp), the sources and the trust store. A cache
    that cannot be written costs time, not correctness."""
    body = bytearray()

    def add(data: bytes) -> tuple[int, int]:
        start = len(body)
        body.extend(data)
        return start, len(body)

    def span(content: bytes | None) -> tuple[int, int] | None:  # None: an absent file
        return None if content is None else add(content)

    spans = [(scope, name, span(content)) for scope, name, content in sources]
    trust = span(trust_bytes)
    rules = list(policy["rules"])
    groups = rule_groups(policy["index"], len(rules))
    group_table: list[int] = []  # per group: its blob's start and end, its members' range
    members: list[int] = []
    group_of = [0] * len(rules)
    for number, group in enumerate(groups):
        blob = add(marshal.dumps(tuple(hook_rule(rules[p]) for p in group)))
        group_table += [*blob, len(members), len(members) + len(group)]
        members += group
        for position in group:
            group_of[position] = number
    body.extend(bytes(-len(body) % 4))  # the tables are read as native arrays of 4-byte ints
    arrays = []
    for array in (group_of, group_table, members):
        arrays.append(add(b"".join(n.to_bytes(4, sys.byteorder) for n in array)))
    index = {event: add(marshal.dumps(value)) for event, value in policy["index"].items()}
    hosts = {}
    for host, value in policy["hosts"].items():
        # each event's entry apart (an event reads one of its host's, Claude Code has 31):
        # the host's entry holds the rest of its table and where each event's lies
        events = {name: add(marshal.dumps(spec)) for name, spec in value["events"].items()}
        rest = {key: item for key, item in value.items() if key != "events"}
        hosts[host] = add(marshal.dumps((rest, events)))
    # the compiler's warnings: for validate and doctor, never read by a hook call (kept out
    # of the head, which every call unmarshals)
    warnings = (*add(marshal.dumps(tuple(policy["warnings"]))), len(policy["warnings"]))
    small = {k: v for k, v in policy.items() if k not in ("rules", "index", "hosts", "warnings")}
    head = marshal.dumps((*version, spans, trust, small, arrays, index, hosts, warnings, len(body)))
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        replace_with(path, len(head).to_bytes(8, "little") + head + body)
    except (OSError, ValueError):
        pass
