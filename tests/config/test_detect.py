"""Which dialect a project's files call for, and the tie-break."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookwise.config.detect import detect_dialect

HOOKS = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}}


def put(base: Path, relative: str, content: object) -> None:
    path = base / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content if isinstance(content, str) else json.dumps(content))


@pytest.fixture
def dirs(tmp_path: Path) -> tuple[Path, Path]:
    project, home = tmp_path / "proj", tmp_path / "home"
    project.mkdir()
    home.mkdir()
    return project, home


def test_nothing_means_gemini(dirs: tuple[Path, Path]) -> None:
    project, home = dirs
    assert detect_dialect(project, home, env={}) == "gemini"


@pytest.mark.parametrize(
    ("relative", "content", "expected"),
    [
        (".gemini/settings.json", {}, "gemini"),
        (".claude/settings.json", {}, "claude"),
        (".claude/settings.local.json", HOOKS, "claude"),
        (".codex/hooks.json", HOOKS, "codex"),
        (".codex/config.toml", 'model = "x"\n', "codex"),
    ],
)
def test_one_file_decides(
    dirs: tuple[Path, Path], relative: str, content: object, expected: str
) -> None:
    project, home = dirs
    put(project, relative, content)
    assert detect_dialect(project, home, env={}) == expected


def test_files_with_hooks_beat_files_without(dirs: tuple[Path, Path]) -> None:
    project, home = dirs
    put(project, ".gemini/settings.json", {"general": {}})
    put(project, ".codex/config.toml", '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ncommand = "x"\n')
    assert detect_dialect(project, home, env={}) == "codex"
    put(project, ".claude/settings.json", HOOKS)
    assert detect_dialect(project, home, env={}) == "claude"  # claude before codex on a tie
    put(project, ".gemini/settings.json", '{// c\n "hooks": {"BeforeTool": [{}]}}')
    assert detect_dialect(project, home, env={}) == "gemini"  # gemini first on a tie


def test_malformed_files_count_as_present_without_hooks(dirs: tuple[Path, Path]) -> None:
    project, home = dirs
    put(project, ".claude/settings.json", "{nope")
    put(project, ".codex/config.toml", "[[")
    assert detect_dialect(project, home, env={}) == "claude"


def test_user_files_count_only_with_hooks(dirs: tuple[Path, Path], tmp_path: Path) -> None:
    project, home = dirs
    put(home, ".gemini/settings.json", {"security": {}})
    put(home, ".codex/config.toml", 'model = "x"\n')
    assert detect_dialect(project, home, env={}) == "gemini"
    put(home, ".codex/hooks.json", HOOKS)
    assert detect_dialect(project, home, env={}) == "codex"
    put(home, ".claude/settings.json", HOOKS)
    assert detect_dialect(project, home, env={}) == "claude"
    put(project, ".gemini/settings.json", {})
    assert detect_dialect(project, home, env={}) == "gemini"  # the project's files come first


def test_codex_home_from_env_without_explicit_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "p"
    project.mkdir()
    monkeypatch.setenv("HOME", str(tmp_path / "emptyhome"))
    put(tmp_path / "ch", "hooks.json", HOOKS)
    env = {"CODEX_HOME": str(tmp_path / "ch")}
    assert detect_dialect(project, env=env) == "codex"
    assert detect_dialect(project, env={}) == "gemini"
    assert detect_dialect(project, tmp_path / "nohome", env=env) == "gemini"
