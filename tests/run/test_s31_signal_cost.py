"""Red team s30 run #4: a process that ran the registered command once is a host for the
rest of its life, and every signal decision read the ``children`` file of each of its
threads: 3000 threads made a decision 18 times slower, a queue every hook's exec waits in.
A decision now reads at most :data:`HOST_THREADS` threads of a process (past it, the main
thread's, where Node and Python fork) and :data:`THREADS_READ` in all; a signal it cannot
account for is refused while a hook runs, and said.

Real processes: hosts of 300 and 1,200 threads (each with a copy forked by its main thread,
not exec'd yet), a running hook, and senders; the cost is counted in files read."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hookwise.run import hook_output
from hookwise.run.signal_guard import HOST_THREADS, Refusal, SignalGuard

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="/proc")

SIGTERM = 15

# argv: THREADS. Starts the threads (small stacks), forks a copy from the main thread that
# never execs, and prints the copy's pid once every thread runs.
HOST = textwrap.dedent(
    """
    import os, sys, threading, time
    threading.stack_size(64 * 1024)
    gate = threading.Event()
    for _ in range(int(sys.argv[1])):
        threading.Thread(target=gate.wait, daemon=True).start()
    copy = os.fork()
    if copy == 0:
        time.sleep(120)
        os._exit(0)
    print(copy, flush=True)
    time.sleep(120)
    """
)


class Host:
    def __init__(self, tmp_path: Path, threads: int) -> None:
        script = tmp_path / "host.py"
        script.write_text(HOST)
        self.proc = subprocess.Popen(
            [sys.executable, str(script), str(threads)], stdout=subprocess.PIPE, text=True
        )
        assert self.proc.stdout is not None
        self.copy = int(self.proc.stdout.readline())
        self.pid = self.proc.pid

    def end(self) -> None:
        for pid in (self.copy, self.pid):
            try:
                os.kill(pid, 9)
            except OSError:
                continue
        self.proc.wait()


@pytest.fixture
def procs(tmp_path: Path) -> Iterator[dict[str, Any]]:
    made: dict[str, Any] = {"hosts": [], "sleepers": []}

    def host(threads: int) -> Host:
        made["hosts"].append(Host(tmp_path, threads))
        return made["hosts"][-1]

    def sleeper() -> subprocess.Popen[bytes]:
        made["sleepers"].append(subprocess.Popen(["sleep", "120"]))
        return made["sleepers"][-1]

    made["host"], made["sleeper"] = host, sleeper
    yield made
    for one in made["hosts"]:
        one.end()
    for proc in made["sleepers"]:
        proc.kill()
        proc.wait()


def _guard(host: int, hook: int) -> tuple[SignalGuard, list[Refusal]]:
    refused: list[Refusal] = []
    guard = SignalGuard(refused.append)
    guard.hosts[host] = os.pidfd_open(host)
    guard.hooks[hook] = os.pidfd_open(hook)
    return guard, refused


def _children_read(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    counted = [0]

    def counting(path: Any, *args: Any, **kwargs: Any) -> Any:
        if str(path).endswith("/children"):
            counted[0] += 1
        return open(path, *args, **kwargs)

    monkeypatch.setattr(hook_output, "open", counting, raising=False)
    return counted


def test_a_decisions_cost_does_not_grow_with_a_hosts_threads(
    procs: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hosts of 300 and 1,200 threads: the old guard read 301 and 1,201 ``children``
    files a decision; this one reads the same few, and still protects each host's copy."""
    costs = []
    for threads in (300, 1200):
        host = procs["host"](threads)
        hook, sender, other = procs["sleeper"](), procs["sleeper"](), procs["sleeper"]()
        guard, refused = _guard(host.pid, hook.pid)
        counted = _children_read(monkeypatch)
        answer = guard.decide("kill", [other.pid, SIGTERM, 0, 0, 0, 0], sender.pid)
        monkeypatch.undo()
        costs.append(counted[0])
        assert not answer.go_on  # (a copy of the host it could not read: refused)
        copy_answer = guard.decide("kill", [host.copy, SIGTERM, 0, 0, 0, 0], sender.pid)
        assert not copy_answer.go_on
        assert [r.target for r in refused] == [host.copy]
    assert costs[1] <= costs[0], costs
    assert costs[1] <= HOST_THREADS, costs


def test_an_unread_host_refuses_only_while_a_hook_runs_and_says_why(
    procs: dict[str, Any],
) -> None:
    """With no hook running the decision goes on (nothing to protect but copies, and the
    main thread's are read); with one, a signal it cannot account for is refused, counted
    and said; a host may still end its own copy (its ancestor)."""
    host = procs["host"](1200)
    hook, sender, other = procs["sleeper"](), procs["sleeper"](), procs["sleeper"]()
    guard, _refused = _guard(host.pid, hook.pid)
    assert not guard.decide("kill", [other.pid, SIGTERM, 0, 0, 0, 0], sender.pid).go_on
    assert guard.refused_unaccounted == 1
    assert guard.unaccounted is not None and f"pid {host.pid}" in guard.unaccounted
    assert guard.decide("kill", [host.copy, SIGTERM, 0, 0, 0, 0], host.pid).go_on
    hook.kill()
    hook.wait()
    assert guard.decide("kill", [other.pid, SIGTERM, 0, 0, 0, 0], sender.pid).go_on


def test_a_host_of_few_threads_is_read_whole(procs: dict[str, Any]) -> None:
    """A real host's threads (Node's dozen, a Rust runtime's one per core) are all read:
    a copy forked by any of them is protected, and other signals go on."""
    host = procs["host"](40)
    hook, sender, other = procs["sleeper"](), procs["sleeper"](), procs["sleeper"]()
    guard, refused = _guard(host.pid, hook.pid)
    assert guard.decide("kill", [other.pid, SIGTERM, 0, 0, 0, 0], sender.pid).go_on
    assert not guard.decide("kill", [host.copy, SIGTERM, 0, 0, 0, 0], sender.pid).go_on
    assert guard.unaccounted is None
    assert [r.target for r in refused] == [host.copy]
