"""Issue 28 part B, item 4: what the real Claude Code 2.1.330 does with the path entries
the exporter writes, with no hook registered (facts the exporter relies on, recorded).

- ``Read(//**/NAME)``: is the form accepted, and does it refuse the Read tool on
  ``<project>/NAME``? (a control run without the entries reads the file)
- does a ``Read(...)`` deny entry also refuse a Bash command naming the path
  (``cat NAME``)? It does (and an ``Edit(...)`` one ``touch NAME``), so a path entry is
  sound only for a rule that covers shell commands too (claude.py's ``_PATH_RULES``); a
  recursive ``grep -r`` of the directory is not refused (left to the hook).

The model's turns are a Script (one Read call, or one Bash call); what Claude told the
model is the tool result, kept with ``HOOKWISE_E2E_KEEP_NATIVE``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.e2e.fake_model import Script, call
from tests.e2e.test_policy_install import run_cli, session

SECRET = "native-secret-7f3a"
NAME = "secret.txt"
ENTRIES = [f"Read(//**/{NAME})", f"Read(//**/{NAME}/**)"]


def _told(requests: list[dict[str, object]]) -> str:
    text = json.dumps(requests[-1]) if requests else ""
    at = text.rfind("tool_result")
    return text[at : at + 700] if at >= 0 else text[-700:]


def _run(
    tmp_path: Path, tool: str, deny: list[str], command: str = f"cat {NAME}"
) -> tuple[dict[str, object], str]:
    layout, _policy = session("claude", tmp_path)
    (layout.proj / NAME).write_text(SECRET + "\n", encoding="utf-8")
    settings = layout.proj / ".claude" / "settings.json"
    current = json.loads(settings.read_text(encoding="utf-8"))
    if deny:
        current["permissions"]["deny"] = deny
    settings.write_text(json.dumps(current, indent=2), encoding="utf-8")
    if tool == "Read":
        step = call("Read", file_path=str(layout.proj / NAME))
    elif tool == "ReadUpper":  # the same name in capitals (F8)
        (layout.proj / NAME.upper()).write_text(SECRET + "\n", encoding="utf-8")
        step = call("Read", file_path=str(layout.proj / NAME.upper()))
    elif tool == "Write":
        step = call("Write", file_path=str(layout.proj / NAME), content="rewritten\n")
    else:
        step = call("Bash", command=command, description="run it")
    script = Script([step])
    (tmp_path / "script.json").write_text(json.dumps(script.to_json()), encoding="utf-8")
    result = run_cli("claude", tmp_path)
    told = _told(result["requests"])  # type: ignore[arg-type]
    keep = os.environ.get("HOOKWISE_E2E_KEEP_NATIVE")
    if keep:
        label = "" if tool == "Read" else "-" + command.replace(" ", "_").replace("/", "")
        name = f"claude-path-{tool}{label}-{'deny' if deny else 'control'}.json"
        summary = {"exit": result["exit_code"], "deny": deny, "told": told}
        Path(keep, name).write_text(json.dumps(summary, indent=2), encoding="utf-8")
    return result, told


@pytest.mark.e2e
@pytest.mark.parametrize("tool", ["Read", "Bash"])
@pytest.mark.parametrize("case", ["deny", "control"])
def test_claude_read_entry(tool: str, case: str, tmp_path: Path) -> None:
    result, told = _run(tmp_path, tool, ENTRIES if case == "deny" else [])
    why = f"\n  exit {result['exit_code']}\n  model saw: {told}"
    assert not result["timed_out"], why
    assert len(result["requests"]) >= 2, f"the model never heard back{why}"  # type: ignore[arg-type]
    if case == "control":
        assert SECRET in told, f"the file was not read{why}"
        return
    # both refused: the Read tool ("File is in a directory that is denied by your permission
    # settings.") and `cat NAME` ("Permission to use Bash with command cat secret.txt has
    # been denied."), so a Read entry stops shell commands too (claude.py's _PATH_RULES)
    assert SECRET not in told, f"the Read entry did not refuse{why}"
    assert "denied" in told.lower(), why


@pytest.mark.e2e
@pytest.mark.parametrize(
    ("entry", "command", "refused"),
    [
        # a recursive read of the directory is not refused: the file's text reaches the
        # model (the hook's job; the export says `partial`)
        ("Read", "grep -r native-secret .", False),
        ("Read", "ls", False),
        # an Edit entry refuses a shell command writing the file
        ("Edit", f"touch {NAME}", True),
    ],
)
def test_claude_path_entry_and_bash(
    entry: str, command: str, refused: bool, tmp_path: Path
) -> None:
    """Which other Bash commands a path entry refuses (observed on 2.1.330)."""
    deny = [e.replace("Read(", f"{entry}(") for e in ENTRIES]
    result, told = _run(tmp_path, "Bash", deny, command)
    why = f"\n  exit {result['exit_code']}\n  model saw: {told}"
    assert not result["timed_out"], why
    denied = f"Permission to use Bash with command {command} has been denied" in told
    assert denied is refused, why


@pytest.mark.e2e
@pytest.mark.parametrize("tool", ["Write", "ReadUpper"])
def test_claude_read_entry_reaches_further(tool: str, tmp_path: Path) -> None:
    """Red team s25 F2 and F8, recorded: a ``Read(...)`` deny entry also refuses the Write
    tool on the path ("File is covered by a Read deny rule ... cannot be written"), and it
    matches the name in other cases (``SECRET.TXT``). So the exporter writes a Read entry
    only for a rule that also denies writes and edits, and every path rule's coverage says
    the case is ignored (export/claude.py)."""
    result, told = _run(tmp_path, tool, ENTRIES)
    why = f"\n  exit {result['exit_code']}\n  model saw: {told}"
    assert not result["timed_out"], why
    assert len(result["requests"]) >= 2, f"the model never heard back{why}"  # type: ignore[arg-type]
    assert SECRET not in told, why
    assert "denied" in told.lower() or "deny rule" in told.lower(), why
    if tool == "Write":
        layout_file = next(tmp_path.rglob(NAME))
        assert layout_file.read_text(encoding="utf-8") == SECRET + "\n", why
