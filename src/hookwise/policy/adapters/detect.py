"""Which host sent a payload, when the hook command does not say (no ``--platform``).

An event name only one host uses decides; otherwise each candidate's ``detect`` markers
(payload fields first, then the environment the host gives its hooks), in registry order;
a host without markers (Claude Code) is the default. Read from the compiled host tables.
"""

from __future__ import annotations

from hookwise.policy.adapters.base import DecodeError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def _marked(marker: list[str], payload: dict[str, Any], name: str, env: dict[str, str]) -> bool:
    kind, value, unless = marker
    if kind == "fields":
        return name != unless and all(field in payload for field in value.split())
    if kind == "env":
        return bool(env.get(value))
    return kind == "env_prefix" and any(key.startswith(value) for key in env)


def detect(payload: dict[str, Any], tables: dict[str, Any], env: dict[str, str]) -> str:
    """The host that sent ``payload`` (raises DecodeError when there is no event name)."""
    name = payload.get("hook_event_name")
    if not isinstance(name, str) or not name:
        # a host whose payloads do not name their event (Copilot's camelCase dialect) is
        # known by its fields
        for host, table in tables.items():
            for kind, field, _ in table["detect"]:
                if kind == "unnamed" and field in payload:
                    return str(host)
        raise DecodeError("the payload has no hook_event_name, so its host is unknown")
    hosts = [h for h, table in tables.items() if name in table["events"]]
    if len(hosts) == 1:
        return hosts[0]
    plain = [host for host, table in tables.items() if not table["detect"]]
    if not hosts:  # an event no host has: the default host's adapter names the problem
        return plain[0] if plain else next(iter(tables))
    candidates = hosts
    # payload fields first, the most specific (most fields) first; then the environment
    fields = [(h, m) for h in candidates for m in tables[h]["detect"] if m[0] == "fields"]
    fields.sort(key=lambda pair: -len(pair[1][1].split()))
    for host, marker in fields:
        if _marked(marker, payload, name, env):
            return host
    for host in candidates:
        if any(m[0] != "fields" and _marked(m, payload, name, env) for m in tables[host]["detect"]):
            return host
    plain = [host for host in candidates if not tables[host]["detect"]]
    return plain[0] if plain else candidates[0]
