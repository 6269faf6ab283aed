"""Record what the real Factory Droid and Cline do with each pre-tool hook answer.

    python -m tests.e2e.record_more [--hosts droid cline] [--cells ID ...] [--jobs N]

Each cell registers ``answer_hook.py`` with one literal answer as the host's pre-tool hook
(more_hosts.write_raw_hook: not hookwise's install), runs the host offline on one shell call
(``echo hi > marker``, or ``touch marker`` for the rewrite cells) and records what happened:
``hook_calls``, ``tool_ran`` (``marker`` exists), ``rewritten`` (``marker-rewritten``
exists instead), ``tool_results`` (what the model read in place of the tool's output),
``model_turns`` (model requests that offered tools: 1 means the run ended at the hook),
the host's exit code and its own last word (Droid's ``result``/``is_error``, Cline's
``finishReason``), the hook's input (with the run directory as ``$RUN``) and its time.
The records go to ``tests/e2e/fixtures/more-hosts/<host>.jsonl``, whose first line names
the host, its pinned version, the date and this command (origin).

The answers that carry hookwise's own forms are generated from hookwise's adapters
(``hookwise_answers``), so the replay (test_more_hosts_replay.py) can check that what
hookwise prints now is exactly what was recorded, and what the host did with it.
"""

from __future__ import annotations

import argparse
import datetime
import json
import shlex
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from tests.e2e import clis, more_hosts

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "more-hosts"
REASON = "POLICY-E2E-REASON: writing the marker is not allowed"
CONTEXT = "POLICY-E2E-CONTEXT: the marker lives in the project"
REWRITE_FROM, REWRITE_TO = "touch marker", "touch marker-rewritten"
HOOK_TIMEOUT_S = 3  # the slow cells sleep past it (Droid's unit: seconds)


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def _claude_pre(**fields: Any) -> str:
    return _json({"hookSpecificOutput": {"hookEventName": "PreToolUse", **fields}})


# id -> (answer for answer_hook.py, the command the model asks for, extra)
GENERIC: dict[str, dict[str, Any]] = {
    "exit0-empty": {"answer": {"exit": 0}},
    "exit0-garbage": {"answer": {"exit": 0, "stdout": "not json at all"}},
    "exit1-stderr": {"answer": {"exit": 1, "stderr": REASON}},
    "exit2-stderr": {"answer": {"exit": 2, "stderr": REASON}},
    "exit2-empty": {"answer": {"exit": 2}},
    "exit2-claude-deny": {
        "answer": {
            "exit": 2,
            "stdout": _claude_pre(permissionDecision="deny", permissionDecisionReason=REASON),
        }
    },
    "exit3-stderr": {"answer": {"exit": 3, "stderr": REASON}},
    "claude-deny": {
        "answer": {
            "exit": 0,
            "stdout": _claude_pre(permissionDecision="deny", permissionDecisionReason=REASON),
        }
    },
    "claude-ask": {
        "answer": {
            "exit": 0,
            "stdout": _claude_pre(permissionDecision="ask", permissionDecisionReason=REASON),
        }
    },
    "claude-allow": {"answer": {"exit": 0, "stdout": _claude_pre(permissionDecision="allow")}},
    "claude-allow-readonly": {
        "answer": {"exit": 0, "stdout": _claude_pre(permissionDecision="allow")},
        "args": [],
    },
    "exit0-empty-readonly": {"answer": {"exit": 0}, "args": []},
    "claude-rewrite": {
        "answer": {
            "exit": 0,
            "stdout": _claude_pre(permissionDecision="allow", updatedInput={"command": REWRITE_TO}),
        },
        "command": REWRITE_FROM,
    },
    "claude-context": {
        "answer": {"exit": 0, "stdout": _claude_pre(additionalContext=CONTEXT)},
    },
    "top-block": {"answer": {"exit": 0, "stdout": _json({"decision": "block", "reason": REASON})}},
    "top-deny": {"answer": {"exit": 0, "stdout": _json({"decision": "deny", "reason": REASON})}},
    "cline-cancel": {
        "answer": {"exit": 0, "stdout": _json({"cancel": True, "errorMessage": REASON})}
    },
    "cline-cancel-exit2": {
        "answer": {"exit": 2, "stdout": _json({"cancel": True, "errorMessage": REASON})}
    },
    "cline-no-cancel": {
        "answer": {"exit": 0, "stdout": _json({"cancel": False, "errorMessage": REASON})}
    },
    "cline-context": {
        "answer": {"exit": 0, "stdout": _json({"cancel": False, "contextModification": CONTEXT})}
    },
    # Cline's other controls, read in its 3.0.65 bundle (the file-hook reader): an
    # ``overrideInput`` replaces the tool's input; ``context`` is the same as
    # ``contextModification``; of a stdout with ``HOOK_CONTROL\t`` lines only the last one
    # is the answer
    "cline-override-input": {
        "answer": {"exit": 0, "stdout": _json({"overrideInput": {"commands": [REWRITE_TO]}})},
        "command": REWRITE_FROM,
        "only": "cline",
    },
    "cline-context-key": {
        "answer": {"exit": 0, "stdout": _json({"context": CONTEXT})},
        "only": "cline",
    },
    "cline-hook-control": {
        "answer": {
            "exit": 0,
            "stdout": "a log line\nHOOK_CONTROL\t"
            + _json({"cancel": True, "errorMessage": REASON}),
        },
        "only": "cline",
    },
    # past the 120 s a file hook gets (``toolCallTimeoutMs ?? 120000`` in the bundle): the
    # hook is killed and its cancel never read
    "cline-past-timeout": {
        "answer": {
            "exit": 0,
            "sleep": 125,
            "stdout": _json({"cancel": True, "errorMessage": REASON}),
        },
        "only": "cline",
        "run_timeout": 300.0,
    },
    "slow": {
        "answer": {
            "exit": 0,
            "sleep": HOOK_TIMEOUT_S + 5,
            "stdout": _claude_pre(permissionDecision="deny", permissionDecisionReason=REASON),
        }
    },
}


def cells(host: str) -> dict[str, dict[str, Any]]:
    """Every cell of ``host`` (the read-only cells are Droid's, the ``only`` ones that host's)."""
    out = {k: v for k, v in GENERIC.items() if v.get("only", host) == host}
    if host != "droid":
        out = {k: v for k, v in out.items() if not k.endswith("-readonly")}
    return out


def _normalise(value: Any, root: Path) -> Any:
    return json.loads(json.dumps(value).replace(str(root), "$RUN"))


def _tokens(requests: list[dict[str, Any]]) -> list[str]:
    """The answer tokens anywhere in what the model was sent after the hook (its requests
    after the first that offered tools)."""
    bodies = [r.get("body") for r in requests if isinstance(r.get("body"), dict)]
    later = json.dumps([b for b in bodies if b.get("tools")][1:])
    return [t for t in ("POLICY-E2E-REASON", "POLICY-E2E-CONTEXT") if t in later]


def _host_said(host: str, stdout: str) -> dict[str, Any]:
    """The host's own last word on stdout."""
    lines = [line for line in stdout.splitlines() if line.strip().startswith("{")]
    said: dict[str, Any] = {}
    for line in lines:
        try:
            item = json.loads(line)
        except ValueError:
            continue
        if host == "droid" and item.get("type") == "result":
            said = {"is_error": item.get("is_error"), "result": item.get("result")}
        if host == "cline" and item.get("type") == "run_result":
            said = {"finishReason": item.get("finishReason")}
    return said


def run_cell(host: str, cell_id: str, spec: dict[str, Any]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix=f"hookwise-more-{host}-") as tmp:
        root = Path(tmp)
        layout = clis.Layout(root)
        more_hosts.prepare(host, layout)
        command = shlex.join([sys.executable, str(clis.ANSWER_HOOK), _json(spec["answer"])])
        more_hosts.write_raw_hook(host, layout, command, timeout_s=HOOK_TIMEOUT_S)
        shell = spec.get("command", "echo hi > marker")
        result = more_hosts.run_host(
            host,
            root,
            [shell],
            args=spec.get("args"),
            timeout=spec.get("run_timeout", more_hosts.TIMEOUT_S),
        )
        calls = (
            [
                json.loads(line)
                for line in layout.hook_log.read_text(encoding="utf-8").splitlines()
                if line.strip()
            ]
            if layout.hook_log.exists()
            else []
        )
        stdout = (root / "cli-stdout.txt").read_text(encoding="utf-8", errors="replace")
        record = {
            "cell": cell_id,
            "host": host,
            "version": more_hosts.installed_version(host),
            "answer": spec["answer"],
            "args": spec.get("args"),
            "command": shell,
            "observed": {
                "hook_calls": len(calls),
                "tool_ran": (layout.proj / "marker").exists(),
                "rewritten": (layout.proj / "marker-rewritten").exists(),
                "tool_results": _normalise(result["tool_results"], root),
                "model_turns": result["model_turns"],
                "tokens_reached_model": _tokens(result["requests"]),
                "host_said": _normalise(_host_said(host, stdout), root),
            },
            "hook_input": _normalise(calls[0]["input"], root) if calls else None,
            "exit_code": result["exit_code"],
            "timed_out": result["timed_out"],
            "seconds": result["seconds"],
            "offline": result["offline"],
        }
        return record


def header(host: str) -> dict[str, Any]:
    return {
        "origin": "python -m tests.e2e.record_more (the real CLI offline against "
        "tests/e2e/fake_model.py)",
        "host": host,
        "package": more_hosts.PACKAGES[host],
        "version": more_hosts.installed_version(host),
        "recorded": datetime.date.today().isoformat(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hosts", nargs="*", default=list(more_hosts.HOSTS))
    parser.add_argument("--cells", nargs="*", help="only these cells (merged into the file)")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    FIXTURES.mkdir(parents=True, exist_ok=True)
    for host in args.hosts:
        problem = more_hosts.install_problem(host)
        if problem:
            print(problem, file=sys.stderr)
            return 3
        wanted = {k: v for k, v in cells(host).items() if not args.cells or k in args.cells}
        with ThreadPoolExecutor(args.jobs) as pool:
            records = list(pool.map(run_cell, [host] * len(wanted), wanted, wanted.values()))
        path = FIXTURES / f"{host}.jsonl"
        kept: dict[str, dict[str, Any]] = {}
        if args.cells and path.exists():
            for line in path.read_text(encoding="utf-8").splitlines()[1:]:
                record = json.loads(line)
                kept[record["cell"]] = record
        for record in records:
            kept[record["cell"]] = record
            print(host, record["cell"], json.dumps(record["observed"])[:300], flush=True)
        order = list(cells(host))
        lines = [json.dumps(header(host))]
        lines += [json.dumps(kept[k]) for k in order if k in kept]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
