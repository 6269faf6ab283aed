#!/usr/bin/env bash
# WRAP for run_claude.sh: a process of the session (standing for what an earlier tool call
# left running) watches for hooks (on_hook.py, two farm execs per hook), then the CLI runs.
# (run_claude.sh runs the CLI under `env -i`: the paths are this red team's, written out.)
python3 /work/wt-rt30r/redteam/s30/run/on_hook.py /tmp/rt30r/farm-790.path 200 "${PER_HOOK:-2}" &
exec "$@"
