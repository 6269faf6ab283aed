"""hookwise's prediction for a recorded cell, and whether it agrees with the real CLI.

The prediction is the ``outcome`` object of

    hookwise fire <Event> --host claude|codex|gemini --project DIR --home HOME \
        --payload - --json

run on a project whose settings hold the same hook (same command, same answer) as the real
run, with the event's arguments the real CLI sent (``event_args`` of the record).

Agreement, per cell (a null observation is not compared, see observe.py):

* ``proceed`` == ``proceeded``;
* ``stop_session`` == ``session_stopped``;
* ``reason_for_model`` ~ ``reason_reached_model`` and ``additional_context`` ~
  ``context_reached_model``: both null, or the same text once each side is unwrapped from
  the frame its host puts around hook text (real-cli-findings.md point 10: Claude quotes the
  hook command, Codex appends the command, ids and paths vary) and whitespace is collapsed.
  hookwise may give the bare text or the host's full frame; both compare equal. When no
  model request followed the hook (the session or the prompt ended there), nothing could
  carry the text, so a predicted text is not compared with the necessarily missing one;
  nor is a predicted text without any token (``null`` printed by the hook) that the
  observer could not find;
* ``updated_input`` is given exactly when the real CLI ran the rewritten command;
* a run that waited for a confirmation (``waiting``) is predicted with ``asks_user`` true and
  ``proceed`` false, and no outcome has both ``asks_user`` and ``proceed`` true.
"""

from __future__ import annotations

import functools
import json
import os
import re
import subprocess
import sys
import traceback
from pathlib import Path
from typing import Any

from tests.e2e import clis
from tests.e2e.observe import TOKENS, TOOL_EVENTS

# frames the real CLIs put around hook text; unwrapped repeatedly, outermost first
FRAMES = [
    re.compile(p, re.DOTALL)
    for p in (
        r"^<system-reminder>\s*(?P<core>.*?)\s*</system-reminder>$",
        r"^<hook_prompt hook_run_id=\"[^\"]*\">(?P<core>.*)</hook_prompt>$",
        r"^<hook_context>(?P<core>.*)</hook_context>$",
        r"^Stop hook feedback:\n(?P<core>.*)$",
        r"^\w+(?::[\w-]+)? hook (?:error|additional context|success|feedback): (?P<core>.*)$",
        r"^\w+ operation blocked by hook:\n(?P<core>.*)$",
        r"^Command blocked by PreToolUse hook: (?P<core>.*?)\.? Command: .*$",
        r"^Tool execution blocked: (?P<core>.*)$",
        # GitHub Copilot CLI's frames: a pre-tool denial (and a headless ask), a crashed
        # hook (naming its file), context, a permissionRequest denial
        r"^Denied by \w+ hook(?: \(unable to ask user for confirmation\))?: (?P<core>.*)$",
        r"^Denied by \w+ hook from \"[^\"]*\" \((?P<core>hook errored)\)$",
        r"^Additional context from \w+ hook:\n(?P<core>.*)$",
        r"^Permission denied by a PermissionRequest hook: (?P<core>.*)$",
        r"^\[\$HOOK_COMMAND\]: (?P<core>.*)$",
        # Claude Code's long additionalContext: saved to a file (its path holds ids of
        # Claude's own), the head sent; the observer's paragraph starts at "Preview"
        r"^<persisted-output>\nOutput too large \([^)]*\)\. Full output saved to: [^\n]*\n\n"
        r"(?P<core>Preview .*)$",
        r"^Preview \(first 2KB\):\n(?P<core>.*)\n\.\.\.\n</persisted-output>$",
        # Codex's: the head and tail in its truncation frame, the path of the whole
        r"^Warning: truncated output \(original token count: \d+\)\nTotal output lines: \d+"
        r"\n\n(?P<core>.*)\n\nFull hook output saved to: [^\n]*$",
    )
]
# Codex's declined approval (a PermissionRequest deny): the message Debug-quoted twice
REJECTED = re.compile(
    r'^exec_command failed: CreateProcess \{ message: "Rejected\(\\"(?P<core>.*)\\"\)" \}$',
    re.DOTALL,
)


def debug_unquote(text: str) -> str:
    """Undo one level of Rust's Debug quoting (\\\\, \\", \\n, \\t)."""
    out, i = [], 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text):
            out.append({"n": "\n", "t": "\t", "r": "\r"}.get(text[i + 1], text[i + 1]))
            i += 2
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def unwrap(text: str) -> str:
    """The hook's own text inside the frames a host adds, whitespace collapsed."""
    text = text.strip()
    rejected = REJECTED.match(text)
    if rejected:
        text = debug_unquote(debug_unquote(rejected.group("core"))).strip()
    changed = True
    while changed:
        changed = False
        for frame in FRAMES:
            match = frame.match(text)
            if match:
                text = match.group("core").strip()
                changed = True
    return " ".join(text.split())


def marked(text: str) -> bool:
    """The text holds one of the audience tokens the observer looks for."""
    return any(token in text for token in TOKENS.values())


def texts_agree(observed: str | None, predicted: str | None) -> bool:
    if observed is None or predicted is None:
        return observed is None and predicted is None
    return unwrap(observed) == unwrap(predicted)


BYPASS_TRUST = "--dangerously-bypass-hook-trust"


@functools.cache
def fire_help() -> str:
    proc = subprocess.run(
        [sys.executable, "-m", "hookwise.cli.entry", "fire", "--help"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if proc.returncode != 0:
        raise AssertionError(f"`hookwise fire --help` failed:\n{proc.stderr.strip()[-3000:]}")
    return proc.stdout


def dialect_missing(cli: str = "claude") -> str | None:
    """Why `hookwise fire` cannot predict ``cli``'s outcomes yet, or None."""
    options = fire_help()
    if "--host" not in options:
        return (
            "`hookwise fire` has no --host option (the Claude/Codex runtimes of the host"
            " runtime, issue 3 item 3): predictions cannot be compared"
        )
    if cli == "codex" and BYPASS_TRUST not in options:
        return (
            f"`hookwise fire` has no {BYPASS_TRUST} option yet: the live Codex runs pass that"
            " flag, and without it hookwise (like Codex) skips the untrusted project hook"
        )
    return None


def run_fire(args: list[str], payload: str, env: dict[str, str]) -> str:
    """`hookwise fire ARGS` with ``payload`` on stdin and exactly ``env``; its stdout.

    In this process (click's test runner), which spares a Python start per cell; set
    HOOKWISE_E2E_SUBPROCESS=1 to run the installed command line instead.
    """
    if os.environ.get("HOOKWISE_E2E_SUBPROCESS") == "1":
        proc = subprocess.run(
            [sys.executable, "-m", "hookwise.cli.entry", "fire", *args],
            input=payload,
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
            check=False,
        )
        if proc.returncode != 0:
            raise AssertionError(
                f"hookwise fire failed ({proc.returncode}):\n{proc.stderr[-3000:]}"
            )
        return proc.stdout
    from click.testing import CliRunner

    from hookwise.cli.app import cli

    unset: dict[str, str | None] = {k: None for k in os.environ if k not in env}
    result = CliRunner().invoke(cli, ["fire", *args], input=payload, env={**unset, **env})
    if result.exit_code != 0:
        trace = traceback.format_exception(*result.exc_info) if result.exc_info else []
        detail = result.stderr + "".join(trace)
        raise AssertionError(f"hookwise fire failed ({result.exit_code}):\n{detail[-3000:]}")
    return result.stdout


def predict(record: dict[str, Any], workdir: Path) -> dict[str, Any]:
    """Run the record's hook answer through `hookwise fire`; return its ``outcome``."""
    cli, event = record["cli"], record["event"]
    proj, home = workdir / "proj", workdir / "home"
    proj.mkdir(parents=True, exist_ok=True)
    home.mkdir(parents=True, exist_ok=True)
    command = clis.hook_command(record["answer"])
    clis.write_project_hooks(cli, proj, event, command, clis.hook_timeout_s(record["answer"]))
    env = {k: v for k, v in os.environ.items() if k != "HOOKWISE_E2E_HOOK_LOG"}
    env |= {"HOME": str(home), "LANG": "C.UTF-8"}
    args = [
        clis.host_event(cli, event),
        "--host",
        cli,
        "--project",
        str(proj),
        "--home",
        str(home),
        "--payload",
        "-",
        "--json",
    ]
    if cli == "codex":
        # the live run trusts the project in config.toml and passes
        # --dangerously-bypass-hook-trust; the same trust for hookwise
        args.append(BYPASS_TRUST)
        codex_home = home / ".codex"
        codex_home.mkdir(parents=True, exist_ok=True)
        (codex_home / "config.toml").write_text(
            f'[projects.{json.dumps(str(proj))}]\ntrust_level = "trusted"\n', encoding="utf-8"
        )
        env["CODEX_HOME"] = str(codex_home)
    elif cli == "gemini":
        env["GEMINI_CLI_TRUST_WORKSPACE"] = "true"
        args += ["--profile", "gemini-cli"]
    elif cli == "copilot":
        args.append("--trust-project")  # the live run passes --trust-folder
    elif cli == "qwen":
        pass  # folder trust is off by default: project hooks run
    else:
        # the live run accepted Claude Code's trust dialog for the project (~/.claude.json);
        # hookwise reads the same record
        trusted = {"projects": {str(proj): {"hasTrustDialogAccepted": True}}}
        (home / ".claude.json").write_text(json.dumps(trusted), encoding="utf-8")
    payload = json.dumps(record["event_args"]).replace("$RUN", str(workdir))
    stdout = run_fire(args, payload, env)
    outcome: dict[str, Any] = json.loads(stdout)["outcome"]
    replace = {command: "$HOOK_COMMAND", str(workdir): "$RUN"}
    for key in ("reason_for_model", "message_for_user", "additional_context"):
        text = outcome.get(key)
        if isinstance(text, str):
            for old, new in sorted(replace.items(), key=lambda kv: -len(kv[0])):
                text = text.replace(old, new)
            outcome[key] = text
    return outcome


def disagreements(record: dict[str, Any], outcome: dict[str, Any]) -> list[str]:
    """What hookwise predicts differently from what the real CLI did (empty: agreement)."""
    seen = record["observed"]
    problems = []
    if outcome.get("asks_user") and outcome.get("proceed"):
        problems.append("asks_user and proceed both true: a call that waits does not go ahead")
    if seen.get("waiting") and not (outcome.get("asks_user") and not outcome.get("proceed")):
        problems.append(
            f"the real CLI waits for a confirmation; hookwise asks_user"
            f" {outcome.get('asks_user')}, proceed {outcome.get('proceed')}"
        )
    if seen["proceeded"] is not None and outcome.get("proceed") != seen["proceeded"]:
        problems.append(f"proceed: hookwise {outcome.get('proceed')}, real {seen['proceeded']}")
    if (
        seen["session_stopped"] is not None
        and outcome.get("stop_session") != seen["session_stopped"]
    ):
        problems.append(
            f"stop_session: hookwise {outcome.get('stop_session')}, real {seen['session_stopped']}"
        )
    pairs = (
        ("reason_for_model", "reason_reached_model"),
        ("additional_context", "context_reached_model"),
    )
    for mine, theirs in pairs:
        if seen["model_requests_after_hook"] == 0 and seen[theirs] is None:
            continue  # no request followed the hook: nothing could be seen
        predicted = outcome.get(mine)
        if seen[theirs] is None and isinstance(predicted, str) and not marked(predicted):
            continue  # a text without a token (``null``, say) cannot be found in a request
        if not texts_agree(seen[theirs], outcome.get(mine)):
            problems.append(
                f"{mine}: hookwise {json.dumps(outcome.get(mine))}, real {json.dumps(seen[theirs])}"
            )
    if seen["tool_ran"] and record["event"] in TOOL_EVENTS:
        rewritten = outcome.get("updated_input") is not None
        if rewritten != seen["input_rewritten"]:
            problems.append(
                f"updated_input: hookwise {json.dumps(outcome.get('updated_input'))}, real "
                f"{'ran the rewritten command' if seen['input_rewritten'] else 'ran the original'}"
            )
    return problems
