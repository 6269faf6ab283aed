"""The readers of files named in data and options (session 24b): what cpp includes, what
an Ex command reads, the files a wrapper's words name, where an extraction writes, sed's
``r``. Checked against the real programs where they are here, and never raising on
anything."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.policy.trust.data_writes import data_writes
from hookwise.shell.commands.includes import included_files
from hookwise.shell.programs import searches_cwd
from hookwise.shell.sed_script import sed_commands
from hookwise.shell.tool_scripts import ex_reads
from hookwise.shell.wrappers import wrapper_files

NAME = st.text(alphabet=st.sampled_from(list("abcXYZ09._-")), min_size=1, max_size=12).filter(
    lambda n: n not in (".", "..") and not n.startswith("-")
)
WORD = st.text(alphabet=st.sampled_from(list("abx-=.C/dfo T@")), max_size=8)
TEXT = st.text(alphabet=st.sampled_from(list("#incldue \"<>.so()`'\n\t|r:!ab")), max_size=40)


@settings(max_examples=200, deadline=None)
@given(TEXT, st.sampled_from(["cpp", "groff", "m4"]))
def test_included_files_never_raise(text: str, program: str) -> None:
    found = included_files(program, text)
    assert len(found) <= 64 and all(found)


@pytest.mark.skipif(shutil.which("cpp") is None, reason="cpp is not installed")
@settings(max_examples=25, deadline=None)
@given(NAME, st.sampled_from(['#include "{}"', '# include "{}"', "#include <{}>"]))
def test_what_cpp_includes_is_what_the_reader_finds(tmp_path_factory: pytest.TempPathFactory,
                                                    name: str, form: str) -> None:  # fmt: skip
    root = tmp_path_factory.mktemp("cpp")
    (root / name).write_text("INCLUDED_MARK\n")
    line = form.format(name)
    done = subprocess.run(["cpp", "-P", "-I", "."], input=line + "\n", capture_output=True,
                          text=True, cwd=root, timeout=30, check=False)  # fmt: skip
    assert ("INCLUDED_MARK" in done.stdout) == (included_files("cpp", line) == [name])


@settings(max_examples=200, deadline=None)
@given(TEXT)
def test_ex_reads_never_raise(text: str) -> None:
    assert all(kind == "read" and value for kind, value in ex_reads(text))


@settings(max_examples=100, deadline=None)
@given(NAME, st.sampled_from(["r", "read", "e", "edit", "sp", "tabe", "vs"]))
def test_an_ex_reading_command_names_its_file(name: str, command: str) -> None:
    assert ex_reads(f"{command} {name}|%p") == [("read", name)]
    assert ex_reads(f"%s/{name}/x/g") == []


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["xargs", "script", "time", "strace", "ltrace"]), st.lists(WORD, max_size=6))
def test_wrapper_files_never_raise(name: str, words: list[str]) -> None:
    for kind, value in wrapper_files(name, [name, *words]):
        assert kind in ("read", "write") and value


@settings(max_examples=100, deadline=None)
@given(NAME, st.sampled_from([["-q", "{}", "-c", "true"], ["-qc", "true", "{}"],
                              ["{}", "--command=true"], ["-a", "-q", "{}"]]))  # fmt: skip
def test_scripts_typescript_is_a_write(name: str, form: list[str]) -> None:
    argv = ["script", *(w.format(name) for w in form)]
    assert wrapper_files("script", argv) == [("write", name)]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["tar", "unzip", "7z", "cpio", "patch", "cp", "rsync", "git", "jar",
                        "python3", "cmake", "busybox", "ar"]),
       st.lists(WORD, max_size=6))  # fmt: skip
def test_data_writes_never_raise(program: str, words: list[str]) -> None:
    for directory, what in data_writes([program, *words]):
        assert directory and what


@pytest.mark.parametrize(
    ("argv", "where"),
    [
        (["tar", "xf", "a.tar"], ["."]),
        (["tar", "-x", "-f", "a.tar", "-C", "out"], ["out"]),
        (["tar", "--extract", "--file=a.tar", "--directory=d"], ["d"]),
        (["tar", "czf", "a.tgz", "src"], []),
        (["tar", "tf", "a.tar"], []),
        (["unzip", "-o", "a.zip", "-d", "~"], ["~"]),
        (["unzip", "-l", "a.zip"], []),
        (["7z", "x", "-o/tmp/x", "a.7z"], ["/tmp/x"]),
        (["7z", "a", "a.7z", "src"], []),
        (["cpio", "-idu"], ["."]),
        (["cpio", "-o"], []),
        (["python3", "-m", "zipfile", "-e", "a.zip", "dest"], ["dest"]),
        (["python3", "-m", "zipfile", "-l", "a.zip"], []),
        (["cmake", "-E", "tar", "xf", "a.tar"], ["."]),
        (["busybox", "tar", "-xf", "a.tar", "-C", "d"], ["d"]),
        (["patch", "-p1", "-d", "sub"], ["sub"]),
        (["patch", "--dry-run", "-p1"], []),
        (["cp", "-r", "src/.", "."], ["."]),
        (["cp", "-r", "src", "dest"], ["dest/src"]),
        (["cp", "-rT", "src", "dest"], ["dest"]),
        (["cp", "src", "dest"], []),
        (["rsync", "-a", "src/", "dest"], ["dest"]),
        (["git", "stash", "-u"], ["."]),
        (["git", "stash"], []),
        (["git", "stash", "pop"], []),
        (["git", "clean", "-fdx"], ["."]),
        (["git", "clean", "-n", "-d"], []),
        (["git", "clean", "-nd"], []),
        (["git", "apply", "x.patch"], ["."]),
        (["git", "apply", "--check", "x.patch"], []),
        (["git", "format-patch", "-1", "-o", "out"], ["out"]),
        (["git", "merge", "other"], []),
    ],
)
def test_where_a_data_named_write_goes(argv: list[str], where: list[str]) -> None:
    assert [d for d, _what in data_writes(argv)] == where


@pytest.mark.skipif(shutil.which("tar") is None, reason="tar is not installed")
@pytest.mark.parametrize("form", [["xf"], ["-xf"], ["-x", "-f"], ["--extract", "--file"]])
def test_tar_extracts_where_the_reader_says(tmp_path: Path, form: list[str]) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "f").write_text("x")
    subprocess.run(["tar", "cf", "a.tar", "-C", "src", "f"], cwd=tmp_path, check=True)
    (tmp_path / "out").mkdir()
    argv = ["tar", *form, "a.tar", "-C", "out"]
    subprocess.run(argv, cwd=tmp_path, check=True)
    assert (tmp_path / "out" / "f").exists()
    assert [d for d, _what in data_writes(argv)] == ["out"]


@settings(max_examples=100, deadline=None)
@given(NAME, st.sampled_from(["r", "R", "1r", "$r", "/x/r"]))
def test_sed_r_reads_its_file(name: str, command: str) -> None:
    assert ("read", name) in sed_commands(f"{command} {name}")


@pytest.mark.skipif(shutil.which("sed") is None, reason="sed is not installed")
def test_sed_r_really_reads(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("MARK\n")
    (tmp_path / "seed").write_text("line\n")
    for script in ("1r f", "R f", "$r f"):
        done = subprocess.run(["sed", script, "seed"], cwd=tmp_path, capture_output=True,
                              text=True, check=True)  # fmt: skip
        assert "MARK" in done.stdout and ("read", "f") in sed_commands(script)


@pytest.mark.parametrize(
    ("argv", "searches"),
    [
        (["grep", "-r", "x"], True),
        (["grep", "-rn", "x", "src"], False),
        (["grep", "x"], False),
        (["grep", "-r", "-e", "x"], True),
        (["rg", "x"], True),
        (["rg", "x", "src"], False),
        (["git", "grep", "--no-index", "x"], True),
        (["git", "grep", "x"], False),
    ],
)
def test_a_searcher_without_a_path_searches_the_working_directory(
    argv: list[str], searches: bool
) -> None:
    assert searches_cwd(argv[0], argv) is searches


@pytest.mark.skipif(shutil.which("grep") is None, reason="grep is not installed")
def test_grep_r_without_a_path_really_searches_dot(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "f").write_text("NEEDLE\n")
    done = subprocess.run(["grep", "-r", "NEEDLE"], cwd=tmp_path, capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, check=False)  # fmt: skip
    assert "sub/f:NEEDLE" in done.stdout and searches_cwd("grep", ["grep", "-r", "NEEDLE"])


PIECE = st.text(alphabet=st.sampled_from(list("abhookwise./_")), min_size=1, max_size=8).filter(
    lambda p: p.strip(".")  # (a literal "." next to a "." join is ambiguous to read)
)


@settings(max_examples=200, deadline=None)
@given(st.lists(PIECE, min_size=2, max_size=4), st.sampled_from([" + ", "+", " . ", "."]),
       st.sampled_from(['"', "'"]))  # fmt: skip
def test_literals_joined_in_code_make_the_name_python_or_perl_would(
    pieces: list[str], op: str, quote: str
) -> None:
    from hookwise.policy.trust.protect import _join_literals

    code = op.join(f"{quote}{p}{quote}" for p in pieces)
    if "+" in op:  # what python makes of it
        assert eval(code) == "".join(pieces)  # (literals only: nothing else can run)
    assert "".join(pieces) in _join_literals(code)


def test_a_copy_into_an_empty_word_writes_nowhere() -> None:
    """`cp -a x ''` fails in bash (no such directory): no directory is written (hypothesis
    found the empty target once)."""
    assert data_writes(["cp", "", "", "-a"]) == []
    assert data_writes(["cp", "-a", "src", ""]) == []
