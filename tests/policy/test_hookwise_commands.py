"""The agent running hookwise itself: every command that may change the guard is refused by
self-protection, whatever list of changes was written down before; the read-only ones run.
Red team s26: `hookwise policy init --packs git --force` rewrote the project policy and
trusted it, after which `cat .env` was allowed."""

from __future__ import annotations

from pathlib import Path

import click
import pytest

from hookwise.cli.app import cli
from hookwise.policy.trust.protect import HOOKWISE_CODE_RUNNING, HOOKWISE_READ_ONLY
from tests.policy.trust.test_trust_model import World


@pytest.fixture
def world(tmp_path: Path) -> World:
    return World(tmp_path)


CHANGES = [
    "hookwise policy init --packs git --force",
    "hookwise policy init",
    "/usr/local/bin/hookwise policy init --force",
    "python3 -m hookwise policy init --force",
    "hookwise policy export --host claude --write",
    "hookwise policy trust",
    "hookwise serve token add me --role approver",
    "hookwise serve",
    "hookwise run -- bash",
    "hookwise hook --platform claude < payload.json",
    "hookwise hooks disable x",
    "hookwise install claude",
    "hookwise migrate --from claude --to gemini",
    "hookwise some-command-added-later",
    "hookwise fire PreToolUse --record-trust",
    "hookwise scan . -o .hookwise/policy.yaml",
    "hookwise scan . --output=.hookwise/policy.yaml",
    "hookwise policy show > .hookwise/policy.yaml",
    # code a file names (red team s27 L): a scenario's hooks, a policy's validators, a
    # project's hooks, an MCP server; and simulate --rollout writes where it is told
    "hookwise simulate s.yaml",
    "hookwise simulate s.yaml --rollout ~/.config/hookwise/policy.yaml",
    "hookwise test t.yaml",
    "hookwise test t.yaml --policy=p.yaml",
    "hookwise explain --policy p.yaml payload.json",
    "hookwise explain --project=/tmp/x payload.json",
    "hookwise doctor --project /tmp/x",
    "hookwise fire PreToolUse --project /tmp/x",
    "hookwise conformance gemini cases/",
    "hookwise mcp wrap -- sh -c 'rm -rf ../victim'",
    "hookwise rollout rewrite x",
]
READ_ONLY = [
    "hookwise policy show",
    "hookwise policy validate .hookwise/policy.yaml",
    "hookwise hooks list",
    "hookwise doctor",
    "hookwise scan .",
    "hookwise --version",
    "hookwise policy --help",
    "hookwise explain payload.json",
    "hookwise explain --policy p.yaml --no-validators payload.json",
    "hookwise test t.yaml --no-validators",
    "hookwise doctor --project /tmp/x --no-self-test",
    "hookwise rollout show r.jsonl",
    "hookwise turns check .",
    "hookwise logs --session abc",
]


@pytest.mark.parametrize("command", CHANGES)
def test_hookwise_commands_that_may_change_the_guard_are_refused(
    world: World, command: str
) -> None:
    policy = world.policy("version: 1\nrules: []\n")
    result = world.shell(command)
    assert result["decision"] == "deny", (command, result)
    assert "protects its own guardrails" in str(result["reason"])
    assert policy.read_text() == "version: 1\nrules: []\n"


@pytest.mark.parametrize("command", READ_ONLY)
def test_read_only_hookwise_commands_are_not_refused(world: World, command: str) -> None:
    world.policy("version: 1\nrules: []\n")
    result = world.shell(command)
    assert "protects its own guardrails" not in str(result.get("reason")), (command, result)


def test_the_read_only_table_names_real_commands() -> None:
    """A typo in the table would only refuse more; a command renamed would leave a stale
    entry: every name in it is one the CLI has."""
    assert isinstance(cli, click.Group)
    for name, subcommands in HOOKWISE_READ_ONLY.items():
        command = cli.commands[name]
        if subcommands is not None:
            assert isinstance(command, click.Group)
            assert subcommands <= set(command.commands), name
    for name, (naming, stop) in HOOKWISE_CODE_RUNNING.items():
        params = {o for p in cli.commands[name].params for o in getattr(p, "opts", [])}
        assert name in HOOKWISE_READ_ONLY and {stop, *naming} <= params, name
