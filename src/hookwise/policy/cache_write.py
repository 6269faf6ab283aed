"""Writing the compiled policy cache (policy/cache.py describes the file and reads it).

Cold: only after a recompile, which imports the compiler anyway. What only ``policy show``,
``explain`` and ``scan`` read stays out of the hook's copy of each rule.
"""

from __future__ import annotations

import marshal
import os
import sys
from typing import Any

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
    """The rule as the hook reads it (the description only stands in for a reason)."""
    slim = {k: v for k, v in rule.items() if k not in _SHOW_ONLY}
    if slim.get("reason"):
        slim.pop("description", None)
    matchers = slim.get("m")
    if matchers and "command" in matchers:
        commands = [{k: v for k, v in c.items() if k != "source"} for c in matchers["command"]]
        slim["m"] = {**matchers, "command": commands}
    return slim


def store(
    path: str,
    version: tuple[int, str, int],
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
    start = len(body)
    ends = []
    for rule in policy["rules"]:
        body.extend(marshal.dumps(hook_rule(rule)))
        ends.append(len(body))
    body.extend(bytes(-len(body) % 4))  # the ends are read as a native array of 4-byte ints
    ends_at = len(body)
    for end in ends:
        body.extend(end.to_bytes(4, sys.byteorder))
    index = {event: add(marshal.dumps(value)) for event, value in policy["index"].items()}
    hosts = {host: add(marshal.dumps(value)) for host, value in policy["hosts"].items()}
    small = {k: v for k, v in policy.items() if k not in ("rules", "index", "hosts")}
    rules = (start, ends_at, len(ends))
    head = marshal.dumps((*version, spans, trust, small, rules, index, hosts, len(body)))
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        temp = f"{path}.{os.getpid()}.tmp"
        with open(temp, "wb") as handle:
            handle.write(len(head).to_bytes(8, "little") + head + body)
        os.replace(temp, path)
    except (OSError, ValueError):
        pass
