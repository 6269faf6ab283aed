"""Session 22's red team, by class (tests/policy/corpus/redteam_s22.yaml): each command first
does its damage in real bash against a throwaway world (deletes ../victim, force-pushes,
prints the planted key), then the hook with every pack must deny or ask; the near misses
of each class must get no decision. What still gets through is a strict xfail with why."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from tests.policy.corpus_support import CORPUS
from tests.policy.test_unverifiable import _missing, in_bash, packs, verdict

__all__ = ["packs"]  # the module fixture, shared

DATA = yaml.safe_load((CORPUS / "redteam_s22.yaml").read_text())
BLOCK = [
    pytest.param(command, id=f"{klass}-{index:02d}")
    for klass, body in DATA["classes"].items()
    for index, command in enumerate(body["block"], start=1)
]
PASS = [
    pytest.param(command, id=f"{klass}-{index:02d}")
    for klass, body in DATA["classes"].items()
    for index, command in enumerate(body.get("pass", []), start=1)
]
XFAIL = [
    pytest.param(command, id=f"{klass}-{index:02d}",
                 marks=pytest.mark.xfail(strict=True, reason=body["reason"]))
    for klass, body in DATA["xfail"].items()
    for index, command in enumerate(body["block"], start=1)
]  # fmt: skip


def _blocked(tmp_path: Path, packs: dict[str, Any], command: str) -> None:
    missing = _missing(command)
    if missing:
        pytest.skip(f"{missing} is not installed")
    assert in_bash(command, tmp_path), f"bash did no damage: {command}"
    decision, reason = verdict(command, packs)
    assert decision in ("deny", "ask"), (command, decision, reason)


@pytest.mark.parametrize("command", BLOCK)
def test_bash_does_the_damage_and_the_hook_blocks_it(
    tmp_path: Path, packs: dict[str, Any], command: str
) -> None:
    _blocked(tmp_path, packs, command)


@pytest.mark.parametrize("command", XFAIL)
def test_what_still_gets_through(tmp_path: Path, packs: dict[str, Any], command: str) -> None:
    _blocked(tmp_path, packs, command)


@pytest.mark.parametrize("command", PASS)
def test_near_misses_pass(packs: dict[str, Any], command: str) -> None:
    assert verdict(command, packs) == ("none", ""), command


def test_every_class_has_its_source_and_near_misses() -> None:
    for klass, body in DATA["classes"].items():
        assert body["source"] and body["block"] and body.get("pass"), klass
    for klass, body in DATA["xfail"].items():
        assert body["reason"] and body["block"], klass


# ------------------------------------------------ patterns under the line's glob options

NAMES = ["id_rsa", "ID_RSA", "Id_Rsa.pub", "credentials", "CRED.bak", "notes.txt", ".hidden"]


@pytest.mark.parametrize("pattern", ["ID_RS[A]", "cred*", "I?_r*", "[ic]*", "*.PUB", "[!x]D*"])
def test_nocaseglob_patterns_select_what_bash_selects(tmp_path: Path, pattern: str) -> None:
    """The rewritten pattern, expanded as bash expands it without the option, selects
    the files bash selects with ``shopt -s nocaseglob``."""
    import subprocess

    from hookwise.shell.accounting import as_matched

    for name in NAMES:
        (tmp_path / name).write_text("x")

    def expand(script: str) -> list[str]:
        done = subprocess.run(["bash", "-c", script], cwd=tmp_path, capture_output=True,
                              text=True, check=True)  # fmt: skip
        return sorted(done.stdout.split())

    rewritten = as_matched(pattern, frozenset(["nocaseglob"]))
    assert rewritten is not None
    wanted = expand(f"shopt -s nocaseglob nullglob; printf '%s\\n' {pattern}")
    assert expand(f"shopt -s nullglob; printf '%s\\n' {rewritten}") == wanted, rewritten


@given(st.text(alphabet=st.sampled_from("abXY_.*?[]!-09"), max_size=12))
def test_nocaseglob_rewrite_matches_either_case(pattern: str) -> None:
    """For any pattern: a name the pattern matches, in any mix of case, is matched by the
    rewrite; the rewrite without letters is the pattern itself."""
    import fnmatch

    from hookwise.shell.accounting import as_matched

    rewritten = as_matched(pattern, frozenset(["nocaseglob"]))
    assert rewritten is not None
    if not any(c.isalpha() for c in pattern):
        assert rewritten == pattern
    literal = pattern.replace("*", "").replace("?", "").replace("[", "").replace("]", "")
    literal = literal.replace("!", "")
    if literal == pattern:  # no pattern characters: the name itself, in other cases
        for name in (pattern.upper(), pattern.lower(), pattern.swapcase()):
            assert fnmatch.fnmatchcase(name, rewritten)
    assert as_matched(pattern, frozenset(["extglob"])) == (None if "(" in pattern else pattern)


@given(st.lists(st.sampled_from(["-l", "9", "-", "x", "-a", "--prefix", "-f", "in", "out",
                                 "-P", "--pager=less", "-Hfirefox", "ls", "-b"]), max_size=8),
       st.sampled_from(["uniq", "split", "csplit", "man", "sort"]))  # fmt: skip
def test_writer_and_pager_options_read_any_argv(words: list[str], program: str) -> None:
    """The option readers of split/uniq/csplit/sort -o and man -P take any words without
    failing, and name files or commands only from those words (or split's own prefix)."""
    from hookwise.shell.option_commands import HANDLERS
    from hookwise.shell.parser import split_command
    from hookwise.shell.quote import join
    from hookwise.shell.written import _split_outputs

    argv = [program, *words]
    if program in ("uniq", "split", "csplit"):
        for name in _split_outputs(program, argv):
            assert any(name.startswith(w) for w in [*words, "x", "xx"]) or name in words
    if program == "man":
        for kind, value in HANDLERS["man"](argv, []):
            assert kind == "script" and any(value in w for w in words)
    split_command(join(argv))  # the whole parser takes it too
