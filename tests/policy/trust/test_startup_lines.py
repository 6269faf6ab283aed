"""policy/trust/startup_lines.py: what a write adds to a shell's start-up file, line by
line (red team s35 A, B), and hook_code.sourced_files (what a start-up file sources is
one too). The decisions through the real hook are tests/policy/test_s35_rt_abc.py's."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.policy.trust.hook_code import sourced_files
from hookwise.policy.trust.startup_lines import judge

ENV = {"HOME": "/nonexistent-home", "PATH": "/usr/bin:/bin"}

HARMLESS = [
    "export GOPATH=$HOME/go",
    'export PATH="$PATH:$HOME/bin:/usr/local/go/bin"',  # (after $PATH: anything absolute)
    "export PATH=/usr/bin:$PATH",  # (already on PATH)
    "alias ll='ls -la'",
    "source ~/.cargo/env",
    '[ -s "$HOME/.nvm/nvm.sh" ] && . "$HOME/.nvm/nvm.sh"',
    'eval "$(direnv hook bash)"',
    "source <(kubectl completion bash)",
    "shopt -s histappend",
    "set -o vi",
    "HISTSIZE=10000",
    "export LANG=en_US.UTF-8",
    "# a comment",
]
ASKED = [
    "git() { rm -rf ../victim; }",
    "function make { :; }",
    "alias ls='cat ~/.netrc'",
    "alias ll='ls; rm -rf x'",
    "trap 'rm -rf x' DEBUG",
    'PROMPT_COMMAND="cat ~/.netrc"',
    "PS1='$(id)'",
    "export PERL5OPT=-Mx",
    'export EDITOR="vim -c !rm"',
    'eval "$(cat /tmp/x)"',
    'eval "$(rm -rf x)"',
    "source $X/y",
    "umask 000",
    "ulimit -v 1000",
    "declare -n r=PATH",
    "rm -rf ~/x",
    "export PATH=/tmp/e:$PATH",  # (first on PATH, writable: a planted bash runs first)
]
DENIED = [
    "export HOOKWISE_ON_ERROR=allow",
    "export NODE_OPTIONS=--require=/tmp/x.js",
    "export BASH_ENV=/tmp/x.sh",
    "export HOME=/tmp",
    "XDG_CONFIG_HOME=/tmp/c",
    "export PATH=.:$PATH",
    "PATH=/tmp/e",
    "export LD_PRELOAD=/tmp/x.so",
    "set -gx HOOKWISE_POLICY /tmp/p.yaml",
]


@pytest.mark.parametrize("line", HARMLESS)
def test_a_harmless_line_passes(line: str) -> None:
    assert judge(line + "\n", ENV, "echo", []) is None


@pytest.mark.parametrize("line", ASKED)
def test_a_line_that_changes_later_commands_is_unverifiable(line: str) -> None:
    found = judge(line + "\n", ENV, "echo", [])
    assert found is not None and not found.deny, line


@pytest.mark.parametrize("line", DENIED)
def test_a_guard_or_runner_variable_is_denied(line: str) -> None:
    found = judge(line + "\n", ENV, "echo", [])
    assert found is not None and found.deny, line


def test_unknown_text_is_unverifiable_and_a_guard_name_on_the_line_denies() -> None:
    unknown = judge(None, ENV, "cp x ~/.bashrc", [])
    assert unknown is not None and not unknown.deny
    named = judge(None, ENV, "history -s 'export HOOKWISE_ON_ERROR=allow'; history -w", [])
    assert named is not None and named.deny


def test_a_file_the_line_writes_is_not_sourced_as_on_disk() -> None:
    found = judge("source /tmp/x.sh\n", ENV, "echo", ["/tmp/x.sh"])
    assert found is not None and "writes" in found.why


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200), st.sampled_from(HARMLESS))
def test_judge_reads_any_text_and_one_bad_line_spoils_it(text: str, harmless: str) -> None:
    found = judge(text, ENV, "echo", [])  # (never raises)
    assert found is None or isinstance(found.why, str)
    mixed = judge(f"{harmless}\n{text}\ngit() {{ :; }}\n", ENV, "echo", [])
    assert mixed is not None


def test_what_a_start_up_file_sources_is_one_too(tmp_path: Path) -> None:
    rc, env_file, deeper = tmp_path / ".bashrc", tmp_path / ".cargo" / "env", tmp_path / "d.sh"
    env_file.parent.mkdir()
    rc.write_text('if [ -f ~/.cargo/env ]; then\n  . "$HOME/.cargo/env"\nfi\nsource $X/y\n')
    env_file.write_text(f"source {deeper}\n")
    deeper.write_text("echo hi\n")
    found = dict(sourced_files([str(rc)], str(tmp_path)))
    assert set(found) == {str(env_file), str(deeper)}
    assert str(rc) in found[str(env_file)]


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_sourced_files_reads_any_text(tmp_path_factory: pytest.TempPathFactory, text: str) -> None:
    folder = tmp_path_factory.mktemp("rc")
    rc = folder / ".bashrc"
    rc.write_text(text, encoding="utf-8", errors="replace")
    for path, why in sourced_files([str(rc)], str(folder)):
        assert os.path.isabs(path) and "$" not in path and why
