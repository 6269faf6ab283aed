"""Signals inside a session (run/signal_guard.py), each sent for real: a hook cannot be
killed or stopped by a process that did not start it, and everything else an agent does with
signals still works."""

from __future__ import annotations

import json
import struct
import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.run import libc
from hookwise.run.signal_guard import SignalGuard, Stat, _s32, read_ids
from tests.run.test_redteam_run import Lab, lab, pytestmark
from tests.run.test_seccomp_filter import run

__all__ = ["lab", "pytestmark"]

# the host: a hook whose payload comes late (so it waits, alive), its pid in $H
SLOW_HOOK = (
    "(sleep 4; cat $R/payload.json) | hookwise hook --platform claude > $R/answer & H=$!; "
    "sleep 0.7; "
)
AFTER = 'wait $H; echo "HOOK-RC=$?"'

ATTACK = textwrap.dedent(
    """
    # a tool call's process, a sibling of the hook: tries each way to signal it
    import os, signal, subprocess, sys
    hook = int(sys.argv[1])
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)

    def tgkill(pid, tid, sig):
        if libc.syscall(TGKILL, pid, tid, sig) != 0:
            raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))

    def attempt(name, send):
        try:
            send()
        except PermissionError:
            print(name, "REFUSED", flush=True)
        except OSError as exc:
            print(name, "ERROR", exc.errno, flush=True)
        else:
            print(name, "SENT", flush=True)

    for name in sys.argv[2:]:
        if name == "kill":
            attempt(name, lambda: os.kill(hook, signal.SIGKILL))
        elif name == "stop":
            attempt(name, lambda: os.kill(hook, signal.SIGSTOP))
        elif name == "term-thread":
            attempt(name, lambda: tgkill(hook, hook, signal.SIGTERM))
        elif name == "group":
            attempt(name, lambda: os.kill(0, signal.SIGWINCH))  # the agent's group: the hook's
        elif name == "minus-group":
            attempt(name, lambda: os.kill(-os.getpgid(hook), signal.SIGWINCH))
        elif name == "all":
            attempt(name, lambda: os.kill(-1, signal.SIGWINCH))
        elif name == "own-group":
            signal.signal(signal.SIGWINCH, signal.SIG_IGN)
            os.setpgid(0, 0)
            attempt(name, lambda: os.kill(0, signal.SIGWINCH))
        elif name == "pidfd":
            fd = os.pidfd_open(hook)
            attempt(name, lambda: signal.pidfd_send_signal(fd, signal.SIGKILL))
        elif name == "pidfd-child":
            child = subprocess.Popen(["sleep", "30"])
            fd = os.pidfd_open(child.pid)
            attempt(name, lambda: signal.pidfd_send_signal(fd, signal.SIGTERM))
            print("child ended by", child.wait(), flush=True)
        elif name == "setown":
            import fcntl
            r, w = os.pipe()
            attempt(name, lambda: fcntl.fcntl(r, fcntl.F_SETOWN, hook))
        elif name == "setown-self":
            import fcntl
            r, w = os.pipe()
            attempt(name, lambda: fcntl.fcntl(r, fcntl.F_SETOWN, os.getpid()))
    """
)


def _records(lab: Lab) -> list[dict[str, object]]:
    log = lab.home / ".local" / "state" / "hookwise" / "audit.jsonl"
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def _attack(lab: Lab, *names: str) -> tuple[str, str]:
    from hookwise.run.arch import MACHINE, SIGNAL_CALLS

    tgkill = SIGNAL_CALLS[MACHINE][0]["tgkill"][0]
    (lab.root / "attack.py").write_text(ATTACK.replace("TGKILL", str(tgkill)))
    (lab.root / "payload.json").write_text(lab.payload())
    script = SLOW_HOOK + f"python3 $R/attack.py $H {' '.join(names)}; " + AFTER
    result = lab.run(script)
    return result.stdout, result.stderr


def test_a_sibling_cannot_kill_stop_or_pidfd_a_hook(lab: Lab) -> None:
    """kill, a stop, a thread's signal and pidfd_send_signal to a hook from a process that did
    not start it: EPERM; the hook answers its deny, and each refusal is in the log."""
    out, err = _attack(lab, "kill", "stop", "term-thread", "pidfd")
    for name in ("kill", "stop", "term-thread", "pidfd"):
        assert f"{name} REFUSED" in out, (out, err)
    assert "HOOK-RC=2" in out, (out, err)
    assert '"deny"' in (lab.root / "answer").read_text()
    refused = [r for r in _records(lab) if r.get("event") == "signal_refused"]
    calls = {(r["call"], r["signal"]) for r in refused}
    assert {("kill", 9), ("kill", 19), ("tgkill", 15), ("pidfd_send_signal", 9)} <= calls
    assert all(r["command"] == "python3" and r["target_pid"] for r in refused), refused
    assert "refused 4 signal(s) to hooks" in err, err
    assert not [r for r in _records(lab) if r.get("event") == "hook_lost"]


def test_group_and_broadcast_signals_are_refused_only_while_they_would_hit_a_hook(
    lab: Lab,
) -> None:
    """kill(0), kill(-pgid) and kill(-1) reach the hook (one process group here, as a
    non-interactive shell keeps its jobs): refused; the same from a group of its own, or
    kill(-1) once no hook runs, go through."""
    out, err = _attack(lab, "group", "minus-group", "all", "own-group")
    for name in ("group", "minus-group", "all"):
        assert f"{name} REFUSED" in out, (out, err)
    assert "own-group SENT" in out, (out, err)
    assert "HOOK-RC=2" in out, (out, err)
    # no hook running: a broadcast of a harmless signal is the agent's own business
    result = lab.run(
        "trap '' WINCH; sleep 5 & python3 -c 'import os, signal; "
        'os.kill(-1, signal.SIGWINCH); print("ALL-SENT")\'; kill %1'
    )
    assert "ALL-SENT" in result.stdout, (result.stdout, result.stderr)


def test_a_tool_may_signal_its_own_child_and_name_itself_as_an_owner(lab: Lab) -> None:
    """pidfd_send_signal to its own child (sent by the supervisor through the sender's own
    pidfd) and F_SETOWN naming itself work; F_SETOWN naming a hook does not."""
    out, err = _attack(lab, "setown", "setown-self", "pidfd-child")
    assert "pidfd-child SENT" in out and "child ended by -15" in out, (out, err)
    assert "setown-self SENT" in out, (out, err)
    assert "setown REFUSED" in out, (out, err)
    assert "HOOK-RC=2" in out, (out, err)


def test_an_agents_ordinary_signals_still_work(lab: Lab) -> None:
    """Its own background jobs (builtin kill, `kill %1`, /bin/kill of a sibling that exec'd),
    `timeout`, and a Go-like storm of tgkill(SIGURG) from threads of one process."""
    storm = textwrap.dedent(
        """
        import os, signal, threading
        got = []
        signal.signal(signal.SIGURG, lambda *_: got.append(1))
        signal.signal(signal.SIGUSR1, lambda *_: got.append(2))
        def preempt():
            for _ in range(2000):
                signal.pthread_kill(threading.main_thread().ident, signal.SIGURG)
        threads = [threading.Thread(target=preempt) for _ in range(4)]
        for t in threads: t.start()
        for t in threads: t.join()
        for _ in range(50):
            os.kill(os.getpid(), signal.SIGUSR1)
        print("STORM", 1 in got, got.count(2) > 0)
        """
    )
    (lab.root / "storm.py").write_text(storm)
    result = lab.run(
        "sleep 100 & kill $!; wait $!; echo JOB=$?; "
        "sleep 100 & kill %1; wait; echo PERCENT=done; "
        "sleep 100 & /bin/kill -TERM $!; wait $!; echo BINKILL=$?; "
        "timeout 1 sleep 5; echo TIMEOUT=$?; "
        "python3 $R/storm.py"
    )
    out = result.stdout
    assert "JOB=143" in out and "PERCENT=done" in out and "BINKILL=143" in out, result
    assert "TIMEOUT=124" in out, result
    assert "STORM True True" in out, result
    assert "refused" not in result.stderr, result.stderr


def test_a_host_ending_its_own_hook_is_allowed_and_reported_lost(lab: Lab) -> None:
    """The host's `timeout` ends a hook that did not answer in time: allowed (an ancestor),
    and the hook is a lost one, as before."""
    (lab.root / "payload.json").write_text(lab.payload())
    result = lab.run(
        "(sleep 3; cat $R/payload.json) | timeout 1 hookwise hook --platform claude; "
        'echo "HOOK-RC=$?"'
    )
    assert "HOOK-RC=124" in result.stdout, (result.stdout, result.stderr)
    lost = [r for r in _records(lab) if r.get("event") == "hook_lost"]
    assert len(lost) == 1, (lost, result.stderr[-3000:], _records(lab)[-5:])
    assert "1 hook(s) started and never answered" in result.stderr
    assert "refused" not in result.stderr


@pytest.mark.parametrize("machine", sorted(libc._ARCH))
def test_the_notifier_passes_what_never_hurts_and_hands_the_rest_over(machine: str) -> None:
    """On the BPF interpreter of the session filter's test, every ABI: signal 0 and a
    thread's SIGURG pass, other signals and F_SETOWN go to the listener."""
    from hookwise.run.arch import EXEC_CALLS, SIGNAL_CALLS

    numbers = libc._ARCH[machine]
    program = libc.exec_notifier_program(numbers, machine)
    notify, allow = 0x7FC00000, 0x7FFF0000
    for abi, calls, execs in (
        (numbers.native, SIGNAL_CALLS[machine][0], EXEC_CALLS[machine][0]),
        (numbers.compat, SIGNAL_CALLS[machine][1], EXEC_CALLS[machine][1]),
    ):
        a = abi.audit
        assert run(program, a, execs[0]) == notify and run(program, a, execs[1]) == notify
        for name, at in (("kill", 1), ("rt_sigqueueinfo", 1), ("pidfd_send_signal", 1)):
            assert run(program, a, calls[name][0], _with(at, 9)) == notify
            assert run(program, a, calls[name][0], _with(at, 0)) == allow
            assert run(program, a, calls[name][0], _with(at, 23)) == notify  # (not a thread's)
        for name, at in (("tkill", 1), ("tgkill", 2)):
            assert run(program, a, calls[name][0], _with(at, 23)) == allow  # SIGURG
            assert run(program, a, calls[name][0], _with(at, 0)) == allow
            assert run(program, a, calls[name][0], _with(at, 19)) == notify
        assert run(program, a, calls["rt_tgsigqueueinfo"][0], _with(2, 15)) == notify
        for number in calls["fcntl"]:
            assert run(program, a, number, (3, libc.F_SETOWN, 42)) == notify
            assert run(program, a, number, (3, libc.F_SETOWN_EX, 0)) == notify
            assert run(program, a, number, (3, 1, 0)) == allow  # F_GETFD
        assert run(program, a, calls["ioctl"][0], (3, libc.FIOSETOWN, 0)) == notify
        assert run(program, a, calls["ioctl"][0], (3, 0x5401, 0)) == allow
        assert run(program, a, abi.ptrace, (0,)) == allow
        # scheduling: another process's goes over (red team s26 #1), one's own passes
        for name in ("sched_setparam", "sched_setscheduler", "sched_setaffinity", "sched_setattr"):
            assert run(program, a, calls[name][0], (42, 0)) == notify
            assert run(program, a, calls[name][0], (0, 0)) == allow
        prio, ioprio = calls["setpriority"][0], calls["ioprio_set"][0]
        assert run(program, a, prio, (0, 0, 19)) == allow  # PRIO_PROCESS, itself (nice)
        assert run(program, a, prio, (0, 42, 19)) == notify
        assert run(program, a, prio, (1, 0, 19)) == notify  # PRIO_PGRP, its group
        assert run(program, a, prio, (2, 0, 19)) == notify  # PRIO_USER: every process
        assert run(program, a, ioprio, (1, 0, 0x6000)) == allow  # IOPRIO_WHO_PROCESS, itself
        assert run(program, a, ioprio, (1, 42, 0x6000)) == notify
        assert run(program, a, ioprio, (3, 0, 0x6000)) == notify
    assert run(program, 0x12345678, 62, (1, 9)) == allow  # (an ABI the session refuses)


@pytest.mark.parametrize("machine", sorted(libc._ARCH))
def test_the_session_filter_refuses_a_listener_of_its_own(machine: str) -> None:
    """A filter with a listener of its own, installed inside, would be notified instead of
    the session's (the newest wins): seccomp(..., NEW_LISTENER) is refused."""
    from hookwise.run.arch import COMPAT_SECCOMP, EXEC_CALLS

    numbers = libc._ARCH[machine]
    program = libc.filter_program(numbers, machine)
    eperm, allow = 0x00050001, 0x7FFF0000
    for abi, seccomp in (
        (numbers.native, EXEC_CALLS[machine][2]),
        (numbers.compat, COMPAT_SECCOMP[machine]),
    ):
        assert run(program, abi.audit, seccomp, (1, libc.SECCOMP_FILTER_FLAG_NEW_LISTENER)) == eperm
        assert run(program, abi.audit, seccomp, (1, 8 | 1)) == eperm
        assert run(program, abi.audit, seccomp, (1, 0)) == allow  # a filter of its own
        assert run(program, abi.audit, seccomp, (1, 1)) == allow  # TSYNC


def _with(index: int, value: int) -> tuple[int, ...]:
    args = [0, 0, 0, 0]
    args[index] = value
    args[0] = args[0] or 7
    return tuple(args)


def test_status_ids_and_signed_arguments() -> None:
    """The ids of /proc/self/status, and a register's low 32 bits read as the kernel's int."""
    ids = read_ids("/proc/self/status")
    assert ids["Tgid"] and ids["NSpid"][0] == ids["Tgid"][0]
    assert _s32(0xFFFFFFFF) == -1 and _s32(0xFFFFFFFF00000005) == 5 and _s32(1) == 1
    assert _s32(struct.unpack("<I", struct.pack("<i", -(2**31)))[0]) == -(2**31)


_COMM = st.text(st.characters(blacklist_characters="\0\n"), max_size=16)


@settings(max_examples=200, deadline=None)
@given(comm=_COMM, numbers=st.lists(st.integers(0, 2**31), min_size=50, max_size=52))
def test_a_stat_line_parses_whatever_the_command_name(comm: str, numbers: list[int]) -> None:
    """The command name may hold ``)``, spaces and digits: fields are read after the last
    ``)``, as the kernel writes them."""
    line = f"{numbers[0]} ({comm}) S " + " ".join(str(n) for n in numbers[1:]) + "\n"
    stat = Stat(line)
    assert stat.comm == comm and stat.state == "S"
    assert (stat.ppid, stat.pgrp) == (numbers[1], numbers[2])
    assert (stat.threads, stat.start) == (numbers[17], numbers[19])  # (fields 20 and 22)


@settings(max_examples=200, deadline=None)
@given(data=st.binary(max_size=400))
def test_a_status_file_of_any_bytes_gives_ids_or_a_value_error(
    data: bytes, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """``read_ids`` answers lists of ints, or raises ValueError (a decision that raises
    fails closed while a hook runs): never another error."""
    path = tmp_path_factory.mktemp("status") / "status"
    path.write_bytes(data)
    try:
        ids = read_ids(str(path))
    except ValueError:
        return
    assert all(isinstance(n, int) for values in ids.values() for n in values)


@settings(max_examples=200, deadline=None)
@given(data=st.binary(min_size=80, max_size=80))
def test_any_notification_parses(data: bytes) -> None:
    """struct seccomp_notif: any 80 bytes give a number, a pid and six arguments."""
    from hookwise.run.exec_watch import Notification

    notification = Notification(data, {322})
    assert len(notification.args) == 6 and 0 <= notification.pid < 2**32
    assert all(0 <= a < 2**64 for a in notification.args)


@settings(max_examples=300, deadline=None)
@given(value=st.integers(0, 2**64 - 1))
def test_a_register_is_read_as_the_kernels_int(value: int) -> None:
    assert _s32(value) == struct.unpack("<i", struct.pack("<I", value & 0xFFFFFFFF))[0]


def test_a_decision_that_fails_refuses_while_a_hook_runs() -> None:
    """Fail closed: a sender whose ids cannot be read (gone, or a broken /proc) is refused
    while a hook is registered, let through otherwise, and the reason kept once."""
    import os

    guard = SignalGuard(lambda _refusal: None)
    assert guard.decide("kill", [1, 9, 0, 0, 0, 0], 2**22 + 12345).go_on  # (no such tid)
    guard.hooks[os.getpid()] = os.pidfd_open(os.getpid())
    answer = guard.decide("kill", [1, 9, 0, 0, 0, 0], 2**22 + 12345)
    assert not answer.go_on and answer.error == 1
    assert guard.failed is not None and "FileNotFoundError" in guard.failed


def test_a_hosts_child_is_protected_until_it_execs(lab: Lab) -> None:
    """A host's fork that has not exec'd yet (what becomes a hook a moment later; a bash
    subshell here, which never execs) cannot be signalled by a sibling; a host's child that
    exec'd something else (a tool's `sleep`) can."""
    result = lab.run(
        "(while :; do read -t 0.05 x; done) & S=$!; sleep 60 & T=$!; sleep 0.3; "
        "python3 -c 'import os, sys\n"
        'for name, pid in (("fork", int(sys.argv[1])), ("exec", int(sys.argv[2]))):\n'
        "    try:\n"
        '        os.kill(pid, 15); print(name, "SENT")\n'
        "    except PermissionError:\n"
        '        print(name, "REFUSED")\' $S $T; kill $S $T'
    )
    assert "fork REFUSED" in result.stdout and "exec SENT" in result.stdout, (
        result.stdout,
        result.stderr,
    )
    refused = [r for r in _records(lab) if r.get("event") == "signal_refused"]
    assert [r["signal"] for r in refused] == [15], refused


def test_the_execs_remembered_are_bounded() -> None:
    """Past MAX_EXECS pids, those whose process is gone are forgotten (a reused pid that
    has not exec'd is a host's copy again, as it should be)."""
    import os

    from hookwise.run import signal_guard

    guard = SignalGuard(lambda _refusal: None)
    guard.execs = {2**22 + n: 1.0 for n in range(signal_guard.MAX_EXECS)}
    guard.exec_seen(os.getpid())
    assert list(guard.execs) == [os.getpid()]


def test_a_process_signalling_its_own_threads_is_let_through_first() -> None:
    """tgkill naming its own thread group (a runtime's thread signals: JVM, V8 profiling)
    goes on before anything else is read, even while a hook runs."""
    import os

    guard = SignalGuard(lambda _refusal: None)
    guard.hooks[os.getpid()] = os.pidfd_open(os.getpid())
    guard.protected = lambda: 1 / 0  # type: ignore[assignment,method-assign,return-value]
    assert guard.decide("tgkill", [os.getpid(), 2**22 + 7, 15, 0, 0, 0], os.getpid()).go_on
    assert guard.decide("kill", [os.getpid(), 15, 0, 0, 0, 0], os.getpid()).go_on
    assert guard.failed is None
    answer = guard.decide("kill", [os.getppid(), 15, 0, 0, 0, 0], os.getpid())
    assert not answer.go_on and guard.failed is not None  # (the decision failed: closed)
