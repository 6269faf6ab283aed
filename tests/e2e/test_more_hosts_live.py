"""hookwise in the real Factory Droid 0.225.2 and Cline 3.0.65, installed by `hookwise install`.

Each case: a fresh HOME and project (more_hosts.prepare), a policy, `hookwise policy trust`
and `hookwise install HOST` as a user runs them, then the real host offline against the
fake model, whose script is a few shell calls. Judged by what ran (files in the project),
what the model read (the tool results it was sent), how the run ended, and the audit log.

Droid (``droid exec --auto high``):

* mixed: ``echo hi > marker`` is denied (no marker; the model reads the rule's reason),
  ``rm -f absent`` hits an ``ask`` rule (Droid's ask does not block, so hookwise answers
  with ask_fallback: a deny with the reason), ``touch marker`` runs rewritten as ``touch
  marker-rewritten``, ``ls`` gets the rule's context, ``touch allowed`` (no rule) runs;
* missing: the launcher is gone and hookwise is not on the host's PATH (a teammate's
  machine): the call is blocked and the model reads "hookwise is not installed".

Cline (``cline --json``): a cancel aborts the whole run, so one blocked call a run:

* deny: ``touch allowed`` runs, then ``echo hi > marker`` is cancelled: no marker, the run
  ends there ("aborted", no further model request), the audit log says allow-less none, deny;
* ask: ``rm -f absent`` is an ``ask``; Cline cannot ask: a cancel (ask_fallback deny);
* missing: hookwise cannot run; the hook file install wrote prints the cancel itself;
* rewrite: ``touch marker`` runs as ``touch marker-rewritten`` (Cline's ``overrideInput``),
  and the run goes on to ``touch allowed``.

Cline with its state moved (``CLINE_DATA_DIR``, ``CLINE_SESSION_DATA_DIR``, sandbox mode):
the hook install wrote still runs (none of them moves hooks), and ``hookwise coverage`` finds
the session where Cline wrote it, every call guarded.

Nine host runs, about 3 min with ``-n 2`` on the loaded two-core machine.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import clis, more_hosts

HOOKWISE = Path(sys.executable).parent / "hookwise"
DENY = "POLICY-MORE-DENY"
ASK = "POLICY-MORE-ASK"
CONTEXT = "POLICY-MORE-CONTEXT"

POLICY = f"""\
version: 1
rules:
  - id: no-echo
    match: {{tool: shell, command: {{program: [echo]}}}}
    action: deny
    reason: "{DENY}: writing the marker is not allowed here"
  - id: ask-rm
    match: {{tool: shell, command: {{program: [rm]}}}}
    action: ask
    reason: "{ASK}: removing files needs a person"
  - id: redirect-marker
    match: {{tool: shell, command: {{program: [touch]}}}}
    action: rewrite
    rewrite:
      replace: [{{arg: command, find: "touch marker", with: "touch marker-rewritten"}}]
  - id: ls-context
    match: {{tool: shell, command: {{program: [ls]}}}}
    action: context
    context: "{CONTEXT}: the listing is of a scratch project"
"""
CASES = {
    "droid": {
        "mixed": ["echo hi > marker", "rm -f absent", "touch marker", "ls", "touch allowed"],
        "missing": ["touch marker"],
    },
    "cline": {
        "deny": ["ls", "echo hi > marker", "touch allowed"],
        "ask": ["rm -f absent", "touch allowed"],
        "missing": ["ls"],
        "rewrite": ["touch marker", "touch allowed"],
    },
}
PARAMS = [(host, case) for host, cases in CASES.items() for case in cases]


def hookwise(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(HOOKWISE), *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def audit(layout: clis.Layout) -> list[dict[str, Any]]:
    path = layout.home / ".local" / "state" / "hookwise" / "audit.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    return [json.loads(line) for line in lines if line.strip()]


def finish_reason(root: Path) -> str | None:
    """Cline's own word on how the run ended (its last ``run_result``)."""
    reason = None
    for line in (
        (root / "cli-stdout.txt").read_text(encoding="utf-8", errors="replace").splitlines()
    ):
        try:
            item = json.loads(line)
        except ValueError:
            continue
        if isinstance(item, dict) and item.get("type") == "run_result":
            reason = item.get("finishReason")
    return reason


@pytest.mark.e2e
@pytest.mark.parametrize(("host", "case"), PARAMS, ids=[f"{h}-{c}" for h, c in PARAMS])
def test_hookwise_in_the_real_host(host: str, case: str, tmp_path: Path) -> None:
    reason = more_hosts.skip_reason(host)
    if reason:
        pytest.skip(reason)
    problem = more_hosts.install_problem(host)
    assert problem is None, problem
    layout = clis.Layout(tmp_path)
    more_hosts.prepare(host, layout)
    policy = layout.proj / ".hookwise" / "policy.yaml"
    policy.parent.mkdir()
    policy.write_text(POLICY, encoding="utf-8")
    home = layout.home
    env = {
        **more_hosts.environment(host, layout),
        "PATH": os.environ["PATH"],
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_CONFIG_HOME": str(home / ".config"),
    }
    for args in (["policy", "trust"], ["install", host]):
        done = hookwise(args, env, layout.proj)
        assert done.returncode == 0, (args, done.stderr)
    if case == "missing":
        (home / ".local" / "share" / "hookwise" / "hook").unlink()
    host_env = {k: v for k, v in env.items() if k.startswith("XDG_")}
    result = more_hosts.run_host(host, tmp_path, CASES[host][case], env=host_env)
    stderr = (tmp_path / "cli-stderr.txt").read_bytes().decode("utf-8", "replace")
    seen = result["tool_results"]
    why = (
        f"\n  {json.dumps({k: v for k, v in result.items() if k != 'requests'})[:3000]}"
        f"\n{stderr[-2000:]}"
    )
    assert not result["timed_out"], why
    proj = layout.proj
    records = audit(layout)
    decisions = [(r["host"], r["decision"], r.get("command")) for r in records]
    why += f"\n  audit: {decisions}"
    if host == "droid":
        check_droid(case, proj, seen, decisions, why)
    else:
        check_cline(case, tmp_path, result, decisions, why)


def check_droid(
    case: str, proj: Path, seen: list[str], decisions: list[tuple[Any, ...]], why: str
) -> None:
    if case == "missing":
        assert not (proj / "marker").exists(), f"the tool ran without hookwise{why}"
        assert not (proj / "marker-rewritten").exists(), why
        assert seen and "hookwise is not installed" in seen[0], why
        return
    assert not (proj / "marker").exists(), f"a denied or rewritten command ran as asked{why}"
    assert (proj / "marker-rewritten").exists(), f"the rewritten command did not run{why}"
    assert (proj / "allowed").exists(), f"the command no rule matches did not run{why}"
    assert len(seen) == 5, why
    assert seen[0] == f"Error: {DENY}: writing the marker is not allowed here", why
    assert seen[1].startswith(f"Error: {ASK}") and "confirmation" in seen[1], why
    assert "Command completed successfully" in seen[2], why
    expected = [
        ("droid", "deny", "echo hi > marker"),
        ("droid", "ask", "rm -f absent"),
        ("droid", "allow", "touch marker"),
        ("droid", "none", "ls"),
        ("droid", "none", "touch allowed"),
    ]
    assert decisions == expected, why


def check_cline(
    case: str,
    root: Path,
    result: dict[str, Any],
    decisions: list[tuple[Any, ...]],
    why: str,
) -> None:
    proj = root / "proj"
    if case == "rewrite":
        # Cline's overrideInput: the rewritten command ran, and the run went on
        assert (proj / "marker-rewritten").exists(), f"the rewrite did not run{why}"
        assert not (proj / "marker").exists(), f"the command ran as asked{why}"
        assert (proj / "allowed").exists(), f"the run did not go on after the rewrite{why}"
        assert finish_reason(root) == "completed", why
        assert decisions == [
            ("cline", "allow", "touch marker"),
            ("cline", "none", "touch allowed"),
        ], why
        return
    assert finish_reason(root) == "aborted", f"a cancel did not end the run{why}"
    assert not (proj / "allowed").exists(), f"the run went on after the cancel{why}"
    if case == "deny":
        assert not (proj / "marker").exists(), f"the denied command ran{why}"
        assert len(result["tool_results"]) == 1, why  # ls; nothing after the cancel
        assert result["model_turns"] == 2, why
        assert decisions == [("cline", "none", "ls"), ("cline", "deny", "echo hi > marker")], why
        # the ls rule's context went with the answer, and Cline passed it to the model
        assert CONTEXT in json.dumps(result["requests"][-1]), why
    elif case == "ask":
        assert result["tool_results"] == [], why
        assert result["model_turns"] == 1, why
        assert decisions == [("cline", "ask", "rm -f absent")], why
    else:
        assert result["tool_results"] == [], f"the tool ran without hookwise{why}"
        assert decisions == [], why


MOVED = {
    "data-dir": ("CLINE_DATA_DIR", "elsewhere/data", "elsewhere/data/sessions"),
    "session-dir": ("CLINE_SESSION_DATA_DIR", "elsewhere/sessions", "elsewhere/sessions"),
    "sandbox": ("CLINE_SANDBOX", "1", "tmp/cline-sandbox/sessions"),
}


@pytest.mark.e2e
@pytest.mark.parametrize("moved", list(MOVED))
def test_coverage_finds_cline_s_sessions_where_its_variables_put_them(
    moved: str, tmp_path: Path
) -> None:
    reason = more_hosts.skip_reason("cline")
    if reason:
        pytest.skip(reason)
    layout = clis.Layout(tmp_path)
    more_hosts.prepare("cline", layout)
    policy = layout.proj / ".hookwise" / "policy.yaml"
    policy.parent.mkdir()
    policy.write_text(POLICY, encoding="utf-8")
    home = layout.home
    variable, value, sessions = MOVED[moved]
    value = value if variable == "CLINE_SANDBOX" else str(tmp_path / value)
    xdg = {
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_CONFIG_HOME": str(home / ".config"),
    }
    env = {**more_hosts.environment("cline", layout), "PATH": os.environ["PATH"], **xdg}
    env[variable] = value
    for args in (["policy", "trust"], ["install", "cline", "--scope", "user"]):
        done = hookwise(args, env, layout.proj)
        assert done.returncode == 0, (args, done.stderr)
    result = more_hosts.run_host(
        "cline", tmp_path, ["ls", "touch allowed"], env={**xdg, variable: value}
    )
    why = f"\n  {json.dumps({k: v for k, v in result.items() if k != 'requests'})[:3000]}"
    assert finish_reason(tmp_path) == "completed", why
    assert (layout.proj / "allowed").exists(), why
    # the user hook install wrote ran: both calls decided
    assert [(r["decision"], r.get("command")) for r in audit(layout)] == [
        ("none", "ls"),
        ("none", "touch allowed"),
    ], why
    assert list((tmp_path / sessions).glob("*/*.messages.json")), why
    assert not (home / ".cline" / "data" / "sessions").exists(), why
    done = hookwise(["coverage", "--host", "cline", "--json"], env, layout.proj)
    assert done.returncode == 0, done.stdout + done.stderr
    totals = json.loads(done.stdout)["hosts"]["cline"]
    assert (totals["sessions"], totals["calls"], totals["guarded"]) == (1, 2, 2), done.stdout
