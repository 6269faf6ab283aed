"""Red team s31 run #5: a tool call outside a session can set ``RLIMIT_NOFILE`` on its host
(``prlimit --pid``), and every later hook inherits it. Under a few descriptors Python
starts the registered command's hook with ``sys.stdin`` None, and the hook raised (exit
1: hosts take it as a non-blocking error and run the tool). Every limit now ends in the
policy's answer or exit 2 (blocked), never another status. Real processes: the command
``hookwise install claude`` registers, run by ``sh -c`` under ``prlimit``."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from tests.run.test_redteam_run import HOOKWISE, Lab, lab

__all__ = ["lab"]

pytestmark = pytest.mark.skipif(shutil.which("prlimit") is None, reason="needs prlimit")


def test_any_descriptor_limit_blocks_or_denies(lab: Lab) -> None:
    env = lab.env()
    installed = subprocess.run(
        [HOOKWISE, "install", "claude"], cwd=lab.proj, env=env,
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    settings = json.loads((lab.proj / ".claude" / "settings.json").read_text())
    command = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    seen = []
    # soft and hard (N) or soft only (N:, raised by the registered command since s32)
    for limit in [f"{n}{hard}" for n in range(6, 17) for hard in ("", ":")]:
        result = subprocess.run(
            ["prlimit", f"--nofile={limit}", "/bin/sh", "-c", command],
            input=lab.payload(), cwd=lab.proj, env=env,
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        seen.append((limit, result.returncode))
        if result.returncode == 0:  # the answer was given: the policy's deny
            answer = json.loads(result.stdout)["hookSpecificOutput"]["permissionDecision"]
            assert answer == "deny", (limit, result)
        else:
            assert result.returncode == 2, (limit, result.returncode, result.stderr[-800:])
    assert any(code == 0 for _limit, code in seen), (seen, installed.stderr)
