"""`/proc/<pid>/autogroup` inside `hookwise run`: a process of the session moves busy loops
to an autogroup of its own (``setsid``) and writes 19 to the autogroup of a hook-like
process (0.3 s of CPU). In the root task group that stretched it to 18-55 s on this machine,
past every host's timeout; in the session's own CPU cgroup (run/cpu_group.py) the write
changes nothing and the process competes with the loops as a plain task.
"""

from __future__ import annotations

import os

import pytest

from hookwise.run import cpu_group
from tests.run.test_redteam_run import Lab, lab, pytestmark

__all__ = ["lab", "pytestmark"]

ATTACK = """\
grep -E '^[0-9]+:([a-z,]*,)?cpu(,[a-z,]*)?:|^0::' /proc/self/cgroup | head -1 | sed 's/^/CGROUP /'
for f in /sys/fs/cgroup/cpu/cgroup.procs /sys/fs/cgroup/cgroup.procs; do
  [ -e "$f" ] && { echo $$ > "$f" 2>/dev/null && echo "MOVED OUT via $f"; }
done
work='import time; t=time.time(); c=time.process_time()
while time.process_time()-c<0.3: pass
print("%.2f" % (time.time()-t))'
setsid sh -c 'for i in 1 2 3 4; do (while :; do :; done) & done; wait' >/dev/null 2>&1 &
loops=$!
sleep 1
setsid python3 -c "$work" > victim.out &
victim=$!
mine=$(cut -d" " -f1 /proc/$$/autogroup)
while [ "$(cut -d" " -f1 /proc/$victim/autogroup 2>/dev/null)" = "$mine" ]; do sleep 0.005; done
echo 19 > /proc/$victim/autogroup && echo "WROTE $(cat /proc/$victim/autogroup)"
wait $victim
echo "VICTIM $(cat victim.out)"
kill -- -$loops
"""


@pytest.mark.skipif(not cpu_group.exposed(), reason="autogroups do not apply here")
@pytest.mark.skipif(os.geteuid() != 0, reason="a CPU cgroup of the session's needs root here")
def test_an_autogroup_write_does_not_starve_a_process_of_the_session(lab: Lab) -> None:
    result = lab.run(ATTACK, timeout=180)
    out = result.stdout
    assert "WROTE" in out and "nice 19" in out, (out, result.stderr)  # (the attack ran)
    assert "MOVED OUT" not in out, out
    group = next(line for line in out.splitlines() if line.startswith("CGROUP "))
    assert group.rstrip().endswith(":/") is False, group  # a task group of the session's
    wall = float(next(line for line in out.splitlines() if line.startswith("VICTIM ")).split()[1])
    assert wall < 15, out  # (root task group: 18-55 s for its 0.3 s of CPU)
    assert "autogroups apply" not in result.stderr
