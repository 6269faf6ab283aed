"""Benchmark: ``hookwise hook`` as a cold process, and in-process evaluation.

1. Cold process: the registered command (what ``hookwise install`` writes, run as the hosts
   run it: ``sh -c '<the portable script>'``, which execs the per-user launcher and its
   snapshot), a fresh process per event, with a 200-rule policy plus every rule pack,
   against a bare ``python -I -S -c pass`` (the same interpreter) in the same run, rounds
   interleaved so machine load hits both alike. Also measured: the console script
   ``hookwise hook``, ``python -I -S .../policy/run_hook.py`` (``install --direct``, no
   snapshot), ``python -c pass`` (the site step alone), and the console script with
   ``settings.approvals`` in the user policy (the relay of issue 15 must cost events that
   do not ask nothing).
   The payloads rotate over Claude Code PreToolUse/Bash, Gemini BeforeTool/
   run_shell_command and Codex PreToolUse/apply_patch; the audit log is on. Target: p50
   ratio <= 1.5.
2. In process: ``decide`` (decode, evaluate, encode) for one event against a 1,000-rule
   policy, p50 over many events. Target: <= 1 ms.

The policy is generated (deterministic) with the mix a real one has: shell-aware command
patterns, command regexes, file globs and extensions, ``when`` conditions, prompt, MCP,
context and stop rules. Usage::

    .venv/bin/python bench/hook_cold.py [--rounds 60] [--events 2000] [--json]

Bytecode is compiled first (``compileall``), as ``pip install`` does for a normal install;
``PYTHONDONTWRITEBYTECODE`` (set in some dev shells) would otherwise make every hook
process recompile hookwise from source.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from hookwise.config.hookwise_command import portable_argv  # noqa: E402
from hookwise.policy.audit import audit_path  # noqa: E402
from hookwise.policy.install.launcher import launcher_text  # noqa: E402
from hookwise.policy.pipeline import decide  # noqa: E402
from hookwise.policy.retry_state import RetryState  # noqa: E402
from hookwise.policy.rules.compiler import compile_sources  # noqa: E402
from hookwise.policy.tools.payloads import build_payload  # noqa: E402
from hookwise.policy.trust.scopes import launcher_path, snapshot_path  # noqa: E402
from hookwise.policy.trust.store import Trust, trust_file  # noqa: E402

PROGRAMS = [
    "git",
    "npm",
    "pip",
    "docker",
    "kubectl",
    "terraform",
    "aws",
    "gcloud",
    "curl",
    "wget",
    "ssh",
    "scp",
    "rsync",
    "chmod",
    "chown",
    "dd",
    "mkfs",
    "helm",
    "psql",
    "mysql",
]
FLAGS = ["--force", "-f", "--hard", "--privileged", "-rf", "--delete", "--all", "-y"]
ARGS = ["push", "reset", "publish", "run", "delete", "destroy", "apply", "rm", "install", "drop"]
GLOBS = [
    "**/*.pem",
    "secrets/**",
    "*.key",
    ".env*",
    "**/id_rsa*",
    "config/prod/**",
    "*.tfstate",
    "**/credentials*",
    ".git/**",
    "*.p12",
]
EXTENSIONS = [".sql", ".sh", ".lock", ".crt", ".der"]
WORDS = ["deploy", "production", "delete", "migrate", "secret", "password", "rollback", "release"]


def rule_text(index: int) -> str:
    """One generated rule (YAML flow mapping)."""
    kind = index % 10
    rid = f"r{index:04d}"
    priority = index % 7
    if kind in (0, 1, 2):  # shell-aware command pattern
        program = PROGRAMS[index % len(PROGRAMS)]
        arg = ARGS[index % len(ARGS)]
        flag = FLAGS[index % len(FLAGS)]
        return (
            f"{{id: {rid}, match: {{tool: shell, command: '{program} {arg} {flag}'}}, "
            f"action: deny, reason: '{rid} blocks {program} {arg} {flag}', priority: {priority}}}"
        )
    if kind == 3:  # command regex
        program = PROGRAMS[index % len(PROGRAMS)]
        return (
            f"{{id: {rid}, match: {{command: {{line_regex: '{program}\\s+.*--{index}x'}}}}, "
            f"action: ask, reason: 'check {rid}'}}"
        )
    if kind == 4:  # file globs
        glob = GLOBS[index % len(GLOBS)]
        return (
            f"{{id: {rid}, match: {{tool: [write, edit], files: '{glob}'}}, action: deny, "
            f"reason: 'protected by {rid}'}}"
        )
    if kind == 5:  # extensions + outside the workspace
        ext = EXTENSIONS[index % len(EXTENSIONS)]
        return (
            f"{{id: {rid}, match: {{tool: write, files: {{extensions: ['{ext}'], "
            f"outside_workspace: true}}}}, action: deny}}"
        )
    if kind == 6:  # when condition
        return (
            f"{{id: {rid}, match: {{tool: shell}}, when: 'input.timeout > {600 + index} "
            f'and env.CI == "true"\', action: deny}}'
        )
    if kind == 7:  # prompt
        word = WORDS[index % len(WORDS)]
        return (
            f"{{id: {rid}, match: {{prompt: {{words: [{word}{index}]}}}}, action: context, "
            f"context: 'note {rid}'}}"
        )
    if kind == 8:  # MCP
        return (
            f"{{id: {rid}, match: {{mcp: {{server: 'srv{index}', tool: 'delete_*'}}}}, "
            f"action: deny}}"
        )
    return (  # context after tools / on stop
        f"{{id: {rid}, events: [tool.after], match: {{tool: 'mcp__x{index}__*'}}, "
        f"action: context, context: 'after {rid}'}}"
    )


PACKS = "hookwise/filesystem, hookwise/git, hookwise/secrets, hookwise/database, " + (
    "hookwise/kubernetes, hookwise/cloud"
)


def policy_text(count: int) -> str:
    """``count`` generated rules plus one the payloads hit, and every rule pack."""
    lines = ["version: 1", f"extends: [{PACKS}]", "rules:"]
    lines += [f"  - {rule_text(i)}" for i in range(count)]
    # one rule the benchmark payloads hit, at the lowest priority (evaluated last)
    lines.append(
        "  - {id: hit, match: {tool: shell, command: git push --force}, action: deny, "
        "reason: no force push, priority: -1}"
    )
    return "\n".join(lines) + "\n"


PAYLOAD_NAMES = ("claude Bash", "gemini run_shell_command", "codex apply_patch")
PAYLOAD_HOSTS = ("claude", "gemini", "codex")


def payloads(cwd: str) -> list[bytes]:
    return [
        json.dumps(
            build_payload(
                "claude",
                "PreToolUse",
                tool="Bash",
                tool_input={"command": "git fetch && git push --force origin main"},
                cwd=cwd,
            )
        ).encode(),
        json.dumps(
            build_payload(
                "gemini",
                "BeforeTool",
                tool="run_shell_command",
                tool_input={"command": "npm test -- --watch=false | tee log.txt"},
                cwd=cwd,
            )
        ).encode(),
        json.dumps(
            build_payload(
                "codex",
                "PreToolUse",
                tool="apply_patch",
                tool_input={
                    "command": "*** Begin Patch\n*** Update File: src/app.py\n@@\n-a\n+b\n"
                    "*** End Patch"
                },
                cwd=cwd,
            )
        ).encode(),
    ]


def run(argv: list[str], data: bytes, env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child) for one process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(argv, input=data, capture_output=True, env=env, check=False)
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 2):
        raise SystemExit(f"{argv} failed ({done.returncode}): {done.stderr.decode()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu


def _p50(values: list[float]) -> float:
    return statistics.median(values) * 1000


def installed_home(base: Path, rules: int) -> tuple[dict[str, str], Path]:
    """The benchmark's home under ``base`` (its environment, and the per-user launcher as
    ``hookwise install`` writes it): the generated policy of ``rules`` rules plus every pack
    as the project's policy (``base/.hookwise/policy.yaml``; the payloads' cwd is ``base``),
    trusted as by a user who reviewed it, the audit log on at its default place. No
    ``HOOKWISE_*`` variable is set, as in a user's install: each moves the guard, so the hook
    checks where it came from (policy/env_origin.py), which a plain install does not pay.
    bench/hook_instructions.py and the tests of the hot path (tests/policy/test_cold_*.py)
    start from the same home."""
    policy = base / ".hookwise" / "policy.yaml"
    policy.parent.mkdir()
    policy.write_text(policy_text(rules))
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(base), "LANG": "C.UTF-8"}
    trust_file(str(policy), env)  # the user reviewed it: it applies in full
    launcher = Path(launcher_path(env))  # what `hookwise install` writes
    launcher.parent.mkdir(parents=True)
    launcher.write_text(launcher_text(str(launcher)))
    launcher.chmod(0o755)
    return env, launcher


def cold(rounds: int, rules: int) -> dict[str, Any]:
    compileall.compile_dir(str(ROOT / "src" / "hookwise"), quiet=1)
    hookwise = str(Path(sys.executable).parent / "hookwise")
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        env, launcher = installed_home(base, rules)
        data = payloads(str(base))
        first = subprocess.run(
            [hookwise, "hook"], input=data[0], capture_output=True, env=env, check=False
        )
        if b'permissionDecision":"deny' not in first.stdout:
            raise SystemExit(f"the hook did not deny: {first.stdout!r} {first.stderr!r}")
        # the same hook with settings.approvals in the user policy: events that do not ask
        # must not pay for the relay (issue 15)
        relay_user = base / "relay-user.yaml"
        relay_user.write_text(
            "version: 1\nsettings:\n  approvals: {url: 'http://127.0.0.1:9', "
            "token_env: HOOKWISE_AGENT_TOKEN, wait: 60}\n"
        )
        relay_env = {**env, "HOOKWISE_USER_POLICY": str(relay_user)}
        plain_user = base / "plain-user.yaml"  # the same files to read, no relay
        plain_user.write_text("version: 1\nsettings:\n  ask_fallback: deny\n")
        user_env = {**env, "HOOKWISE_USER_POLICY": str(plain_user)}
        for warm in (relay_env, user_env):
            subprocess.run(
                [hookwise, "hook"], input=data[0], env=warm, capture_output=True, check=False
            )
        # the launcher writes its snapshot (policy/snapshot.py) on its first call, as
        # after `hookwise install`
        subprocess.run(
            portable_argv("claude"), input=data[0], env=env, capture_output=True, check=True
        )
        if not Path(snapshot_path(str(launcher))).is_file():
            raise SystemExit("the launcher wrote no snapshot")
        run_hook = str(ROOT / "src" / "hookwise" / "policy" / "run_hook.py")
        contenders = {
            "hook": ([hookwise, "hook"], True, env),
            "relay": ([hookwise, "hook"], True, relay_env),
            "user": ([hookwise, "hook"], True, user_env),
            "launcher": ([sys.executable, "-I", "-S", run_hook], True, env),
            "portable": (portable_argv("claude"), True, env),
            "bare": ([sys.executable, "-I", "-S", "-c", "pass"], False, env),
            "site": ([sys.executable, "-c", "pass"], False, env),
        }
        wall: dict[str, list[float]] = {name: [] for name in contenders}
        cpu: dict[str, list[float]] = {name: [] for name in contenders}
        for index in range(rounds):
            for name, (argv, takes_payload, environment) in contenders.items():
                payload = data[index % len(data)] if takes_payload else b""
                command = argv
                if name == "portable":  # each host registers its own --platform
                    command = portable_argv(PAYLOAD_HOSTS[index % len(data)])
                w, c = run(command, payload, environment)
                wall[name].append(w)
                cpu[name].append(c)
        audit_lines = len(Path(audit_path({}, env)).read_text().splitlines())
    return {
        "rules": rules + 1,
        "rounds": rounds,
        "hook_p50_ms": _p50(wall["hook"]),
        "baseline_p50_ms": _p50(wall["bare"]),
        "site_p50_ms": _p50(wall["site"]),
        "ratio_p50": _p50(wall["hook"]) / _p50(wall["bare"]),
        "site_ratio_p50": _p50(wall["site"]) / _p50(wall["bare"]),
        "hook_p90_ms": statistics.quantiles(wall["hook"], n=10)[-1] * 1000,
        "baseline_p90_ms": statistics.quantiles(wall["bare"], n=10)[-1] * 1000,
        "hook_cpu_p50_ms": _p50(cpu["hook"]),
        "relay_p50_ms": _p50(wall["relay"]),
        "user_p50_ms": _p50(wall["user"]),
        "relay_vs_hook_p50": _p50(wall["relay"]) / _p50(wall["user"]),
        "relay_cpu_vs_hook_p50": _p50(cpu["relay"]) / max(_p50(cpu["user"]), 1e-9),
        "launcher_p50_ms": _p50(wall["launcher"]),
        "launcher_ratio_p50": _p50(wall["launcher"]) / _p50(wall["bare"]),
        "launcher_cpu_p50_ms": _p50(cpu["launcher"]),
        "portable_p50_ms": _p50(wall["portable"]),
        "portable_ratio_p50": _p50(wall["portable"]) / _p50(wall["bare"]),
        # the same per payload (rounds rotate over them): a shell command that many rules
        # look at costs more than a patch
        "portable_ratio_by_payload": {
            name: _p50(wall["portable"][k :: len(data)]) / _p50(wall["bare"])
            for k, name in enumerate(PAYLOAD_NAMES)
        },
        "baseline_cpu_p50_ms": _p50(cpu["bare"]),
        "cpu_ratio_p50": _p50(cpu["hook"]) / max(_p50(cpu["bare"]), 1e-9),
        "audit_records": audit_lines,
    }


def in_process(events: int, rules: int) -> dict[str, float]:
    policy = compile_sources(
        [("project", "bench.yaml", policy_text(rules).encode())], trust=Trust.everything_trusted()
    )
    if policy["errors"]:
        raise SystemExit(f"policy errors: {policy['errors'][:3]}")
    samples = [json.loads(p) for p in payloads("/work/project")]
    env = {"HOME": "/home/bench", "CI": "true"}
    times: list[float] = []
    cpu: list[float] = []
    state = RetryState()
    for index in range(events):
        payload = samples[index % len(samples)]
        started = time.perf_counter()
        started_cpu = time.thread_time()
        decide(payload, policy, None, env, now=0.0, state=state)
        cpu.append(time.thread_time() - started_cpu)
        times.append(time.perf_counter() - started)
    return {
        "rules": rules + 1,
        "events": events,
        "p50_ms": statistics.median(times) * 1000,
        "p90_ms": statistics.quantiles(times, n=10)[-1] * 1000,
        "mean_ms": statistics.fmean(times) * 1000,
        "cpu_p50_ms": statistics.median(cpu) * 1000,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rounds", type=int, default=100, help="cold runs per contender")
    parser.add_argument("--events", type=int, default=2000, help="in-process events")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    cold_figures = cold(args.rounds, 199)
    warm_figures = in_process(args.events, 999)
    if args.json:
        print(json.dumps({"cold": cold_figures, "in_process": warm_figures}, indent=2))
        return 0
    c, w = cold_figures, warm_figures
    print(f"cold `hookwise hook`, {c['rules']} rules, {c['rounds']} runs each, interleaved")
    print(
        f"  hookwise hook          p50 {c['hook_p50_ms']:7.2f} ms  p90 {c['hook_p90_ms']:7.2f} ms"
        f"  CPU p50 {c['hook_cpu_p50_ms']:6.2f} ms"
    )
    print(
        f"  python -I -S -c pass   p50 {c['baseline_p50_ms']:7.2f} ms  p90 "
        f"{c['baseline_p90_ms']:7.2f} ms  CPU p50 {c['baseline_cpu_p50_ms']:6.2f} ms"
    )
    print(
        f"  run_hook.py (--direct) p50 {c['launcher_p50_ms']:7.2f} ms"
        f"                   CPU p50 {c['launcher_cpu_p50_ms']:6.2f} ms"
    )
    print(f"  registered command     p50 {c['portable_p50_ms']:7.2f} ms")
    print(f"  python -c pass (site)  p50 {c['site_p50_ms']:7.2f} ms")
    print(
        f"  hookwise hook, settings.approvals set (events that do not ask) p50 "
        f"{c['relay_p50_ms']:7.2f} ms: {c['relay_vs_hook_p50']:.3f}x the same hook and files "
        f"without it ({c['user_p50_ms']:.2f} ms; CPU {c['relay_cpu_vs_hook_p50']:.3f}x; "
        "target: 1.0, nothing paid)"
    )
    print(
        f"  console script ratio p50 {c['ratio_p50']:.3f}; CPU ratio {c['cpu_ratio_p50']:.3f};"
        f" the interpreter's own site setup alone: {c['site_ratio_p50']:.3f}"
    )
    print(f"  python -I -S run_hook.py (install --direct) ratio p50 {c['launcher_ratio_p50']:.3f}")
    print(
        "  registered command (what `hookwise install` writes, through the host's sh -c: the "
        f"per-user launcher and its snapshot) ratio p50 {c['portable_ratio_p50']:.3f} "
        "(target <= 1.5)"
    )
    print(
        "    per payload: "
        + ", ".join(f"{k} {v:.3f}" for k, v in c["portable_ratio_by_payload"].items())
    )
    print(f"in-process decide(), {w['rules']} rules, {w['events']} events")
    print(
        f"  p50 {w['p50_ms']:.3f} ms   p90 {w['p90_ms']:.3f} ms   mean {w['mean_ms']:.3f} ms"
        f"   CPU p50 {w['cpu_p50_ms']:.3f} ms   (target p50 <= 1 ms)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
