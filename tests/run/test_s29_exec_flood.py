"""Red team s29 (run) #1 and #2 against `hookwise run`, as the attacker ran them
(docs/redteam/2026-11-28-s29-run.md): processes of the session that make the exec watch's
decisions slow, and fake hooks that ran busy loops in the hooks' CPU cgroup."""

from __future__ import annotations

import os
import shutil
import subprocess
import textwrap

import pytest

from hookwise.policy.install.registrations import BASE_TIMEOUT_S
from tests.run.test_redteam_run import HOOKWISE, Lab, lab, pytestmark

__all__ = ["lab", "pytestmark"]

# forks N children looping on execve("/bin/sh", ["sh", "-c", <16 KiB>], (char **)1) (the
# kernel fails it, EFAULT, only after the supervisor answered, so nothing is started and the
# loop asks again) and M looping on hookwise's launcher with --platform and an environment
# of 4095 pointers to one 16 KiB string (64 MiB for a watch that reads it all; the kernel
# then refuses the exec); forked, not started one exec at a time behind the flood
FLOOD = r"""
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char **argv) {
    int sh = atoi(argv[1]), env_n = atoi(argv[2]);
    char *junk = malloc(16385);
    memset(junk, 'a', 16384);
    junk[16384] = 0;
    char *sh_args[] = {"sh", "-c", junk, NULL};
    char *hook_args[] = {"hook", "--platform", "claude", NULL};
    char **env = calloc(4096, sizeof(char *));
    memcpy(junk, "X=", 2);
    for (int i = 0; i < 4095; i++) env[i] = junk;
    char **volatile bad = (char **)1;
    for (int i = 0; i < sh + env_n; i++) {
        if (fork() == 0) {
            for (;;) {
                if (i < sh) execve("/bin/sh", sh_args, bad);
                else execve(argv[3], hook_args, env);
            }
        }
    }
    pause();
}
"""

# a stand-in for Claude Code (the agent of the session): starts the flooders, then runs the
# registered command with `sh -c`, the event on stdin, timed from its spawn's return against
# the timeout the install writes; ends every flooder with one kill(-1)
HOST = textwrap.dedent(
    """
    import os, signal, subprocess, sys, time
    r, sh_n, env_n, timeout = os.environ["R"], int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
    launcher = os.path.expanduser("~/.local/share/hookwise/hook")
    print(f"BEGIN {time.monotonic():.1f}", flush=True)
    floods = [subprocess.Popen([r + "/flood", str(sh_n), str(env_n), launcher])]
    time.sleep(2)
    event = open(r + "/payload.json", "rb").read()
    for i in range(2):
        began = time.monotonic()
        child = subprocess.Popen(["/bin/sh", "-c", "hookwise hook --platform claude"],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL)
        spawned = time.monotonic()
        try:
            out, _ = child.communicate(event, timeout=timeout)
            print(f"HOOK spawn {spawned - began:.2f} answer {time.monotonic() - spawned:.2f}"
                  f" rc {child.returncode} {out[:200]!r}", flush=True)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
            print(f"HOOK spawn {spawned - began:.2f} TIMEOUT", flush=True)
    print(f"KILL {time.monotonic():.1f}", flush=True)
    os.kill(-1, signal.SIGKILL)
    for flood in floods:
        flood.wait()
    print(f"ENDED {time.monotonic():.1f}", flush=True)
    """
)


def _compile(lab: Lab, name: str, source: str) -> None:
    (lab.root / f"{name}.c").write_text(source)
    subprocess.run(
        ["cc", "-O1", "-o", str(lab.root / name), str(lab.root / f"{name}.c")], check=True
    )


@pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler for the flooders")
def test_an_exec_flood_does_not_make_a_hook_miss_the_hosts_timeout(lab: Lab) -> None:
    """#1: 120 processes looping on ``sh -c`` with 16 KiB of script and 20 on the launcher
    with a 64 MiB environment made every exec of the session wait behind the watch's one
    thread: the hook's exec alone took 10-15 s, and the host timed the hook out (9 of 9).
    Now a decision reads a bounded few bytes whatever the caller passes: the hook answers
    (deny) within the host's timeout."""
    _compile(lab, "flood", FLOOD)
    (lab.root / "host.py").write_text(HOST)
    (lab.root / "payload.json").write_text(lab.payload())
    result = lab.run(
        "",
        argv=[
            HOOKWISE,
            "run",
            "--",
            "python3",
            str(lab.root / "host.py"),
            "120",
            "20",
            str(BASE_TIMEOUT_S),
        ],
        timeout=120,
    )
    calls = [line for line in result.stdout.splitlines() if line.startswith("HOOK ")]
    assert len(calls) == 2, (result.stdout, result.stderr[-3000:])
    for call in calls:
        assert "TIMEOUT" not in call, (calls, result.stderr[-3000:])
        words = call.split()
        assert float(words[2]) + float(words[4]) < BASE_TIMEOUT_S, calls
        assert "rc 2" in call and "deny" in call, calls


BUSY_FAKES = """\
printf 'while :; do :; done\\n' > $R/busy.sh
pids=
for i in $(seq 16); do
  BASH_ENV=$R/busy.sh bash -c 'hookwise hook --platform claude' </dev/null >/dev/null 2>&1 &
  pids="$pids $!"
done
sleep 1
for p in $pids; do echo "LOOP $(grep -E '^[0-9]+:([a-z,]*,)?cpu(,[a-z,]*)?:|^0::' /proc/$p/cgroup)"; done
for i in 1 2; do
  s=$(date +%s.%N)
  sh -c 'hookwise hook --platform claude' < $R/payload.json > $R/out 2>/dev/null
  rc=$?
  e=$(date +%s.%N)
  echo "HOOK rc=$rc $(echo "$e - $s" | bc) $(head -c 200 $R/out)"
done
kill -9 $pids
"""


@pytest.mark.skipif(os.geteuid() != 0, reason="the hooks' CPU cgroup needs root here")
@pytest.mark.skipif(shutil.which("bc") is None, reason="times the hook with bc")
def test_fake_hooks_do_not_run_in_the_hooks_cpu_cgroup(lab: Lab) -> None:
    """#2: ``BASH_ENV=busy.sh bash -c '<registered command>'`` was moved into the hooks' CPU
    cgroup before bash read BASH_ENV, and 16 of them stretched a real hook to 7 s (the
    deadline's closed answer). Now only hookwise's own program started as registered is
    moved: the loops stay in the session's cgroup and the real hook answers in under 3 s.
    The real hook is the agent's own (``sh -c`` forked by it, as a host starts one: since
    s30 #6 only a host's hooks enter, run/hook_hosts.py), not one under ``timeout``."""
    (lab.root / "payload.json").write_text(lab.payload())
    result = lab.run(BUSY_FAKES, timeout=120)
    out = result.stdout
    loops = [line for line in out.splitlines() if line.startswith("LOOP ")]
    assert len(loops) == 16, (out, result.stderr[-2000:])
    assert not [line for line in loops if line.rstrip().endswith("-hooks")], loops
    hooks = [line.split() for line in out.splitlines() if line.startswith("HOOK ")]
    assert len(hooks) == 2, out
    for hook in hooks:
        assert hook[1] == "rc=2" and "deny" in " ".join(hook), out
        assert float(hook[2]) < 3, out


def _notification(envp: int) -> object:
    from hookwise.run.exec_watch import Notification

    data = bytes(16) + (62).to_bytes(4, "little") + (0xC000003E).to_bytes(4, "little")
    data += bytes(8) + (0).to_bytes(8, "little") * 2 + envp.to_bytes(8, "little") + bytes(24)
    return Notification(data, set())


@pytest.mark.skipif(os.uname().machine != "x86_64", reason="builds an x86_64 notification")
def test_an_environment_is_read_by_its_names_within_a_fixed_bound() -> None:
    """#1, the launcher form: 4,095 pointers to one 16 KiB string were read whole (64 MiB a
    decision). Now only names are read, up to a fixed total: such an environment is not
    accounted (None) and costs a bounded read; a real one gives the loader's names."""
    import ctypes
    import time

    from hookwise.run.exec_watch import HookExecs, read_environ

    big = ctypes.create_string_buffer(b"X=" + b"a" * 16382)
    table = (ctypes.c_char_p * 4096)(*([ctypes.cast(big, ctypes.c_char_p)] * 4095), None)
    hooks = HookExecs({"PATH": "/usr/bin:/bin", "HOME": "/nonexistent"}, lambda _s: False)
    began = time.monotonic()
    found = read_environ(
        os.getpid(),
        _notification(ctypes.addressof(table)),  # type: ignore[arg-type]
        hooks.prefixes("launcher"),
        hooks.value_limit,
    )
    assert found is None
    assert time.monotonic() - began < 1  # (64 MiB read: 0.35 s unloaded, seconds under load)
    entries = [b"PATH=/bin", b"LD_PRELOAD=/tmp/x.so", b"PYTHONPATH=/p", b"HOME=/h"]
    real = (ctypes.c_char_p * 5)(*entries, None)
    found = read_environ(
        os.getpid(),
        _notification(ctypes.addressof(real)),  # type: ignore[arg-type]
        hooks.prefixes("launcher"),
        hooks.value_limit,
    )
    assert found == [("LD_PRELOAD", "/")]  # (read up to the session's value's length + 1)
    assert not hooks.accounted("launcher", ["hook", "--platform", "claude"], found)
