"""The small readers session 26 added to the shell analysis (red team s26): each answers
for any words (hypothesis) and reads the spellings it is for."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from hookwise.shell import programs
from hookwise.shell.code_readers import _awk_assigned, py_archive_module, unread_module
from hookwise.shell.commands.env_files import dotenv_file, dotenv_prints, named_files
from hookwise.shell.option_commands import _curl, _wget
from hookwise.shell.parser import split_command
from hookwise.shell.wrappers import starts_shell

WORDS = st.lists(st.text(min_size=0, max_size=12), max_size=8)
SHELLWORDS = st.lists(
    st.sampled_from(["-n", "-v", "f=.env", "--file", ".env", "list", "get", "-e", "x",
                     "post_file = .env", "--netrc", "-sn", "-o", "-", "--", "c", "xzf"]),
    max_size=8,
)  # fmt: skip


def _answers(words: list[str]) -> None:
    argv = ["prog", *words]
    assert isinstance(_awk_assigned(argv), list)
    assert isinstance(dotenv_file(argv), str)
    assert dotenv_prints(argv) in (None, dotenv_file(argv))
    assert isinstance(_curl(argv, []), list)
    assert isinstance(_wget(argv, []), list)
    assert isinstance(programs.reads_tree("tar", argv), bool)
    for module in ("zipfile", "tarfile"):
        for kind, what in py_archive_module(module, words):
            assert kind in ("read", "write", "unverifiable") and isinstance(what, str)
    for name in ("MAGIC", "JDK_JAVA_OPTIONS"):
        for value in words:
            assert all(isinstance(p, str) for p in named_files(name, value))


@given(WORDS)
def test_the_readers_answer_for_any_words(words: list[str]) -> None:
    _answers(words)


@given(SHELLWORDS)
def test_the_readers_answer_for_option_like_words(words: list[str]) -> None:
    _answers(words)


def test_awk_assignments_are_the_values_getline_may_read() -> None:
    assert _awk_assigned(["awk", "-v", "f=.env", "BEGIN{}"]) == [".env"]
    assert _awk_assigned(["awk", "-vf=.env", "BEGIN{}"]) == [".env"]
    assert _awk_assigned(["awk", "--assign=f=.env", "x"]) == [".env"]
    assert _awk_assigned(["awk", "NR==1{}", "f=.env", "README"]) == [".env"]
    assert _awk_assigned(["awk", "-F", "x=y", "{print}"]) == []


def test_dotenv_prints_the_file_it_loads() -> None:
    assert dotenv_prints(["dotenv", "list"]) == ".env"
    assert dotenv_prints(["dotenv", "-f", "prod.env", "get", "K"]) == "prod.env"
    assert dotenv_prints(["dotenv", "--file=a.env", "list"]) == "a.env"
    assert dotenv_prints(["dotenv", "run", "npm", "start"]) is None
    assert dotenv_prints(["dotenv", "set", "K", "V"]) is None


def test_java_option_variables_name_their_files() -> None:
    assert named_files("JDK_JAVA_OPTIONS", "-XX:VMOptionsFile=.env -Xmx1g") == [".env"]
    assert named_files("_JAVA_OPTIONS", "@args.txt -XX:Flags=f") == ["args.txt", "f"]
    assert named_files("MAGIC", "$HOME/.ssh/id_rsa") == ["~/.ssh/id_rsa"]
    assert named_files("JAVA_TOOL_OPTIONS", "-Xmx1g") == []


def test_curl_netrc_spellings_read_the_netrc() -> None:
    for argv in (["curl", "-n", "h"], ["curl", "-sSn", "h"], ["curl", "--netrc", "h"],
                 ["curl", "--netrc-opt", "h"], ["curl", "--netrc-optional", "h"]):  # fmt: skip
        assert _curl(argv, []) == [("read", "~/.netrc")], argv
    for argv in (["curl", "-o", "n", "h"], ["curl", "-sS", "h"], ["curl", "-dn", "h"]):
        assert _curl(argv, []) == [], argv


def test_wget_execute_commands_that_name_files() -> None:
    assert _wget(["wget", "-e", "post_file = .env", "h"], []) == [("read", ".env")]
    assert _wget(["wget", "--execute=Body-File=.env", "h"], []) == [("read", ".env")]
    assert _wget(["wget", "-e", "output_document=o", "h"], []) == [("write", "o")]
    assert _wget(["wget", "-e", "robots=off", "h"], []) == []


def test_tar_reads_trees_only_when_it_makes_an_archive() -> None:
    assert programs.reads_tree("tar", ["tar", "czf", "x.tgz", "d"])
    assert programs.reads_tree("tar", ["tar", "-cf", "x.tar", "d"])
    assert programs.reads_tree("tar", ["tar", "--create", "-f", "x.tar", "d"])
    assert not programs.reads_tree("tar", ["tar", "xzf", "x.tgz", "-C", "/tmp"])
    assert not programs.reads_tree("tar", ["tar", "-tf", "x.tar"])
    assert not programs.reads_tree("tar", ["tar", "--extract", "-f", "x.tar"])


def test_standard_library_tools_are_unread_but_known_harmless_ones() -> None:
    for module in ("pickle", "cProfile", "profile", "trace", "pydoc", "webbrowser", "runpy"):
        assert unread_module(module), module
    for module in ("http.server", "json.tool", "venv", "pytest", "mypkg.cli", "pdb", "timeit"):
        assert not unread_module(module), module


def test_the_archive_modules_are_read_for_what_they_read_and_write() -> None:
    """CI stop 32: `python -m zipfile -l` was unverifiable once every unread module was;
    the two tools' command lines are small and read here."""
    assert not unread_module("zipfile") and not unread_module("tarfile")
    assert py_archive_module("zipfile", ["-l", "a.zip"]) == [("read", "a.zip")]
    assert py_archive_module("tarfile", ["-v", "--list", "a.tar"]) == [("read", "a.tar")]
    assert py_archive_module("tarfile", ["--filter=data", "-e", "a.tar", "d"]) == [
        ("read", "a.tar")
    ]
    # (a source that is a directory is archived whole: every file under it, red team s30 G)
    assert py_archive_module("zipfile", ["-c", "out.zip", ".env", "b"]) == [
        ("write", "out.zip"), ("tree", ".env"), ("tree", "b")
    ]  # fmt: skip
    assert py_archive_module("zipfile", ["-h"]) == []
    [(kind, why)] = py_archive_module("zipfile", ["--bogus", "a.zip"])
    assert kind == "unverifiable" and "--bogus" in why


def test_shell_starters_start_a_shell_only_without_a_command() -> None:
    assert starts_shell("unshare", ["unshare", "-r"])
    assert starts_shell("newgrp", ["newgrp", "staff"])
    assert starts_shell("script", ["script", "-q", "/dev/null"])
    assert not starts_shell("unshare", ["unshare", "-r", "ls"])
    assert not starts_shell("sudo", ["sudo"])


def _hints(text: str) -> list[object]:
    script = split_command(text)
    # (the line's own mv, not the readings made of it: written.read_copies)
    return [c.shapes for c in script.commands if c.program == "mv" and not c.origin]


def test_a_loop_over_a_pattern_gives_its_variable_the_pattern_tail() -> None:
    assert _hints('for f in *.txt; do mv "$f" x; done') == [{1: (("*",), ("L", ".txt"))}]
    assert _hints('for f in a.md b.md; do mv "$f" x; done') == [{1: (("*",), ("L", ".md"))}]
    assert _hints('for f in *.txt a.md; do mv "$f" x; done') == [{1: (("*",),)}]
    assert _hints('for f in $(ls); do mv "$f" x; done') == [{1: (("*",),)}]


@given(st.lists(st.sampled_from(["*.txt", "a.txt", "b", "$(x)", "*", "/dev/nul?"]), max_size=5))
def test_a_loop_hint_never_narrows_past_what_every_word_ends_with(words: list[str]) -> None:
    found = _hints(f'for f in {" ".join(words)}; do mv "$f" x; done')
    assert len(found) == 1 and found[0] is not None
    shape = found[0][1]
    tail = shape[-1][1] if shape[-1][0] == "L" else ""
    assert all(w.endswith(tail) for w in words if "$" not in w)


def test_a_runner_may_load_code_not_output() -> None:
    assert programs.may_load("pytest", "test_x.py", None)
    assert programs.may_load("run-parts", "d/x", None)
    assert programs.may_load("ctest", "CTestTestfile.cmake", "x")
    assert programs.may_load("cmake", "CMakeLists.txt", None)
    assert programs.may_load("pytest", "tool", "#!/bin/sh\n")
    assert not programs.may_load("pytest", "out", None)
    assert not programs.may_load("pytest", "notes.md", None)
    assert not programs.may_load("pytest", "/dev/null", None)
