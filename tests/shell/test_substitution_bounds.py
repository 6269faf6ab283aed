"""Where a command substitution, process substitution or here-document ends is where bash
5.2 ends it (red team s25: a ``)`` in a comment or a case pattern, or a here-document
delimiter split by a line continuation, made the parser end early and read the command
after it as quoted data). Generated lines of marker commands (``: M3``) in nested
``$( )``, ``<( )``, ``${x:-$( )}``, comments, case clauses, quotes and here-documents are
run by real bash with xtrace; every marker bash runs must be a command the parser found."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookwise.shell.parser import split_command

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")


def ran_by_bash(line: str, where: Path) -> set[str] | None:
    """The markers bash 5.2 runs for ``line`` (None: bash refused the line)."""
    done = subprocess.run(
        ["bash", "--norc", "--noprofile", "-x", "-c", line], cwd=where, capture_output=True,
        text=True, timeout=20, check=False, env={"PATH": "/usr/bin:/bin", "PS4": "+ "},
    )  # fmt: skip
    if "syntax error" in done.stderr:
        return None
    return {
        word
        for row in done.stderr.splitlines()
        if row.lstrip("+").startswith(" : ")
        for word in row.split()[2:3]
        if word.startswith("M")
    }


def found_by_parser(line: str) -> set[str] | None:
    script = split_command(line)
    if not script.complete:
        return None  # an incomplete parse is answered unverifiable, not read
    return {c.argv[1] for c in script.commands if c.argv[:1] == [":"] and len(c.argv) > 1}


_counter = iter(range(1, 1_000_000_000))


def _marker() -> str:
    return f": M{next(_counter)}"


@st.composite
def _body(draw: st.DrawFn, depth: int = 0) -> str:
    """A few commands, joined as bash joins them, holding the pieces that hide a ')'."""
    pieces = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(
            ["marker", "comment", "case", "quote", "heredoc", "continued", "nested"]
            if depth < 2 else ["marker", "comment", "case", "quote", "heredoc"]
        ))  # fmt: skip
        if kind == "marker":
            pieces.append(_marker())
        elif kind == "comment":
            tail = draw(st.sampled_from([")", ")'", ')"', ")\\", "esac)", "`)"]))
            pieces.append(f"{_marker()} # {tail}\n")
        elif kind == "case":
            pattern = draw(st.sampled_from(["x", "(x", "x|y", "*", "@(x|z)", "'x'"]))
            end = draw(st.sampled_from([";;", ";&", ";;&", ""]))
            pieces.append(f"case x in {pattern}) {_marker()} {end} esac")
        elif kind == "quote":
            quote = draw(st.sampled_from(["')'", '")"', "\\)", "$')'", '"$(echo ")")"']))
            pieces.append(f"echo {quote}; {_marker()}")
        elif kind == "heredoc":
            word, spelled = draw(st.sampled_from(
                [("E", "E"), ("EOF", "E\\\nOF"), ("EOF", "EO\\\nF"), ("E", "\tE"),
                 ("EOF", "\tE\\\nOF")]
            ))  # fmt: skip
            dash = "-" if spelled.startswith("\t") else draw(st.sampled_from(["", "-"]))
            quote = draw(st.sampled_from(["", "'"]))
            pieces.append(
                f"cat <<{dash}{quote}{word}{quote}\n)\n{_marker()}\n{spelled}\n{_marker()}\n"
            )
        elif kind == "continued":
            pieces.append(f"{_marker()} \\\n{_marker()}")
        else:
            inner = draw(_body(depth + 1))
            form = draw(st.sampled_from(["$(%s\n)", "<(%s\n)", "${y:-$(%s\n)}", '"$(%s\n)"']))
            pieces.append(f"echo {form % inner} >/dev/null; {_marker()}")
    return "\n".join(pieces)


@st.composite
def _line(draw: st.DrawFn) -> str:
    inner = draw(_body())
    form = draw(st.sampled_from(["$(%s\n)", "<(%s\n)", "${y:-$(%s\n)}", '"$(%s\n)"']))
    return f"cat {form % inner} >/dev/null; {_marker()}\n{_marker()}"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_line())
def test_every_command_bash_runs_in_a_substitution_is_found(tmp_path_factory: pytest.TempPathFactory,
                                                             line: str) -> None:  # fmt: skip
    where = tmp_path_factory.mktemp("bash")
    ran = ran_by_bash(line, where)
    found = found_by_parser(line)
    if ran is None or found is None:
        return
    assert ran <= found, (line, sorted(ran - found))


@pytest.mark.parametrize(
    "line",
    [
        "echo $(echo a # )'\n: M1 #'\n)",
        "echo $(echo a # )\\\n: M1\n)",
        "cat <(echo a # )'\n: M1 #'\n)",
        "echo ${y:-$(echo a # )'\n: M1 #'\n)}",
        "echo $(case x in x) : M1;; esac)",
        "echo $(case x in (x) : M1;; esac)",
        'echo "$(case x in x|y) : M1;; esac)"',
        "echo $(if true; then case x in *) : M1;; esac; fi)",
        "cat <<EOF\nE\\\nOF\n: M1\nEOF",
        "cat <<-EOF\n\tE\\\nOF\n: M1\nEOF",
        "echo $(cat <<EOF\nE\\\nOF\n: M1\nEOF\n)",
        "echo $(cat <<E\n)\nE\n: M1\n)",
        "a=(x # )'\n$(: M1) #'\n)",
    ],
)
def test_the_red_team_s25_shapes_are_read_as_bash_reads_them(tmp_path: Path, line: str) -> None:
    ran = ran_by_bash(line, tmp_path)
    assert ran == {"M1"}, ran  # (the line is real: bash runs the marker)
    assert found_by_parser(line) is not None
    assert "M1" in (found_by_parser(line) or set()), line


@pytest.mark.parametrize(
    ("line", "seen"),
    [
        ("cat <<EOF\nx\\\\\nEOF\n: M1", {"M1"}),  # an escaped backslash: no continuation
        ("cat <<'EOF'\nE\\\nOF\n: M1\nEOF", set()),  # a quoted delimiter: lines as they are
        ("cat <<-EOF\n\tE\\\n\tOF\n: M1\nEOF", set()),  # <<- strips the joined line's start
        ("echo $(echo '# )' ) && : M1", {"M1"}),  # a quoted # is no comment
        ("echo $(echo a#b) && : M1", {"M1"}),  # nor one inside a word
        ("echo $(( 16#ff )) && : M1", {"M1"}),
        ("echo $(( (1<<2) ))\n: M1", {"M1"}),  # a shift, not a here-document
    ],
)
def test_near_misses_are_read_as_bash_reads_them(tmp_path: Path, line: str, seen: set[str]) -> None:
    assert ran_by_bash(line, tmp_path) == seen
    assert found_by_parser(line) == seen, line
