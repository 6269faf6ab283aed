"""Everyday commands from public repositories pass (issue 24, item 2): the false-positive
rate on tests/policy/corpus/everyday.yaml is asserted to be 0, through ``hookwise hook``
with every pack, and under the starter policy with every pack (``policy init --packs
all``). Real lines that are unverifiable by the principle (a download fed to a shell)
must ask, and are listed apart."""

from __future__ import annotations

from pathlib import Path

import yaml

from tests.policy.corpus_support import (
    BLOCK,
    CORPUS,
    hook_env,
    run_batch,
    starter_without_confirmations,
)

PACKS = (
    "hookwise/filesystem, hookwise/git, hookwise/secrets, hookwise/database, "
    "hookwise/kubernetes, hookwise/cloud"
)
DATA = yaml.safe_load((CORPUS / "everyday.yaml").read_text())


def _blocked(env: dict[str, str], entries: dict[str, dict[str, str]]) -> list[str]:
    commands = [entry["command"] for entry in entries.values()]
    verdicts = run_batch(env, commands)
    return [
        f"{case_id} ({entry['source']}): {entry['command']}"
        for (case_id, entry), verdict in zip(entries.items(), verdicts, strict=True)
        if verdict == BLOCK
    ]


def test_the_corpus_is_large_and_sourced() -> None:
    assert len(DATA["pass"]) >= 120
    for case_id, entry in {**DATA["pass"], **DATA["unverifiable"]}.items():
        repository, _, path = entry["source"].partition(":")
        assert "/" in repository and path, case_id


def test_no_everyday_command_is_denied_or_asked_with_every_pack(isolated: Path) -> None:
    blocked = _blocked(hook_env(isolated, f"version: 1\nextends: [{PACKS}]\n"), DATA["pass"])
    rate = len(blocked) / len(DATA["pass"])
    assert rate == 0, "\n".join(blocked)


def test_no_everyday_command_is_denied_or_asked_by_the_starter_with_every_pack(
    isolated: Path,
) -> None:
    blocked = _blocked(hook_env(isolated, starter_without_confirmations(["all"])), DATA["pass"])
    assert blocked == []


def test_real_lines_that_run_code_made_when_they_run_ask(isolated: Path) -> None:
    env = hook_env(isolated, f"version: 1\nextends: [{PACKS}]\n")
    entries = DATA["unverifiable"]
    assert len(_blocked(env, entries)) == len(entries)
