"""Codex's exec policy (0.169.0): ``prefix_rule`` calls in a Starlark ``.rules`` file under
``~/.codex/rules``, loaded at start.

Facts of its matcher (docs/execpolicy.md, ``codex execpolicy check``): a rule holds when
its pattern is a prefix of the command's argv, token by token; a ``bash -lc`` script
Codex can parse is split into its commands, each checked; the strictest decision wins
(``forbidden`` > ``prompt`` > ``allow``). Rules speak of commands only: file tools,
``apply_patch`` and MCP tools have no rule here.
"""

from __future__ import annotations

import json

from hookwise.policy.export.model import Analysis, Intent, Native, Prefix, header

HOST = "codex"  # the host whose permission rules this module writes
TARGET = "~/.codex/rules/hookwise.rules"
# a file hookwise owns whole (``install --native``), per scope: relative to the host's config
# directory (protocol.hosts.config_path) for "user"
FILES = {"user": "rules/hookwise.rules"}
_DECISION = {"deny": "forbidden", "ask": "prompt"}


def entries(intent: Intent, analysis: Analysis) -> tuple[list[str], str | None]:
    if not isinstance(intent, Prefix):
        return [], "Codex's rules cover shell commands only"
    fields = [
        f"    pattern = {json.dumps(list(intent.words), ensure_ascii=False)},",
        f"    decision = {json.dumps(_DECISION[analysis.decision])},",
    ]
    if analysis.reason:
        fields.append(f"    justification = {json.dumps(analysis.reason, ensure_ascii=False)},")
    return ["prefix_rule(\n" + "\n".join(fields) + "\n)"], None


def gaps(analysis: Analysis) -> list[str]:
    return []


def render(natives: list[Native]) -> str:
    out = [header("codex", "#")]
    for native in natives:
        out.append(f"\n# {native.rule}\n{native.entry}\n")
    return "".join(out)
