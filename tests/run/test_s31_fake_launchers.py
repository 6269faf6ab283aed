"""Red team s30 run #6: s29 #2's fix let only hookwise's own program into the hooks' CPU
cgroup, but any process of the session could start it as registered, on a 1.8 MB command
that took it the whole 7 s deadline there: N such loops shared the hooks' CPU with the real
hooks. The place is now earned by who started it (run/hook_hosts.py): the agent's hooks go
in, a tool's copies of hookwise stay in the session's share; and a line past 128 KiB is
unverifiable unread.

The agent here is ``host.py``: it starts a tool (``bash -c``) that loops hookwise's program
as registered, then a hook the way Claude Code does (``sh -c`` with the payload on stdin),
watching the cgroup of each."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import textwrap

import pytest

from tests.run.test_redteam_run import HOOKWISE, Lab, lab, pytestmark

__all__ = ["lab", "pytestmark"]

CPU_LINE = r"grep -E '^[0-9]+:([a-z,]*,)?cpu(,[a-z,]*)?:|^0::' /proc/$p/cgroup"

# the tool: 3 loops of hookwise's program as registered (marked FAKE=1 in the environment,
# which the watch does not compare), and a sampler of their cgroups
TOOL = textwrap.dedent(
    f"""
    for i in 1 2 3; do
      (while :; do FAKE=1 hookwise hook --platform claude < $R/big.json > /dev/null 2>&1; done) &
    done
    touch $R/fakes
    end=$(( $(date +%s) + 6 ))
    while [ $(date +%s) -lt $end ]; do
      for p in $(pgrep -f 'hookwise hook --platform'); do
        grep -qz '^FAKE=1$' /proc/$p/environ 2>/dev/null || continue
        echo "$({CPU_LINE} 2>/dev/null)" >> $R/fakes
      done
      sleep 0.05
    done
    kill -9 $(jobs -p) 2>/dev/null
    true
    """
)

HOST = textwrap.dedent(
    """
    import json, os, subprocess, sys, time
    r = os.environ["R"]
    tool = subprocess.Popen(["bash", "-c", open(r + "/tool.sh").read()])
    while not os.path.exists(r + "/fakes"):
        time.sleep(0.05)
    groups = set()
    hook = subprocess.Popen(["sh", "-c", "hookwise hook --platform claude"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    began = time.monotonic()
    hook.stdin.write(open(r + "/payload.json", "rb").read()); hook.stdin.close()
    while hook.poll() is None:  # (the shell, and hookwise when the shell forked it)
        try:
            pids = [hook.pid, *open(f"/proc/{hook.pid}/task/{hook.pid}/children").read().split()]
        except OSError:
            pids = []
        for pid in pids:
            try:
                for line in open(f"/proc/{pid}/cgroup"):
                    if ":cpu" in line or line.startswith("0::"):
                        groups.add(line.strip().rsplit("/", 1)[-1])
            except OSError:
                pass
        time.sleep(0.001)
    out = hook.stdout.read().decode()
    json.dump({"rc": hook.returncode, "out": out, "groups": sorted(groups),
               "seconds": time.monotonic() - began}, open(r + "/answer", "w"))
    tool.wait()
    """
)


# a wrapper agent (npm's `codex` is a Node script that spawns the native binary first)
WRAPPER = textwrap.dedent(
    """
    import os, subprocess, sys
    sys.exit(subprocess.call([sys.executable, os.environ["R"] + "/host.py"]))
    """
)


@pytest.mark.skipif(os.geteuid() != 0, reason="the hooks' CPU cgroup needs root here")
@pytest.mark.skipif(shutil.which("pgrep") is None, reason="finds the copies with pgrep")
@pytest.mark.parametrize("agent", ["host", "wrapper"])
def test_hookwise_started_by_a_tool_stays_out_of_the_hooks_cpu_cgroup(lab: Lab, agent: str) -> None:
    """The tool's copies of hookwise (as registered) never read as the hooks' cgroup; the
    host's own hook does, and denies, whether the host is the agent or the program a
    wrapper agent started first."""
    big = "echo " + "a$(b) " * 300000
    (lab.root / "big.json").write_text(lab.payload(command=big))
    (lab.root / "payload.json").write_text(lab.payload())
    (lab.root / "tool.sh").write_text(TOOL)
    (lab.root / "host.py").write_text(HOST)
    (lab.root / "wrapper.py").write_text(WRAPPER)
    result = lab.run(
        "", argv=[HOOKWISE, "run", "--", "python3", str(lab.root / f"{agent}.py")], timeout=120
    )
    fakes = [line for line in (lab.root / "fakes").read_text().splitlines() if line.strip()]
    assert len(fakes) >= 3, (fakes, result.stderr[-2000:])
    assert not [line for line in fakes if line.rstrip().endswith("-hooks")], fakes
    answer = json.loads((lab.root / "answer").read_text())
    assert any(group.endswith("-hooks") for group in answer["groups"]), answer
    assert answer["rc"] == 2 or '"deny"' in answer["out"], answer


def test_a_line_past_the_bound_is_unverifiable_unread(lab: Lab) -> None:
    """The 1.8 MB line of substitutions took the hook its 7 s deadline; now it is not read:
    the hook answers at once, and not with an allow."""
    big = "echo " + "a$(b) " * 300000
    result = subprocess.run(
        [HOOKWISE, "hook", "--platform", "claude"],
        input=lab.payload(command=big),
        cwd=lab.proj,
        env=lab.env(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert "longer than 128 KiB" in result.stdout + result.stderr, result
    decision = json.loads(result.stdout)["hookSpecificOutput"]["permissionDecision"]
    assert decision in ("ask", "deny"), result.stdout
