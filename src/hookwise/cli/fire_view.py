"""Rendering a FireResult: JSON for machines, rich tables for people."""

from __future__ import annotations

from typing import Any, cast

from hookwise.host.execute import HookRun
from hookwise.host.outcome import Outcome
from hookwise.host.reading import effect_outcome
from hookwise.host.runtimes import PROFILED
from hookwise.host.system import FireResult, HookSystem
from hookwise.protocol.jsvalue import drop_undefined


def _run_json(run: HookRun) -> dict[str, Any]:
    return cast(
        dict[str, Any],
        drop_undefined(
            {
                "name": run.entry.name,
                "source": run.entry.scope or run.entry.source.value,
                "origin": run.entry.origin,
                "success": run.success,
                "exit_code": run.exit_code,
                "signal": run.signal,
                "duration_ms": round(run.duration_ms, 3),
                "output_format": run.output_format,
                "output": run.output,
                "stdout": run.stdout,
                "stderr": run.stderr,
                "error": run.error,
                "warnings": list(run.warnings),
            }
        ),
    )


def outcome_of(result: FireResult, system: HookSystem) -> Outcome:
    """The same keys for every dialect: what the agent will do."""
    return effect_outcome(result.effect, system.profile)


def render_json(result: FireResult, system: HookSystem) -> dict[str, Any]:
    plan = result.plan
    final = result.aggregate.final
    return cast(
        dict[str, Any],
        drop_undefined(
            {
                "event": result.event,
                "host": system.dialect,
                "profile": system.profile.value,
                "input": result.input,
                "plan": None
                if plan is None
                else {
                    "sequential": plan.sequential,
                    "hooks": [
                        {
                            "name": e.name,
                            "command": e.command,
                            "source": e.scope or e.source.value,
                            "origin": e.origin,
                            "matcher": e.matcher,
                        }
                        for e in plan.hooks
                    ],
                },
                "runs": [_run_json(r) for r in result.runs],
                "aggregate": {
                    "success": result.aggregate.success,
                    "final_output": final.as_json() if final is not None else None,
                    "output_class": final.output_class if final is not None else None,
                    "errors": result.aggregate.errors,
                },
                "effect": result.effect.to_json(),
                "outcome": outcome_of(result, system).to_json(),
                "error": result.error,
                "warnings": system.warnings + result.warnings,
                "untrusted": list(system.untrusted),
            }
        ),
    )


def skipped_for_trust(event: str, untrusted: list[str]) -> list[tuple[str, str]]:
    """(name, why) of the project hooks on ``event`` that loading left out for trust
    (its lines read ``NAME (EVENT, ORIGIN): WHY``)."""
    out = []
    for line in untrusted:
        at = line.find(f" ({event}, ")
        if at >= 0:
            out.append((line[:at], line[at:].partition("): ")[2]))
    return out


def _short(name: str, limit: int = 40) -> str:
    """One line, cut: a registered script can run to hundreds of characters."""
    name = " ".join(name.split())
    return name if len(name) <= limit else name[: limit - 1] + "…"


def render_rich(result: FireResult, system: HookSystem) -> None:
    import json

    from rich.console import Console
    from rich.markup import escape
    from rich.panel import Panel
    from rich.table import Table

    console = Console()  # warnings: on stderr, printed by the command
    skipped = skipped_for_trust(result.event, system.untrusted)
    if skipped:
        # first: an outcome below without the hook must not read as "nothing to stop"
        names = ", ".join(_short(name) for name, _ in skipped)
        console.print(
            f"[bold]{result.event}[/]: skipped {len(skipped)} project hook(s) for trust "
            f"({escape(names)}): {escape(skipped[0][1])}",
            highlight=False,
        )
    if result.plan is None:
        if skipped:
            console.print(f"{result.event}: no other hook matched; the outcome is without them")
        else:
            console.print(
                f"[bold]{result.event}[/]: no hook matched ({system.profile.value} profile)"
            )
    else:
        mode = "sequential" if result.plan.sequential else "parallel"
        label = system.profile.value if system.dialect in PROFILED else system.dialect
        plan = Table(title=f"{result.event} plan ({mode}, {label})")
        for column in ("#", "hook", "source", "command"):
            plan.add_column(column)
        for i, entry in enumerate(result.plan.hooks, 1):
            plan.add_row(
                str(i),
                entry.label,
                entry.scope or entry.source.value,
                _short(entry.command or "", 80),
            )
        console.print(plan)
        runs = Table(title="runs")
        for column in ("hook", "exit", "ms", "answer"):
            runs.add_column(column)
        for run in result.runs:
            exit_text = run.error or ("ok" if run.success else "failed")
            if run.exit_code is not None:
                exit_text = f"{run.exit_code}" + ("" if run.success else " (failed)")
            answer = "" if run.output is None else json.dumps(drop_undefined(run.output))
            runs.add_row(run.entry.label, exit_text, f"{run.duration_ms:.1f}", answer)
        console.print(runs)
    final = result.aggregate.final
    merged = json.dumps(final.as_json(), indent=2) if final is not None else "(no answer)"
    console.print(Panel(merged, title="aggregate"))
    console.print(Panel(json.dumps(result.effect.to_json(), indent=2), title="effect"))
    console.print(
        Panel(json.dumps(outcome_of(result, system).to_json(), indent=2), title="outcome")
    )
