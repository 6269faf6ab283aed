"""The simulator's transcript lines for host records, and its summary."""

from __future__ import annotations

import json
from typing import Any

from rich.console import Console
from rich.text import Text

from hookwise.turns.events import HostRecord

__all__ = ["render_host_record", "render_summary"]

_ACTION_STYLE = {
    "block": "bold red",
    "stop": "bold red",
    "retry": "bold yellow",
    "ask": "yellow",
    "replace": "yellow",
}


def _short(value: Any, limit: int = 160) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    text = text.replace("\n", "\\n")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _effect_summary(event: str, effect: dict[str, Any]) -> Text:
    action = effect.get("action")
    out = Text()
    if isinstance(action, str):
        out.append(action, _ACTION_STYLE.get(action, "green"))
    details = []
    for key in ("error", "reason"):
        if effect.get(key):
            details.append(_short(effect[key], 120))
            break
    if effect.get("tool_input") is not None and event == "BeforeTool":
        details.append(f"tool_input → {_short(effect['tool_input'], 100)}")
    if effect.get("additional_context"):
        details.append(f"context: {_short(effect['additional_context'], 100)}")
    if effect.get("appended_part"):
        details.append(f"context: {_short(effect['appended_part'], 100)}")
    if effect.get("history_part"):
        details.append(f"context: {_short(effect['history_part'], 100)}")
    if effect.get("synthetic_response") is not None:
        details.append("synthetic response")
    if effect.get("replaced"):
        out.append(("  " if len(out) else "") + "replaced chunk", "yellow")
    if event == "BeforeToolSelection" and effect.get("changed"):
        details.append(f"toolConfig → {_short(effect.get('tool_config'), 100)}")
    if event == "BeforeModel" and effect.get("request") is not None and action == "proceed":
        details.append("request passed on")
    outcome = effect.get("outcome")
    if isinstance(outcome, dict):  # Claude Code / Codex: the cross-dialect outcome
        for key, label in (
            ("reason_for_model", "to the model"),
            ("additional_context", "context"),
            ("updated_input", "input →"),
        ):
            if outcome.get(key):
                details.append(f"{label}: {_short(outcome[key], 100)}")
        for diagnostic in effect.get("diagnostics") or []:
            details.append(_short(diagnostic, 100))
    if details:
        out.append(("  " if len(out) else "") + "; ".join(details), "dim")
    return out


def render_host_record(console: Console, record: HostRecord) -> None:
    """One simulator record as a transcript line."""
    data = record.data
    name = record.name
    if name == "hook_event":
        event = str(data.get("event"))
        hooks = data.get("hooks") or []
        label = Text(f"  {event}", style="bold")
        if data.get("tool"):
            label.append(f"({data['tool']})", "bold")
        if not hooks:
            label.append("  no hook", "dim")
            console.print(label)
            return
        ran = ", ".join(
            _short(str(h.get("name")), 40)
            + (f" exit {h.get('exit_code')}" if h.get("exit_code") not in (0, None) else "")
            for h in hooks
        )
        label.append(f"  [{ran}] ", "dim")
        label.append_text(_effect_summary(event, data.get("effect") or {}))
        console.print(label)
        if data.get("system_message"):
            console.print(Text(f"    systemMessage: {data['system_message']}", style="cyan"))
        for warning in data.get("warnings") or []:
            console.print(Text(f"    warning: {warning}", style="yellow"))
        if data.get("error"):
            console.print(Text(f"    error: {data['error']}", style="yellow"))
    elif name == "model_call":
        source = (
            "synthetic response (model not called)"
            if data.get("source") == "synthetic"
            else "model call"
        )
        console.print(Text(f"  {source}", style="dim"))
    elif name == "model_reply":
        pass  # shown as the agent message
    elif name == "tool_call":
        status = str(data.get("status"))
        style = "green" if status == "ran" else ("yellow" if status == "replaced" else "red")
        line = Text("  tool ", style="bold") + Text(
            f"{data.get('name')} {_short(data.get('args'), 100)} "
        )
        line.append(status, style)
        if "result" in data:
            line.append(f"  → {_short((data['result'] or {}).get('llmContent', ''), 120)}", "dim")
        elif data.get("reason"):
            line.append(f"  {_short(data['reason'], 140)}", "dim")
        console.print(line)
    elif name == "api_error":
        message = f": {data['message']}" if data.get("message") else ""
        console.print(Text(f"  model request failed ({data.get('error')}){message}", style="red"))
    elif name == "retry":
        console.print(
            Text(f"  retry with prompt: {_short(data.get('prompt'), 140)}", style="yellow")
        )
    elif name == "turn_outcome":
        outcome = data.get("outcome")
        if outcome != "completed":
            reason = f": {data['reason']}" if data.get("reason") else ""
            console.print(Text(f"  turn {outcome}{reason}", style="bold red"))
    elif name == "note":
        console.print(Text(f"  note: {data.get('message')}", style="yellow"))
    elif name == "final_history":
        pass
    elif name == "skipped":
        console.print(Text(f"skipped: {data.get('message')}", style="yellow"))
    else:
        console.print(Text(f"  {name} {_short(data, 200)}", style="dim"))


def render_summary(console: Console, result: Any) -> None:
    """The expectations' verdicts (``result`` is a `hookwise.sim.runner.SimResult`)."""
    console.rule("expectations", align="left")
    if not result.expectations:
        console.print("[dim]none written[/]")
    for item in result.expectations:
        e = item.expectation
        mark = Text("PASS ", style="bold green") if item.passed else Text("FAIL ", style="bold red")
        where = f"line {e.line}: " if e.line is not None else ""
        console.print(
            mark + Text(f"{where}{e.describe()}") + Text(f"  ({item.message})", style="dim")
        )
    for warning in result.warnings:
        console.print(Text(f"warning: {warning}", style="yellow"))
    if result.rollout_path:
        console.print(Text(f"rollout: {result.rollout_path}", style="dim"))
    failed = sum(1 for item in result.expectations if not item.passed)
    if failed:
        console.print(
            Text(f"{failed} of {len(result.expectations)} expectation(s) failed", style="bold red")
        )
    else:
        console.print(
            Text(f"all {len(result.expectations)} expectation(s) passed", style="bold green")
        )
