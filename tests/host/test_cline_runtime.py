"""Cline in the host runtime (host/cancel_form.py, config/script_hooks.py): its hook files
found where and as Cline 3.0.65 finds them, started as it starts them, their answers read as
it reads them, with real hook processes and real files.

The facts come from protocol/cline.py (observed on the real CLI: tests/e2e/fixtures/
more-hosts/cline.jsonl, replayed through ``fire`` in tests/e2e/test_more_hosts_fire.py; the
rest read in that CLI's bundle). Each test pins one of them for a hook author.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookwise.config.script_hooks import discover, event_of, load_script_hooks, script_argv
from hookwise.host import cancel_form
from hookwise.host.loading import load_hook_system
from hookwise.host.runtimes import runtime_for
from hookwise.protocol import cline
from hookwise.protocol.hosts import table
from hookwise.protocol.jsvalue import UNDEFINED

REASON = "no marker files here"
CALL = {
    "tool_call": {"id": "call_1", "name": "run_commands", "input": {"commands": ["touch m"]}},
    "preToolUse": {"toolName": "run_commands", "parameters": {"commands": '["touch m"]'}},
}


def _hook(directory: Path, name: str, stdout: str, code: int = 0, stderr: str = "") -> Path:
    """A Python hook file (``#!`` this interpreter) printing ``stdout`` and exiting ``code``;
    it records the ``hookName`` it was given beside itself."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    program = (
        f"#!{sys.executable}\n"
        "import json, sys\n"
        "event = json.load(sys.stdin)\n"
        f"open({str(path) + '.seen'!r}, 'a').write(event['hookName'] + '\\n')\n"
        f"sys.stdout.write({stdout!r})\n"
        f"sys.stderr.write({stderr!r})\n"
        f"sys.exit({code})\n"
    )
    path.write_text(program, encoding="utf-8")
    return path


def _fire(proj: Path, home: Path, event: str = "PreToolUse", args: Any = None) -> Any:
    # a ``#!`` naming python is found on PATH (as Cline does): this interpreter's directory
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    env = {"HOME": str(home), "PATH": path}
    system = load_hook_system(proj, dialect="cline", home=home, env=env)
    return system.fire_sync(event, dict(CALL if args is None else args)).effect


def _hooks_dir(proj: Path) -> Path:
    return proj / ".clinerules" / "hooks"


# ----------------------------------------------------------------------------- discovery


def test_every_directory_cline_reads_is_read_in_the_order_of_the_paths(tmp_path: Path) -> None:
    proj, home, cline_dir = tmp_path / "proj", tmp_path / "home", tmp_path / "cline-dir"
    for directory in (
        home / "Documents" / "Cline" / "Hooks",
        cline_dir / "hooks",
        proj / ".clinerules" / "hooks",
        proj / ".cline" / "hooks",
    ):
        _hook(directory, "PreToolUse", "")
    env = {"HOME": str(home), "CLINE_DIR": str(cline_dir)}
    found = discover("cline", str(proj), env)
    paths = [str(h.path) for h in found]
    assert paths == sorted(paths, key=lambda p: (p.casefold(), p.swapcase()))
    assert {(h.scope, h.path.parent.name) for h in found} == {
        ("user", "Hooks"),
        ("user", "hooks"),
        ("project", "hooks"),
    }
    assert len(found) == 4
    # without CLINE_DIR the user's directory is ~/.cline/hooks
    _hook(home / ".cline" / "hooks", "PostToolUse.py", "")
    default = discover("cline", str(proj), {"HOME": str(home)})
    assert any(h.path == home / ".cline" / "hooks" / "PostToolUse.py" for h in default)


@pytest.mark.parametrize(
    ("name", "event"),
    [
        ("PreToolUse", "PreToolUse"),
        ("pretooluse", "PreToolUse"),
        ("PreToolUse.sh", "PreToolUse"),
        ("PRETOOLUSE.py", "PreToolUse"),
        (" PreToolUse .js", "PreToolUse"),
        ("TaskStart.ps1", "TaskStart"),
        ("PreToolUse.SH", None),  # the suffix is known in any case but taken off in lower case
        ("PreToolUse.txt", None),
        ("PreToolUse.sh.bak", None),
        (".PreToolUse", None),
        ("PreToolUse.", None),
        ("Pre", None),
    ],
)
def test_which_file_names_are_hooks(name: str, event: str | None) -> None:
    assert event_of("cline", name) == event


def test_links_directories_and_fifos_are_not_hooks(tmp_path: Path) -> None:
    proj, home = tmp_path / "proj", tmp_path / "home"
    target = _hook(tmp_path / "elsewhere", "PreToolUse", "")
    hooks = _hooks_dir(proj)
    hooks.mkdir(parents=True)
    (hooks / "PreToolUse").symlink_to(target)
    (hooks / "PostToolUse").mkdir()
    os.mkfifo(hooks / "TaskStart")  # never opened: a FIFO is no regular file
    assert discover("cline", str(proj), {"HOME": str(home)}) == []


def test_the_program_cline_starts_for_a_file(tmp_path: Path) -> None:
    def argv(name: str, text: str) -> tuple[str, ...]:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return script_argv("cline", path)

    assert argv("a", "#!/usr/bin/env python3\n") == ("python3", str(tmp_path / "a"))
    assert argv("b", "#!/usr/local/bin/Python3 -u\n") == ("python3", "-u", str(tmp_path / "b"))
    assert argv("c", "#!/usr/bin/perl -w\n") == ("/usr/bin/perl", "-w", str(tmp_path / "c"))
    assert argv("d.py", "print(1)\n") == ("python3", str(tmp_path / "d.py"))
    assert argv("e.ts", "") == ("bun", "run", str(tmp_path / "e.ts"))
    assert argv("f", "echo hi\n") == ("bash", str(tmp_path / "f"))
    assert argv("g.sh", "#!\n") == ("bash", str(tmp_path / "g.sh"))


def test_a_file_needs_no_execute_bit(tmp_path: Path) -> None:
    proj, home = tmp_path / "proj", tmp_path / "home"
    path = _hook(_hooks_dir(proj), "PreToolUse", json.dumps({"cancel": True}))
    path.chmod(0o644)
    assert _fire(proj, home).outcome.stop_session is True


def test_a_precompact_file_is_found_and_never_run(tmp_path: Path) -> None:
    proj, home = tmp_path / "proj", tmp_path / "home"
    _hook(_hooks_dir(proj), "PreCompact", "")
    loaded = load_script_hooks("cline", str(proj), {"HOME": str(home)})
    assert loaded.registry.entries == []
    assert any("never runs a PreCompact hook" in w for w in loaded.warnings)


# ------------------------------------------------------------------------------ answers


def test_a_cancel_stops_the_call_and_ends_the_run_whatever_the_exit_code(tmp_path: Path) -> None:
    proj, home = tmp_path / "proj", tmp_path / "home"
    _hook(_hooks_dir(proj), "PreToolUse", json.dumps({"cancel": True, "errorMessage": REASON}), 2)
    effect = _fire(proj, home)
    assert effect.decision == "block"
    outcome = effect.outcome
    assert (outcome.proceed, outcome.stop_session) == (False, True)
    assert outcome.reason_for_model is None  # the model is never asked again
    assert outcome.message_for_user == REASON
    seen = (_hooks_dir(proj) / "PreToolUse.seen").read_text(encoding="utf-8")
    assert seen == "tool_call\n"


@pytest.mark.parametrize(
    ("stdout", "code", "stderr"),
    [
        ("", 2, REASON),  # exit 2 is ignored
        ("", 1, REASON),  # so is a crash
        (json.dumps({"hookSpecificOutput": {"permissionDecision": "deny"}}), 0, ""),
        (json.dumps({"decision": "block", "reason": REASON}), 0, ""),
        ('{"cancel": true', 0, ""),  # JSON that does not parse
        ('{"cancel": "true"}', 0, ""),  # not a boolean
        ("[true]", 0, ""),
    ],
)
def test_everything_but_a_cancel_lets_the_call_run(
    tmp_path: Path, stdout: str, code: int, stderr: str
) -> None:
    proj, home = tmp_path / "proj", tmp_path / "home"
    _hook(_hooks_dir(proj), "PreToolUse", stdout, code, stderr)
    outcome = _fire(proj, home).outcome
    assert (outcome.proceed, outcome.stop_session) == (True, False)


def test_the_last_hook_control_line_is_the_answer(tmp_path: Path) -> None:
    proj, home = tmp_path / "proj", tmp_path / "home"
    stdout = (
        "starting\n"
        f"HOOK_CONTROL\t{json.dumps({'cancel': True})}\n"
        "more logging\n"
        f"  HOOK_CONTROL\t{json.dumps({'context': 'CTX'})}  \n"
    )
    _hook(_hooks_dir(proj), "PreToolUse", stdout)
    outcome = _fire(proj, home).outcome
    assert (outcome.proceed, outcome.additional_context) == (True, "CTX")


def test_context_and_error_message_without_a_cancel_reach_the_model(tmp_path: Path) -> None:
    proj, home = tmp_path / "proj", tmp_path / "home"
    hooks = _hooks_dir(proj)
    _hook(hooks, "PreToolUse", json.dumps({"cancel": False, "errorMessage": "E1"}))
    _hook(hooks, "pretooluse.py", json.dumps({"context": "C2", "contextModification": "X"}))
    outcome = _fire(proj, home).outcome
    assert outcome.proceed is True
    assert outcome.additional_context == "E1\nC2"


def test_override_input_rewrites_and_the_last_one_wins(tmp_path: Path) -> None:
    proj, home = tmp_path / "proj", tmp_path / "home"
    hooks = _hooks_dir(proj)
    first = {"overrideInput": {"commands": ["echo first"]}}
    _hook(hooks, "PreToolUse", json.dumps(first))
    _hook(hooks, "pretooluse.py", json.dumps({"overrideInput": {"commands": ["echo second"]}}))
    _hook(hooks, "pretooluse.sh", json.dumps({"context": "no input here"}))
    outcome = _fire(proj, home).outcome
    assert outcome.proceed is True
    assert outcome.updated_input == {"commands": ["echo second"]}
    assert outcome.additional_context == "no input here"


def test_one_cancel_among_several_hooks_cancels_and_every_hook_still_runs(tmp_path: Path) -> None:
    proj, home = tmp_path / "proj", tmp_path / "home"
    hooks = _hooks_dir(proj)
    _hook(hooks, "PreToolUse", json.dumps({"cancel": True, "errorMessage": "first"}))
    _hook(hooks, "pretooluse.py", json.dumps({"cancel": True, "context": "second"}))
    effect = _fire(proj, home)
    assert effect.outcome.stop_session is True
    assert effect.outcome.message_for_user == "first\nsecond"
    assert (hooks / "pretooluse.py.seen").exists()


def test_a_detached_event_runs_its_hook_and_ignores_the_answer(tmp_path: Path) -> None:
    proj, home = tmp_path / "proj", tmp_path / "home"
    _hook(_hooks_dir(proj), "TaskStart", json.dumps({"cancel": True}))
    effect = _fire(proj, home, "TaskStart", {"taskStart": {"taskMetadata": {}}})
    assert effect.outcome.proceed is True
    seen = (_hooks_dir(proj) / "TaskStart.seen").read_text(encoding="utf-8")
    assert seen == "agent_start\n"


def _recorder(directory: Path, name: str) -> Path:
    """A hook file writing its stdin and Cline's resume variable to ``name``.json."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    out = str(path) + ".json"
    path.write_text(
        f"#!{sys.executable}\n"
        "import json, os, sys\n"
        "got = {'stdin': json.load(sys.stdin), 'env': os.environ.get('CLINE_HOOK_AGENT_RESUME')}\n"
        f"open({out!r}, 'w').write(json.dumps(got))\n",
        encoding="utf-8",
    )
    return Path(out)


@pytest.mark.parametrize(
    ("event", "hook_name", "field", "value", "resumed"),
    [
        (
            "TaskResume",
            "agent_resume",
            "taskResume",
            {"taskMetadata": {}, "previousState": {}},
            "1",
        ),
        ("TaskStart", "agent_start", "taskStart", {"taskMetadata": {}}, None),
    ],
)
def test_a_resumed_task_s_hook_gets_what_cline_3_sends(
    event: str, hook_name: str, field: str, value: Any, resumed: str | None, tmp_path: Path
) -> None:
    """A resumed session (``cline --id``) fires TaskResume where a new one fires TaskStart:
    ``hookName: "agent_resume"``, ``taskResume`` with an empty ``taskMetadata`` and
    ``previousState``, and CLINE_HOOK_AGENT_RESUME=1 in the hook's environment (read in the
    3.0.65 bundle; protocol/cline.py RESUMED, EVENT_INPUT)."""
    proj, home = tmp_path / "proj", tmp_path / "home"
    out = _recorder(_hooks_dir(proj), event)
    effect = _fire(proj, home, event, {})
    assert effect.outcome.proceed is True
    got = json.loads(out.read_text(encoding="utf-8"))
    assert got["stdin"]["hookName"] == hook_name
    assert got["stdin"][field] == value
    assert got["env"] == resumed
    # what a caller gives is sent instead
    given = {"taskMetadata": {"taskId": "t1"}, "previousState": {"messageCount": 3}}
    _fire(proj, home, event, {field: given})
    assert json.loads(out.read_text(encoding="utf-8"))["stdin"][field] == given


def test_a_cancel_after_the_tool_ends_the_run_and_its_context_reaches_the_model(
    tmp_path: Path,
) -> None:
    proj, home = tmp_path / "proj", tmp_path / "home"
    _hook(_hooks_dir(proj), "PostToolUse", json.dumps({"context": "C"}))
    args = {"tool_result": {"id": "call_1", "name": "run_commands", "output": "ok"}}
    outcome = _fire(proj, home, "PostToolUse", args).outcome
    assert (outcome.proceed, outcome.additional_context, outcome.updated_input) == (True, "C", None)


def test_the_input_names_the_event_as_cline_does(tmp_path: Path) -> None:
    runtime = runtime_for("cline")
    base = {"session_id": "s1", "cwd": str(tmp_path), "timestamp": "t"}
    payload = runtime.build_input("UserPromptSubmit", base, {"userPromptSubmit": {"prompt": "p"}})
    assert payload["hookName"] == "prompt_submit"
    assert (payload["taskId"], payload["workspaceRoots"]) == ("s1", [str(tmp_path)])
    assert payload["userPromptSubmit"] == {"prompt": "p"}


def test_a_tool_hook_gets_120_seconds_and_the_run_goes_on_after(tmp_path: Path) -> None:
    from hookwise.config.model import HookEntry, Source
    from hookwise.host.execute import ExecutionSettings

    hooks = runtime_for("cline").hooks(ExecutionSettings(), str(tmp_path))
    entry = HookEntry({"type": "command", "command": "true"}, "PreToolUse", Source.PROJECT)
    assert hooks.timeout(entry)[0] == cline.BLOCKING_TIMEOUT_S * 1000
    assert table("cline").events["PreToolUse"].default_timeout_s == 120.0


# ---------------------------------------------------------------------- parser properties

_TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40)
_ANSWER = st.fixed_dictionaries(
    {},
    optional={
        "cancel": st.one_of(st.booleans(), st.none(), st.integers(), _TEXT),
        "context": st.one_of(_TEXT, st.integers()),
        "contextModification": st.one_of(_TEXT, st.none()),
        "errorMessage": st.one_of(_TEXT, st.none()),
        "overrideInput": st.one_of(st.none(), st.dictionaries(_TEXT, _TEXT, max_size=2)),
    },
)


def _reference(answers: list[dict[str, Any]]) -> tuple[bool, str, str, Any]:
    """The bundle's reader and merge written out plainly (Mp0, Ap0)."""
    cancel, contexts, reasons, override = False, [], [], "<none>"
    for a in answers:
        ctx = a.get("context") if isinstance(a.get("context"), str) else None
        if ctx is None and isinstance(a.get("contextModification"), str):
            ctx = a["contextModification"]
        err = a.get("errorMessage")
        err = err if isinstance(err, str) and err.strip() else None
        if a.get("cancel") is True:
            cancel = True
            reason = err if err is not None else ctx
            reasons += [reason] if reason else []
        else:
            text = ctx if ctx is not None else err
            contexts += [text] if text else []
        if "overrideInput" in a:
            override = a["overrideInput"]
    return cancel, "\n".join(contexts), "\n".join(reasons), override


@given(st.lists(_ANSWER, max_size=4))
def test_merge_is_the_hosts_reading(answers: list[dict[str, Any]]) -> None:
    control = cancel_form.merge(answers, cline)
    cancel, context, reason, override = _reference(answers)
    assert (control.cancel, control.context, control.reason) == (cancel, context, reason)
    if override == "<none>":
        assert control.override is UNDEFINED
    else:
        assert control.override == override


@given(st.text(max_size=200), st.lists(_ANSWER, max_size=3))
def test_any_stdout_reads_without_error(noise: str, answers: list[dict[str, Any]]) -> None:
    lines = [noise, *(f"HOOK_CONTROL\t{json.dumps(a)}" for a in answers)]
    reading = cancel_form.read_answer(cline.CONTROL_PREFIX, "\n".join(lines))
    if answers:
        assert reading.kind == "json"
        assert reading.answer == answers[-1]
    else:
        assert reading.kind in ("json", "none")


@given(st.text(max_size=30))
def test_any_file_name_is_judged_without_error(name: str) -> None:
    event = event_of("cline", name)
    assert event is None or event in cline.EVENT_NAMES


def test_a_long_context_is_cut_as_cline_cuts_it() -> None:
    long = "x" * (cline.CONTEXT_LIMIT + 10)
    control = cancel_form.merge([{"context": long}], cline)
    assert control.context == "x" * cline.CONTEXT_LIMIT + cline.CONTEXT_CUT_NOTE
    # JavaScript counts UTF-16 units: an emoji is two
    emoji = "\U0001f600" * (cline.CONTEXT_LIMIT // 2 + 1)
    cut = cancel_form.merge([{"context": emoji}], cline).context
    assert cut == "\U0001f600" * (cline.CONTEXT_LIMIT // 2) + cline.CONTEXT_CUT_NOTE


def test_the_hook_command_is_quoted_for_the_shell(tmp_path: Path) -> None:
    proj, home = tmp_path / "pro j's", tmp_path / "home"
    path = _hook(_hooks_dir(proj), "PreToolUse", json.dumps({"cancel": True}))
    (entry,) = load_script_hooks("cline", str(proj), {"HOME": str(home)}).registry.entries
    # the #! line names this interpreter (python or python3, as pytest was started): Cline
    # starts it by its name, found on PATH
    assert shlex.split(entry.command or "") == [Path(sys.executable).name, str(path)]
    assert _fire(proj, home).outcome.stop_session is True
