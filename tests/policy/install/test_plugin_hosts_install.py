"""`hookwise install|uninstall opencode|kilo`: the plugin file, and nothing else of the user's.

Install writes ``hookwise.js`` into the plugins directory of the scope (project:
``.opencode/plugins``, ``.kilo/plugins``; user: ``$XDG_CONFIG_HOME/opencode|kilo/plugins``)
and the launcher; a second install changes nothing; uninstall leaves the tree as it was
before install, byte for byte; a foreign ``hookwise.js`` is refused.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

HOOKWISE = Path(sys.executable).parent / "hookwise"


def run(args: list[str], home: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / "cfg"),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CACHE_HOME": str(home / "cache"),
        "XDG_STATE_HOME": str(home / "state"),
    }
    return subprocess.run(
        [str(HOOKWISE), *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def snapshot(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() if p.is_file() else b"<dir>"
        for p in sorted(root.rglob("*"))
    }


@pytest.mark.parametrize("scope", ["project", "user"])
@pytest.mark.parametrize("host", ["opencode", "kilo"])
def test_install_then_uninstall_gives_back_the_tree(tmp_path: Path, host: str, scope: str) -> None:
    home, proj = tmp_path / "home", tmp_path / "proj"
    proj.mkdir(parents=True)
    config = proj / f".{host}"
    (config / "plugins").mkdir(parents=True)
    (config / "plugins" / "mine.js").write_text("export const Mine = async () => ({})\n")
    (proj / f"{host}.json").write_text('{"mcp": {}}\n')
    user_plugins = home / "cfg" / host / "plugins"
    user_plugins.mkdir(parents=True)
    before = snapshot(tmp_path)

    done = run(["install", host, "--scope", scope], home, proj)
    assert done.returncode == 0, done.stderr
    target = (config if scope == "project" else home / "cfg" / host) / "plugins" / "hookwise.js"
    text = target.read_text(encoding="utf-8")
    assert text.startswith("// hookwise policy plugin for ")
    assert f"--platform {host}" in text and "__" not in text.split("\n", 1)[0]
    # the launcher: under HOME, whatever XDG_DATA_HOME says (red team s27 #3a)
    assert (home / ".local" / "share" / "hookwise" / "hook").is_file()
    assert not (home / "data" / "hookwise" / "hook").exists()
    again = run(["install", host, "--scope", scope], home, proj)
    assert again.returncode == 0 and "nothing to change" in again.stdout
    assert target.read_text(encoding="utf-8") == text

    removed = run(["uninstall", host, "--scope", scope], home, proj)
    assert removed.returncode == 0, removed.stderr
    after = snapshot(tmp_path)
    launcher_files = {k for k in after if k.startswith("home/.local") and k not in before}
    assert {k: v for k, v in after.items() if k not in launcher_files} == before


def test_a_project_directory_install_made_goes_with_uninstall(tmp_path: Path) -> None:
    home, proj = tmp_path / "home", tmp_path / "proj"
    proj.mkdir(parents=True)
    assert run(["install", "kilo"], home, proj).returncode == 0
    assert (proj / ".kilo" / "plugins" / "hookwise.js").is_file()
    assert run(["uninstall", "kilo"], home, proj).returncode == 0
    assert not (proj / ".kilo").exists()


def test_a_foreign_file_of_that_name_is_refused(tmp_path: Path) -> None:
    home, proj = tmp_path / "home", tmp_path / "proj"
    plugin = proj / ".opencode" / "plugins" / "hookwise.js"
    plugin.parent.mkdir(parents=True)
    plugin.write_text("// someone else's\n")
    done = run(["install", "opencode"], home, proj)
    assert done.returncode != 0 and "hookwise did not write" in done.stderr
    assert plugin.read_text() == "// someone else's\n"
    gone = run(["uninstall", "opencode"], home, proj)
    assert gone.returncode == 0 and plugin.read_text() == "// someone else's\n"
