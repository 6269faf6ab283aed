"""Rule packs: loading, scoping, overrides, and each pack's corpus through ``hookwise hook``."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
import yaml

from hookwise.policy.rules import packs
from hookwise.policy.rules.compiler import compile_sources
from hookwise.policy.trust.store import Trust
from tests.policy.conftest import compile_text
from tests.policy.corpus_support import (
    BLOCK,
    CORPUS,
    failures,
    hook_env,
    pack_corpus,
    run_batch,
    run_hook,
)

PACKS = ["filesystem", "git", "secrets", "database", "kubernetes", "cloud"]


def test_every_pack_is_shipped_and_compiles_clean() -> None:
    assert sorted(packs.available()) == sorted(PACKS)
    refs = ", ".join(f"hookwise/{p}" for p in PACKS)
    policy = compile_text(f"version: 1\nextends: [{refs}]\n")
    assert policy["errors"] == [] and policy["warnings"] == []
    ids = [r["id"] for r in policy["rules"]]
    assert len(ids) == len(set(ids)) > 30
    for rule in policy["rules"]:
        assert re.match(r"^hookwise/[a-z]+:[a-z0-9-]+$", rule["id"]), rule["id"]
        assert rule["action"] in ("deny", "ask"), rule["id"]
        assert rule["pack"].startswith(rule["id"].split(":")[0] + "@")


def test_pack_files_are_package_data() -> None:
    pyproject = (Path(__file__).parents[3] / "pyproject.toml").read_text()
    assert '"policy/rules/packs/*.yaml"' in pyproject


def test_pinned_version_and_unknown_references() -> None:
    pinned = compile_text("version: 1\nextends: [hookwise/git@1]\n")
    assert pinned["errors"] == []
    assert {r["pack"] for r in pinned["rules"]} == {"hookwise/git@1"}
    for ref, message in (
        ("hookwise/gti", "unknown pack hookwise/gti"),
        ("hookwise/git@9", "hookwise/git has no version @9"),
        ("git", "is not a pack reference"),
    ):
        broken = compile_text(f"version: 1\nextends: [{ref}]\n")
        assert any(message in e["message"] for e in broken["errors"]), broken["errors"]
        assert broken["errors"][0]["line"] == 2
    twice = compile_text("version: 1\nextends: [hookwise/git, hookwise/git@1]\n")
    assert "listed twice" in twice["errors"][0]["message"]


def test_untrusted_project_may_extend_packs() -> None:
    policy = compile_sources(
        [("project", "/repo/.hookwise/policy.yaml", b"version: 1\nextends: [hookwise/git]\n")],
        trust=Trust(),
    )
    assert policy["warnings"] == [] and policy["errors"] == []
    assert policy["trust"][0]["trusted"] is False
    assert "hookwise/git:no-force-push" in [r["id"] for r in policy["rules"]]


def test_overrides_target_pack_rules_and_same_pack_counts_once() -> None:
    user = b"version: 1\nextends: [hookwise/git]\n"
    project = (
        b"version: 1\nextends: [hookwise/git]\n"
        b"overrides:\n  - {id: 'hookwise/git:confirm-hard-reset', enabled: false}\n"
    )
    policy = compile_sources(
        [("user", "/u.yaml", user), ("project", "/p/.hookwise/policy.yaml", project)],
        trust=Trust.everything_trusted(),
    )
    assert policy["errors"] == [] and policy["warnings"] == []
    rules = {r["id"]: r for r in policy["rules"]}
    assert rules["hookwise/git:confirm-hard-reset"]["enabled"] is False
    assert rules["hookwise/git:no-force-push"]["scope"] == "user"  # one copy, not replaced
    assert "replaces" not in rules["hookwise/git:no-force-push"]


def test_managed_and_user_extending_the_same_pack_is_not_an_error() -> None:
    text = b"version: 1\nextends: [hookwise/cloud]\n"
    policy = compile_sources(
        [("managed", "/etc/m.yaml", text), ("user", "/u.yaml", text)],
        trust=Trust.everything_trusted(),
    )
    assert policy["errors"] == []
    assert {r["scope"] for r in policy["rules"]} == {"managed"}


def test_pack_rules_must_be_restrictive(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "evil.v1.yaml").write_text(
        "pack: hookwise/evil\nversion: 1\nrules:\n"
        "  - {id: ok, match: {command: git push}, action: allow}\n"
    )
    monkeypatch.setattr(packs, "DIRECTORY", str(tmp_path))
    policy = compile_text("version: 1\nextends: [hookwise/evil]\n")
    assert any("deny or ask, not 'allow'" in e["message"] for e in policy["errors"])
    assert policy["rules"] == []


@pytest.mark.parametrize("name", PACKS)
def test_pack_corpus(name: str, isolated: Path) -> None:
    """Every must-block is denied or asked, every everyday command passes (one pack on)."""
    cases = pack_corpus(name)
    assert sum(c.expect == BLOCK for c in cases) >= 25
    assert sum(c.expect != BLOCK for c in cases) >= 25
    env = hook_env(isolated, f"version: 1\nextends: [hookwise/{name}]\n")
    verdicts = run_batch(env, [c.command for c in cases])
    assert failures(cases, verdicts) == []


def test_pack_corpus_sample_through_real_processes(isolated: Path) -> None:
    refs = ", ".join(f"hookwise/{p}" for p in PACKS)
    env = hook_env(isolated, f"version: 1\nextends: [{refs}]\n")
    sample = [case for name in PACKS for case in pack_corpus(name)[::12]]
    verdicts = [run_hook(env, c.command) for c in sample]
    assert failures(sample, verdicts) == []
    assert {c.expect for c in sample} == {"block", "pass"}


# Must-block filesystem commands aimed at ../victim are really destructive: bash, run in a
# throwaway workspace, changes the victim directory beside it.
_SANDBOX_SAFE = re.compile(r"^[^~$/]*(\.\./victim|\.\.)[^~$]*$")


def _victim_state(victim: Path) -> object:
    if not victim.exists():
        return None
    return sorted(
        (str(p.relative_to(victim)), p.stat().st_mode, p.read_bytes() if p.is_file() else b"")
        for p in [victim, *victim.rglob("*")]
    )


def sandbox_run(tmp: Path, command: str) -> bool:
    """Whether ``command``, run by bash in tmp/outer/ws, changed tmp/outer/victim."""
    outer = tmp / "outer"
    workspace = outer / "ws"
    victim = outer / "victim"
    workspace.mkdir(parents=True)
    (victim / "sub").mkdir(parents=True)
    (victim / "a.txt").write_text("precious\n")
    (victim / "sub" / "b.txt").write_text("precious too\n")
    os.chmod(victim / "a.txt", 0o644)
    before = _victim_state(victim)
    subprocess.run(
        ["bash", "-c", command],
        cwd=workspace,
        env={"PATH": os.environ["PATH"], "HOME": str(tmp / "home")},
        capture_output=True,
        timeout=30,
        check=False,
    )
    return _victim_state(victim) != before


def test_sandbox_detects_change_and_no_change(tmp_path: Path) -> None:
    assert sandbox_run(tmp_path / "1", "rm -rf ../victim")
    assert not sandbox_run(tmp_path / "2", "ls ../victim && cat ../victim/a.txt")


def test_filesystem_must_blocks_are_really_destructive(tmp_path: Path) -> None:
    cases = [
        c
        for c in pack_corpus("filesystem")
        if c.expect == BLOCK and "victim" in c.command and _SANDBOX_SAFE.match(c.command)
    ]
    assert len(cases) >= 8
    harmless = [c.id for i, c in enumerate(cases) if not sandbox_run(tmp_path / str(i), c.command)]
    assert harmless == []


def test_corpus_files_cite_their_sources() -> None:
    for name in PACKS:
        text = (CORPUS / f"{name}.yaml").read_text()
        assert "Sources:" in text.split("pack:")[0], name
        assert yaml.safe_load(text)["pack"] == f"hookwise/{name}"
