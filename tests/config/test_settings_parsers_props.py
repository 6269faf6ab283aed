"""Property tests for the small parsers the Gemini settings loader is built from: ``$VAR``
expansion, JS ``Number(string)``, the schema's coercion, and the recogniser of hookwise's
own hook command. Each takes text a repository wrote, so each must never raise."""

from __future__ import annotations

import math
import shlex
import string

from hypothesis import given
from hypothesis import strategies as st

from hookwise.config.env_expansion import resolve_env_vars
from hookwise.config.gemini.schema import js_number_from_string, validate_settings
from hookwise.config.hookwise_command import (
    is_hookwise_command,
    is_portable_command,
    machine_paths,
    portable_command,
)
from hookwise.protocol.hosts import HOST_NAMES
from hookwise.protocol.jsvalue import MAX_SAFE_INTEGER
from tests.strategies import json_values

NAMES = st.text(string.ascii_letters + string.digits + "_", min_size=1, max_size=8)
ENVS = st.dictionaries(NAMES, st.text(max_size=8), max_size=4)
NO_DOLLAR = st.text(max_size=30).filter(lambda t: "$" not in t)


# --------------------------------------------------------------------------- $VAR


@given(value=json_values, env=ENVS)
def test_expansion_never_raises_and_keeps_the_shape(value: object, env: dict[str, str]) -> None:
    expanded = resolve_env_vars(value, env)  # type: ignore[arg-type]

    def shape(item: object) -> object:
        if isinstance(item, dict):
            return {k: shape(v) for k, v in item.items()}
        if isinstance(item, list):
            return [shape(v) for v in item]
        return type(item).__name__

    assert shape(expanded) == shape(value)


@given(text=NO_DOLLAR, env=ENVS)
def test_text_without_a_dollar_is_left_alone(text: str, env: dict[str, str]) -> None:
    assert resolve_env_vars(text, env) == text


@given(
    name=NAMES,
    value=NO_DOLLAR,
    default=NO_DOLLAR.filter(lambda t: "}" not in t),
    before=NO_DOLLAR,
    after=NO_DOLLAR,
)
def test_every_form_of_a_reference(
    name: str, value: str, default: str, before: str, after: str
) -> None:
    env = {name: value}
    for form in (f"${{{name}}}", f"${{{name}:-{default}}}"):
        assert resolve_env_vars(before + form + after, env) == before + value + after
    assert resolve_env_vars(f"{before}${{{name}:-{default}}}{after}", {}) == (
        before + default + after
    )
    # unset without a default: left as written, for the hook's own shell
    assert resolve_env_vars(f"{before}${{{name}}}{after}", {}) == f"{before}${{{name}}}{after}"


@given(
    name=NAMES.filter(lambda n: n != "OTHER"),
    value=st.text(max_size=6).map(lambda t: t + "${OTHER}"),
)
def test_a_value_is_not_expanded_again(name: str, value: str) -> None:
    """One pass: a variable whose value holds ``$OTHER`` does not pull OTHER in."""
    env = {name: value, "OTHER": "secret"}
    assert resolve_env_vars(f"${{{name}}}", env) == value


# --------------------------------------------------------------------------- Number()


@given(n=st.integers(min_value=-MAX_SAFE_INTEGER, max_value=MAX_SAFE_INTEGER))
def test_integers_read_back_with_js_whitespace(n: int) -> None:
    for text in (str(n), f"  {n}\n", f"\t{n}\u00a0", f"{n}.0", f"{n}e0"):
        assert js_number_from_string(text) == n
    if n >= 0:
        assert js_number_from_string(hex(n)) == n
        assert js_number_from_string(oct(n)) == n
        assert js_number_from_string(bin(n)) == n


@given(x=st.floats(allow_nan=False, allow_infinity=False))
def test_floats_read_back(x: float) -> None:
    assert js_number_from_string(repr(x)) == x


@given(text=st.text(max_size=30))
def test_any_text_is_a_number_or_nan(text: str) -> None:
    result = js_number_from_string(text)
    assert result is None or isinstance(result, int | float)
    if isinstance(result, float) and not math.isinf(result):
        assert not math.isnan(result)


@given(word=st.text(string.ascii_letters, min_size=1, max_size=8))
def test_words_are_nan(word: str) -> None:
    if word != "Infinity":
        assert js_number_from_string(word) is None


# --------------------------------------------------------------------------- the schema


@given(value=json_values)
def test_validation_never_raises_and_returns_the_file_or_its_coercion(value: object) -> None:
    settings = {"hooks": {"BeforeTool": value}, "hooksConfig": value}
    result, issues = validate_settings(settings)  # type: ignore[arg-type]
    assert isinstance(issues, list)
    if issues:
        assert result is settings  # used exactly as written
        assert all(": expected " in issue for issue in issues)


@given(timeout=st.integers(min_value=0, max_value=10**9), pad=st.sampled_from(["", " ", "\n"]))
def test_a_numeric_timeout_string_becomes_a_number(timeout: int, pad: str) -> None:
    hook = {"type": "command", "command": "x", "timeout": f"{pad}{timeout}{pad}"}
    result, issues = validate_settings({"hooks": {"BeforeTool": [{"hooks": [hook]}]}})
    assert issues == []
    assert result == {"hooks": {"BeforeTool": [{"hooks": [{**hook, "timeout": timeout}]}]}}


# --------------------------------------------------------------------------- hookwise's command


@given(text=st.text(max_size=60))
def test_the_recogniser_never_raises(text: str) -> None:
    assert isinstance(is_hookwise_command(text), bool)
    assert isinstance(is_portable_command(text), bool)
    assert isinstance(machine_paths(text), list)


@given(host=st.sampled_from(HOST_NAMES))
def test_the_portable_command_is_recognised_and_names_no_path(host: str) -> None:
    command = portable_command(host)
    assert is_portable_command(command)
    assert is_hookwise_command(command)
    assert machine_paths(command) == []


@given(
    program=st.text(string.ascii_lowercase + "/._-", min_size=1, max_size=20).filter(
        lambda p: "hookwise" not in p
    ),
    args=st.lists(st.text(string.ascii_lowercase + "-", max_size=8), max_size=4),
)
def test_other_programs_are_not_hookwise(program: str, args: list[str]) -> None:
    assert not is_hookwise_command(shlex.join([program, *args]))


@given(
    python=st.sampled_from(["/usr/bin/python3", "/opt/venv/bin/python", "python"]),
    flags=st.lists(st.sampled_from(["-I", "-S", "-B", "-E"]), max_size=3),
    root=st.sampled_from(["/site-packages", "/home/me/src", "C:\\x"]),
)
def test_every_launcher_form_is_recognised(python: str, flags: list[str], root: str) -> None:
    sep = "\\" if root.startswith("C:") else "/"
    launcher = sep.join([root, "hookwise", "policy", "run_hook.py"])
    assert is_hookwise_command(shlex.join([python, *flags, launcher, "--platform", "gemini"]))
    assert is_hookwise_command(shlex.join([python, *flags, "-m", "hookwise", "hook"]))
    assert not is_hookwise_command(shlex.join([python, *flags, "-m", "hookwise", "serve"]))
