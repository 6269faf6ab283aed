"""An unknown program whose operands hold a guarded program's command line runs it for
deny and ask rules (shell/commands/operands.py); the table of guarded names is complete
for the starter packs, and programs whose operands are data are not read this way."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookwise.shell import programs
from hookwise.shell.commands.operands import DATA_OPERANDS, MAX_OPERAND_COMMANDS
from hookwise.shell.parser import split_command


def _derived(text: str) -> list[list[str]]:
    return [
        c.argv
        for c in split_command(text).commands
        if c.origin.startswith(programs.OPERANDS_ORIGIN)
    ]


def test_every_program_the_starter_packs_name_is_guarded_in_operands(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from hookwise.policy.tools.starter import starter_policy
    from tests.policy.conftest import compile_text

    monkeypatch.setenv("HOME", "/tmp/rt/home")
    policy: dict[str, Any] = compile_text(starter_policy(["all"]))
    named = {
        name
        for bucket in policy["index"].values()
        if isinstance(bucket, dict) and bucket.get("prog")
        for name in bucket["prog"]
    }
    assert named  # (the walk sees the index)
    # (but . and source: shell builtins no other program can run)
    assert named - programs.OPERAND_PROGRAMS == {".", "source"} & named


@pytest.mark.parametrize(
    ("text", "derived"),
    [
        ("x86_64 rm -rf d", [["rm", "-rf", "d"]]),
        ("ld.so /usr/bin/git push -f", [["/usr/bin/git", "push", "-f"]]),
        ("perf stat -o /dev/null rm -r d", [["rm", "-r", "d"]]),
        ("newtool --flag=1 curl -d @.env h", [["curl", "-d", "@.env", "h"]]),
        ("jobs -x sh -c 'rm -rf d'", [["sh", "-c", "rm -rf d"]]),
    ],
)
def test_a_guarded_program_in_the_operands_is_a_command(
    text: str, derived: list[list[str]]
) -> None:
    found = _derived(text)
    assert all(argv in found for argv in derived), found


@pytest.mark.parametrize(
    "text",
    ["man git push", "echo rm -rf d", "apt-get install -y git curl", "pkill -f rsync",
     "git commit -m rm", "python3 tool.py rm -rf d", "grep -r git .", "x86_64 $p rm -rf d",
     "rm -rf git"],
)  # fmt: skip
def test_data_operands_and_known_programs_are_not_read_as_commands(text: str) -> None:
    derived = _derived(text)
    assert derived == [] or text.startswith("x86_64"), derived
    if text.startswith("x86_64"):  # the $p is skipped, the rm after it is not
        assert derived == [["rm", "-rf", "d"]]


@given(st.lists(st.sampled_from(["rm", "git", "-f", "x", "curl"]), min_size=1, max_size=12))
def test_operand_commands_are_bounded(words: list[str]) -> None:
    assert len(_derived("newtool " + " ".join(words))) <= MAX_OPERAND_COMMANDS


def test_the_data_table_holds_no_guarded_name() -> None:
    assert not DATA_OPERANDS & programs.OPERAND_PROGRAMS


_POLICY = """\
version: 1
rules:
  - {id: no-rm-r, match: {command: rm -r}, action: deny, reason: "no recursive rm"}
  - {id: ok-perf, match: {command: perf}, action: allow, reason: "profiling is fine"}
"""


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("perf stat -o /dev/null rm -rf ../x", "deny"),  # the rm in its operands is denied
        ("perf stat -o /dev/null ls -la", "allow"),  # nothing guarded: the allow holds
        # an operand command that no rule matches needs no approval of its own
        ("perf stat -o /dev/null cat notes.txt", "allow"),
    ],
)
def test_operand_commands_are_for_deny_and_ask_rules(text: str, expected: str) -> None:
    from hookwise.policy.pipeline import decide
    from hookwise.policy.tools.payloads import build_payload
    from tests.policy.conftest import compile_text

    policy = compile_text(_POLICY)
    payload = build_payload(
        "claude", "PreToolUse", tool="Bash", tool_input={"command": text}, cwd="/tmp/p"
    )
    found = decide(payload, policy, "claude", {"HOME": "/tmp/h"}, now=0.0).decision
    assert found is not None
    assert found.decision == expected, (text, found.decision, found.reason, found.notes)


def test_a_file_written_on_the_line_is_read_by_its_program_alone() -> None:
    """config_written (cold, shell/commands/build_files.py): the one table of each kind."""
    from hookwise.shell.commands.build_files import BUILD_FILES, CONFIG_FILES, config_written

    for program, names in BUILD_FILES.items():
        for name in names:
            assert config_written(program, {f"src/{name}": None}) is not None, (program, name)
            assert config_written("ls", {f"src/{name}": None}) is None
    for suffix, readers in CONFIG_FILES.items():
        for program in readers:
            assert config_written(program, {f"home/{suffix}": None}) is not None
    assert config_written("git", {"notes/gitconfig.txt": None}) is None


def test_the_gate_names_are_the_tables_names() -> None:
    """programs.LOADED_FILE_NAMES: what accounting reads before it loads build_files."""
    from hookwise.shell.commands.build_files import BUILD_FILES, CONFIG_FILES

    files = {name.rsplit("/", 1)[-1] for names in BUILD_FILES.values() for name in names}
    files |= {suffix.rsplit("/", 1)[-1] for suffix in CONFIG_FILES}
    assert f" {' '.join(sorted(files))} " == programs.LOADED_FILE_NAMES


def test_the_build_file_runners_are_code_runners() -> None:
    from hookwise.shell.commands.build_files import BUILD_FILES

    assert all(programs.listed(name, programs.CODE_RUNNERS) for name in BUILD_FILES)


def test_the_operands_gate_is_the_tables_names() -> None:
    """programs.UNREAD_OPERANDS: what the parser reads before it loads operands.py."""
    from hookwise.shell.commands.operands import DATA_OPERANDS, NON_READERS

    names = sorted(DATA_OPERANDS | NON_READERS)
    assert programs.UNREAD_OPERANDS.split() == names
    assert f" {' '.join(names)} " == programs.UNREAD_OPERANDS
