"""Hypothesis tests for the readers added for red team s35: kill's operands, /proc paths,
start-up files' lines, and the values of variables that load code into an agent."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.policy.install.startup_check import running_lines
from hookwise.policy.trust.process_files import acts_on_processes, normalise
from hookwise.run.start_env import code_loading
from hookwise.shell.commands import process_targets

SIGNALS = st.sampled_from([[], ["-9"], ["-KILL"], ["-SIGKILL"], ["-s", "KILL"], ["-n", "9"]])
PIDS = st.one_of(
    st.integers(min_value=1, max_value=2**22).map(str), st.sampled_from(["$p", "${p}", "$(x)"])
)


def _kill(argv: list[str]) -> str | None:
    return process_targets.judge(SimpleNamespace(argv=argv, program="kill"))


@given(SIGNALS, st.booleans(), PIDS)
def test_a_group_is_asked_as_its_pid_is(signal: list[str], dashes: bool, pid: str) -> None:
    single = _kill(["kill", *signal, *(["--"] if dashes else []), pid])
    group = _kill(["kill", *signal, *(["--"] if dashes else []), "-" + pid])
    assert single is not None
    assert group is not None


@given(SIGNALS, st.booleans(), st.sampled_from(["%1", "%+", "$!", "-$!", "${!}", "%2"]))
def test_the_lines_own_jobs_are_let_be(signal: list[str], dashes: bool, job: str) -> None:
    assert _kill(["kill", *signal, *(["--"] if dashes else []), job]) is None


PARTS = st.lists(
    st.sampled_from(
        [
            "self",
            "thread-self",
            "..",
            ".",
            "",
            "task",
            "123",
            "$p",
            "fd",
            "1",
            "root",
            "proc",
            "mem",
            "cwd",
            "$$",
        ]
    ),
    max_size=10,
)


@given(PARTS)
def test_normalise_is_stable_and_total(parts: list[str]) -> None:
    path = "/proc/" + "/".join(parts)
    once = normalise(path)
    assert normalise(once) == once
    assert ".." not in once.split("/")
    acts_on_processes(path)  # (never raises)


@given(
    st.sampled_from([("self", 1), ("thread-self", 3), ("$$", 1), ("self/task/1", 3), (".", 0)]),
    PIDS,
)
def test_another_pids_fd_through_the_own_entry_is_asked(own: tuple[str, int], pid: str) -> None:
    entry, ups = own
    up = "/".join([".."] * ups)
    assert acts_on_processes(f"/proc/{entry}/{up}/{pid}/fd/1".replace("//", "/")) is not None


@settings(max_examples=50)
@given(st.text(max_size=400))
def test_running_lines_reads_any_text(text: str) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as directory:
        rc = Path(directory) / ".bashrc"
        rc.write_text(text, encoding="utf-8", errors="replace")
        found = running_lines(str(rc))
        lines = rc.read_text(encoding="utf-8", errors="replace").splitlines()
        for number, line in found:
            assert lines[number - 1].strip() == line
            assert line and not line.startswith("#")


HARMLESS = st.lists(
    st.sampled_from(
        [
            "--max-old-space-size=4096",
            "--enable-source-maps",
            "--no-warnings",
            "--stack-size=2000",
            "--trace-warnings",
        ]
    ),
    max_size=4,
)


@given(HARMLESS, st.sampled_from(["--require /x.js", "-r /x.js", "--import=/x.mjs",
                                  "--loader ./l.mjs", "--experimental-loader=./l.mjs",
                                  "--inspect"]), st.integers(min_value=0, max_value=4))  # fmt: skip
def test_a_code_option_anywhere_in_node_options_refuses(
    harmless: list[str], code: str, at: int
) -> None:
    words = [*harmless[:at], code, *harmless[at:]]
    assert code_loading({"NODE_OPTIONS": " ".join(words)})
    assert code_loading({"NODE_OPTIONS": " ".join(harmless)}) == []


@given(st.dictionaries(st.sampled_from(["NODE_OPTIONS", "PERL5OPT", "RUBYOPT",
                                        "JAVA_TOOL_OPTIONS", "PYTHONPATH"]), st.text(max_size=80)))  # fmt: skip
def test_code_loading_reads_any_value(env: dict[str, str]) -> None:
    for line in code_loading(env):
        assert any(f"{name}=" in line for name in env)
