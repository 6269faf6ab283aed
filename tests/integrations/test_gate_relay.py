"""A framework without an approval mechanism (smolagents) asks a person through the same
approval relay as ``hookwise hook`` (issue 15 x issue 16): a real agent against the fake
model, a real ``hookwise serve`` with tokens made by its CLI, the approver on its API.

Approved: the tool runs. Denied: it does not, and the approver's note is what the model
reads. The request carries the framework as its host and the call's canonical input; the
audit log records the approval.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hookwise.api.settings import sqlite_url
from tests.approval_relay import Relay, relay_policy, start_relay, write_private
from tests.e2e.fake_model import FakeModel, Script, call
from tests.integrations.conftest import ASK_COMMAND, Project, ShellTool
from tests.integrations.test_smolagents import answer, last_results, make_agent


@pytest.fixture(scope="module")
def relay(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Relay]:
    tmp_path = tmp_path_factory.mktemp("relay")
    started = start_relay(tmp_path / "server", sqlite_url(tmp_path))
    try:
        yield started
    finally:
        started.server.stop()


@pytest.fixture
def relayed(
    relay: Relay, project: Project, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Relay:
    """The user's own policy names the relay (an untrusted project never could)."""
    user = write_private(tmp_path / "user-policy.yaml", relay_policy(relay.url, wait=30))
    monkeypatch.setenv("HOOKWISE_USER_POLICY", str(user))
    monkeypatch.setenv("HOOKWISE_AGENT_TOKEN", relay.agent)
    return relay


def _run_in_background(agent: Any) -> tuple[threading.Thread, list[Any]]:
    outcome: list[Any] = []

    def work() -> None:
        try:
            outcome.append(agent.run("which kernel"))
        except Exception as exc:  # surfaced by the test
            outcome.append(exc)

    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    return thread, outcome


def test_an_approved_ask_runs_the_tool(
    relayed: Relay, project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    fake_model.script = Script([call("run_shell", command=ASK_COMMAND), answer()])
    thread, outcome = _run_in_background(make_agent(fake_model, shell_tool, project))
    (request,) = relayed.pending()
    assert request["host"] == "smolagents"
    assert request["input"] == {"command": ASK_COMMAND}
    assert relayed.decide(request, "allow", note="fine").status_code == 200
    thread.join(60)
    assert not thread.is_alive() and not isinstance(outcome[0], Exception), outcome
    assert shell_tool.calls == [ASK_COMMAND]
    (resolved,) = [r for r in project.audit() if r.get("ask_resolved")]
    assert resolved["decision"] == "allow" and resolved["ask_resolved"] == "relay: allowed"
    assert resolved["approval"]["approver"] == "alice"
    assert resolved["framework"] == "smolagents"


def test_a_denied_ask_never_runs_and_the_model_reads_the_note(
    relayed: Relay, project: Project, fake_model: FakeModel, shell_tool: ShellTool
) -> None:
    fake_model.script = Script([call("run_shell", command=ASK_COMMAND), answer()])
    thread, _ = _run_in_background(make_agent(fake_model, shell_tool, project))
    (request,) = relayed.pending()
    note = "NOT-ON-THIS-BOX: use the CI runner"
    assert relayed.decide(request, "deny", note=note, token=relayed.bob).is_success
    thread.join(60)
    assert not thread.is_alive()
    assert shell_tool.calls == []
    (seen,) = last_results(fake_model)
    assert note in seen and "bob" in seen
    (resolved,) = [r for r in project.audit() if r.get("ask_resolved")]
    assert resolved["decision"] == "deny" and resolved["approval"]["outcome"] == "denied"


def test_the_relay_stopped_denies_at_once(
    project: Project,
    fake_model: FakeModel,
    shell_tool: ShellTool,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tests.api.conftest import free_port

    user = write_private(
        tmp_path / "user-policy.yaml", relay_policy(f"http://127.0.0.1:{free_port()}", wait=30)
    )
    monkeypatch.setenv("HOOKWISE_USER_POLICY", str(user))
    monkeypatch.setenv("HOOKWISE_AGENT_TOKEN", "hwt_agent_not_used_no_service")
    fake_model.script = Script([call("run_shell", command=ASK_COMMAND), answer()])
    make_agent(fake_model, shell_tool, project).run("which kernel")
    assert shell_tool.calls == []
    (resolved,) = [r for r in project.audit() if r.get("ask_resolved")]
    assert resolved["decision"] == "deny"
    assert resolved["approval"]["outcome"] == "unreachable"
    assert resolved["approval"]["waited_ms"] < 10_000
