"""Property tests for what the rt24 fixes read from files the agent or a repository may
have written: hook commands in host settings, validator commands, ``pyvenv.cfg``."""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.run.guarded_paths import KERNEL_FILES, _commands, _expand, command_files
from hookwise.run.interpreter_paths import _search_start

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(["command", "hooks", "x", "type"]), inner, max_size=4)
    ),
    max_leaves=20,
)


@given(JSON)
def test_commands_are_every_command_string(data: object) -> None:
    found = _commands(data)
    assert all(isinstance(c, str) for c in found)

    def count(value: object) -> int:
        if isinstance(value, dict):
            return sum(
                1 if k == "command" and isinstance(v, str) else count(v) for k, v in value.items()
            )
        if isinstance(value, list):
            return sum(count(v) for v in value)
        return 0

    assert len(found) == count(data)


@given(
    st.text(max_size=80),
    st.dictionaries(
        st.from_regex(r"[A-Z_]{1,6}", fullmatch=True), st.text(max_size=10), max_size=3
    ),
)
def test_expand_replaces_only_known_variables(command: str, variables: dict[str, str]) -> None:
    expanded = _expand(command, variables)
    if "$" not in command:
        assert expanded == command
    for name, value in variables.items():
        if f"${{{name}}}" == command:
            assert expanded == value


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=80))
def test_command_files_never_raise_and_name_only_real_places(command: str) -> None:
    env = {"PATH": "/nonexistent-hookwise-test"}
    for entry in command_files(command, "/nonexistent-hookwise-base", env, "test"):
        assert os.path.isabs(entry.path)
        assert "$" not in entry.path
        assert not entry.path.startswith(KERNEL_FILES)


@settings(max_examples=60, deadline=None)
@given(text=st.text(max_size=200))
def test_search_start_is_the_home_a_pyvenv_cfg_names(text: str) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as directory:
        venv = Path(directory)
        (venv / "bin").mkdir()
        (venv / "pyvenv.cfg").write_text(text, encoding="utf-8", errors="surrogateescape")
        start = _search_start(str(venv / "bin" / "python3"))
        homes = [
            v.strip()
            for k, eq, v in (line.partition("=") for line in text.splitlines())
            if eq and k.strip().lower() == "home" and "\0" not in v
        ]
        if homes:
            assert start == homes[0]
        else:
            assert start == str(venv / "bin")


@settings(max_examples=40, deadline=None)
@given(
    st.binary(max_size=300)
    | st.sampled_from([b"[" * 100_000, b'{"command": "' + b"\0" * 5 + b'"}'])
)
def test_any_settings_file_is_read_without_raising(raw: bytes) -> None:
    import tempfile

    from hookwise.run.guarded_paths import _settings_data

    with tempfile.TemporaryDirectory() as directory:
        for name in ("settings.json", "config.toml"):
            path = Path(directory, name)
            path.write_bytes(b'"command"' + raw)
            _commands(_settings_data(str(path)))
