"""The execute allow-list: argv entries fixed at startup, never resolved against a client."""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.api.allowlist import SAFE_PATH, inside_roots, split_command
from hookwise.api.settings import SettingsError, execute_policy, load_settings


@pytest.fixture
def hook(tmp_path: Path) -> str:
    path = tmp_path / "ok.sh"
    path.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    path.chmod(0o755)
    return str(path)


@pytest.mark.parametrize(
    ("entry", "why"),
    [
        ("./hook.sh", "relative path"),
        (".claude/hooks/check.sh", "relative path"),
        ("$CLAUDE_PROJECT_DIR/.claude/hooks/check.sh", "variable"),
        ("~/hooks/check.sh", "relative path"),
        ("`which ls`", "variable"),
        ("/bin/true; id", "shell syntax"),
        ("/bin/true | cat", "shell syntax"),
        ("/no/such/program", "not an executable file"),
        ("no-such-program-hookwise", "not found in"),
        ("'unbalanced", "cannot be split"),
    ],
)
def test_entries_the_operator_cannot_mean_are_refused_at_startup(entry: str, why: str) -> None:
    with pytest.raises(SettingsError, match=why) as err:
        execute_policy([entry])
    assert entry in str(err.value) or entry.split(maxsplit=1)[0] in str(err.value)


def test_relative_entry_in_service_yaml_names_the_file_and_entry(tmp_path: Path) -> None:
    (tmp_path / "service.yaml").write_text(
        "execute:\n  enabled: true\n  allow:\n    - ./hook.sh\n", encoding="utf-8"
    )
    with pytest.raises(SettingsError, match=r"service\.yaml: execute\.allow\[0\].*relative"):
        load_settings(tmp_path, env={})


def test_bare_names_resolve_once_against_the_fixed_path(tmp_path: Path) -> None:
    policy = execute_policy(["true"], roots=(tmp_path,))
    real = os.path.realpath(str(__import__("shutil").which("true", path=SAFE_PATH)))
    assert policy.resolve("true") == (real,)
    assert policy.resolve(real) == (real,)
    assert policy.resolve("./true") is None


def test_a_command_runs_as_argv_so_shell_text_is_only_arguments(hook: str) -> None:
    policy = execute_policy([hook], regexes=[rf"{hook}( .*)?"])
    assert policy.resolve(hook) == (hook,)
    assert policy.resolve(f"{hook} x; id > f") == (hook, "x;", "id", ">", "f")
    assert policy.resolve("/bin/sh -c id") is None


def test_a_symlink_to_an_allowed_program_runs_the_program(hook: str, tmp_path: Path) -> None:
    link = tmp_path / "link.sh"
    link.symlink_to(hook)
    policy = execute_policy([str(link)])
    assert policy.resolve(str(link)) == (hook,)
    assert policy.resolve(hook) == (hook,)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_nothing_but_the_listed_argv_is_ever_resolved(command: str) -> None:
    policy = execute_policy(["/bin/true", "true --flag"])
    resolved = policy.resolve(command)
    allowed = {(os.path.realpath("/bin/true"),), (os.path.realpath("/bin/true"), "--flag")}
    assert resolved is None or resolved in allowed
    if resolved is not None:
        assert split_command(command)[1:] == resolved[1:]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=10), max_size=4))
def test_regex_entries_match_the_whole_argv(args: list[str]) -> None:
    true = os.path.realpath("/bin/true")
    policy = execute_policy([], regexes=[re.escape(true) + "( [a-z]+)*"])
    command = shlex.join([true, *args])
    expected = all(a.isascii() and a.isalpha() and a.islower() for a in args)
    assert (policy.resolve(command) is not None) == expected


def test_cwd_must_lie_inside_a_root(tmp_path: Path) -> None:
    root = tmp_path / "project"
    (root / "sub").mkdir(parents=True)
    (tmp_path / "project-evil").mkdir()
    (root / "escape").symlink_to(tmp_path)
    assert inside_roots(str(root / "sub"), [root]) == str(root / "sub")
    assert inside_roots(str(root), [root]) == str(root)
    assert inside_roots(str(tmp_path / "project-evil"), [root]) is None
    assert inside_roots(str(root / "sub" / ".." / ".."), [root]) is None
    assert inside_roots(str(root / "escape"), [root]) is None


def test_roots_must_be_absolute_directories(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="project root"):
        execute_policy(["/bin/true"], roots=(Path("relative"),))
    with pytest.raises(SettingsError, match="project root"):
        execute_policy(["/bin/true"], roots=(tmp_path / "missing",))
