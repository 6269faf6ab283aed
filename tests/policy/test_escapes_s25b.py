"""Session 25b's classes (tests/policy/corpus/escapes_s25b.yaml): red team s25's option
spellings, embedded paths, git reads and writes, interpreter ARGV, traced sourcing,
credential files, forced rewrites inside the remote and find's deletes. Each command first
does its damage in real bash against a throwaway world (test_unverifiable's, with the
credential files the class names, a project policy, the guard's user directory, and a
commit holding policy files for git to check out), then the hook must deny or ask; the
near misses must get no decision."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from hookwise.policy.pipeline import decide
from hookwise.policy.tools.payloads import build_payload
from tests.policy.conftest import compile_text
from tests.policy.corpus_support import CORPUS
from tests.policy.test_escapes_s24a import _rewound, _verdict, starter
from tests.policy.test_unverifiable import MARK, PACKS, _missing, damage, packs, world

__all__ = ["packs", "starter"]  # the module fixtures, shared

DATA = yaml.safe_load((CORPUS / "escapes_s25b.yaml").read_text())
ORIGINAL = "version: 1\n"
# credential files of the class, planted with the secret (home-relative or project)
CREDENTIALS = (".vault-token", ".config/gh/hosts.yml", ".my.cnf", ".cargo/credentials.toml",
               ".config/rclone/rclone.conf", ".terraform.d/credentials.tfrc.json")  # fmt: skip


def _cases(part: str) -> list[Any]:
    return [
        pytest.param(
            command, body.get("on_disk") or bool(body.get("starter")), id=f"{klass}-{index:02d}"
        )
        for klass, body in DATA["classes"].items()
        for index, command in enumerate(body[part], start=1)
    ]


def _on_disk(command: str, project: Path, home: str) -> tuple[str, str]:
    """The packs' answer in the world itself: what a tree holds is read on the disk."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOME", home)
        policy = compile_text(f"version: 1\nextends: [{PACKS}]\n")
    payload = build_payload(
        "claude", "PreToolUse", tool="Bash", tool_input={"command": command}, cwd=str(project)
    )
    found = decide(payload, policy, "claude", {"HOME": home}, now=0.0).decision
    assert found is not None
    return found.decision or "none", found.reason


def _git(argv: list[str], cwd: Path, env: dict[str, str]) -> None:
    subprocess.run(["git", *argv], cwd=cwd, env=env, check=True, capture_output=True, timeout=60)


def _plant(place: dict[str, Any]) -> tuple[Path, Path]:
    """The files the classes read or write: credentials, policies, payloads."""
    project, env = place["project"], place["env"]
    home = Path(env["HOME"])
    for name in CREDENTIALS:
        (home / name).parent.mkdir(parents=True, exist_ok=True)
        (home / name).write_text(MARK + "\n")
    (project / "secrets.yaml").write_text(f"token: {MARK}\n")
    (project / ".gitignore").write_text(".env\n")  # as projects keep it
    (project / ".hookwise").mkdir()
    policy = project / ".hookwise" / "policy.yaml"
    policy.write_text(ORIGINAL)
    (home / ".config" / "hookwise").mkdir(parents=True)
    (project / "payload.yaml").write_text("PWNED: 1\n")
    (project / "payload.hex").write_text("50574e45440a\n")
    if place["remote"] is not None:  # files git can check out into the guard's places
        (project / "policy.yaml").write_text("PWNED: 1\n")
        (project / "policy.local.yaml").write_text("PWNED: 1\n")
        _git(["add", "policy.yaml", "policy.local.yaml"], project, env)
        _git(["commit", "-q", "-m", "files"], project, env)
    return policy, home / ".config" / "hookwise" / "policy.yaml"


def in_bash(command: str, root: Path, judge: bool = False) -> list[str]:
    """What the command did in a fresh world; ``judge``: the world is kept for the hook
    (a copy made beside it runs the command)."""
    place = world(root, "git" in command)
    policy, user_policy = _plant(place)
    if "gpg" in command and shutil.which("gpg"):  # two gpg of one pipe creating a fresh
        subprocess.run(["gpg", "--batch", "--list-keys"], env=place["env"],  # ~/.gnupg race
                       capture_output=True, timeout=60, check=False)  # fmt: skip
    if judge:
        copy = root.parent / (root.name + "-judged")
        subprocess.run(["cp", "-a", str(root), str(copy)], check=True, timeout=60)
    try:
        done = subprocess.run(["bash", "-c", command], cwd=place["project"], env=place["env"],
                              stdin=subprocess.DEVNULL, capture_output=True, timeout=60,
                              check=False)  # fmt: skip
        output = (done.stdout + done.stderr).decode(errors="replace")
    except subprocess.TimeoutExpired:
        output = ""
    found = [d for d in damage(place, output) if d != "read into secrets.yaml"]
    if _rewound(place["remote"]):
        found.append("remote rewound")
    local = policy.with_name("policy.local.yaml")
    if not policy.exists() or policy.read_text(errors="replace") != ORIGINAL or local.exists():
        found.append("project policy written")
    if user_policy.exists():
        found.append("user policy written")
    return found


@pytest.mark.parametrize(("command", "starter_class"), _cases("block"))
def test_bash_does_the_damage_and_the_hook_blocks_it(
    tmp_path: Path,
    packs: dict[str, Any],
    starter: dict[str, Any],
    command: str,
    starter_class: bool | str,
) -> None:
    missing = _missing(command)
    if missing:
        pytest.skip(f"{missing} is not installed")
    assert in_bash(command, tmp_path, judge=starter_class == "on_disk"), command
    if starter_class == "on_disk":  # judged in the copy made before bash ran
        judged = tmp_path.parent / (tmp_path.name + "-judged")
        decision, reason = _on_disk(command, judged / "work" / "project", str(judged / "home"))
    else:
        decision, reason = _verdict(command, bool(starter_class), packs, starter)
    assert decision in ("deny", "ask"), (command, decision, reason)


@pytest.mark.parametrize(("command", "starter_class"), _cases("pass"))
def test_near_misses_pass(
    tmp_path: Path,
    packs: dict[str, Any],
    starter: dict[str, Any],
    command: str,
    starter_class: bool | str,
) -> None:
    if starter_class == "on_disk":
        place = world(tmp_path, True)
        _plant(place)
        found = _on_disk(command, place["project"], place["env"]["HOME"])
    else:
        found = _verdict(command, bool(starter_class), packs, starter)
    assert found == ("none", ""), command


def test_the_node_modules_clean_up_is_not_denied_as_a_write_of_the_policy(
    packs: dict[str, Any], starter: dict[str, Any]
) -> None:
    """``-type d -name node_modules -prune -exec rm -rf {} +`` cannot select
    .hookwise/policy.yaml: at most the recursive delete's own question."""
    command = "find . -maxdepth 2 -type d -name node_modules -prune -exec rm -rf {} +"
    decision, reason = _verdict(command, True, packs, starter)
    assert decision != "deny" and "guardrails" not in reason, reason


def test_every_class_has_its_source_and_near_misses() -> None:
    for klass, body in DATA["classes"].items():
        assert body["source"] and body["block"] and body["pass"], klass
