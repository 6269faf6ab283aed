"""TurnStart/TurnEnd hooks in a session (seed 003), with real processes.

The first group mirrors the Codex fork's tests (HookInput text, stdout ignored, whitespace
ignored, exit code and command reported, multi-line stderr trimmed, stdin JSON, TurnEnd
follow-up turns, run_on_hook_input, missing config); the rest covers streaming order,
failures, the loop guard, timeouts, interrupts, caps, the JSON form, stop codes, history
and the rollout.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path

import pytest

from hookwise.config.hook_toml import HookTomlError
from hookwise.turns.events import (
    AgentMessage,
    ExecCommandBegin,
    ExecCommandEnd,
    ExecCommandOutputDelta,
    HookFailed,
    HookInputEvent,
    LoopGuardTripped,
    SessionConfigured,
    SessionStopped,
    TurnAborted,
    TurnComplete,
    TurnStarted,
)
from hookwise.turns.rollout import read_rollout, replay
from hookwise.turns.session import SessionStoppedError, TurnSession
from tests.turns.conftest import Agent, hook_section, play, quote, write_hook_toml

# --- the fork's behaviour -------------------------------------------------------------


def test_turn_start_stderr_is_sent_with_user_input(tmp_path: Path) -> None:
    write_hook_toml(tmp_path, hook_section("turn_start", "echo hook-start 1>&2"))
    run = play(tmp_path)
    assert run.agent.inputs == [["user input", "HookInput (TurnStart): hook-start"]]
    (event,) = run.of(HookInputEvent)
    assert (event.hook, event.text, event.delivery) == ("TurnStart", "hook-start", "same_turn")
    assert len(run.of(TurnStarted)) == 1


def test_turn_start_stdout_is_ignored(tmp_path: Path) -> None:
    write_hook_toml(tmp_path, hook_section("turn_start", "echo hook-start"))
    run = play(tmp_path)
    assert run.agent.inputs == [["user input"]]
    assert not run.of(HookInputEvent)
    (delta,) = run.of(ExecCommandOutputDelta)
    assert (delta.stream, delta.chunk) == ("stdout", "hook-start\n")  # shown, not sent


@pytest.mark.parametrize("section", ["turn_start", "turn_end"])
def test_whitespace_only_stderr_is_ignored(tmp_path: Path, section: str) -> None:
    write_hook_toml(tmp_path, hook_section(section, "printf '   \\n\\t\\n' 1>&2"))
    run = play(tmp_path)
    assert not run.of(HookInputEvent)
    assert run.agent.inputs == [["user input"]]
    assert len(run.of(TurnStarted)) == 1


def test_hook_input_event_carries_exit_code_and_command(tmp_path: Path) -> None:
    script = "echo hook-fail 1>&2; exit 42"
    write_hook_toml(tmp_path, hook_section("turn_start", script))
    run = play(tmp_path)
    (event,) = run.of(HookInputEvent)
    assert event.hook == "TurnStart" and event.exit_code == 42
    assert "hook-fail" in event.text
    assert event.command == ["sh", "-c", script]
    (failure,) = run.of(HookFailed)
    assert failure.reason == "exited with code 42"
    assert run.of(TurnComplete)  # the turn went on


def test_multiline_stderr_is_trimmed(tmp_path: Path) -> None:
    write_hook_toml(
        tmp_path, hook_section("turn_start", "printf '\\n  line1  \\r\\nline2\\n\\n' 1>&2")
    )
    run = play(tmp_path)
    (event,) = run.of(HookInputEvent)
    assert event.text == "  line1\nline2"
    assert event.exit_code == 0


def test_turn_start_receives_stdin_json(tmp_path: Path) -> None:
    write_hook_toml(tmp_path, hook_section("turn_start", "cat > .agent/hook-stdin.json"))
    run = play(tmp_path, session_id="sess-1", session_source="cli")
    payload = json.loads((tmp_path / ".agent" / "hook-stdin.json").read_text())
    assert payload["hook"] == "turn_start"
    assert payload["cwd"] == str(tmp_path.resolve())
    assert payload["is_hook_input_turn"] is False
    assert payload["sub_id"] == run.of(TurnStarted)[0].turn_id
    assert payload["session_source"] == "cli"
    assert payload["session_id"] == "sess-1"
    assert payload["timestamp"].endswith("Z")


def test_turn_end_stdin_has_the_last_agent_message(tmp_path: Path) -> None:
    write_hook_toml(tmp_path, hook_section("turn_end", "cat > .agent/end.json"))
    play(tmp_path, agent=Agent(["all done"]))
    payload = json.loads((tmp_path / ".agent" / "end.json").read_text())
    assert payload["hook"] == "turn_end"
    assert payload["last_assistant_message"] == "all done"


FIRES_ONCE = (
    "if [ ! -f .agent/hook-end.fired ]; then echo hook-end 1>&2; touch .agent/hook-end.fired; fi"
)


def test_turn_end_stderr_triggers_follow_up_turn(tmp_path: Path) -> None:
    write_hook_toml(tmp_path, hook_section("turn_end", FIRES_ONCE))
    run = play(tmp_path)
    assert len(run.of(TurnComplete)) == 2
    # The first turn did not get it; the new one has it as its only input.
    assert run.agent.inputs == [["user input"], ["HookInput (TurnEnd): hook-end"]]
    started = run.of(TurnStarted)
    assert [t.source for t in started] == ["user", "hook_input"]
    (event,) = run.of(HookInputEvent)
    assert (event.hook, event.delivery, event.turn_id) == (
        "TurnEnd",
        "new_turn",
        started[0].turn_id,
    )


def test_turn_end_stdout_does_not_trigger_follow_up_turn(tmp_path: Path) -> None:
    write_hook_toml(tmp_path, hook_section("turn_end", "echo hook-end"))
    run = play(tmp_path)
    assert len(run.of(TurnComplete)) == 1 and not run.of(HookInputEvent)


def test_run_on_hook_input_false_skips_turn_start_for_follow_ups(tmp_path: Path) -> None:
    config = hook_section(
        "turn_start", "echo hook-start 1>&2", run_on_hook_input=False
    ) + hook_section("turn_end", FIRES_ONCE)
    write_hook_toml(tmp_path, config)
    run = play(tmp_path)
    assert len(run.of(TurnComplete)) == 2
    starts = [e for e in run.of(HookInputEvent) if e.hook == "TurnStart"]
    ends = [e for e in run.of(HookInputEvent) if e.hook == "TurnEnd"]
    assert len(starts) == 1 and len(ends) == 1
    begins = [e.hook for e in run.of(ExecCommandBegin)]
    assert begins == ["TurnStart", "TurnEnd", "TurnEnd"]


def test_run_on_hook_input_true_runs_turn_start_for_follow_ups(tmp_path: Path) -> None:
    config = hook_section(
        "turn_start", "cat > .agent/start-$$.json; echo again 1>&2"
    ) + hook_section("turn_end", FIRES_ONCE)
    write_hook_toml(tmp_path, config)
    run = play(tmp_path)
    assert run.agent.inputs == [
        ["user input", "HookInput (TurnStart): again"],
        ["HookInput (TurnEnd): hook-end", "HookInput (TurnStart): again"],
    ]
    payloads = [json.loads(p.read_text()) for p in (tmp_path / ".agent").glob("start-*.json")]
    assert sorted(p["is_hook_input_turn"] for p in payloads) == [False, True]


def test_missing_hook_toml_is_a_no_op(tmp_path: Path) -> None:
    run = play(tmp_path)
    assert run.agent.inputs == [["user input"]]
    assert run.types() == [
        "session_configured",
        "turn_started",
        "user_input",
        "agent_message",
        "turn_complete",
    ]
    assert run.of(SessionConfigured)[0].hook_toml is None


def test_invalid_hook_toml_refuses_to_start(tmp_path: Path) -> None:
    write_hook_toml(tmp_path, "turn_start =")
    rollout = tmp_path / "rollout.jsonl"
    with pytest.raises(HookTomlError, match=r"hook.toml:1: invalid TOML"):
        TurnSession(tmp_path, rollout_path=rollout)
    assert not rollout.exists()  # nothing half-started
    write_hook_toml(tmp_path, '[turn_start]\nargs = ["x"]\n')
    with pytest.raises(HookTomlError, match=r"hook.toml:1: turn_start: missing required key"):
        TurnSession(tmp_path, rollout_path=rollout)


# --- streaming and failures -----------------------------------------------------------


def test_streaming_order_and_timing(tmp_path: Path) -> None:
    write_hook_toml(
        tmp_path,
        hook_section("turn_start", "echo out1; sleep 0.3; echo err1 1>&2; sleep 0.3; echo out2"),
    )
    stamps: list[tuple[str, float]] = []
    run = play(
        tmp_path,
        setup=lambda s: s.subscribe(lambda e: stamps.append((e.type, time.monotonic()))),
    )
    hook_events = [
        e
        for e in run.events
        if isinstance(e, (ExecCommandBegin, ExecCommandOutputDelta, ExecCommandEnd))
    ]
    shape = [(e.type, getattr(e, "stream", None), getattr(e, "chunk", None)) for e in hook_events]
    assert shape == [
        ("exec_command_begin", None, None),
        ("exec_command_output_delta", "stdout", "out1\n"),
        ("exec_command_output_delta", "stderr", "err1\n"),
        ("exec_command_output_delta", "stdout", "out2\n"),
        ("exec_command_end", None, None),
    ]
    times = [t for kind, t in stamps if kind.startswith("exec_command")]
    assert times[1] < times[-1] - 0.4  # out1 was delivered while the hook still ran
    end = run.of(ExecCommandEnd)[0]
    assert (end.exit_code, end.stdout, end.stderr) == (0, "out1\nout2\n", "err1\n")
    assert end.duration_ms >= 500
    assert end.hook == "TurnStart" and end.title == "Hook(TurnStart)"
    # Hook events sit between the user's input and the agent's answer.
    kinds = run.types()
    assert (
        kinds.index("user_input") < kinds.index("exec_command_begin") < kinds.index("agent_message")
    )


def test_hooks_run_in_the_workspace(tmp_path: Path) -> None:
    write_hook_toml(tmp_path, hook_section("turn_end", "pwd"))
    run = play(tmp_path)
    assert run.of(ExecCommandEnd)[0].stdout.strip() == str(tmp_path.resolve())
    assert run.of(ExecCommandBegin)[0].cwd == str(tmp_path.resolve())


def test_relative_command_resolves_against_the_workspace(tmp_path: Path) -> None:
    script = tmp_path / "hooks" / "start.sh"
    script.parent.mkdir()
    script.write_text("#!/bin/sh\necho from-script >&2\n")
    script.chmod(0o755)
    write_hook_toml(tmp_path, '[turn_start]\ncommand = "hooks/start.sh"\n')
    run = play(tmp_path)
    assert run.agent.inputs == [["user input", "HookInput (TurnStart): from-script"]]
    assert run.of(ExecCommandBegin)[0].command == [str(tmp_path.resolve() / "hooks" / "start.sh")]


def test_failures_never_stop_the_session(tmp_path: Path) -> None:
    write_hook_toml(
        tmp_path,
        '[turn_start]\ncommand = "no-such-hook-command"\n' + hook_section("turn_end", "kill -9 $$"),
    )
    run = play(tmp_path, ["first", "second"])
    failures = [(f.hook, f.reason) for f in run.of(HookFailed)]
    assert failures[0] == (
        "TurnStart",
        "spawn no-such-hook-command ENOENT (command 'no-such-hook-command' not found in PATH)",
    )
    assert failures[1] == ("TurnEnd", "killed by SIGKILL")
    assert len(failures) == 4
    assert run.agent.inputs == [["first"], ["second"]]
    assert run.of(ExecCommandEnd)[0].spawn_error == "spawn no-such-hook-command ENOENT"


def test_timeout_kills_the_hook_and_the_session_goes_on(tmp_path: Path) -> None:
    pidfile = tmp_path / "grandchild"
    write_hook_toml(
        tmp_path,
        hook_section(
            "turn_start",
            f"echo partial 1>&2; sleep 60 & echo $! > {quote(pidfile)}; wait",
            timeout_ms=400,
        ),
    )
    started = time.monotonic()
    run = play(tmp_path)
    assert time.monotonic() - started < 10
    end = run.of(ExecCommandEnd)[0]
    assert end.timed_out and end.exit_code is None
    assert run.of(HookFailed)[0].reason == "timed out after 400 ms; its process group was killed"
    assert run.agent.inputs == [["user input", "HookInput (TurnStart): partial"]]
    grandchild = int(pidfile.read_text())
    deadline = time.monotonic() + 5
    while _alive(grandchild) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not _alive(grandchild)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


# --- interrupts -------------------------------------------------------------------------


def _interrupt_when(session: TurnSession, ready: Path) -> asyncio.Future[float]:
    """Interrupt once ``ready`` is written; the future holds when."""

    async def watcher() -> float:
        while not ready.exists() or not ready.read_text().strip():
            await asyncio.sleep(0.01)
        session.interrupt()
        return time.monotonic()

    return asyncio.ensure_future(watcher())


def test_interrupt_cancels_a_running_hook_at_once(tmp_path: Path) -> None:
    pidfile = tmp_path / "grandchild"
    write_hook_toml(
        tmp_path,
        hook_section("turn_start", f"sleep 60 & echo $! > {quote(pidfile)}; wait")
        + hook_section("turn_end", "echo never 1>&2"),
    )
    events: list[object] = []
    session = TurnSession(tmp_path, rollout_path=tmp_path / "r.jsonl", subscribers=[events.append])
    agent = Agent()

    async def main() -> float:
        watcher = _interrupt_when(session, pidfile)
        outcome = await session.submit("user input", agent)
        assert outcome.interrupted
        return time.monotonic() - await watcher

    elapsed = asyncio.run(main())
    session.close()
    assert elapsed < 5
    assert agent.inputs == []  # the turn never reached the model
    end = next(e for e in events if isinstance(e, ExecCommandEnd))
    assert end.interrupted and end.exit_code is None
    aborted = [e for e in events if isinstance(e, TurnAborted)]
    assert [a.reason for a in aborted] == ["interrupted"]
    assert not any(isinstance(e, ExecCommandBegin) and e.hook == "TurnEnd" for e in events)
    grandchild = int(pidfile.read_text())
    deadline = time.monotonic() + 2
    while _alive(grandchild) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not _alive(grandchild)


def test_interrupt_cancels_the_agent_turn_and_the_session_goes_on(tmp_path: Path) -> None:
    write_hook_toml(tmp_path, hook_section("turn_end", "echo follow-up 1>&2") + "[loop_guard]\n")
    session = TurnSession(tmp_path, rollout_path=tmp_path / "r.jsonl")
    slow = Agent(delay=30)

    async def main() -> None:
        asyncio.get_running_loop().call_later(0.2, session.interrupt)
        outcome = await session.submit("slow", slow)
        assert outcome.interrupted and not outcome.loop_guard_tripped
        assert session.interrupt() is False  # nothing runs now
        fast = Agent(["done"])
        again = await session.submit("next", fast)
        assert not again.interrupted
        assert fast.inputs[0] == ["next"]

    asyncio.run(main())
    session.close()
    events = read_rollout(tmp_path / "r.jsonl").events
    assert [e.reason for e in events if isinstance(e, TurnAborted)] == ["interrupted"]


def test_outer_cancellation_is_not_swallowed(tmp_path: Path) -> None:
    session = TurnSession(tmp_path, rollout_path=tmp_path / "r.jsonl")

    async def main() -> None:
        task = asyncio.ensure_future(session.submit("x", Agent(delay=30)))
        await asyncio.sleep(0.1)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    session.close()


# --- the loop guard, caps, JSON form, stop codes -----------------------------------------


def test_loop_guard_default_is_three_consecutive_hook_input_turns(tmp_path: Path) -> None:
    write_hook_toml(tmp_path, hook_section("turn_end", "echo again 1>&2") + "[loop_guard]\n")
    run = play(tmp_path)
    started = run.of(TurnStarted)
    assert [t.source for t in started] == ["user", "hook_input", "hook_input", "hook_input"]
    (tripped,) = run.of(LoopGuardTripped)
    assert tripped.limit == 3 and tripped.turn_id == started[-1].turn_id
    deliveries = [e.delivery for e in run.of(HookInputEvent)]
    assert deliveries == ["new_turn", "new_turn", "new_turn", "dropped_loop_guard"]
    assert run.outcomes[0].loop_guard_tripped


def test_loop_guard_resets_with_each_user_turn_and_is_configurable(tmp_path: Path) -> None:
    write_hook_toml(
        tmp_path,
        hook_section("turn_end", "echo again 1>&2") + "[loop_guard]\nmax_consecutive = 1\n",
    )
    run = play(tmp_path, ["one", "two"])
    assert [t.source for t in run.of(TurnStarted)] == ["user", "hook_input", "user", "hook_input"]
    assert len(run.of(LoopGuardTripped)) == 2


def test_loop_guard_zero_means_no_limit(tmp_path: Path) -> None:
    counter = tmp_path / "n"
    script = f"n=$(cat {quote(counter)} 2>/dev/null || echo 0); n=$((n+1)); echo $n > {quote(counter)}; [ $n -le 6 ] && echo again 1>&2; true"
    write_hook_toml(
        tmp_path, hook_section("turn_end", script) + "[loop_guard]\nmax_consecutive = 0\n"
    )
    run = play(tmp_path)
    assert len(run.of(TurnStarted)) == 7
    assert not run.of(LoopGuardTripped)


def test_flooding_stderr_is_capped_and_marked(tmp_path: Path) -> None:
    write_hook_toml(
        tmp_path,
        hook_section("turn_start", "head -c 3000000 /dev/zero | tr '\\0' x 1>&2")
        + "[hook_input]\nmax_bytes = 1000\n",
    )
    run = play(tmp_path)
    (event,) = run.of(HookInputEvent)
    assert event.truncated and event.stderr_bytes == 3_000_000
    assert len(event.text.encode()) <= 1000
    assert event.text.endswith(
        f"[HookInput truncated: {event.text.index(chr(10))} of 3000000 bytes]"
    )
    assert run.agent.inputs[0][1].startswith("HookInput (TurnStart): xxx")
    end = run.of(ExecCommandEnd)[0]
    assert len(end.stderr) == 1 << 20 and end.stderr_dropped_bytes == 3_000_000 - (1 << 20)


def test_default_cap_is_16_kib(tmp_path: Path) -> None:
    write_hook_toml(
        tmp_path, hook_section("turn_start", "head -c 20000 /dev/zero | tr '\\0' y 1>&2")
    )
    (event,) = play(tmp_path).of(HookInputEvent)
    assert event.truncated and len(event.text.encode()) <= 16 * 1024
    assert "of 20000 bytes]" in event.text


def test_json_form_of_hook_input(tmp_path: Path) -> None:
    write_hook_toml(
        tmp_path,
        hook_section("turn_end", FIRES_ONCE) + '[hook_input]\nformat = "json"\n',
    )
    run = play(tmp_path)
    message = run.agent.inputs[1][0]
    assert json.loads(message) == {"source": "TurnEnd", "text": "hook-end"}
    assert run.of(HookInputEvent)[0].message == message


def test_stop_on_turn_end_exit_code(tmp_path: Path) -> None:
    write_hook_toml(
        tmp_path,
        hook_section("turn_end", "echo stopping 1>&2; exit 3", stop_on_exit_code=[3, 4]),
    )
    events: list[object] = []
    session = TurnSession(tmp_path, rollout_path=tmp_path / "r.jsonl", subscribers=[events.append])

    async def main() -> None:
        outcome = await session.submit("go", Agent())
        assert outcome.stopped
        with pytest.raises(SessionStoppedError):
            await session.submit("more", Agent())

    asyncio.run(main())
    session.close()
    (stopped,) = [e for e in events if isinstance(e, SessionStopped)]
    assert stopped.exit_code == 3
    hook_input = next(e for e in events if isinstance(e, HookInputEvent))
    assert hook_input.delivery == "dropped_session_stopped"
    assert not any(isinstance(e, HookFailed) for e in events)  # a stop code is not a failure
    assert sum(isinstance(e, TurnStarted) for e in events) == 1


def test_other_exit_codes_do_not_stop(tmp_path: Path) -> None:
    write_hook_toml(tmp_path, hook_section("turn_end", "exit 5", stop_on_exit_code=3))
    run = play(tmp_path, ["a", "b"])
    assert not run.of(SessionStopped) and len(run.agent.inputs) == 2


# --- history and rollout -----------------------------------------------------------------


def test_hook_input_is_not_kept_in_history(tmp_path: Path) -> None:
    write_hook_toml(
        tmp_path, hook_section("turn_start", "echo ctx 1>&2") + hook_section("turn_end", FIRES_ONCE)
    )
    run = play(tmp_path, agent=Agent(["first answer", "second answer"]))
    assert run.session.history == [
        {"role": "user", "text": "user input"},
        {"role": "agent", "text": "first answer"},
        {"role": "agent", "text": "second answer"},
    ]


def test_rollout_records_everything_and_replays(tmp_path: Path) -> None:
    write_hook_toml(
        tmp_path,
        hook_section("turn_start", "echo out; echo ctx 1>&2")
        + hook_section("turn_end", FIRES_ONCE),
    )
    run = play(tmp_path, agent=Agent(["first", "second"]))
    path = tmp_path / "rollout.jsonl"
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert [line["seq"] for line in lines] == list(range(1, len(lines) + 1))
    assert all(line["timestamp"].endswith("Z") for line in lines)
    assert [line["type"] for line in lines] == run.types()
    recorded = read_rollout(path)
    assert [e.to_json() for e in recorded.events] == [e.to_json() for e in run.events]
    assert recorded.meta is not None and recorded.meta.rollout_path == str(path)
    assert [(h.hook, h.text, h.delivery) for h in recorded.hook_inputs()] == [
        ("TurnStart", "ctx", "same_turn"),
        ("TurnEnd", "hook-end", "new_turn"),
        ("TurnStart", "ctx", "same_turn"),
    ]
    assert recorded.history() == run.session.history
    begin = next(line for line in lines if line["type"] == "exec_command_begin")
    assert begin["hook"] == "TurnStart" and begin["command"][0] == "sh"
    end = next(line for line in lines if line["type"] == "exec_command_end")
    assert end["stdout"] == "out\n" and end["stderr"] == "ctx\n" and end["exit_code"] == 0
    replayed: list[object] = []
    replay(path, replayed.append)
    assert [type(e) for e in replayed] == [type(e) for e in run.events]
    assert isinstance(replayed[-1], ExecCommandEnd)  # the last TurnEnd run
    messages = [e.text for e in recorded.events if isinstance(e, AgentMessage)]
    assert messages == ["first", "second"]


def test_default_rollout_location(tmp_path: Path) -> None:
    session = TurnSession(tmp_path, session_id="abc")
    session.close()
    assert session.rollout is not None
    path = session.rollout.path
    assert path.parent == tmp_path.resolve() / ".agent" / "rollouts"
    assert path.name.startswith("rollout-") and path.name.endswith("-abc.jsonl")
    no_record = TurnSession(tmp_path, record=False)
    assert no_record.rollout is None


def test_runs_in_an_environment_given_by_the_embedder(tmp_path: Path) -> None:
    write_hook_toml(tmp_path, hook_section("turn_start", 'echo "$MARK" 1>&2'))
    run = play(tmp_path, env={**os.environ, "MARK": "from-env"})
    assert run.agent.inputs == [["user input", "HookInput (TurnStart): from-env"]]
