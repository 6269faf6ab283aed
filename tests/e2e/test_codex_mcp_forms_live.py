"""F7 (red team s25): the real Codex 0.169.0 reads every form of a server entry that
``hookwise install codex --mcp`` rewrites as a server that starts the proxy.

A ``config.toml`` with servers written as a table, a quoted key, dotted keys under
``[mcp_servers]``, dotted keys from the root and inline tables (the forms Codex reads:
``codex mcp list --json`` on the file as written lists all of them) goes through
``install --mcp --scope user``; ``codex mcp list --json`` then lists each with the proxy's
command and the server's own command after ``--``. Uninstall gives the bytes back. The
listing of the run that recorded ``fixtures/codex-mcp-forms/`` is kept there
(``HOOKWISE_E2E_RECORD=1``; Codex 0.169.0, 2026-11-28);
tests/policy/install/test_install_mcp_s25.py checks install against it without the CLI.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import clis
from tests.e2e.test_policy_install import hookwise, require

FIXTURES = Path(__file__).parent / "fixtures" / "codex-mcp-forms"
NAMES = {
    "root.toml": {"root.dotted", "inline", "table", "quoted"},
    "section.toml": {"dotted", "inline", "bare", "table"},
}


def _listing(env: dict[str, str], cwd: Path) -> list[dict[str, Any]]:
    done = subprocess.run(
        [str(clis.binary("codex")), "mcp", "list", "--json"],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    listing: list[dict[str, Any]] = json.loads(done.stdout)
    return listing


def _argv(server: dict[str, Any]) -> list[str]:
    return [server["transport"]["command"], *server["transport"]["args"]]


@pytest.mark.e2e
@pytest.mark.parametrize("form", sorted(NAMES))
def test_codex_reads_every_rewritten_form_as_a_proxied_server(form: str, tmp_path: Path) -> None:
    require("codex")
    home, proj = tmp_path / "home", tmp_path / "proj"
    (home / ".codex").mkdir(parents=True)
    proj.mkdir()
    config = home / ".codex" / "config.toml"
    text = (FIXTURES / form).read_text(encoding="utf-8")
    config.write_text(text, encoding="utf-8")
    env = {
        "HOME": str(home),
        "CODEX_HOME": str(home / ".codex"),
        "XDG_STATE_HOME": str(home / ".state"),
        "PATH": os.environ.get("PATH", clis.search_path()),
        "TMPDIR": str(tmp_path),
    }
    before = {s["name"]: _argv(s) for s in _listing(env, proj)}
    assert set(before) == NAMES[form]
    done = hookwise(["install", "codex", "--mcp", "--scope", "user", "--json"], env, proj)
    assert done.returncode == 0, done.stdout + done.stderr
    listing = _listing(env, proj)
    if os.environ.get("HOOKWISE_E2E_RECORD"):
        stem = form.removesuffix(".toml")
        (FIXTURES / f"{stem}.installed.toml").write_text(config.read_text("utf-8"), "utf-8")
        (FIXTURES / f"{stem}.codex-mcp-list.json").write_text(json.dumps(listing, indent=1))
    after = {s["name"]: _argv(s) for s in listing}
    assert set(after) == set(before)
    for name, argv in after.items():
        assert argv[argv.index("wrap") - 1 : argv.index("wrap") + 1] == ["mcp", "wrap"], argv
        assert argv[argv.index("--") + 1 :] == before[name], (name, argv)
    done = hookwise(["uninstall", "codex", "--mcp", "--scope", "user", "--json"], env, proj)
    assert done.returncode == 0 and config.read_text("utf-8") == text
