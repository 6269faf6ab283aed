"""Red team s35 (MCP) F9: ``resources/read`` and ``prompts/get`` sent without an id (as
notifications) reached the server with no decision and no audit record, while an id-less
``tools/call`` was decided. Every method the proxy decides is now decided and audited the
same way with or without an id; what is refused is dropped (no answer can reach anyone),
what is allowed goes on. Through the real proxy, a real JSON-RPC pipe and the fake server,
which logs every line it reads."""

from __future__ import annotations

from typing import Any

from tests.mcp_proxy.conftest import Project


def _notification(method: str, params: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "method": method, "params": params}


def test_idless_decided_methods_are_decided_audited_and_dropped_when_refused(
    project: Project, wrap: Any
) -> None:
    secret = project.root / ".env"
    secret.write_text("TOKEN=x\n", "utf-8")
    notes = project.root / "notes.txt"
    notes.write_text("hello\n", "utf-8")
    proxy = wrap("resources")
    proxy.initialize()
    before = len(project.audit())
    proxy.send(_notification("resources/read", {"uri": f"file://{secret}"}))
    proxy.send(_notification("prompts/get", {"name": "p", "arguments": {"path": str(secret)}}))
    proxy.send(_notification("resources/subscribe", {"uri": f"file://{secret}"}))
    # an everyday one: allowed, passed on as sent
    proxy.send(_notification("resources/read", {"uri": f"file://{notes}"}))
    proxy.send({"jsonrpc": "2.0", "id": 7, "method": "ping"})  # (in order: after them)
    answer, _before = proxy.recv_until(lambda m: isinstance(m, dict) and m.get("id") == 7)
    assert answer.get("result") == {}, answer
    assert proxy.close() == 0, proxy.stderr()

    received = [m for m in project.received() if isinstance(m, dict) and "id" not in m]
    reads = [m for m in received if m.get("method") in ("resources/read", "prompts/get",
                                                          "resources/subscribe")]  # fmt: skip
    assert reads == [_notification("resources/read", {"uri": f"file://{notes}"})], reads
    records = project.audit()[before:]
    denied = [r for r in records if r["decision"] == "deny"]
    assert len(denied) == 3, records
    assert all(r["rule"] == "no-env-files" for r in denied), denied
