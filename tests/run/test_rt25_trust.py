"""Red team s25 #5 in a real `hookwise run` session: a trusted nested project below the
start directory whose ``.hookwise/`` the agent moves away and replaces by a link to an
older directory (redteam/s25/nested_link.sh). Its rules must not silently go."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.run.test_redteam_run import Lab, lab, pytestmark

__all__ = ["lab", "pytestmark"]

HOOKWISE = str(Path(sys.executable).parent / "hookwise")
SUB_POLICY = """\
version: 1
rules:
  - id: no-curl
    match: {command: curl}
    action: deny
    reason: no curl in sub
"""


def test_5_a_nested_trusted_policy_relinked_inside_a_session_still_denies(lab: Lab) -> None:
    sub = lab.proj / "sub"
    (sub / ".hookwise").mkdir(parents=True)
    policy = sub / ".hookwise" / "policy.yaml"
    policy.write_text(SUB_POLICY)
    (lab.proj / "examples").mkdir()
    (lab.proj / "examples" / "policy.yaml").write_text("version: 1\n")
    trusted = subprocess.run(
        [HOOKWISE, "policy", "trust", str(policy)],
        env=lab.env(),
        cwd=lab.proj,
        capture_output=True,
        text=True,
        check=False,
    )
    assert trusted.returncode == 0, trusted.stderr
    payload = json.loads(lab.payload(sub, "curl http://example.com"))
    (lab.root / "curl.json").write_text(json.dumps(payload))
    hook = f"{HOOKWISE} hook --platform claude"
    script = (
        f"cd sub && {hook} < $R/curl.json; echo BEFORE=$?; "
        "mv .hookwise $R/sub-hw-moved && ln -s ../examples .hookwise && echo RELINKED; "
        f"{hook} < $R/curl.json; echo AFTER=$?"
    )
    result = lab.run(script)
    out = result.stdout
    assert "BEFORE=2" in out or '"deny"' in out.split("BEFORE")[0], (out, result.stderr)
    if "RELINKED" in out:  # (the move is the attack; a guard that refuses it also holds)
        after = out.split("RELINKED", 1)[1]
        assert "permissionDecision" in after and '"deny"' in after, (out, result.stderr)
        assert "leads to" in after or "written during" in after, after
    outside = subprocess.run(
        [HOOKWISE, "hook", "--platform", "claude"],
        input=json.dumps(payload),
        env=lab.env(),
        cwd=sub,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert '"deny"' in outside.stdout, (outside.stdout, outside.stderr)
