"""The records of ``tests.e2e.record_codex_handlers`` (Codex 0.169.0, offline) replayed
through hookwise, no CLI needed: the same hooks, the same ``[mcp_servers.fs]`` (the
reference filesystem server ``make e2e-install`` installs) and the call the fake model made;
hookwise's effect must be what the real CLI did (the tool ran or not, what the model read)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from hookwise.host.loading import load_hook_system
from tests.e2e import clis
from tests.e2e.record_codex_handlers import CONTEXT, MCP_REASON, REASON, _mcp_answer

FIXTURES = Path(__file__).parent / "fixtures" / "codex-handlers"
RECORDS = {p.stem: json.loads(p.read_text()) for p in sorted(FIXTURES.glob("*.json"))}
CALL = {"tool_name": "Bash", "tool_input": {"command": "echo hi > marker"}}


def test_the_records_are_of_the_pinned_cli() -> None:
    assert set(RECORDS) >= {"async-pre", "async-post", "mcp-deny", "mcp-missing"}
    for record in RECORDS.values():
        assert record["cli_version"] == "0.169.0" and record["exit_code"] == 0


def test_what_the_real_cli_did() -> None:
    """The facts the runtime follows, as recorded."""
    for name in ("async-pre", "async-post", "async-pre-quick"):
        record = RECORDS[name]
        assert record["async_input_keys"], name  # the hook started with its input
        assert record["tool_ran"] and not any(record["model_read"].values()), name
    assert RECORDS["async-pre-quick"]["async_hook_ran"]  # done before the next request
    assert not RECORDS["async-pre"]["async_hook_ran"]  # still sleeping at exit: ended
    assert not RECORDS["mcp-deny"]["tool_ran"] and RECORDS["mcp-deny"]["model_read"]["mcp_reason"]
    for name in ("mcp-missing", "mcp-no-field", "mcp-embedded"):
        assert RECORDS[name]["tool_ran"] and not RECORDS[name]["model_read"]["mcp_reason"], name


def _replay(record: dict[str, Any], root: Path) -> dict[str, Any]:
    home, proj = root / "home", root / "proj"
    (home / ".codex").mkdir(parents=True)
    (proj / ".codex").mkdir(parents=True)
    hooks = json.loads(json.dumps(record["hooks"]).replace("$RUN", str(root)))
    (proj / ".codex" / "hooks.json").write_text(json.dumps({"hooks": hooks}))
    (proj / "answer.json").write_text(json.dumps(_mcp_answer()))
    servers = ""
    if record["run"].startswith("mcp-"):
        binary = clis.mcp_server("mcp-server-filesystem")
        if binary is None:
            pytest.skip("the reference filesystem MCP server is not installed: make e2e-install")
        servers = (
            f"[mcp_servers.fs]\ncommand = {json.dumps(str(binary))}\n"
            f"args = [{json.dumps(str(proj))}]\n"
        )
    (home / ".codex" / "config.toml").write_text(
        f'{servers}\n[projects.{json.dumps(str(proj))}]\ntrust_level = "trusted"\n'
    )
    event = next(iter(hooks))
    args: dict[str, Any] = dict(CALL)
    if event == "PostToolUse":
        args["tool_response"] = ""
    system = load_hook_system(
        proj,
        home=home,
        env={"PATH": clis.search_path(), "CODEX_HOME": str(home / ".codex")},
        dialect="codex",
        bypass_hook_trust=True,
    )
    with system:
        result = system.fire_sync(event, args)
        if record["run"] == "async-pre-quick":
            deadline = time.monotonic() + 10
            while not (root / "async-done").exists() and time.monotonic() < deadline:
                time.sleep(0.05)
    outcome = result.effect.outcome
    said = " ".join(str(x) for x in (outcome.reason_for_model, outcome.additional_context))
    return {
        "tool_ran": outcome.proceed,
        "model_read": {
            "reason": REASON in said,
            "context": CONTEXT in said,
            "mcp_reason": MCP_REASON in said,
        },
        "async_input": (root / "async-input.json").exists(),
    }


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_hookwise_does_what_the_cli_did(name: str, tmp_path: Path) -> None:
    record = RECORDS[name]
    got = _replay(record, tmp_path)
    assert got["tool_ran"] == record["tool_ran"]
    assert got["model_read"] == record["model_read"]
    if name == "async-pre-quick":  # it had the time to start in both
        assert got["async_input"]
