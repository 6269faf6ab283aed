"""HookSystem as a library: building inputs, runtime hooks, validation, sync and async."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from hookwise.host.effect import ToolCallEffect
from hookwise.host.system import HookSystem, PayloadError
from hookwise.protocol.profiles import Profile

SHELL = {"tool_name": "run_shell_command", "tool_input": {"command": "ls"}}


def system(
    tmp_path: Path, hooks: dict[str, Any] | None = None, profile: Profile = Profile.GEMINI_CLI
) -> HookSystem:
    return HookSystem.from_hooks(hooks or {}, profile=profile, cwd=str(tmp_path), session_id="sess")


def test_payload_errors_name_each_field_and_spawn_nothing(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    hooks = {"BeforeTool": [{"hooks": [{"type": "command", "command": f"touch {marker}"}]}]}
    hs = system(tmp_path, hooks)
    with pytest.raises(PayloadError) as err:
        hs.fire_sync("BeforeTool", {"tool_name": 5, "tool_inputs": {}})
    message = str(err.value)
    assert "field 'tool_name' must be string, got number" in message
    assert "missing field 'tool_input'" in message
    assert "unknown field 'tool_inputs'" in message
    assert not marker.exists()


def test_unknown_event_is_rejected(tmp_path: Path) -> None:
    hs = system(tmp_path)
    with pytest.raises(KeyError, match="BeforeToolz"):
        hs.fire_sync("BeforeToolz", {})


def test_enum_values_are_checked(tmp_path: Path) -> None:
    hs = system(tmp_path)
    with pytest.raises(PayloadError, match="must be one of startup"):
        hs.fire_sync("SessionStart", {"source": "boot"})


def test_runtime_hooks_from_python_callables(tmp_path: Path) -> None:
    seen: list[dict[str, Any]] = []

    def deny_rm(event: dict[str, Any]) -> dict[str, Any] | None:
        seen.append(event)
        if "rm" in event["tool_input"]["command"]:
            return {"decision": "deny", "reason": "no rm"}
        return None

    async def add_context(event: dict[str, Any]) -> dict[str, Any]:
        await asyncio.sleep(0)
        return {"systemMessage": "checked"}

    hs = system(tmp_path)
    hs.register("BeforeTool", deny_rm, name="deny-rm", matcher="run_shell")
    hs.register("BeforeTool", add_context, name="ctx")
    allowed = hs.fire_sync("BeforeTool", SHELL)
    blocked = hs.fire_sync(
        "BeforeTool", {"tool_name": "run_shell_command", "tool_input": {"command": "rm -rf x"}}
    )
    assert isinstance(allowed.effect, ToolCallEffect) and allowed.effect.action == "proceed"
    assert blocked.effect.action == "block"  # type: ignore[attr-defined]
    assert blocked.effect.error == "Tool execution blocked: no rm"  # type: ignore[attr-defined]
    assert seen[0]["hook_event_name"] == "BeforeTool" and seen[0]["session_id"] == "sess"


def test_runtime_hook_timeout_and_exception_are_failed_runs(tmp_path: Path) -> None:
    async def slow(event: dict[str, Any]) -> None:
        await asyncio.sleep(5)

    def broken(event: dict[str, Any]) -> None:
        raise RuntimeError("boom")

    hs = system(tmp_path)
    hs.register("AfterAgent", slow, name="slow", timeout_ms=50)
    hs.register("AfterAgent", broken, name="broken")
    result = hs.fire_sync("AfterAgent", {"prompt": "p", "prompt_response": "r"})
    errors = sorted(r.error or "" for r in result.runs)
    assert errors == ["Hook timed out after 50ms", "boom"]
    assert not result.aggregate.success


def test_fire_sync_refuses_to_run_inside_an_event_loop(tmp_path: Path) -> None:
    async def inner() -> None:
        hs = system(tmp_path)
        with pytest.raises(RuntimeError, match="await fire"):
            hs.fire_sync("BeforeTool", SHELL)

    asyncio.run(inner())


def test_async_conveniences_return_typed_effects(tmp_path: Path) -> None:
    hooks = {
        "BeforeTool": [
            {
                "hooks": [
                    {
                        "type": "command",
                        "command": 'echo \'{"hookSpecificOutput":{"tool_input":{"command":"ls -l"}}}\'',
                    }
                ]
            }
        ],
        "AfterAgent": [
            {"hooks": [{"type": "command", "command": "echo 'more please' >&2; exit 2"}]}
        ],
    }

    async def main() -> tuple[Any, Any]:
        hs = system(tmp_path, hooks, Profile.DOCUMENTED)
        return await hs.before_tool(
            "run_shell_command", {"command": "ls", "cwd": "."}
        ), await hs.after_agent("p", "r")

    tool, agent = asyncio.run(main())
    assert tool.tool_input == {"command": "ls -l", "cwd": "."}
    assert agent.action == "retry" and agent.retry_prompt == [{"text": "more please"}]


def test_sequential_chain_feeds_the_next_hook(tmp_path: Path) -> None:
    hooks = {
        "BeforeAgent": [
            {
                "sequential": True,
                "hooks": [
                    {
                        "type": "command",
                        "command": 'echo \'{"hookSpecificOutput":{"additionalContext":"A"}}\'',
                    },
                    {"type": "command", "command": "cat > seen.json"},
                ],
            }
        ]
    }
    hs = system(tmp_path, hooks)
    hs.fire_sync("BeforeAgent", {"prompt": "hello"})
    assert json.loads((tmp_path / "seen.json").read_text())["prompt"] == "hello\n\nA"


def test_missing_cwd_is_a_failed_run_not_an_exception(tmp_path: Path) -> None:
    hooks = {"BeforeTool": [{"hooks": [{"type": "command", "command": "true"}]}]}
    hs = HookSystem.from_hooks(hooks, profile=Profile.GEMINI_CLI, cwd=str(tmp_path / "gone"))
    result = hs.fire_sync("BeforeTool", SHELL)
    assert result.runs[0].error == "spawn bash ENOENT"
    assert not result.aggregate.success and result.effect.action == "proceed"  # type: ignore[attr-defined]


def test_untrusted_extension_and_disabled_hooks(tmp_path: Path) -> None:
    hooks = {
        "BeforeTool": [
            {
                "hooks": [
                    {"type": "command", "command": "echo p", "name": "p"},
                    {"type": "command", "command": "echo q", "name": "q"},
                ]
            }
        ]
    }
    ext = [{"BeforeTool": [{"hooks": [{"type": "command", "command": "echo e", "name": "e"}]}]}]
    trusted = HookSystem.from_hooks(hooks, extension_hooks=ext, disabled=["q"], cwd=str(tmp_path))
    untrusted = HookSystem.from_hooks(hooks, extension_hooks=ext, trusted=False, cwd=str(tmp_path))
    names = [e.name for e in trusted.fire_sync("BeforeTool", SHELL).plan.hooks]  # type: ignore[union-attr]
    only_ext = [e.name for e in untrusted.fire_sync("BeforeTool", SHELL).plan.hooks]  # type: ignore[union-attr]
    assert names == ["p", "e"]
    assert only_ext == ["e"]


def test_invalid_entries_are_warned_and_the_rest_loads(tmp_path: Path) -> None:
    hooks = {
        "BeforeToolz": [],
        "BeforeTool": [
            {
                "hooks": [
                    {"type": "command"},
                    {"type": "bogus", "command": "x"},
                    {"type": "command", "command": "echo ok", "name": "good"},
                ]
            },
            {"matcher": "x"},
            {"matcher": "run_shell(", "hooks": [{"type": "command", "command": "echo never"}]},
        ],
        "BeforeAgent": [
            {"matcher": "startup", "hooks": [{"type": "command", "command": "echo a"}]}
        ],
    }
    hs = system(tmp_path, hooks)
    result = hs.fire_sync("BeforeTool", SHELL)
    assert [e.name for e in result.plan.hooks] == ["good"]  # type: ignore[union-attr]
    text = "\n".join(hs.warnings)
    assert 'Invalid hook event name: "BeforeToolz"' in text
    assert "needs a non-empty 'command'" in text
    assert "'type' must be one of" in text
    assert "needs a 'hooks' array" in text
    assert "'run_shell(' is not a valid regular expression" in text
    assert "matchers are ignored for BeforeAgent" in text
