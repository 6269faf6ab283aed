"""settings.json text: comments, located syntax errors, and never an exception."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookwise.config.gemini.paths import SettingsPaths
from hookwise.config.gemini.settings import load_settings
from hookwise.config.jsonc import (
    locate_json_error,
    parse_json_text,
    parse_jsonc,
    strip_json_comments,
)
from hookwise.protocol.jsvalue import UNDEFINED, js_json_parse
from hookwise.protocol.profiles import Profile


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"a": 1} // tail', '{"a": 1}        '),
        ('{"a": /* x */ 1}', '{"a":         1}'),
        ('{"url": "http://x//y"}', '{"url": "http://x//y"}'),  # not inside strings
        ('{"q": "a\\"//b"}', '{"q": "a\\"//b"}'),  # escaped quote keeps the string open
        ('{"q": "a\\\\"//b\n}', '{"q": "a\\\\"   \n}'),  # an escaped backslash does not
        ("// c\r\n{}", "    \r\n{}"),
        ("/* a\nb */{}", "    \n    {}"),  # line breaks survive: positions stay valid
        ("{} /* unterminated", "{}" + " " * 16),
        ("/* \u00a0 */{}", "   \u00a0   {}"),  # JS whitespace is kept, like the library
    ],
)
def test_strip_json_comments(text: str, expected: str) -> None:
    assert strip_json_comments(text) == expected
    assert len(strip_json_comments(text)) == len(text)


def test_jsonc_values_are_js_values() -> None:
    value, problem = parse_jsonc(
        '{\n  // hooks\n  "b": 1, "a": [1.5, 9007199254740993], "2": 0, "1": 0\n}'
    )
    assert problem is None
    assert list(value) == ["1", "2", "b", "a"]  # JS property order
    assert value["a"] == [1.5, 9007199254740992.0]


@pytest.mark.parametrize(
    ("text", "line", "column", "path", "message"),
    [
        ('{"a": 1,}', 1, 9, "", "trailing comma before '}'"),
        (
            '{\n  "hooks": {\n    "BeforeTool": [\n      {"hooks": [1,]}\n    ]\n  }\n}',
            4,
            20,
            "hooks.BeforeTool[0].hooks[1]",
            "trailing comma before ']'",
        ),
        ('{"a": tru}', 1, 7, "a", "expected a value"),
        ("{'a': 1}", 1, 2, "", "expected a double-quoted key"),
        ('{"a" 1}', 1, 6, "", "expected ':'"),
        ('{"a": "x\ny"}', 1, 9, "a", "control character"),
        ('{"a": 1} x', 1, 10, "", "after the JSON value"),
        ('{"a": [1 2]}', 1, 10, "a[0]", "expected ',' or ']'"),
        ('{"a": "\\q"}', 1, 8, "a", "invalid escape"),
        ('{"a": 01}', 1, 8, "a", "expected ',' or '}'"),
        ('{"a": NaN}', 1, 7, "a", "NaN and Infinity"),
        ("", 1, 1, "", "end of file"),
        ('{"a": "x', 1, 9, "a", "unterminated string"),
        ('{"weird key": [}', 1, 16, "['weird key'][0]", "expected a value"),
    ],
)
def test_syntax_errors_are_located(
    text: str, line: int, column: int, path: str, message: str
) -> None:
    value, problem = parse_json_text(text)
    assert value is UNDEFINED
    assert problem is not None
    assert (problem.line, problem.column, problem.path) == (line, column, path)
    assert message in problem.message


def test_error_description_names_file_line_column_and_path() -> None:
    _, problem = parse_jsonc('{\n  "hooksConfig": {"disabled": ["a",]}\n}')
    assert problem is not None
    text = problem.describe("/x/settings.json")
    assert text.startswith("/x/settings.json:2:")
    assert "hooksConfig.disabled[1]" in text


def test_comment_positions_are_kept_in_errors() -> None:
    _, problem = parse_jsonc('{\n /* a\n b */ "a": ,\n}')
    assert problem is not None
    assert (problem.line, problem.column, problem.path) == (3, 12, "a")


def test_bom_is_an_error_like_json_parse() -> None:
    _, problem = parse_jsonc("\ufeff{}")
    assert problem is not None and problem.line == 1 and problem.column == 1


_JSONISH = st.text(
    alphabet=st.sampled_from([*list('{}[]":,/*\\ \n\r\tabtruefalsn01.-eE'), "\xa0", "é"]),
    max_size=40,
)


@given(_JSONISH)
def test_locator_agrees_with_json_parse(text: str) -> None:
    try:
        js_json_parse(text)
        valid = True
    except ValueError:
        valid = False
    assert (locate_json_error(text) is None) == valid


@given(st.text(max_size=200))
def test_parse_jsonc_never_raises(text: str) -> None:
    value, problem = parse_jsonc(text)
    assert (problem is None) != (value is UNDEFINED)


def test_deep_nesting_is_an_error_not_a_crash() -> None:
    value, problem = parse_json_text("[" * 100_000)
    assert value is UNDEFINED and problem is not None


@given(st.binary(max_size=300))
def test_any_bytes_give_settings_or_warnings(
    tmp_path_factory: pytest.TempPathFactory, data: bytes
) -> None:
    root = tmp_path_factory.mktemp("fuzz")
    (root / "home" / ".gemini").mkdir(parents=True)
    (root / "ws" / ".gemini").mkdir(parents=True)
    (root / "ws" / ".gemini" / "settings.json").write_bytes(data)
    (root / "home" / ".gemini" / "settings.json").write_text(
        json.dumps({"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "u"}]}]}})
    )
    paths = SettingsPaths.from_environment(
        root / "ws", env={}, home=root / "home", system_settings=root / "none" / "s.json"
    )
    for profile in Profile:
        loaded = load_settings(paths, profile=profile, env={"GEMINI_CLI_TRUST_WORKSPACE": "true"})
        # The user scope always survives whatever the project file holds.
        assert any(o.scope == "user" for o in loaded.hooks_objects)
        project = loaded.files[next(s for s in loaded.files if s.value == "project")]
        assert project.loaded or project.error


def test_fuzz_fixture_keeps_real_home_untouched(tmp_path: Path) -> None:
    paths = SettingsPaths.from_environment(tmp_path, env={}, home=tmp_path / "h")
    assert str(paths.user_settings).startswith(str(tmp_path))
