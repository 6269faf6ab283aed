"""Codex 0.169's handlers in the host runtime: ``mcp_tool`` hooks through a real stdio MCP
server configured in ``[mcp_servers]``, ``async: true`` command hooks in the background,
``permission_mode`` in the input (facts recorded in tests/e2e/fixtures/codex-handlers and
codex.jsonl; the replay of those records is tests/e2e/test_codex_handlers_replay.py)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookwise.config.codex.settings import load_codex_hooks
from hookwise.host.handlers.mcp_tool import PlaceholderError, substitute
from hookwise.host.loading import HookTrustWarning, load_hook_system
from hookwise.host.system import HookSystem
from hookwise.protocol.codex import CODEX, COMMON_LEFT_OUT, MCP_HOOK

SERVER = str(Path(__file__).parent / "data" / "mcp_hook_server.py")
FIXTURES = Path(__file__).parents[1] / "e2e" / "fixtures"
WRITE = {"tool_name": "Bash", "tool_input": {"command": "echo hi", "file_path": "/etc/passwd"}}


def project(tmp_path: Path, hooks: dict[str, Any], servers: str = "") -> tuple[Path, Path]:
    home, proj = tmp_path / "home", tmp_path / "proj"
    (home / ".codex").mkdir(parents=True)
    (proj / ".codex").mkdir(parents=True)
    (proj / ".codex" / "hooks.json").write_text(json.dumps({"hooks": hooks}))
    (home / ".codex" / "config.toml").write_text(
        f'{servers}\n[projects.{json.dumps(str(proj))}]\ntrust_level = "trusted"\n'
    )
    return home, proj


def server_table(tmp_path: Path, name: str = "scan") -> str:
    env = {"MCP_HOOK_LOG": str(tmp_path / "calls.jsonl"), "MCP_HOOK_PIDS": str(tmp_path / "pids")}
    return (
        f"[mcp_servers.{name}]\ncommand = {json.dumps(sys.executable)}\n"
        f"args = [{json.dumps(SERVER)}]\nenv = {{ "
        + ", ".join(f"{k} = {json.dumps(v)}" for k, v in env.items())
        + " }\n"
    )


def system(home: Path, proj: Path) -> HookSystem:
    return load_hook_system(
        proj,
        home=home,
        env={"PATH": "/usr/bin:/bin", "CODEX_HOME": str(home / ".codex")},
        dialect="codex",
        bypass_hook_trust=True,
    )


def mcp(tool: str, tool_input: dict[str, Any], server: str = "scan") -> dict[str, Any]:
    return {"type": "mcp_tool", "server": server, "tool": tool, "input": tool_input}


# -- mcp_tool ---------------------------------------------------------------------------


def test_an_mcp_tool_hook_denies_through_the_configured_server(tmp_path: Path) -> None:
    handler = mcp("check_path", {"file_path": "${tool_input.file_path}"})
    home, proj = project(
        tmp_path, {"PreToolUse": [{"matcher": "Bash", "hooks": [handler]}]}, server_table(tmp_path)
    )
    with system(home, proj) as hs:
        out = hs.fire_sync("PreToolUse", WRITE).effect.to_json()
    assert out["outcome"]["proceed"] is False
    assert "no writes to /etc/passwd" in out["outcome"]["reason_for_model"]


def test_one_server_serves_the_whole_session_and_ends_with_it(tmp_path: Path) -> None:
    handler = mcp("check_path", {"file_path": "${tool_input.file_path}"})
    home, proj = project(
        tmp_path, {"PreToolUse": [{"matcher": "Bash", "hooks": [handler]}]}, server_table(tmp_path)
    )
    hs = system(home, proj)
    for _ in range(3):
        assert hs.fire_sync("PreToolUse", WRITE).effect.outcome.proceed is False
    pids = (tmp_path / "pids").read_text().split()
    assert len(pids) == 3 and len(set(pids)) == 1, pids  # three calls, one server
    sessions = hs.execution.mcp_sessions
    assert sessions is not None and sessions.started() == 1
    hs.close()
    assert sessions.started() == 0
    assert (
        not Path(f"/proc/{pids[0]}").exists()
        or "zombie" in Path(f"/proc/{pids[0]}/status").read_text().lower()
    )


@pytest.mark.parametrize(
    ("path", "why"),
    [
        ("${tool_input.nosuch}", "was not found"),  # recorded: mcp-no-field, the tool runs
        ("/etc/${tool_input.nosuch}", "was not found"),  # recorded: mcp-embedded
    ],
)
def test_a_placeholder_naming_nothing_fails_the_hook(tmp_path: Path, path: str, why: str) -> None:
    handler = mcp("check_path", {"file_path": path})
    home, proj = project(
        tmp_path, {"PreToolUse": [{"matcher": "Bash", "hooks": [handler]}]}, server_table(tmp_path)
    )
    with system(home, proj) as hs:
        result = hs.fire_sync("PreToolUse", WRITE)
    assert result.effect.outcome.proceed is True
    assert why in (result.runs[0].stderr or "")
    assert not (tmp_path / "calls.jsonl").exists()  # the server was never called


def test_an_unknown_server_fails_the_hook_and_the_tool_runs(tmp_path: Path) -> None:
    handler = mcp("check_path", {"file_path": "/etc/x"}, server="nosuch")
    home, proj = project(
        tmp_path, {"PreToolUse": [{"matcher": "Bash", "hooks": [handler]}]}, server_table(tmp_path)
    )
    with system(home, proj) as hs:
        result = hs.fire_sync("PreToolUse", WRITE)
    assert result.effect.outcome.proceed is True
    assert "'nosuch' is not connected" in (result.runs[0].stderr or "")


def test_a_whole_placeholder_keeps_its_type(tmp_path: Path) -> None:
    handler = mcp("echo", {"value": "${tool_input}", "event": "${hook_event_name}"})
    home, proj = project(
        tmp_path, {"PreToolUse": [{"matcher": "Bash", "hooks": [handler]}]}, server_table(tmp_path)
    )
    with system(home, proj) as hs:
        result = hs.fire_sync("PreToolUse", WRITE)
    # the server got the object itself, not its JSON text
    assert json.loads(result.effect.outcome.additional_context or "{}") == {
        "value": WRITE["tool_input"]
    }


def test_substitution_by_codex_rules() -> None:
    payload = {"tool_input": {"file_path": "/tmp/a.rs", "count": 3, "meta": {"k": "v"}}}
    template = {
        "path": "${tool_input.file_path}",
        "message": "scan ${tool_input.file_path}",
        "count": "${tool_input.count}",
        "nested": ["${tool_input.meta}", {"literal": True}],
    }
    assert substitute(template, payload, MCP_HOOK) == {
        "path": "/tmp/a.rs",
        "message": "scan /tmp/a.rs",
        "count": 3,
        "nested": [{"k": "v"}, {"literal": True}],
    }
    with pytest.raises(PlaceholderError, match=r"`\$\{tool_input.gone\}` was not found"):
        substitute({"p": "x ${tool_input.gone}"}, payload, MCP_HOOK)


@given(st.recursive(st.text(max_size=12), lambda c: st.lists(c, max_size=3), max_leaves=6))
def test_codex_substitution_never_reaches_beyond_the_input(value: Any) -> None:
    try:
        out = substitute(value, WRITE, MCP_HOOK)
    except PlaceholderError:
        return
    if isinstance(value, list):
        assert isinstance(out, list) and len(out) == len(value)
    if isinstance(value, str) and "${" not in value:
        assert out == value


_HANDLER = st.dictionaries(
    st.sampled_from(["type", "server", "tool", "input", "timeout", "statusMessage", "x"]),
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-5, 5),
        st.text(max_size=5),
        st.just("mcp_tool"),
        st.dictionaries(st.text(max_size=3), st.one_of(st.none(), st.text(max_size=3))),
    ),
)


@given(_HANDLER)
def test_the_loader_takes_any_mcp_handler_without_raising(handler: dict[str, Any]) -> None:
    import tempfile

    handler = {**handler, "type": "mcp_tool"}
    with tempfile.TemporaryDirectory() as tmp:
        home, proj = project(Path(tmp), {"Stop": [{"hooks": [handler]}]})
        loaded = load_codex_hooks(
            proj, home=home, env={"CODEX_HOME": str(home / ".codex")}, bypass_hook_trust=True
        )
    kept = [h.config for h in loaded.registry.entries]
    for config in kept:
        assert isinstance(config.get("server"), str) and config["server"].strip()
        assert isinstance(config.get("tool"), str) and config["tool"].strip()
        assert isinstance(config.get("input"), dict)
    if not kept:
        assert loaded.warnings, "a handler left out must say why"


def test_the_loader_names_what_is_wrong(tmp_path: Path) -> None:
    bad = [
        {"type": "mcp_tool", "server": " ", "tool": "t"},
        {"type": "mcp_tool", "server": "s", "tool": "t", "input": ["x"]},
        {"type": "mcp_tool", "server": "s", "tool": "t", "input": {"a": None}},
        {"type": "mcp_tool", "server": "s", "tool": "t", "timeout": 1.5},
    ]
    home, proj = project(tmp_path, {"Stop": [{"hooks": bad}]})
    loaded = load_codex_hooks(
        proj, home=home, env={"CODEX_HOME": str(home / ".codex")}, bypass_hook_trust=True
    )
    text = "\n".join(loaded.warnings)
    assert "server and tool must not be empty" in text
    assert "'input' must be an object" in text
    assert "representable as TOML" in text
    assert "whole number of seconds" in text
    assert "hooks.json#/hooks/Stop/0/hooks/3" in text


@pytest.mark.parametrize(
    ("event", "handler", "recorded"),
    [  # read from Codex 0.169.0's own hooks/list (app-server) for these definitions
        (
            "PreToolUse",
            {
                "type": "mcp_tool",
                "server": "fs",
                "tool": "t2",
                "timeout": 9,
                "statusMessage": "checking",
            },
            "sha256:cb9f0b8468a0eed6f4804419d01e48b3ba1e91b8da6a20bb59bafe4b3d807169",
        ),
        (
            "PreToolUse",
            {"type": "mcp_tool", "server": "s", "tool": "t", "input": {}},
            "sha256:5a68520c1df69daf31e96c349d5850eda2ab679b3acd4a1f59cc68a82633e044",
        ),
        (
            "Stop",
            {"type": "mcp_tool", "server": "s", "tool": "t", "input": {"k": "${session_id}"}},
            "sha256:dc9928d4b5a322f8553313b076cd144ec85210ce8620c91bfe26708ffe562ebc",
        ),
        (
            "PreToolUse",
            {"type": "mcp_tool", "server": "s", "tool": "t", "input": {"o": {"b": True}}},
            "sha256:90c6e04936d7dacdf5f857c5045b33bf0ceb8850b2e8c307e5cda61ccf73550d",
        ),
        (
            "PreToolUse",
            {"type": "mcp_tool", "server": "s", "tool": "t", "input": {"n": 3}},
            "sha256:048cd4d543ef131ecd0601e561092e0a2e68c114d4d5f478953acf986db51323",
        ),
        (
            "PreToolUse",
            {"type": "mcp_tool", "server": "s", "tool": "t", "input": {"l": [1, "x"]}},
            "sha256:146a5c173936036bb29fd434ea382ca0c9bdfe61f5648f09233c65bcc6e082cd",
        ),
        (
            "PreToolUse",
            {"type": "mcp_tool", "server": "s", "tool": "t", "input": {"f": 1.5}},
            "sha256:24dbf2d8d858146f84ac6fc7ee8f6382973ef6bd178b3a2961c57fe047227404",
        ),
    ],
)
def test_the_trust_hash_of_an_mcp_tool_hook_is_codexs(
    event: str, handler: dict[str, Any], recorded: str
) -> None:
    from hookwise.config.codex.settings import codex_hook_hash

    matcher = None if event == "Stop" else "Bash"
    assert codex_hook_hash(event, matcher, handler) == recorded


def test_servers_of_an_untrusted_project_are_not_started(tmp_path: Path) -> None:
    handler = mcp("check_path", {"file_path": "/etc/x"}, server="local")
    home, proj = project(tmp_path, {"PreToolUse": [{"matcher": "Bash", "hooks": [handler]}]})
    # the server is the project's own; the project is trusted, so it counts
    (proj / ".codex" / "config.toml").write_text(server_table(tmp_path, "local"))
    with system(home, proj) as hs:
        assert hs.fire_sync("PreToolUse", WRITE).effect.outcome.proceed is False
    # untrusted: the layer (hooks and servers) is not loaded at all
    (home / ".codex" / "config.toml").write_text(
        f'[projects.{json.dumps(str(proj))}]\ntrust_level = "untrusted"\n'
    )
    with pytest.warns(HookTrustWarning, match="not a trusted Codex project"):
        hs = load_hook_system(
            proj,
            home=home,
            env={"CODEX_HOME": str(home / ".codex")},
            dialect="codex",
            bypass_hook_trust=True,
        )
    assert "local" not in hs.execution.mcp.servers
    hs.close()


def test_remote_and_turned_off_servers_say_why(tmp_path: Path) -> None:
    servers = (
        '[mcp_servers.remote]\nurl = "https://example.invalid/mcp"\n'
        '[mcp_servers.off]\ncommand = "x"\nenabled = false\n'
    )
    home, proj = project(tmp_path, {}, servers)
    with system(home, proj) as hs:
        why = hs.execution.mcp.unavailable
    assert "remote servers are not started" in why["remote"]
    assert "enabled: false" in why["off"]


# -- async -------------------------------------------------------------------------------


def async_hook(tmp_path: Path, event: str, sleep_s: float) -> tuple[Path, Path]:
    done = tmp_path / "done"
    answer = {
        "decision": "block",
        "reason": "R",
        "hookSpecificOutput": {"hookEventName": event, "additionalContext": "C"},
    }
    command = (
        f"cat > {tmp_path / 'input.json'}; sleep {sleep_s}; touch {done}; "
        f"echo '{json.dumps(answer)}'; echo R >&2; exit 2"
    )
    group = {"matcher": "Bash", "hooks": [{"type": "command", "command": command, "async": True}]}
    return project(tmp_path, {event: [group]})


@pytest.mark.parametrize("event", ["PreToolUse", "PostToolUse"])
def test_an_async_hook_is_not_waited_for_and_its_answer_is_not_read(
    tmp_path: Path, event: str
) -> None:
    home, proj = async_hook(tmp_path, event, 0)
    args = {**WRITE, "tool_response": "hi"} if event == "PostToolUse" else WRITE
    hs = system(home, proj)
    result = hs.fire_sync(event, args)
    deadline = time.monotonic() + 10
    while not (tmp_path / "done").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert (tmp_path / "done").exists()  # it ran, with the event's input
    assert json.loads((tmp_path / "input.json").read_text())["hook_event_name"] == event
    outcome = result.effect.outcome
    assert outcome.proceed is True and outcome.additional_context is None
    assert outcome.reason_for_model is None
    hs.close()


def test_the_session_does_not_wait_and_ends_an_async_hook(tmp_path: Path) -> None:
    home, proj = async_hook(tmp_path, "PreToolUse", 2)
    hs = system(home, proj)
    started = time.monotonic()
    hs.fire_sync("PreToolUse", WRITE)
    assert time.monotonic() - started < 1.5
    time.sleep(0.5)
    hs.close()
    time.sleep(2.5)
    assert (tmp_path / "input.json").exists() and not (tmp_path / "done").exists()


def test_a_synchronous_hook_still_blocks(tmp_path: Path) -> None:
    home, proj = async_hook(tmp_path, "PreToolUse", 0)
    hooks = json.loads((proj / ".codex" / "hooks.json").read_text())
    hooks["hooks"]["PreToolUse"][0]["hooks"][0]["async"] = False
    (proj / ".codex" / "hooks.json").write_text(json.dumps(hooks))
    with system(home, proj) as hs:
        assert hs.fire_sync("PreToolUse", WRITE).effect.outcome.proceed is False


# -- permission_mode -------------------------------------------------------------------


@pytest.mark.parametrize("event", list(CODEX.events))
def test_permission_mode_and_model_are_in_every_input_but_those_leaving_them_out(
    event: str,
) -> None:
    hs = HookSystem.from_hooks({}, dialect="codex")
    payload, _, _ = hs.prepare(event, {}, validate=False)
    left_out = COMMON_LEFT_OUT.get(event, ())
    assert ("permission_mode" in payload) is ("permission_mode" not in left_out)
    assert ("model" in payload) is ("model" not in left_out)
    if "permission_mode" not in left_out:
        assert payload["permission_mode"] == "default"


def test_the_recorded_inputs_have_no_common_field_hookwise_leaves_out() -> None:
    """Every key the real Codex sent (codex.jsonl) is in hookwise's input for those
    arguments, but the turn and call ids, which the arguments carry."""
    seen = 0
    for line in (FIXTURES / "codex.jsonl").read_text().splitlines():
        record = json.loads(line)
        hs = HookSystem.from_hooks({}, dialect="codex")
        payload, _, _ = hs.prepare(record["event"], record["event_args"], validate=False)
        missing = set(record["hook_input_keys"]) - set(payload)
        assert missing <= {"turn_id", "tool_use_id"}, (record["cell"], missing)
        seen += 1
    assert seen > 100
