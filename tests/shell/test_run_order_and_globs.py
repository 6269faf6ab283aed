"""Red team s28's A, E and S readings, word by word: files written anywhere on a line
that runs something concurrently, globs bash expands otherwise than the matcher reads
them (their literal frame), and curl's URL globs (the escapes themselves run in real bash
in tests/policy/test_escapes_s27.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookwise.shell.commands.curl_globs import MAX_URLS, expand, globoff
from hookwise.shell.commands.glob_frame import differs, frame
from hookwise.shell.parser import split_command


@pytest.mark.parametrize(
    "line",
    [
        "bash p & echo 'rm -rf x' > p",
        "bash p | echo 'rm -rf x' > p",
        "coproc bash p; echo 'rm -rf x' > p",
        "mkfifo p; bash < p; echo 'rm -rf x' > p",
        ": <(bash p); echo 'rm -rf x' > p",
    ],
)
def test_a_file_written_later_on_a_concurrent_line_is_run_unknown(line: str) -> None:
    script = split_command(line)
    assert script.concurrent
    assert any("p" in why for why in script.unverifiable), script.unverifiable


def test_a_sequential_line_keeps_text_order() -> None:
    script = split_command("echo 'ls' > x.sh; bash x.sh")
    assert not script.concurrent and script.unverifiable == []
    assert split_command("bash p; echo 'rm -rf x' > p").unverifiable == []


@pytest.mark.parametrize(
    ("pattern", "options", "expected"),
    [
        (".[^.]*", frozenset(), True),
        (".[[:alpha:]]nv", frozenset(), True),
        ("x[[=e=]]", frozenset(), True),
        ("?env", frozenset(["dotglob"]), True),
        (".[!.]*", frozenset(), False),
        ("*.py", frozenset(), False),
    ],
)
def test_which_globs_bash_reads_otherwise(
    pattern: str, options: frozenset[str], expected: bool
) -> None:
    assert differs(pattern, options) is expected


def test_a_glob_frame_keeps_its_literals() -> None:
    assert frame(".[^.]*") == (("L", "."), ("*",))
    assert frame(".[[:alpha:]]nv") == (("L", "."), ("*",), ("L", "nv"))
    assert frame("a\\*b?") == (("L", "a*b"), ("*",))
    assert frame("[x") == (("L", "[x"),)


def test_dotglob_from_globignore_frames_the_words() -> None:
    command = split_command("GLOBIGNORE=x; cat ?env").commands[-1]
    assert command.dynamic[1] and command.shapes == {1: (("*",), ("L", "env"))}


def test_curl_expands_lists_and_ranges() -> None:
    assert expand("file:///p/{.e,x}nv") == ["file:///p/.env", "file:///p/xnv"]
    assert expand("f/.e[m-n]v") == ["f/.emv", "f/.env"]
    assert expand("n[08-10]") == ["n08", "n09", "n10"]
    assert expand("n[1-5:2]") == ["n1", "n3", "n5"]
    assert expand("plain") == ["plain"]
    assert expand("a[1-1000]") is None and expand("[a-z][a-z]") is None
    assert expand("a{b") is None and expand("a[.-.]") is None
    assert len(expand("[a-h][1-8]") or []) == MAX_URLS


def test_curl_words_become_operands_unless_globbing_is_off() -> None:
    command = split_command("curl -s 'file:///p/.{e}nv'").commands[0]
    assert command.argv[-1] == "file:///p/.env"
    assert globoff(["curl", "-sg", "x[1]"]) and globoff(["curl", "--globoff", "x"])
    assert split_command("curl -g 'x/.{e}nv'").commands[0].argv == ["curl", "-g", "x/.{e}nv"]
    past = split_command("curl 'x/[a-z][a-z]'").commands[0]
    assert past.dynamic[-1] and past.shapes is not None


def _starter_answer(command: str, cwd: str, home: str) -> str:
    from hookwise.policy.pipeline import decide
    from hookwise.policy.tools.payloads import build_payload
    from hookwise.policy.tools.starter import starter_policy
    from tests.policy.conftest import compile_text

    policy = compile_text(starter_policy(["all"]))
    payload = build_payload(
        "claude", "PreToolUse", tool="Bash", tool_input={"command": command}, cwd=cwd
    )
    found = decide(payload, policy, "claude", {"HOME": home}, now=0.0).decision
    return (found.decision if found else None) or "allow"


@pytest.mark.parametrize(
    ("command", "key", "expected"),
    [
        ("grep foo *", False, "allow"),  # README.md and src/: no name the secrets pack protects
        ("grep -n foo *.md src/*", False, "allow"),
        ("cd src && grep foo *", False, "allow"),
        # server.pem is among what * expands to now: a search of it, denied by the secrets
        # pack's no-search-secret-files as `cat *` is (s28 F)
        ("grep foo *", True, "deny"),
        ("grep -h . s*", True, "deny"),
        ("cd src && grep foo ../*", True, "deny"),
        ("shopt -s nocaseglob; grep -h . S*", True, "deny"),  # bash reads S* otherwise
        ("touch x; grep foo *", False, "ask"),  # the line writes before it expands
    ],
)
def test_a_pattern_is_what_it_expands_to_on_the_disk_now(
    tmp_path: Path, command: str, key: bool, expected: str
) -> None:
    """A pattern the matcher reads as bash does, on a line that changes nothing before
    bash expands it, is decided by the names it expands to now: `grep foo *` in a project
    without a key is everyday (it asked for every rule's argument pattern), and with
    server.pem there it is a read of it. Otherwise a pattern is what it may match."""
    project = tmp_path / "proj"
    (project / "src").mkdir(parents=True)
    (project / "README.md").write_text("hi\n")
    (project / "src" / "a.py").write_text("x = 1\n")
    if key:
        (project / "server.pem").write_text("-----BEGIN PRIVATE KEY-----\n")
    home = tmp_path / "home"
    home.mkdir()
    assert _starter_answer(command, str(project), str(home)) == expected
