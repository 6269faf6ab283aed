"""`.agent/hook.toml`: the MVP format, the opt-in extensions, and every way to get it
wrong (each error names the file, the line and the key)."""

from __future__ import annotations

import os
import re
import string
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookwise.config.hook_toml import (
    DEFAULT_HOOK_INPUT_MAX_BYTES,
    HookInputFormat,
    HookToml,
    HookTomlError,
    TurnHookKind,
    load_hook_toml,
    parse_hook_toml,
)

WS = Path("/ws")
PATH = WS / ".agent" / "hook.toml"


def parse(text: str) -> HookToml:
    return parse_hook_toml(text, path=PATH, workspace=WS)


def errors(text: str) -> list[str]:
    with pytest.raises(HookTomlError) as info:
        parse(text)
    return str(info.value).splitlines()


def test_the_seed_example_with_defaults() -> None:
    config = parse(
        "[turn_start]\n"
        'command = "path/to/script"\n'
        'args = ["--foo", "bar"]\n'
        "run_on_hook_input = true\n"
        "\n"
        "[turn_end]\n"
        'command = "path/to/script"\n'
        'args = ["--baz"]\n'
    )
    assert config.turn_start is not None and config.turn_end is not None
    assert config.turn_start.kind is TurnHookKind.TURN_START
    assert config.turn_start.argv == ("/ws/path/to/script", "--foo", "bar")
    assert config.turn_start.run_on_hook_input is True
    assert config.turn_start.timeout_ms is None  # no timeout unless asked for
    assert config.turn_end.argv == ("/ws/path/to/script", "--baz")
    assert config.turn_end.stop_on_exit_codes == frozenset()
    assert config.hook_input_format is HookInputFormat.TEXT
    assert config.hook_input_max_bytes == DEFAULT_HOOK_INPUT_MAX_BYTES
    assert config.loop_guard == 0  # the loop guard is opt-in
    assert config.turn_start.line == 1 and config.turn_end.line == 6


def test_command_resolution() -> None:
    config = parse(
        '[turn_start]\ncommand = "sh"\n[turn_end]\ncommand = "/usr/bin/env"\nargs = ["true"]\n'
    )
    assert config.turn_start is not None and config.turn_end is not None
    assert config.turn_start.argv == ("sh",)  # a bare name is looked up in PATH
    assert config.turn_end.argv == ("/usr/bin/env", "true")  # absolute stays
    config = parse('[turn_start]\ncommand = "./hooks/start.sh"\n')
    assert config.turn_start is not None
    assert config.turn_start.argv == ("/ws/hooks/start.sh",)


def test_empty_file_and_optional_tables() -> None:
    config = parse("# nothing configured yet\n")
    assert config.turn_start is None and config.turn_end is None
    config = parse('[turn_end]\ncommand = "sh"\n')
    assert config.turn_start is None and config.turn_end is not None


def test_opt_in_extensions() -> None:
    config = parse(
        "[turn_start]\n"
        'command = "sh"\n'
        "timeout_ms = 1500\n"
        "run_on_hook_input = false\n"
        "[turn_end]\n"
        'command = "sh"\n'
        "timeout_ms = 2.5\n"
        "stop_on_exit_code = [3, 4]\n"
        "[hook_input]\n"
        'format = "json"\n'
        "max_bytes = 4096\n"
        "[loop_guard]\n"
        "max_consecutive = 0\n"
    )
    assert config.turn_start is not None and config.turn_end is not None
    assert config.turn_start.timeout_ms == 1500.0
    assert config.turn_start.run_on_hook_input is False
    assert config.turn_end.timeout_ms == 2.5
    assert config.turn_end.stop_on_exit_codes == {3, 4}
    assert config.hook_input_format is HookInputFormat.JSON
    assert config.hook_input_max_bytes == 4096
    assert config.loop_guard == 0
    single = parse('[turn_end]\ncommand = "sh"\nstop_on_exit_code = 7\n')
    assert single.turn_end is not None and single.turn_end.stop_on_exit_codes == {7}


def test_every_problem_is_reported_with_line_and_key() -> None:
    lines = errors(
        "# turn hooks\n"  # 1
        "[turn_start]\n"  # 2
        'command = "sh"\n'  # 3
        'args = ["-c", 3]\n'  # 4
        'comand = "x"\n'  # 5
        'run_on_hook_input = "yes"\n'  # 6
        "\n"  # 7
        "[turn_end]\n"  # 8
        "args = []\n"  # 9
        "run_on_hook_input = true\n"  # 10
        "stop_on_exit_code = [3, 300]\n"  # 11
        "[loop_guard]\n"  # 12
        "max_consecutive = -1\n"  # 13
        "[hook_input]\n"  # 14
        'format = "xml"\n'  # 15
        "max_bytes = 1\n"  # 16
        "[turn_middle]\n"  # 17
    )
    assert lines == [
        "/ws/.agent/hook.toml:4: turn_start.args: item 1 must be a string, got an integer",
        "/ws/.agent/hook.toml:5: turn_start.comand: unknown key (expected one of: command,"
        " args, run_on_hook_input, timeout_ms); did you mean 'command'?",
        "/ws/.agent/hook.toml:6: turn_start.run_on_hook_input: must be true or false, got a string",
        "/ws/.agent/hook.toml:8: turn_end: missing required key 'command' (the program to run)",
        "/ws/.agent/hook.toml:10: turn_end.run_on_hook_input: unknown key;"
        " run_on_hook_input is only valid in [turn_start]",
        "/ws/.agent/hook.toml:11: turn_end.stop_on_exit_code: must be an exit code (0-255)"
        " or an array of them, got 300",
        "/ws/.agent/hook.toml:13: loop_guard.max_consecutive: must be between 0 and 1000000,"
        " got -1",
        '/ws/.agent/hook.toml:15: hook_input.format: must be "text" or "json", got \'xml\'',
        "/ws/.agent/hook.toml:16: hook_input.max_bytes: must be between 64 and 1073741824, got 1",
        "/ws/.agent/hook.toml:17: turn_middle: unknown table (expected: turn_start, turn_end,"
        " hook_input, loop_guard); did you mean 'turn_end'?",
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[turn_start]\ncommand = 5\n", ":2: turn_start.command: must be a string, got an integer"),
        ('[turn_start]\ncommand = ""\n', ":2: turn_start.command: must not be empty"),
        ('[turn_start]\ncommand = "sh"\nargs = "-c"\n', ":3: turn_start.args: must be an array"),
        ("turn_start = 3\n", ":1: turn_start: must be a table ([turn_start]), got an integer"),
        ('[[turn_start]]\ncommand = "sh"\n', ":1: turn_start: must be a table"),
        ('[turn_start]\ncommand = "sh"\ntimeout_ms = 0\n', ":3: turn_start.timeout_ms: must be"),
        (
            '[turn_start]\ncommand = "sh"\ntimeout_ms = "5s"\n',
            ":3: turn_start.timeout_ms: must be a number",
        ),
        ('[turn_start]\ncommand = "sh"\ntimeout_ms = inf\n', ":3: turn_start.timeout_ms: must be"),
        (
            '[turn_end]\ncommand = "sh"\nstop_on_exit_code = true\n',
            ":3: turn_end.stop_on_exit_code",
        ),
        ('[turn_end]\ncommand = "sh"\nstop_on_exit_code = ["3"]\n', "got a string"),
        (
            "[loop_guard]\nmax_consecutive = 2.0\n",
            ":2: loop_guard.max_consecutive: must be an integer",
        ),
        (
            "[hook_input]\nmax_bytes = 1979-05-27\n",
            ":2: hook_input.max_bytes: must be an integer, got a date",
        ),
        ('[turn_start]\ncommand = "sh"\nargs = [1979-05-27T00:00:00]\n', "got a datetime"),
        ('[turn_end]\ncommand = "sh"\ntimeot_ms = 5\n', "did you mean 'timeout_ms'?"),
    ],
)
def test_single_problems(text: str, expected: str) -> None:
    message = "\n".join(errors(text))
    assert expected in message
    assert message.startswith(str(PATH))


def test_dotted_keys_and_inline_tables_are_located() -> None:
    lines = errors(
        '# header\nturn_start.command = "sh"\nturn_start.timeout_ms = -1\n'
        'turn_end = { command = "sh", bogus = 1 }\n'
    )
    assert lines[0].startswith(f"{PATH}:3: turn_start.timeout_ms:")
    assert lines[1].startswith(f"{PATH}:4: turn_end.bogus: unknown key")


def test_strings_that_look_like_headers_do_not_confuse_the_lines() -> None:
    lines = errors(
        "[turn_start]\n"
        "command = '''\n"
        "[turn_end]\n"
        "bogus = 1\n"
        "'''\n"
        'args = ["""\n[x]\n""", \'[y]\']\n'
        "bogus = 2\n"
    )
    assert lines == [
        f"{PATH}:9: turn_start.bogus: unknown key (expected one of: command, args,"
        " run_on_hook_input, timeout_ms)"
    ]


def test_toml_syntax_errors_carry_their_line() -> None:
    (line,) = errors('[turn_start]\ncommand = "sh"\nargs = [\n')
    assert line.startswith(f"{PATH}:")
    assert "invalid TOML" in line
    (line,) = errors("[turn_start]\ncommand = sh\n")
    assert line.startswith(f"{PATH}:2: invalid TOML: Invalid value (column 11)")
    (line,) = errors("turn_start =")  # the Codex fork's "invalid config" case
    assert line == f"{PATH}:1: invalid TOML: Invalid value (at end of document)"


def test_load_from_a_workspace(tmp_path: Path) -> None:
    assert load_hook_toml(tmp_path) is None  # missing file: no turn hooks
    (tmp_path / ".agent").mkdir()
    (tmp_path / ".agent" / "hook.toml").write_text('[turn_end]\ncommand = "x/y"\n')
    config = load_hook_toml(tmp_path)
    assert config is not None and config.turn_end is not None
    assert config.turn_end.argv == (str(tmp_path / "x" / "y"),)
    assert config.to_json()["turn_end"] == {"command": "x/y", "argv": [str(tmp_path / "x/y")]}


def test_unreadable_files(tmp_path: Path) -> None:
    agent = tmp_path / ".agent"
    (agent / "hook.toml").mkdir(parents=True)
    with pytest.raises(HookTomlError, match="is a directory"):
        load_hook_toml(tmp_path)
    (agent / "hook.toml").rmdir()
    (agent / "hook.toml").write_bytes(b'[turn_end]\ncommand = "\xff"\n')
    with pytest.raises(HookTomlError, match=r"hook.toml:2: not UTF-8"):
        load_hook_toml(tmp_path)
    if os.geteuid() != 0:
        (agent / "hook.toml").write_text("")
        (agent / "hook.toml").chmod(0)
        with pytest.raises(HookTomlError, match="cannot read"):
            load_hook_toml(tmp_path)


# --- fuzzing -----------------------------------------------------------------------------

_keys = st.sampled_from(
    [
        "command",
        "args",
        "run_on_hook_input",
        "timeout_ms",
        "stop_on_exit_code",
        "format",
        "max_bytes",
        "max_consecutive",
        "bogus",
        "a b",
        "x.y",
    ]
)
_tables = st.sampled_from(["turn_start", "turn_end", "hook_input", "loop_guard", "other"])
_scalars = st.one_of(
    st.booleans(),
    st.integers(min_value=-(2**40), max_value=2**40),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.text(alphabet=string.printable, max_size=12),
)
_values = st.one_of(_scalars, st.lists(_scalars, max_size=3))


def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else _toml_string(key)


def _toml_string(text: str) -> str:
    out = text.replace("\\", "\\\\").replace('"', '\\"')
    out = "".join(ch if ch.isprintable() else f"\\u{ord(ch):04x}" for ch in out)
    return f'"{out}"'


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return _toml_string(value)
    assert isinstance(value, list)
    return "[" + ", ".join(_toml_value(v) for v in value) + "]"


_documents = st.dictionaries(_tables, st.dictionaries(_keys, _values, max_size=5), max_size=4)


@given(_documents, st.booleans())
def test_fuzz_valid_toml_documents(doc: dict[str, dict[str, object]], inline: bool) -> None:
    """Any TOML document gives a config or a HookTomlError whose problems all carry the
    line of the key or table at fault (each key is written on its own line)."""
    lines: list[str] = ["# fuzz"]
    for table, keys in doc.items():
        if inline:
            body = ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in keys.items())
            lines.append(f"{table} = {{ {body} }}")
        else:
            lines.append(f"[{table}]")
            lines += [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in keys.items()]
    text = "\n".join(lines) + "\n"
    try:
        config = parse(text)
    except HookTomlError as exc:
        assert exc.problems
        for problem in exc.problems:
            assert problem.line is not None, str(exc)
            assert problem.key is not None
            line = text.splitlines()[problem.line - 1]
            assert (
                problem.key.split(".")[0] in line
                or problem.key.split(".")[-1] in line
                or ("." in problem.key and _toml_string(problem.key.split(".", 1)[1]) in line)
            ), (str(exc), line)
        return
    for kind in TurnHookKind:
        hook = config.hook(kind)
        if hook is not None:
            assert isinstance(hook.command, str) and hook.command.strip()


@given(st.text(max_size=200))
def test_fuzz_any_text(text: str) -> None:
    """Garbage never escapes as anything but HookTomlError."""
    try:
        parse(text)
    except HookTomlError as exc:
        assert str(exc).startswith(str(PATH))
