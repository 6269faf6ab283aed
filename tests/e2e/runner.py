"""Run one matrix cell through one real CLI, offline, and print what happened.

    python -m tests.e2e.runner CLI '<cell JSON>' [--keep DIR]

The run happens in a fresh directory (HOME, TMPDIR, project) with the fake model in this
process on 127.0.0.1. ``run_cell`` starts this module in a network namespace that has only
loopback (``unshare -n``, or ``unshare -r -n`` without root) when the machine allows it, so
any connection that is not to 127.0.0.1 fails at once; where namespaces are not allowed it
runs without one (the CLIs are configured to contact only 127.0.0.1) and says so in the
record (``offline: "config"``).

The printed record: cell, cli, cli_version, event, answer, observed (observe.py),
event_args (the event's arguments as the hook received them, for `hookwise fire`),
hook_input_keys, exit_code, seconds, offline.
"""

from __future__ import annotations

import argparse
import fcntl
import functools
import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.e2e import clis
from tests.e2e.fake_model import ESCALATE_VARIABLE, FakeModel
from tests.e2e.matrix import Cell
from tests.e2e.observe import event_args, observe, read_jsonl

ROOT = Path(__file__).resolve().parents[2]
CLI_TIMEOUT = 90.0


def bring_loopback_up() -> None:
    """``ip link set lo up`` without iproute2 (a new network namespace starts with lo down)."""
    siocgifflags, siocsifflags, iff_up = 0x8913, 0x8914, 0x1
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        request = struct.pack("16sH", b"lo", 0)
        flags = struct.unpack("16sH", fcntl.ioctl(s, siocgifflags, request)[:18])[1]
        fcntl.ioctl(s, siocsifflags, struct.pack("16sH", b"lo", flags | iff_up))


def run_bounded(
    argv: list[str], cwd: Path, env: dict[str, str], timeout: float
) -> tuple[bytes, bytes, int | None, bool]:
    """Run argv in its own process group; on timeout kill the whole group (hooks included)."""
    proc = subprocess.Popen(
        argv,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
        return stdout, stderr, proc.returncode, False
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        stdout, stderr = proc.communicate()
        return stdout, stderr, None, True


def run_here(cli: str, cell: Cell, root: Path, timeout: float | None = None) -> dict[str, Any]:
    """Run ``cell`` through ``cli`` in this process's network; artifacts go under ``root``."""
    timeout = timeout or cell.limit_s or CLI_TIMEOUT
    layout = clis.Layout(root)
    command = clis.hook_command(cell.answer)
    if cell.event == "PermissionRequest":
        # the fake model (in this process) asks to leave the sandbox, so Codex asks for
        # approval; Claude Code asks because Bash is not allowed (clis.write_project_hooks)
        os.environ[ESCALATE_VARIABLE] = "1"
    with FakeModel() as fake:
        argv = clis.prepare(
            cli, layout, cell.event, command, fake.url, clis.hook_timeout_s(cell.answer)
        )
        env = clis.environment(cli, layout, fake.url)
        started = time.monotonic()
        stdout, stderr, code, timed_out = run_bounded(argv, layout.proj, env, timeout)
        seconds = time.monotonic() - started
        requests = list(fake.requests)
    # GitHub Copilot CLI unpacks itself (~230 MB) under HOME on its first start
    shutil.rmtree(layout.home / ".cache" / "copilot" / "pkg", ignore_errors=True)
    (root / "cli-stdout.txt").write_bytes(stdout)
    (root / "cli-stderr.txt").write_bytes(stderr)
    with (root / "requests.jsonl").open("w", encoding="utf-8") as f:
        for request in requests:
            f.write(json.dumps(request) + "\n")
    hook_calls = read_jsonl(layout.hook_log)
    observed = observe(
        cli=cli,
        event=cell.event,
        requests=requests,
        hook_calls=hook_calls,
        proj=layout.proj,
        stdout=stdout.decode("utf-8", "replace"),
        stderr=stderr.decode("utf-8", "replace"),
        replacements={str(root): "$RUN", command: "$HOOK_COMMAND"},
        timed_out=timed_out,
    )
    first_input = hook_calls[0]["input"] if hook_calls else {}
    normalise = json.loads(
        json.dumps(event_args(cell.event, first_input)).replace(str(root), "$RUN")
    )
    return {
        "cell": cell.id,
        "cli": cli,
        "cli_version": clis.installed_version(cli),
        "event": cell.event,
        "note": cell.note,
        "answer": cell.answer,
        "observed": observed,
        "event_args": normalise,
        "hook_input_keys": sorted(first_input) if isinstance(first_input, dict) else [],
        "exit_code": code,
        "timed_out": timed_out,
        "seconds": round(seconds, 2),
    }


@functools.cache
def namespace_prefix() -> tuple[str, ...] | None:
    """The command prefix that gives a loopback-only network namespace, or None.

    None also when HOOKWISE_E2E_NETNS=0: the CLIs then run in the machine's network, still
    configured to contact only 127.0.0.1.
    """
    unshare = shutil.which("unshare")
    if unshare is None or os.environ.get("HOOKWISE_E2E_NETNS") == "0":
        return None
    prefix = (unshare, "-n") if os.geteuid() == 0 else (unshare, "-r", "-n")
    probe = [*prefix, sys.executable, "-c", "import tests.e2e.runner as r; r.bring_loopback_up()"]
    try:
        ok = subprocess.run(probe, cwd=ROOT, capture_output=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return prefix if ok.returncode == 0 else None


def run_cell(cli: str, cell: Cell, keep: Path | None = None) -> dict[str, Any]:
    """Run ``cell`` through ``cli`` in a child process (in a namespace when possible)."""
    prefix = namespace_prefix()
    argv = [sys.executable, "-m", "tests.e2e.runner", cli, json.dumps(cell.as_json())]
    if prefix:
        argv = [*prefix, *argv, "--namespace"]
    if keep is not None:
        argv += ["--keep", str(keep)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        argv,
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=(cell.limit_s or CLI_TIMEOUT) + 60,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"runner failed for {cli}/{cell.id}:\n{proc.stderr[-4000:]}")
    record: dict[str, Any] = json.loads(proc.stdout)
    record["offline"] = "netns" if prefix else "config"
    return record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cli", choices=clis.PACKAGES)
    parser.add_argument("cell", help="the cell as JSON: {id, event, answer, note}")
    parser.add_argument("--keep", type=Path, help="keep the run directory under this directory")
    parser.add_argument("--namespace", action="store_true", help="bring loopback up first")
    args = parser.parse_args(argv)
    if args.namespace:
        bring_loopback_up()
    cell = Cell.from_json(json.loads(args.cell))
    problem = clis.install_problem(args.cli)
    if problem:
        print(problem, file=sys.stderr)
        return 3
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
        root = Path(tempfile.mkdtemp(prefix=f"{args.cli}-{cell.id}-", dir=args.keep))
        print(json.dumps(run_here(args.cli, cell, root)))
        return 0
    with tempfile.TemporaryDirectory(prefix=f"hookwise-e2e-{args.cli}-") as tmp:
        print(json.dumps(run_here(args.cli, cell, Path(tmp))))
    return 0


if __name__ == "__main__":
    sys.exit(main())


def record_runs(
    cli: str,
    runs: dict[str, Callable[[Path], dict[str, Any]]],
    *,
    description: str,
    out: Path,
    argv: list[str] | None = None,
) -> int:
    """The command line of a recorder of named runs (``record_*_handlers``): each run in a
    fresh directory (removed unless ``--keep``), its record written to ``<out>/<name>.json``."""
    import argparse
    import json
    import shutil
    import tempfile

    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--out", type=Path, default=out)
    parser.add_argument("--only", action="append", choices=sorted(runs))
    parser.add_argument("--keep", action="store_true", help="keep the run directories")
    args = parser.parse_args(argv)
    problem = clis.install_problem(cli)
    if problem:
        raise SystemExit(problem)
    args.out.mkdir(parents=True, exist_ok=True)
    for name in args.only or runs:
        tmp = tempfile.mkdtemp(prefix=f"hookwise-{cli}-{name}-")
        record = runs[name](Path(tmp))
        (args.out / f"{name}.json").write_text(json.dumps(record, indent=1) + "\n")
        fired = [f.get("event") for f in record.get("fired") or [] if isinstance(f, dict)]
        print(f"{name}: exit {record.get('exit_code')} in {record.get('seconds')} s {fired}")
        if args.keep:
            print(f"  kept: {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0
