"""One hook answer (stdout, stderr, exit code) and what the host then does with the call.

`hookwise test` checks what a host receives from hookwise's hook, not only the rule's
action (an `ask` reaches Codex as a denial): the answer goes through the host's own
runtime, reader and conclusion, exactly as `fire` runs a hook, so every host, including
one added later, is read by its own table.
"""

from __future__ import annotations

from collections.abc import Mapping

from hookwise.config.model import HookEntry, Source
from hookwise.host.dialect_answers import DialectEffect
from hookwise.host.effect import Effect
from hookwise.host.execute import ExecutionSettings, HookRun
from hookwise.host.outcome import Outcome, gemini_outcome
from hookwise.host.plan import Plan
from hookwise.host.runtimes import runtime_for
from hookwise.protocol.jsvalue import JSON
from hookwise.protocol.profiles import Profile

# What a host does with the call an answer is about, in one word each.
EFFECTS = ("deny", "ask", "proceed")


def effect_outcome(effect: Effect, profile: Profile) -> Outcome:
    """The same keys for every host: what the agent will do."""
    if isinstance(effect, DialectEffect):
        return effect.outcome
    return gemini_outcome(effect, profile)


def answer_outcome(
    host: str,
    event: str,
    payload: Mapping[str, JSON],
    answer: tuple[str, str, int],
    *,
    profile: Profile = Profile.GEMINI_CLI,
) -> Outcome:
    """What ``host`` does after one hook answered ``answer`` (stdout, stderr, exit code)
    to ``payload`` on ``event``: read and concluded by the host's runtime."""
    stdout, stderr, code = answer
    runtime = runtime_for(host, profile)
    cwd = payload.get("cwd")
    hooks = runtime.hooks(ExecutionSettings(profile=profile), cwd if isinstance(cwd, str) else ".")
    reading = hooks.reader(event, stdout, stderr, code)
    entry = HookEntry({"type": "command", "command": "hookwise hook"}, event, Source.PROJECT)
    run = HookRun(
        entry,
        dict(payload),
        success=code == 0,
        exit_code=code,
        output=reading.output,
        output_format=reading.output_format,
        stdout=stdout,
        stderr=stderr,
        reading=reading.reading,
    )
    args = {k: v for k, v in payload.items() if k != "hook_event_name"}
    _, effect = runtime.conclude(event, Plan(event, [entry], False), [run], args, None)
    return effect_outcome(effect, profile)


def effect_word(outcome: Outcome) -> str:
    """One of EFFECTS: a person is asked, the call does not go ahead, or it does."""
    if outcome.asks_user:
        return "ask"
    return "proceed" if outcome.proceed else "deny"
