"""The catalog's readers by subcommand (programs.read_operands) hold for the real git: every
spelling it names a file for prints that file's content, and every one it does not prints
none; --env-file values and jq's filter are not files the command reads."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.shell.commands.env_files import env_files
from hookwise.shell.programs import (
    COMPUTED,
    SUBCOMMAND_READERS,
    excluded_words,
    read_operands,
)

MARK = "MARK-5e1d"
# git argv (after `git`) -> whether it prints the file F's content
GIT = [
    (["show", "HEAD:F"], True),
    (["show", "main:./F"], True),
    (["show", ":F"], True),
    (["cat-file", "-p", ":F"], True),
    (["cat-file", "blob", ":0:F"], True),
    (["log", "-p", "--", "F"], True),
    (["log", "--patch", "F"], True),
    (["log", "-L1,1:F"], True),
    (["log", "-L", "1,1:F"], True),
    (["blame", "F"], True),
    (["annotate", "F"], True),
    (["grep", "-h", ".", "--", "F"], True),
    (["grep", "-e", "M", "F"], True),
    (["grep", "M", "F"], True),
    (["archive", "HEAD", "F"], True),
    (["diff", "--no-index", "/dev/null", "F"], True),
    (["-c", "core.pager=cat", "diff", "--no-index", "--", "/dev/null", "F"], True),
    (["log", "--", "F"], False),
    (["log", "--oneline", "F"], False),
    (["hash-object", "F"], False),
    (["grep", "-c", "F"], False),  # F is the pattern here
    (["ls-files", "F"], False),
    (["show", "--stat", "HEAD"], False),
]


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("repo")
    env = _env(where)
    (where / "F").write_text(MARK + "\n")
    for argv in (["init", "-q", "-b", "main"], ["add", "F"], ["commit", "-qm", "one"]):
        subprocess.run(["git", *argv], cwd=where, env=env, check=True, capture_output=True)
    return where


def _env(where: Path) -> dict[str, str]:
    return {"PATH": os.environ["PATH"], "HOME": str(where), "GIT_AUTHOR_NAME": "a",
            "GIT_AUTHOR_EMAIL": "a@b", "GIT_COMMITTER_NAME": "a",
            "GIT_COMMITTER_EMAIL": "a@b", "GIT_PAGER": "cat"}  # fmt: skip


@pytest.mark.parametrize(("argv", "prints"), GIT, ids=[" ".join(a) for a, _ in GIT])
def test_git_prints_what_the_catalog_says_it_reads(
    repo: Path, argv: list[str], prints: bool
) -> None:
    done = subprocess.run(["git", *argv], cwd=repo, env=_env(repo), capture_output=True,
                          check=False, timeout=30)  # fmt: skip
    assert (MARK.encode() in done.stdout + done.stderr) == prints, done
    named = read_operands("git", ["git", *argv])
    assert ("F" in named or "./F" in named) == prints, named


def test_an_object_written_by_hash_object_is_printed_without_its_path(repo: Path) -> None:
    """git hash-object -w F | xargs git cat-file -p prints F: -w reads F, plain does not."""
    line = "git hash-object -w F | xargs git cat-file -p"
    done = subprocess.run(["bash", "-c", line], cwd=repo, env=_env(repo), capture_output=True,
                          text=True, check=False, timeout=30)  # fmt: skip
    assert MARK in done.stdout
    assert read_operands("git", ["git", "hash-object", "-w", "F"]) == ["F"]
    assert read_operands("git", ["git", "hash-object", "F"]) == []


@pytest.mark.parametrize(
    "line",
    ["git add -f G && git diff --cached", "git stage G && git show :G",
     "git add G && git stash && git stash show -p"],
)  # fmt: skip
def test_a_file_staged_is_printed_later_without_its_path(tmp_path: Path, line: str) -> None:
    """git add copies G into the object store; diff --cached, show :G and a stash print it
    without naming it, so add and stage read their operands (as hash-object -w does)."""
    env = _env(tmp_path)
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=tmp_path, env=env, check=True)
    subprocess.run(["git", "commit", "-q", "--allow-empty", "-m", "0"], cwd=tmp_path, env=env,
                   check=True)  # fmt: skip
    (tmp_path / "G").write_text(MARK + "\n")
    done = subprocess.run(["bash", "-c", line], cwd=tmp_path, env=env, capture_output=True,
                          text=True, check=False, timeout=30)  # fmt: skip
    assert MARK in done.stdout, done
    assert read_operands("git", ["git", *line.split("&&", maxsplit=1)[0].split()[1:]]) == ["G"]


def test_paths_from_a_file_are_computed() -> None:
    """git add --pathspec-from-file=L stages L's lines: names the guard cannot read."""
    assert read_operands("git", ["git", "add", "--pathspec-from-file=L"]) == [COMPUTED]
    assert read_operands("git", ["git", "add", "-A"]) == []
    assert read_operands("git", ["git", "add", "."]) == ["."]


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["docker", "cp", "key", "c:/tmp/"], ["key"]),
        (["docker", "-H", "tcp://127.0.0.1:1", "cp", "key", "c:/tmp/"], ["key"]),
        (["docker", "container", "cp", "key", "c:/x"], ["key"]),
        (["docker", "cp", "c:/var/log/x", "./x"], []),
        (["docker", "cp", "-a", "./.env", "c:/x"], ["./.env"]),
        (["kubectl", "-n", "ns", "cp", "key", "pod:/x"], ["key"]),
        (["docker", "run", "img", "cp", "key", "x"], []),
        (["docker", "ps"], []),
        (["ls", "key"], []),
    ],
)
def test_copies_to_containers(argv: list[str], expected: list[str]) -> None:
    assert read_operands(argv[0], argv) == expected


WORD = st.text(alphabet=st.sampled_from(list("ab:-=./ 0")), max_size=8)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(SUBCOMMAND_READERS)), st.lists(WORD, max_size=8))
def test_read_operands_names_only_words_of_the_line(program: str, words: list[str]) -> None:
    argv = [program, *words]
    for name in read_operands(program, argv):
        assert name and any(w.endswith(name) for w in words), (argv, name)


@settings(max_examples=200, deadline=None)
@given(st.lists(WORD, max_size=6), WORD.filter(bool), st.booleans())
def test_env_file_value_is_loaded_not_read(before: list[str], value: str, joined: bool) -> None:
    written = [f"--env-file={value}"] if joined else ["--env-file", value]
    argv = ["prog", *[w for w in before if not w.startswith("--env-file")], *written]
    assert env_files("prog", argv)[-1] == value
    if not joined:
        assert len(argv) - 1 in excluded_words("prog", argv)


@pytest.mark.parametrize(
    ("argv", "excluded"),
    [
        (["jq", ".env", "config.json"], {1}),
        (["jq", "-r", ".env.X", "package.json"], {2}),
        (["jq", "-f", ".env", "x.json"], set()),
        (["jq", "--from-file=.env", "x.json"], set()),
        (["yq", "-r", ".a", "f.yaml"], {2}),
    ],
)
def test_a_filter_is_not_a_file(argv: list[str], excluded: set[int]) -> None:
    assert set(excluded_words(argv[0], argv)) == excluded


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["docker", "run", "--env-file", ".env", "img"], [".env"]),
        (["node", "--env-file=.env", "app.js"], [".env"]),
        (["foreman", "start", "-e", ".env"], [".env"]),
        (["foreman", "start", "-e.env"], [".env"]),
        (["honcho", "--env=a.env", "start"], ["a.env"]),
        (["docker", "run", "-e", "A=1", "img"], []),  # docker's -e is a variable
        # with no -e, foreman and honcho load .env (their option's default: red team s31 I)
        (["foreman", "start", "-f", "Procfile"], [".env"]),
        (["honcho", "start"], [".env"]),
        (["node", "-r", "dotenv/config", "app.js"], [".env"]),
        (["node", "-r", "./setup.js", "app.js"], []),
    ],
)
def test_env_files_by_meaning(argv: list[str], expected: list[str]) -> None:
    assert env_files(argv[0], argv) == expected
