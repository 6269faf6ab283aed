"""The host registry is the one list of hosts: every other list is read from it."""

from __future__ import annotations

from pathlib import Path
from typing import get_args

import pytest

from hookwise.config.detect import DIALECTS, dialect_files
from hookwise.host.runtimes import runtime_for
from hookwise.protocol import hosts
from hookwise.protocol.hosts import HOST_NAMES, HOSTS, event_names, host, table


def test_literal_and_rows_list_the_same_hosts_in_order() -> None:
    assert get_args(hosts.Host) == HOST_NAMES == tuple(HOSTS)
    assert hosts.hosts_with("runtime") == DIALECTS


@pytest.mark.parametrize("name", HOST_NAMES)
def test_every_host_has_events_a_runtime_and_its_pre_tool_event(name: str) -> None:
    names = event_names(name)
    info = host(name)
    assert info.pre_tool_event in names
    if "runtime" not in info.supports:  # (hookwise answers it, but runs no hooks of its own)
        with pytest.raises(ValueError, match="unknown host"):
            runtime_for(name)
        return
    runtime = runtime_for(name)
    assert runtime.name == name and runtime.events() == names
    if info.table_name is not None:
        assert tuple(table(name).events) == names
        assert runtime.table is table(name)


def test_settings_locations_come_from_the_registry(tmp_path: Path) -> None:
    base = tmp_path
    assert [p.relative_to(base).as_posix() for p in dialect_files(base, "claude")] == list(
        HOSTS["claude"].project_files
    )


def test_unknown_host_names_the_hosts() -> None:
    with pytest.raises(ValueError, match="gemini, claude, codex"):
        host("nohost")
    with pytest.raises(ValueError, match="no dialect table"):
        table("gemini")


def test_matcher_field_reads_each_hosts_event_table() -> None:
    assert hosts.matcher_field("gemini", "BeforeTool") == "tool_name"
    assert hosts.matcher_field("gemini", "SessionStart") == "source"
    assert hosts.matcher_field("gemini", "BeforeModel") is None
    assert hosts.matcher_field("claude", "Notification") == "notification_type"
    assert hosts.matcher_field("codex", "SubagentStop") == "agent_type"
    assert hosts.matcher_field("codex", "Stop") is None
    for name in HOST_NAMES:
        assert all(hosts.matcher_field(name, e) in {None, *_FIELDS} for e in event_names(name))
    with pytest.raises(KeyError):
        hosts.matcher_field("claude", "BeforeTool")
    with pytest.raises(ValueError, match="unknown host"):
        hosts.matcher_field("nohost", "PreToolUse")


_FIELDS = {
    "tool_name",
    "toolName",
    "source",
    "reason",
    "trigger",
    "notification_type",
    "agent_type",
    # Claude Code's other events (issue 27): UserPromptExpansion, StopFailure, FileChanged,
    # InstructionsLoaded, Elicitation/ElicitationResult
    "command_name",
    "error",
    "file_path",
    "load_reason",
    "mcp_server_name",
}
