"""Host dispatch benchmark: N BeforeTool events, each with 3 parallel hooks running `true`.

Three contenders, measured in the same run, rounds interleaved so that machine noise
hits all of them alike:

  (a) hookwise   - the events through hookwise (HookSystem.fire_sync when it imports,
                   else the process layer with the same stdin JSON and environment);
  (b) reference  - the real Gemini CLI engine (@google/gemini-cli-core, through the
                   oracle driver in --batch mode), its startup measured and subtracted;
  (c) floor      - the same 3 x N `bash -c true` processes spawned straight from Python,
                   3 at a time, no pipes and no protocol: os.posix_spawn (the fastest
                   way Python has) and, for comparison, subprocess.Popen.

Targets: hookwise <= 0.5 x reference and <= 1.25 x floor.

    .venv/bin/python bench/host_dispatch.py [--events 1000] [--rounds 3] [--via auto] [--extra]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DEFAULT_ORACLE = REPO.parent / "shared" / "oracle" / "gemini"
HOOKS_PER_EVENT = 3
HOOK_COMMAND = "true"
SHELL = ("bash", "-c")
TOOL_ARGS: dict[str, Any] = {"tool_name": "run_shell_command", "tool_input": {"command": "ls -la"}}
SESSION_ID = "bench-session"


def hooks_object() -> dict[str, Any]:
    """Settings-style hooks: one BeforeTool group, 3 parallel hooks. Distinct names keep
    the engine's dedup (name:command) from merging them."""
    hooks = [
        {"type": "command", "command": HOOK_COMMAND, "name": f"bench-{i}"}
        for i in range(HOOKS_PER_EVENT)
    ]
    return {"BeforeTool": [{"matcher": "*", "hooks": hooks}]}


def controlled_env() -> dict[str, str]:
    """The environment the oracle gives hooks, so that all contenders spawn alike."""
    env = {
        k: os.environ[k]
        for k in ("PATH", "HOME", "USER", "LOGNAME", "SHELL", "TMPDIR")
        if k in os.environ
    }
    env["LANG"] = "C.UTF-8"
    env["SHLVL"] = "1"
    return env


# --- (a) hookwise --------------------------------------------------------------------


def hookwise_via_system(workdir: str, env: dict[str, str]) -> Callable[[int], int]:
    """The real hookwise path: HookSystem in the gemini-cli profile."""
    from hookwise.host.execute import ExecutionSettings
    from hookwise.host.system import HookSystem
    from hookwise.protocol.profiles import Profile

    execution = ExecutionSettings(profile=Profile.GEMINI_CLI, base_env=env, default_cwd=workdir)
    system = HookSystem.from_hooks(
        hooks_object(),
        profile=Profile.GEMINI_CLI,
        cwd=workdir,
        session_id=SESSION_ID,
        execution=execution,
    )

    def dispatch(events: int) -> int:
        failures = 0
        for _ in range(events):
            result = system.fire_sync("BeforeTool", dict(TOOL_ARGS))
            runs = result.runs
            failures += sum(1 for run in runs if not run.success)
            failures += HOOKS_PER_EVENT - len(runs)
        return failures

    return dispatch


def hookwise_via_dialect(dialect: str) -> Callable[[str, dict[str, str]], Callable[[int], int]]:
    """The same workload through the Claude Code or Codex dialect: PreToolUse, 3 hooks."""

    def build(workdir: str, env: dict[str, str]) -> Callable[[int], int]:
        from hookwise.host.execute import ExecutionSettings
        from hookwise.host.system import HookSystem

        hooks = {
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [
                        {"type": "command", "command": f"{HOOK_COMMAND} {i}"}
                        for i in range(HOOKS_PER_EVENT)
                    ],
                }
            ]
        }
        system = HookSystem.from_hooks(
            hooks,
            dialect=dialect,
            cwd=workdir,
            session_id=SESSION_ID,
            execution=ExecutionSettings(base_env=env, default_cwd=workdir),
        )
        args = {"tool_name": "Bash", "tool_input": dict(TOOL_ARGS["tool_input"])}

        def dispatch(events: int) -> int:
            failures = 0
            for _ in range(events):
                runs = system.fire_sync("PreToolUse", dict(args)).runs
                failures += sum(1 for run in runs if not run.success)
                failures += HOOKS_PER_EVENT - len(runs)
            return failures

        return dispatch

    return build


def _process_specs(workdir: str, env: dict[str, str]) -> Callable[[], list[Any]]:
    """What HookSystem hands the process layer: stdin JSON and the engine's env."""
    from hookwise.host.process import ProcessSpec

    hook_env = {
        **env,
        "GEMINI_PROJECT_DIR": workdir,
        "GEMINI_PLANS_DIR": os.path.join(workdir, "plans"),
        "GEMINI_CWD": workdir,
        "GEMINI_SESSION_ID": SESSION_ID,
        "CLAUDE_PROJECT_DIR": workdir,
    }

    def specs() -> list[Any]:
        now = time.time()
        stamp = (
            time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + f".{int(now * 1000) % 1000:03d}Z"
        )
        payload = {
            "session_id": SESSION_ID,
            "transcript_path": "",
            "cwd": workdir,
            "hook_event_name": "BeforeTool",
            "timestamp": stamp,
            **TOOL_ARGS,
        }
        stdin = json.dumps(payload, separators=(",", ":")).encode()
        return [
            ProcessSpec(argv=(*SHELL, HOOK_COMMAND), stdin=stdin, env=hook_env, cwd=workdir)
            for _ in range(HOOKS_PER_EVENT)
        ]

    return specs


def hookwise_via_process(workdir: str, env: dict[str, str]) -> Callable[[int], int]:
    """The process layer alone (sync API), with the protocol's stdin and env."""
    from hookwise.host.process import run_processes

    specs = _process_specs(workdir, env)

    def dispatch(events: int) -> int:
        failures = 0
        for _ in range(events):
            results = run_processes(specs(), HOOKS_PER_EVENT)
            failures += sum(1 for r in results if r.exit_code != 0)
        return failures

    return dispatch


def hookwise_via_process_async(workdir: str, env: dict[str, str]) -> Callable[[int], int]:
    """The process layer alone (async API, one event loop for all events)."""
    from hookwise.host.process import arun_processes

    specs = _process_specs(workdir, env)

    async def run(events: int) -> int:
        failures = 0
        for _ in range(events):
            results = await arun_processes(specs(), HOOKS_PER_EVENT)
            failures += sum(1 for r in results if r.exit_code != 0)
        return failures

    def dispatch(events: int) -> int:
        return asyncio.run(run(events))

    return dispatch


VIAS: dict[str, Callable[[str, dict[str, str]], Callable[[int], int]]] = {
    "system": hookwise_via_system,
    "process": hookwise_via_process,
    "process-async": hookwise_via_process_async,
    "claude": hookwise_via_dialect("claude"),
    "codex": hookwise_via_dialect("codex"),
}


def make_hookwise(via: str, workdir: str, env: dict[str, str]) -> tuple[str, Callable[[int], int]]:
    """Pick the hookwise path; `auto` is HookSystem when it imports, else the process layer."""
    if via != "auto":
        return via, VIAS[via](workdir, env)
    try:
        dispatch = hookwise_via_system(workdir, env)
        dispatch(1)  # it must also work, not only import
        return "system", dispatch
    except Exception as exc:  # the facade is still being written
        print(
            f"note: HookSystem unavailable ({type(exc).__name__}: {exc}); "
            "measuring the process layer",
            file=sys.stderr,
        )
        return "process", hookwise_via_process(workdir, env)


# --- (c) the floor -------------------------------------------------------------------


def floor_posix_spawn(workdir: str, env: dict[str, str]) -> Callable[[int], int]:
    """3 x posix_spawn of the resolved bash, then 3 x waitpid. Runs in cwd = workdir."""
    bash = shutil.which(SHELL[0], path=env.get("PATH"))
    assert bash is not None, "bash not found"
    argv = [*SHELL, HOOK_COMMAND]

    def dispatch(events: int) -> int:
        failures = 0
        for _ in range(events):
            pids = [os.posix_spawn(bash, argv, env) for _ in range(HOOKS_PER_EVENT)]
            for pid in pids:
                failures += os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) != 0
        return failures

    return dispatch


def floor_popen(workdir: str, env: dict[str, str]) -> Callable[[int], int]:
    """3 x subprocess.Popen(argv, cwd, env), then 3 x wait: the everyday direct way."""
    argv = [*SHELL, HOOK_COMMAND]

    def dispatch(events: int) -> int:
        failures = 0
        for _ in range(events):
            procs = [subprocess.Popen(argv, env=env, cwd=workdir) for _ in range(HOOKS_PER_EVENT)]
            failures += sum(1 for p in procs if p.wait() != 0)
        return failures

    return dispatch


# --- (b) the reference engine --------------------------------------------------------


class Reference:
    """The oracle driver in --batch mode: one node process runs all N events."""

    def __init__(self, oracle: Path, mode: str, casedir: str) -> None:
        self.driver = oracle / "driver.mjs"
        self.mode = mode
        self.casedir = casedir

    @staticmethod
    def unavailable(oracle: Path) -> str | None:
        if shutil.which("node") is None:
            return "node is not on PATH"
        if not (oracle / "driver.mjs").is_file():
            return f"no oracle driver at {oracle / 'driver.mjs'} (set --oracle or HOOKWISE_ORACLE)"
        return None

    def _cases(self, events: int) -> str:
        path = os.path.join(self.casedir, f"cases-{events}.jsonl")
        if not os.path.exists(path):
            with open(path, "w") as f:
                for i in range(events):
                    case = {
                        "id": f"bench-{i}",
                        "event": "BeforeTool",
                        "hooks": hooks_object(),
                        "args": TOOL_ARGS,
                    }
                    f.write(json.dumps(case) + "\n")
        return path

    def run(self, events: int) -> tuple[float, int]:
        """Wall seconds of one batch of `events` cases, and the number of failed hooks."""
        argv = ["node", str(self.driver), "--batch"] + (["--fast"] if self.mode == "fast" else [])
        with open(self._cases(events), "rb") as stdin:
            started = time.perf_counter()
            proc = subprocess.run(argv, stdin=stdin, capture_output=True, check=False)
            wall = time.perf_counter() - started
        if proc.returncode != 0:
            raise RuntimeError(f"oracle failed ({proc.returncode}): {proc.stderr.decode()[-2000:]}")
        failures = 0
        lines = proc.stdout.splitlines()
        for line in lines:
            out = json.loads(line)
            results = out.get("results", [])
            failures += HOOKS_PER_EVENT - sum(1 for r in results if r.get("success"))
        failures += HOOKS_PER_EVENT * (events - len(lines))
        return wall, failures


# --- measuring -----------------------------------------------------------------------


def timed(dispatch: Callable[[int], int], events: int) -> tuple[float, float, int]:
    """Wall seconds, this process's CPU seconds (children excluded), failed hooks."""
    cpu = time.process_time()
    started = time.perf_counter()
    failures = dispatch(events)
    return time.perf_counter() - started, time.process_time() - cpu, failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=1000)
    parser.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="interleaved rounds; each figure is the median over rounds",
    )
    parser.add_argument(
        "--chunk",
        type=int,
        default=20,
        help="events per turn when contenders take turns within a round",
    )
    parser.add_argument(
        "--via",
        choices=["auto", *VIAS],
        default="auto",
        help="hookwise path (auto: HookSystem if available)",
    )
    parser.add_argument(
        "--extra", action="store_true", help="also time the process layer's sync and async APIs"
    )
    parser.add_argument(
        "--oracle", type=Path, default=Path(os.environ.get("HOOKWISE_ORACLE", DEFAULT_ORACLE))
    )
    parser.add_argument(
        "--oracle-mode",
        choices=["fast", "full"],
        default="fast",
        help="fast skips the engine's HookSystem wrapper: the cheaper reference",
    )
    parser.add_argument("--skip-reference", action="store_true")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = parser.parse_args(argv)

    workroot = tempfile.mkdtemp(prefix="hookwise-bench-")
    workdir = os.path.join(workroot, "project")
    os.makedirs(workdir)
    os.chdir(workdir)  # posix_spawn has no cwd argument: the floor runs where the hooks do
    env = controlled_env()
    try:
        via, hookwise = make_hookwise(args.via, workdir, env)
        contenders: dict[str, Callable[[int], int]] = {
            f"hookwise ({via})": hookwise,
            "floor (posix_spawn)": floor_posix_spawn(workdir, env),
            "floor (Popen)": floor_popen(workdir, env),
        }
        for name in ("claude", "codex"):  # the other dialects: same workload, same floor
            if name != via:
                contenders[f"hookwise ({name})"] = VIAS[name](workdir, env)
        if args.extra:
            for name in ("process", "process-async"):
                if name != via:
                    contenders[f"hookwise ({name})"] = VIAS[name](workdir, env)
        reference: Reference | None = None
        why_not = "--skip-reference" if args.skip_reference else Reference.unavailable(args.oracle)
        if why_not is None:
            reference = Reference(args.oracle, args.oracle_mode, workroot)
        else:
            print(f"reference engine skipped: {why_not}", file=sys.stderr)

        for dispatch in contenders.values():  # warm-up: imports, caches, page cache
            dispatch(min(20, args.events))

        # Each round runs all N events per contender, in chunks that take turns, so
        # that a burst of load from elsewhere on the machine hits every contender alike.
        walls: dict[str, list[float]] = {name: [] for name in contenders}
        cpus: dict[str, list[float]] = {name: [] for name in contenders}
        startup: list[float] = []
        ref_walls: list[float] = []
        failures: dict[str, int] = {}
        names = list(contenders)
        for round_no in range(args.rounds):
            for name in names:
                walls[name].append(0.0)
                cpus[name].append(0.0)
            done = 0
            turn = round_no
            while done < args.events:
                n = min(args.chunk, args.events - done)
                turn += 1
                for name in names[turn % len(names) :] + names[: turn % len(names)]:
                    wall, cpu, failed = timed(contenders[name], n)
                    walls[name][-1] += wall
                    cpus[name][-1] += cpu
                    failures[name] = failures.get(name, 0) + failed
                done += n
            if reference is not None:
                start_wall, _ = reference.run(1)
                wall, failed = reference.run(args.events)
                startup.append(start_wall)
                ref_walls.append(wall)
                failures["reference"] = failures.get("reference", 0) + failed
    finally:
        os.chdir(REPO)
        shutil.rmtree(workroot, ignore_errors=True)

    med = {name: statistics.median(w) for name, w in walls.items()}
    med_cpu = {name: statistics.median(c) for name, c in cpus.items()}
    hw_name = f"hookwise ({via})"
    hw = med[hw_name]
    floor = med["floor (posix_spawn)"]
    print(
        f"{args.events} BeforeTool events x {HOOKS_PER_EVENT} parallel `bash -c {HOOK_COMMAND}` "
        f"hooks; median of {args.rounds} interleaved rounds; {os.cpu_count()} CPUs"
    )
    print(
        f"{'contender':34} {'wall s':>8} {'ms/event':>9} {'x floor':>8} {'parent CPU ms/event':>20}"
    )
    for name, wall in med.items():
        print(
            f"{name:34} {wall:8.3f} {wall / args.events * 1000:9.3f} {wall / floor:8.3f} "
            f"{med_cpu[name] / args.events * 1000:20.3f}"
        )
    figures: dict[str, Any] = {
        "events": args.events,
        "rounds": args.rounds,
        "via": via,
        "wall_s": med,
        "parent_cpu_s": med_cpu,
        "hookwise_over_floor": hw / floor,
        "hookwise_over_floor_popen": hw / med["floor (Popen)"],
    }
    if ref_walls:
        ref = statistics.median(ref_walls)
        start = statistics.median(startup)
        ref_net = max(ref - start, 1e-9)
        print(
            f"{'reference (' + args.oracle_mode + ', whole run)':34} {ref:8.3f} "
            f"{ref / args.events * 1000:9.3f} {ref / floor:8.3f}"
        )
        print(
            f"{'reference (minus ' + format(start, '.2f') + ' s startup)':34} {ref_net:8.3f} "
            f"{ref_net / args.events * 1000:9.3f} {ref_net / floor:8.3f}"
        )
        figures.update(
            reference_wall_s=ref,
            reference_startup_s=start,
            hookwise_over_reference=hw / ref_net,
            hookwise_over_reference_whole_run=hw / ref,
        )
        print(
            f"hookwise / reference = {hw / ref_net:.3f}  (target <= 0.5; "
            f"{hw / ref:.3f} against the whole run)"
        )
    else:
        print("hookwise / reference: not measured (reference engine unavailable)")
    print(
        f"hookwise / floor     = {hw / floor:.3f}  (target <= 1.25; "
        f"{hw / med['floor (Popen)']:.3f} against the Popen floor)"
    )
    for name in ("claude", "codex"):
        key = f"hookwise ({name})"
        if key in med:
            print(f"hookwise {name} / floor = {med[key] / floor:.3f}  (same workload, same floor)")
    failed = {k: v for k, v in failures.items() if v}
    if failed:
        print(f"FAILED HOOKS (figures are not valid): {failed}")
    if args.json:
        print(json.dumps(figures))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
