"""Adding a host is one protocol table plus one runtime module: a toy fourth host, here.

The table says which events exist, what the host sends and which field the matcher reads;
the runtime module says how the host reads one run and decides over all of them. Nothing
in host/ is told about the toy host, yet HookSystem plans, runs real processes and
concludes for it exactly as for Gemini CLI, Claude Code and Codex.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Sequence
from pathlib import Path

import pytest

from hookwise.host.dialect_answers import DialectEffect, Reading, parse_object_stdout
from hookwise.host.dialect_runtime import DialectRuntime
from hookwise.host.outcome import Outcome
from hookwise.host.runtime import HostRuntime, LoadOptions
from hookwise.host.system import HookSystem, PayloadError
from hookwise.protocol.dialect import Decision, DialectEvent, DialectSpec, Exit2, Kind
from hookwise.protocol.jsvalue import JSON

# -- the protocol table (what would live in protocol/toy.py) ------------------------------
TOY = DialectSpec(
    "toy",
    {
        "BeforeStep": DialectEvent(
            "BeforeStep",
            Kind.TOOL_BEFORE,
            ("tool_name", "tool_input"),
            "tool_name",
            Decision.BLOCK,
            Exit2.BLOCK,
            default_timeout_s=5.0,
        ),
        "Done": DialectEvent("Done", Kind.STOP, (), None, Decision.NONE, Exit2.IGNORED),
    },
    ("session_id", "cwd", "hook_event_name", "step"),
    {"step": "0"},
)


# -- the runtime module (what would live in host/toy_dialect.py) --------------------------
EXIT_BLOCK = 2


def read(event: DialectEvent, stdout: str, stderr: str, exit_code: int | None) -> Reading:
    """Exit 2 blocks with stderr; exit 0 with a JSON object answers; anything else fails."""
    answer, problem = parse_object_stdout(stdout)
    if exit_code == EXIT_BLOCK:
        return Reading("exit2", None, "", stderr.strip(), exit_code)
    if exit_code == 0 and answer is not None:
        return Reading("json", answer, "", stderr, exit_code)
    return Reading("error", None, stdout.strip(), stderr, exit_code, problem or "toy hook failed")


def decide(event: DialectEvent, readings: Sequence[Reading]) -> DialectEffect:
    """Any block wins; its reason goes to the model."""
    reasons = [
        r.stderr if r.kind == "exit2" else str((r.answer or {}).get("reason", ""))
        for r in readings
        if r.kind == "exit2" or (r.answer or {}).get("decision") == "block"
    ]
    blocked = bool(reasons) and event.decision is Decision.BLOCK
    return DialectEffect(
        dialect="toy",
        event=event.name,
        decision="block" if blocked else "none",
        outcome=Outcome(proceed=not blocked, reason_for_model="\n".join(reasons) or None),
        diagnostics=tuple(r.problem for r in readings if r.problem),
    )


def matches(matcher: JSON, value: JSON) -> bool:
    return matcher in (None, "", "*") or matcher == value


TOY_RUNTIME = DialectRuntime(TOY, read, decide, matches, "TOY_PROJECT_DIR")


# -- the proof ----------------------------------------------------------------------------
def _system(tmp_path: Path, hooks: dict[str, JSON]) -> HookSystem:
    runtime: HostRuntime = TOY_RUNTIME
    return HookSystem.from_hooks(hooks, runtime=runtime, cwd=str(tmp_path), session_id="s-1")


def _hook(command: str, matcher: str | None = None) -> JSON:
    definition: dict[str, JSON] = {"hooks": [{"type": "command", "command": command}]}
    if matcher is not None:
        definition["matcher"] = matcher
    return definition


def test_toy_host_sends_its_table_fields_and_environment(tmp_path: Path) -> None:
    seen = tmp_path / "seen.json"
    env = tmp_path / "env.txt"
    command = f'cat > {shlex.quote(str(seen))}; printf %s "$TOY_PROJECT_DIR" > {env}'
    system = _system(tmp_path, {"BeforeStep": [_hook(command, "Bash")]})
    result = system.fire_sync("BeforeStep", {"tool_name": "Bash", "tool_input": {"x": 1}})
    stdin = json.loads(seen.read_text())
    assert list(stdin) == [
        "session_id",
        "cwd",
        "hook_event_name",
        "step",
        "tool_name",
        "tool_input",
    ]
    assert stdin["session_id"] == "s-1" and stdin["step"] == "0"
    assert env.read_text() == str(tmp_path)
    assert isinstance(result.effect, DialectEffect) and result.effect.outcome.proceed


def test_toy_host_blocks_by_its_own_reading(tmp_path: Path) -> None:
    block = 'echo \'{"decision": "block", "reason": "no"}\''
    system = _system(
        tmp_path,
        {"BeforeStep": [_hook(block, "Bash"), _hook("echo stderr-why >&2; exit 2", "Bash")]},
    )
    effect = system.fire_sync("BeforeStep", {"tool_name": "Bash", "tool_input": {}}).effect
    assert isinstance(effect, DialectEffect)
    assert effect.decision == "block" and not effect.outcome.proceed
    assert effect.outcome.reason_for_model == "no\nstderr-why"


def test_toy_host_matcher_and_validation(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    system = _system(tmp_path, {"BeforeStep": [_hook(f"touch {marker}; exit 2", "Edit")]})
    result = system.fire_sync("BeforeStep", {"tool_name": "Bash", "tool_input": {}})
    assert result.plan is None and not marker.exists()
    with pytest.raises(PayloadError, match="tool_input"):
        system.fire_sync("BeforeStep", {"tool_name": "Bash"})
    with pytest.raises(KeyError, match="unknown toy hook event"):
        system.fire_sync("BeforeTool", {})


def test_toy_host_loads_with_no_settings_files(tmp_path: Path) -> None:
    loaded = TOY_RUNTIME.load(tmp_path, LoadOptions(env={}))
    assert loaded.registry.entries == [] and loaded.workspace == str(tmp_path.resolve())
