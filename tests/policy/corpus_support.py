"""Reading the labelled command corpora and running them through ``hookwise hook``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from hookwise.policy.tools.payloads import build_payload

CORPUS = Path(__file__).parent / "corpus"
HOOKWISE = str(Path(sys.executable).parent / "hookwise")
DRIVER = str(Path(__file__).parent / "hook_batch.py")
HOME = "/home/dev"
WORKSPACE = "/home/dev/ws/project"
BLOCK, PASS = "block", "pass"


@dataclass(frozen=True)
class Case:
    """One labelled command: must be blocked (deny or ask) or must pass."""

    id: str
    command: str
    expect: str
    klass: str


def pack_corpus(name: str) -> list[Case]:
    data = yaml.safe_load((CORPUS / f"{name}.yaml").read_text())
    return [
        Case(case_id, command, expect, name)
        for expect in (BLOCK, PASS)
        for case_id, command in data[expect].items()
    ]


def payload(command: str, cwd: str = WORKSPACE) -> dict[str, Any]:
    return build_payload(
        "claude", "PreToolUse", tool="Bash", tool_input={"command": command}, cwd=cwd
    )


def verdict(exit_code: int, stdout: str) -> str:
    """``block`` when the answer denies or asks (or exit 2 blocks), else ``pass``."""
    if exit_code == 2:
        return BLOCK
    if not stdout.strip():
        return PASS
    answer = json.loads(stdout)
    specific = answer.get("hookSpecificOutput") or {}
    if specific.get("permissionDecision") in ("deny", "ask") or answer.get("decision") == "block":
        return BLOCK
    return PASS


def run_batch(env: dict[str, str], commands: list[str], cwd: str = WORKSPACE) -> list[str]:
    """Verdicts of ``hookwise hook --platform claude`` for each command (one process)."""
    cases = [[["--platform", "claude"], payload(c, cwd)] for c in commands]
    done = subprocess.run(
        [sys.executable, DRIVER],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=True,
    )
    return [verdict(r["exit"], r["stdout"]) for r in json.loads(done.stdout)]


def run_hook(env: dict[str, str], command: str, cwd: str = WORKSPACE) -> str:
    """The verdict of one real ``hookwise hook`` process."""
    done = subprocess.run(
        [HOOKWISE, "hook", "--platform", "claude"],
        input=json.dumps(payload(command, cwd)),
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    return verdict(done.returncode, done.stdout)


def hook_env(tmp: Path, policy_text: str) -> dict[str, str]:
    """An environment whose only policy is ``policy_text`` (project scope, not trusted)."""
    policy = tmp / "policy.yaml"
    policy.write_text(policy_text)
    env = dict(os.environ)
    env.update(
        {
            "HOOKWISE_POLICY": str(policy),
            "HOOKWISE_USER_POLICY": str(tmp / "no-user-policy.yaml"),
            "HOOKWISE_CACHE_DIR": str(tmp / "cache"),
            "HOOKWISE_AUDIT": "0",
            # a home outside /tmp, as on a real machine (the packs exempt /tmp/*/**)
            "HOME": HOME,
        }
    )
    return env


def failures(cases: list[Case], verdicts: list[str]) -> list[str]:
    return [
        f"{c.id} [{c.klass}] expected {c.expect}, got {v}: {c.command}"
        for c, v in zip(cases, verdicts, strict=True)
        if v != c.expect
    ]


# The starter asks before every recursive delete on purpose (issue 26: the first run shows a
# block); the everyday corpora judge the analysis, so they read the starter without it.
CONFIRMATION_RULES = ("confirm-recursive-delete",)


def starter_without_confirmations(packs: list[str] | None = None) -> str:
    """``policy init``'s starter (with ``packs``) less the rules that ask by design."""
    from hookwise.policy.tools.starter import starter_policy

    document = yaml.safe_load(starter_policy(packs))
    kept = [r for r in document["rules"] if r.get("id") not in CONFIRMATION_RULES]
    assert len(kept) == len(document["rules"]) - len(CONFIRMATION_RULES)  # (still there)
    document["rules"] = kept
    return str(yaml.safe_dump(document, sort_keys=False))
