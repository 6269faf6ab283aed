"""One host's export of a compiled policy: every enabled rule analysed, the host's entries
written, and each rule's coverage said (covered only when the entries are the whole rule)."""

from __future__ import annotations

from types import ModuleType
from typing import Any

from hookwise.policy.export import claude, codex, copilot, gemini, qwen
from hookwise.policy.export.intent import analyse, applies_to
from hookwise.policy.export.model import Coverage, Decision, Export, Native, Status
from hookwise.protocol.hosts import host as host_info

# one exporter module a host (its HOST): TARGET, FILES, entries(intent, analysis),
# gaps(analysis), render(natives)
EXPORTERS: dict[str, ModuleType] = {
    module.HOST: module for module in (claude, gemini, codex, copilot, qwen)
}


def _skipped(rule: dict[str, Any]) -> str | None:
    """Why an enabled rule is no candidate at all (its coverage is then ``none``)."""
    if rule["action"] not in ("deny", "ask"):
        return (
            f"action {rule['action']} is not exported: only deny and ask rules are, a host's "
            "own allow would skip the checks the hook makes"
        )
    if rule["mode"] != "enforce":
        return f"mode {rule['mode']} does not block"
    return None


def export_policy(
    policy: dict[str, Any], host: str, scopes: frozenset[str] | None = None
) -> Export:
    """The entries ``host``'s own permission system can hold for ``policy`` (a host without
    an exporter: none, every rule ``none`` with its row's why). ``scopes``: only rules of
    these policy scopes are exported (entries written for every project hold only the
    rules that apply in every project)."""
    exporter = EXPORTERS.get(host)
    row = host_info(host)
    pre_tool = row.pre_tool_event
    if exporter is None:  # the host's row says why its own rules hold none of it
        none = f"not expressible in {row.title}: {row.native_rules}"
        return Export(
            host,
            [],
            [
                Coverage(r["id"], "ask" if r["action"] == "ask" else "deny", "none", [none], [])
                for r in policy["rules"]
                if r.get("enabled", True) and applies_to(r, host, pre_tool)
            ],
            "",
            "",
        )
    natives: list[Native] = []
    coverage: list[Coverage] = []
    for rule in policy["rules"]:
        if not rule.get("enabled", True) or not applies_to(rule, host, pre_tool):
            continue
        why = _skipped(rule)
        if why is None and scopes is not None and rule.get("scope") not in scopes:
            why = (
                f"a {rule.get('scope')} rule ({rule.get('file')}): entries in the host's "
                "user settings would hold in every project, where it does not apply"
            )
        if why is not None:
            decision: Decision = "ask" if rule["action"] == "ask" else "deny"
            coverage.append(Coverage(rule["id"], decision, "none", [why], []))
            continue
        analysis = analyse(rule)
        gaps = list(analysis.gaps)
        written: list[str] = []
        for intent in analysis.intents:
            texts, gap = exporter.entries(intent, analysis)
            if gap is not None and gap not in gaps:
                gaps.append(gap)
            for text in texts:
                natives.append(Native(rule["id"], analysis.decision, text, intent))
                written.append(text)
        if written:
            gaps += [g for g in exporter.gaps(analysis) if g not in gaps]
        status: Status = "none" if not written else ("partial" if gaps else "covered")
        if not written and not gaps:
            gaps.append("nothing of it can be said by this host's rules")
        coverage.append(Coverage(rule["id"], analysis.decision, status, gaps, written))
    return Export(host, natives, coverage, exporter.render(natives), exporter.TARGET)
