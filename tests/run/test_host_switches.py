"""Host settings that switch hooks off are named at the start of a session."""

from __future__ import annotations

from pathlib import Path

from hookwise.run.guarded_paths import HOST, STATE, Guarded
from hookwise.run.host_switches import hooks_switched_off


def _entry(path: Path, text: str) -> Guarded:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return Guarded(str(path), HOST, "t")


def test_each_host_s_switch_is_named_with_its_file(tmp_path: Path) -> None:
    claude = _entry(tmp_path / "p/.claude/settings.local.json", '{"disableAllHooks": true}\n')
    gemini = _entry(
        tmp_path / "h/.gemini/settings.json",
        '{\n  // JSON with comments, as Gemini CLI reads it\n  "hooksConfig": {"enabled": false}\n}\n',
    )
    older = _entry(
        tmp_path / "p/.gemini/settings.json",
        '{"hooks": {"disabled": ["hookwise hook --platform gemini", "other"]}}\n',
    )
    codex = _entry(tmp_path / "h/.codex/config.toml", "[features]\nhooks = false\n")
    warnings = hooks_switched_off([claude, gemini, older, codex])
    assert len(warnings) == 4, warnings
    assert warnings[0].startswith(f"{claude.path}: disableAllHooks is true")
    assert warnings[1].startswith(f"{gemini.path}: hooksConfig.enabled is false")
    assert "hooks.disabled names hookwise's hook (hookwise hook --platform gemini)" in warnings[2]
    assert warnings[3].startswith(f"{codex.path}: [features] hooks = false")


def test_settings_that_keep_hooks_on_say_nothing(tmp_path: Path) -> None:
    hooks = '{"hooks": {"PreToolUse": [{"hooks": [{"command": "hookwise hook"}]}]}}\n'
    entries = [
        _entry(tmp_path / ".claude/settings.json", hooks),
        _entry(tmp_path / ".gemini/settings.json", '{"hooksConfig": {"disabled": ["other"]}}'),
        _entry(tmp_path / ".codex/config.toml", "[features]\nhooks = true\nweb = false\n"),
        _entry(tmp_path / ".claude/settings.local.json", '{"disableAllHooks": false}'),
        _entry(tmp_path / "policy/settings.json", '{"disableAllHooks": true}'),
    ]
    entries[-1] = Guarded(entries[-1].path, STATE, "not a host's")
    assert hooks_switched_off(entries) == []


def test_a_guarded_host_directory_is_looked_into(tmp_path: Path) -> None:
    _entry(tmp_path / "etc/claude-code/managed-settings.json", '{"disableAllHooks": true}')
    entry = Guarded(str(tmp_path / "etc/claude-code"), HOST, "t")
    [warning] = hooks_switched_off([entry])
    assert "managed-settings.json: disableAllHooks" in warning
