"""Red team s26 #1, #6, #7 and #8 against `hookwise run`, tried as the attacker did: each
attack runs for real inside a session (docs/redteam/2026-11-28-s26-run.md)."""

from __future__ import annotations

import json
import os
import socket
import textwrap
import threading
from pathlib import Path

import pytest

from tests.run.test_redteam_run import PIPE_HOST, Lab, _host_blocks, lab, pytestmark

__all__ = ["lab", "pytestmark"]

# left running by an earlier tool call: for every hookwise hook that runs, a helper reopens
# the hook's stdout as its own fd 1 and then either says `started` + `done` on the session's
# audit socket ("datagram"), or runs hookwise's own hook on it, as registered, so that a
# launched hook answers on that pipe ("launched"): the supervisor's pipe-holder check then
# looked for every other writer of "its" output, the real hook among them
PIPE_KILLER = textwrap.dedent(
    """
    import os, socket, subprocess, sys, time
    how, me, end, done = sys.argv[1], os.getpid(), time.time() + 20, set()
    open(os.environ["R"] + "/killer.ready", "w").close()
    while time.time() < end:
        for p in os.listdir("/proc"):
            if not p.isdigit() or int(p) == me or p in done:
                continue
            try:
                if b"hookwise\\0hook\\0" not in open(f"/proc/{p}/cmdline", "rb").read():
                    continue
                fd = os.open(f"/proc/{p}/fd/1", os.O_WRONLY)
            except OSError:
                continue
            done.add(p)
            if how == "datagram":
                if os.fork() == 0:
                    os.dup2(fd, 1)
                    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
                    s.sendto(b'{"hookwise_run": "started"}', os.environ["HOOKWISE_RUN_AUDIT"])
                    time.sleep(0.05)
                    s.sendto(b'{"hookwise_run": "done"}', os.environ["HOOKWISE_RUN_AUDIT"])
                    time.sleep(0.3)
                    os._exit(0)
            else:  # (its own copy closed first: only the launched hook holds the pipe)
                fake = subprocess.Popen(["hookwise", "hook", "--platform", "claude"], stdout=fd,
                                        stdin=open(os.environ["R"] + "/ls.json", "rb"))
                os.close(fd)
                fake.wait()
                fd = -1
            if fd >= 0:
                os.close(fd)
            open(os.environ["R"] + "/killer.hit", "a").write(p + "\\n")
        time.sleep(0.002)
    """
)


@pytest.mark.parametrize("how", ["datagram", "launched"])
def test_a_fake_hook_does_not_make_the_supervisor_kill_the_real_one(lab: Lab, how: str) -> None:
    """#6: a process holding a real hook's stdout said it was a hook that had answered (or
    ran hookwise's own hook on that pipe), and the pipe-holder check SIGKILLed the real
    hook as an intruder: a killed hook lets Claude Code and Gemini CLI run the tool. Now
    only a launched hook's record on its own channel triggers the check, and the check
    never kills a process the signal guard protects (a hook, a host's child before exec)."""
    (lab.root / "killer.py").write_text(PIPE_KILLER)
    (lab.root / "host.py").write_text(PIPE_HOST)
    (lab.root / "payload.json").write_text(lab.payload())
    (lab.root / "ls.json").write_text(lab.payload(command="ls"))
    script = (
        f"python3 $R/killer.py {how} & "
        "while [ ! -e $R/killer.ready ]; do sleep 0.05; done; "
        "python3 $R/host.py claude; kill %1 2>/dev/null; true"
    )
    result = lab.run(script, timeout=180)
    assert (lab.root / "killer.hit").exists(), (result.stdout, result.stderr)
    assert (lab.root / "answer").exists(), (result.stdout, result.stderr)
    answer = json.loads((lab.root / "answer").read_text())
    assert answer["rc"] == 2, (answer, result.stderr)  # not -9: the real hook answered
    assert _host_blocks("claude", answer), answer
    assert "held a hook's output pipe" not in result.stderr, result.stderr


# left running by an earlier tool call: registers each hook's stdout (reopened through
# /proc) in an io_uring's fixed-file table and closes its descriptor: the ring keeps the
# pipe's write end while no descriptor table shows it (red team s26 redteam/s26/uring_hold.py)
URING_HOLDER = textwrap.dedent(
    """
    import ctypes, os, time
    libc = ctypes.CDLL(None, use_errno=True)
    me, end, done, rings = os.getpid(), time.time() + 20, set(), []
    out = open(os.environ["R"] + "/uring.log", "a", buffering=1)
    open(os.environ["R"] + "/holder.ready", "w").close()
    while time.time() < end:
        for p in os.listdir("/proc"):
            if not p.isdigit() or int(p) == me or p in done:
                continue
            try:
                if b"hookwise\\0hook\\0" not in open(f"/proc/{p}/cmdline", "rb").read():
                    continue
                fd = os.open(f"/proc/{p}/fd/1", os.O_WRONLY)
            except OSError:
                continue
            done.add(p)
            ring = libc.syscall(425, 4, ctypes.create_string_buffer(120))  # io_uring_setup
            if ring < 0:
                out.write(f"setup {ctypes.get_errno()}\\n")
            elif libc.syscall(427, ring, 2, (ctypes.c_int * 1)(fd), 1) < 0:  # REGISTER_FILES
                out.write(f"register {ctypes.get_errno()}\\n")
            else:
                out.write("held\\n")
                rings.append(ring)
            os.close(fd)
        time.sleep(0.002)
    """
)


def test_a_hooks_output_held_in_an_io_uring(lab: Lab) -> None:
    """#7: a hook's output pipe registered in an io_uring's fixed-file table (the descriptor
    then closed) was invisible to the pipe-holder check: the host waited for the pipe's
    end to its timeout, and Claude Code and Gemini CLI then run the tool. Now the session's
    seccomp filter refuses io_uring (EPERM), so the copy cannot be made."""
    (lab.root / "holder.py").write_text(URING_HOLDER)
    (lab.root / "host.py").write_text(PIPE_HOST)
    (lab.root / "payload.json").write_text(lab.payload())
    script = (
        "python3 $R/holder.py & while [ ! -e $R/holder.ready ]; do sleep 0.05; done; "
        "python3 $R/host.py claude; kill %1 2>/dev/null; true"
    )
    result = lab.run(script, timeout=180)
    assert (lab.root / "uring.log").read_text().split() == ["setup", "1"], result.stderr
    answer = json.loads((lab.root / "answer").read_text())
    assert answer["seconds"] < 8, answer  # not the holder's 20 s
    assert _host_blocks("claude", answer), answer


# left running by an earlier tool call: puts every hook that runs in SCHED_IDLE, renices it
# and pins it to one CPU, and renices its host (whose next hooks would inherit it); then
# reads back what the hook got (red team s26 redteam/s26/starve.py)
STARVER = textwrap.dedent(
    """
    import os, time
    me, end, done = os.getpid(), time.time() + 20, set()
    out = open(os.environ["R"] + "/starve.log", "a", buffering=1)
    open(os.environ["R"] + "/starver.ready", "w").close()

    def attempt(name, call):
        try:
            call()
            out.write(f"{name}:ok\\n")
        except OSError as exc:
            out.write(f"{name}:{exc.errno}\\n")

    while time.time() < end:
        for p in os.listdir("/proc"):
            if not p.isdigit() or int(p) == me or p in done:
                continue
            try:
                if b"hookwise\\0hook\\0" not in open(f"/proc/{p}/cmdline", "rb").read():
                    continue
                host = int(open(f"/proc/{p}/stat").read().rpartition(")")[2].split()[1])
            except OSError:
                continue
            done.add(p)
            pid = int(p)
            idle = os.sched_param(0)
            attempt("idle", lambda: os.sched_setscheduler(pid, os.SCHED_IDLE, idle))
            attempt("nice", lambda: os.setpriority(os.PRIO_PROCESS, pid, 19))
            attempt("cpus", lambda: os.sched_setaffinity(pid, {0}))
            attempt("host", lambda: os.setpriority(os.PRIO_PROCESS, host, 19))
            policy, nice = os.sched_getscheduler(pid), os.getpriority(os.PRIO_PROCESS, pid)
            out.write(f"policy:{policy} nice:{nice}\\n")
        time.sleep(0.002)
    """
)


def test_another_process_cannot_starve_a_hook(lab: Lab) -> None:
    """#1: a process of the agent put each hook in SCHED_IDLE (or reniced it to 19) and
    pinned it beside a busy loop: the hook answered after the host's timeout, and the tool
    ran. Now the exec listener is handed sched_setscheduler, sched_setparam, sched_setattr,
    sched_setaffinity, setpriority and ioprio_set aimed at another process, and the signal
    guard's rule decides: EPERM for a hook or a host, from a process that did not start it.
    A process's own scheduling, and that of its children, stay its own."""
    (lab.root / "starver.py").write_text(STARVER)
    (lab.root / "payload.json").write_text(lab.payload())
    script = (
        "python3 $R/starver.py & while [ ! -e $R/starver.ready ]; do sleep 0.05; done; "
        "(sleep 2; cat $R/payload.json) | hookwise hook --platform claude; echo HOOK-RC=$?; "
        "kill %1; "
        # ordinary uses still work: its own, a command it starts, a child it started
        "nice -n 5 true && taskset -c 0 true; sleep 5 & "
        "sleep 0.2; renice -n 3 -p $! >/dev/null && echo RENICED-CHILD; kill %2 2>/dev/null; "
        "python3 -c 'import os; os.setpriority(os.PRIO_PROCESS, 0, 2); "
        'os.sched_setaffinity(0, {0}); print("OWN-OK")\''
    )
    result = lab.run(script, timeout=180)
    assert "HOOK-RC=2" in result.stdout, (result.stdout, result.stderr)
    log = (lab.root / "starve.log").read_text().split()
    assert log == ["idle:1", "nice:1", "cpus:1", "host:1", "policy:0", "nice:0"], log
    assert "RENICED-CHILD" in result.stdout and "OWN-OK" in result.stdout, result
    assert "changed the scheduling of pid" in result.stderr, result.stderr


CONNECTOR = textwrap.dedent(
    """
    import socket, sys
    for path in sys.argv[1:]:
        c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            c.connect(path)
            c.sendall(b"touch guarded")
            print("CONNECTED", path)
        except OSError as exc:
            print("refused", exc.errno, path)
    """
)


def _serve(server: socket.socket, seen: list[str]) -> None:
    """A command server outside: records what each connection asks (it would run it)."""
    server.settimeout(60)
    while True:
        try:
            client, _ = server.accept()
        except OSError:
            return
        with client:
            seen.append(client.recv(100).decode())


def test_a_socket_linked_or_renamed_into_place_after_bind_is_hidden(lab: Lab) -> None:
    """#8: /proc/net/unix keeps the name given to bind(): a command server that binds a
    temporary name and links it into place (OpenSSH's ControlMaster), or renames it into
    another directory, was listed under a dead name, so the real file stayed connectable
    from inside and its server ran commands outside. Now every socket file where sockets
    usually are (temporary and runtime directories, a home's dot-directories), and every
    one in the directory of a dead name, is covered whatever its name."""
    ssh = lab.home / ".ssh"
    ssh.mkdir()
    linked, moved = ssh / "cm", ssh / "mv"  # (short: a socket's path has 107 bytes at most)
    servers, seen = [], []  # type: ignore[var-annotated]
    for final, temporary, how in (
        (linked, ssh / "cm.Xk3vQ9", os.link),
        (moved, lab.root / "b.tmp", os.rename),
    ):
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(str(temporary))
        server.listen(4)
        how(temporary, final)
        if temporary.exists():
            temporary.unlink()
        servers.append(server)
        threading.Thread(target=_serve, args=(server, seen), daemon=True).start()
    (lab.root / "connect.py").write_text(CONNECTOR)
    try:
        listed = Path("/proc/net/unix").read_text().split()
        assert str(linked) not in listed and str(moved) not in listed  # (the dead names only)
        result = lab.run(f"python3 $R/connect.py {linked} {moved}", timeout=180)
    finally:
        for server in servers:
            server.close()
    assert "CONNECTED" not in result.stdout, (result.stdout, result.stderr)
    assert result.stdout.count("refused") == 2, (result.stdout, result.stderr)
    assert not seen, seen
