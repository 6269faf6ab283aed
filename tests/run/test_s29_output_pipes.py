"""A hook's output pipes held by another process of the session, in the cases session 28's
CI run found open: a hook the exec watch saw but could give no channel (its descriptor
limit is at or below the channel's number), a holder of the hook's stderr rather than its
stdout, and a holder that opens the pipe after the supervisor's look (docs/confinement.md).
Each holder keeps its copy for 20 s; the host must get the pipes' end well before."""

from __future__ import annotations

import json
import textwrap

from tests.run.test_redteam_run import HOOKWISE, PIPE_HOST, Lab, _host_blocks, lab, pytestmark

__all__ = ["lab", "pytestmark"]

# opens the hook's fd N through /proc (same uid) as soon as it runs, or, with "late", only
# once the supervisor has looked for holders (the hook's record is in the log, and the hook
# may not have exited yet); keeps the copy for 20 s
HOLDER = textwrap.dedent(
    """
    import os, sys, time
    fd_name, late = sys.argv[1], sys.argv[2:] == ["late"]
    me = os.getpid(); end = time.time() + 20; kept = []; done = set()
    log = os.environ["HOME"] + "/.local/state/hookwise/audit.jsonl"

    def answered():  # the sink wrote the hook's record: its look at the pipes is done
        try:
            return b'"no rm"' in open(log, "rb").read()
        except OSError:
            return False

    open(os.environ["R"] + "/holder.ready", "w").close()
    while time.time() < end:
        for p in os.listdir("/proc"):
            if not p.isdigit() or int(p) == me or p in done:
                continue
            try:
                if b"hookwise\\0hook\\0" not in open(f"/proc/{p}/cmdline", "rb").read():
                    continue
                while late and not answered() and time.time() < end:
                    pass  # (the hook found: spin until the supervisor has looked)
                kept.append(os.open(f"/proc/{p}/fd/{fd_name}", os.O_WRONLY))
                open(os.environ["R"] + "/holder.hit", "a").write(p + "\\n")
                done.add(p)
            except OSError:
                continue
        time.sleep(0.001)
    """
)


def _run(lab: Lab, holder_args: str, *, nofile: int | None = None) -> tuple[dict[str, object], str]:
    (lab.root / "holder.py").write_text(HOLDER)
    (lab.root / "host.py").write_text(PIPE_HOST)
    (lab.root / "payload.json").write_text(lab.payload())
    script = (
        f"python3 $R/holder.py {holder_args} & "
        "while [ ! -e $R/holder.ready ]; do sleep 0.05; done; "
        "python3 $R/host.py claude; kill %1 2>/dev/null; true"
    )
    argv = [HOOKWISE, "run", "--", "bash", "-c", script]
    if nofile is not None:
        argv = ["prlimit", f"--nofile={nofile}:{nofile}", *argv]
    result = lab.run(script, argv=argv, timeout=120)
    return json.loads((lab.root / "answer").read_text()), result.stderr


def test_a_hook_with_no_channel_is_heard_from_its_pid(lab: Lab) -> None:
    """Under a descriptor limit of 700 the channel (fd 1011) cannot be put in the hook, so
    its word comes on the session's socket; the supervisor saw hookwise's own program start
    as registered and acts on it by pid (CI, session 28: the holder kept the host 20 s)."""
    answer, stderr = _run(lab, "1", nofile=700)
    assert (lab.root / "holder.hit").exists(), stderr
    assert answer["seconds"] < 15, (answer, stderr)
    assert _host_blocks("claude", answer), answer
    assert "held a hook's output pipe" in stderr, stderr


def test_a_holder_of_the_hooks_stderr_is_killed(lab: Lab) -> None:
    """Hosts read a hook's stderr to its end as well as its stdout."""
    answer, stderr = _run(lab, "2")
    assert (lab.root / "holder.hit").exists(), stderr
    assert answer["seconds"] < 15, (answer, stderr)
    assert _host_blocks("claude", answer), answer
    assert "held a hook's output pipe" in stderr, stderr


def test_a_holder_too_late_for_the_look_finds_nothing_to_hold(lab: Lab) -> None:
    """Between the supervisor's look and the hook's exit: the hook points its stdout and
    stderr at /dev/null before it says it answered, so a late opener gets /dev/null."""
    answer, stderr = _run(lab, "1 late")
    assert answer["seconds"] < 15, (answer, stderr)
    assert _host_blocks("claude", answer), answer
