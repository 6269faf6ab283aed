"""Which MCP servers the real Gemini CLI takes from its system files (issue 28, session 29):
``gemini mcp list`` with a system settings file and a system defaults file (moved by
``GEMINI_CLI_SYSTEM_SETTINGS_PATH``; the defaults beside it), one server of the user's settings
under the same name as the system settings' one, and the same files where any user could
write them. ``HOOKWISE_E2E_RECORD=1`` writes fixtures/gemini-system-mcp.json;
tests/policy/install/test_install_mcp_s29.py holds install and doctor to it without the CLI.

Gemini CLI loads a system file only when root owns it and every directory above it and none
is writable by group or others: the live run needs root, and a directory under root's home."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests.e2e import clis
from tests.e2e.test_policy_install import require

FIXTURE = Path(__file__).parent / "fixtures" / "gemini-system-mcp.json"


def _listed(home: Path, cwd: Path, settings: Path) -> dict[str, str]:
    """name -> the command ``gemini mcp list`` shows for it."""
    env = {"HOME": str(home), "PATH": os.environ.get("PATH", clis.search_path()),
           "GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(settings)}  # fmt: skip
    done = subprocess.run([str(clis.binary("gemini")), "mcp", "list"], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=90, check=False)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    listing = done.stdout + done.stderr  # (0.61.0 prints the list on stderr)
    return dict(re.findall(r"^\S+ (\S+): (.+?) \(stdio\)", listing, re.MULTILINE))


def _system(directory: Path) -> Path:
    directory.mkdir(parents=True)
    settings = directory / "settings.json"
    servers = {"sysfs": {"command": "system-cmd", "args": ["s"]}}
    settings.write_text(json.dumps({"mcpServers": servers}), "utf-8")
    defaults = {"deffs": {"command": "defaults-cmd", "args": ["d"]}}
    (directory / "system-defaults.json").write_text(json.dumps({"mcpServers": defaults}))
    for path in (directory, settings, directory / "system-defaults.json"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    return settings


@pytest.mark.e2e
def test_what_gemini_starts_from_its_system_files(tmp_path: Path) -> None:
    require("gemini")
    if os.geteuid() != 0:
        pytest.skip("Gemini CLI loads only system files root owns: run as root")
    base = Path(tempfile.mkdtemp(prefix="hookwise-s29-", dir=Path.home()))
    try:
        if any(p.stat().st_mode & 0o022 or p.stat().st_uid for p in [base, *base.parents]):
            pytest.skip(f"{base}: a directory above it is not root's alone")
        home, cwd = tmp_path / "home", tmp_path / "proj"
        (home / ".gemini").mkdir(parents=True)
        cwd.mkdir()
        settings = _system(base / "etc")
        alone = _listed(home, cwd, settings)
        user = {"mcpServers": {"sysfs": {"command": "user-cmd", "args": ["u"]}}}
        (home / ".gemini" / "settings.json").write_text(json.dumps(user), "utf-8")
        over = _listed(home, cwd, settings)
        open_dir = tmp_path / "open"  # under /tmp (world-writable): Gemini skips the files
        insecure = _listed(home, cwd, _system(open_dir))
    finally:
        shutil.rmtree(base, ignore_errors=True)
    words = {"system-cmd s": "system", "user-cmd u": "user", "defaults-cmd d": "system defaults"}
    found = {
        "system-files": sorted(alone),
        "system-over-user": {name: words.get(command, command) for name, command in over.items()},
        "insecure-files-with-user": sorted(insecure),
    }
    record = json.loads(FIXTURE.read_text(encoding="utf-8"))
    if os.environ.get("HOOKWISE_E2E_RECORD"):
        record.update(gemini=clis.installed_version("gemini"), cases=found)
        FIXTURE.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    assert found == record["cases"]
