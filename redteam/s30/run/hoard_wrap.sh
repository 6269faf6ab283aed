#!/usr/bin/env bash
# WRAP for run_claude.sh (#3): fd_hoard.py (50 processes x 20000 descriptors) and
# hold_subst.py in `stdout` mode (the hook's own stdout held) beside the CLI.
# (the CLI runs under `env -i`: e2e.sh leaves "-" in /tmp/rt30r/hold_host for codex, whose
# rust binary is a child of its node wrapper: then all of /proc is scanned)
HOLD_HOST=$(cat /tmp/rt30r/hold_host 2>/dev/null)
python3 /work/wt-rt30r/redteam/s30/run/fd_hoard.py "$(cat /tmp/rt30r/hoard_procs 2>/dev/null || echo 50)" 20000 300 > /tmp/rt30r/hoard.out 2>&1
python3 /work/wt-rt30r/redteam/s30/run/hold_subst.py 200 "${HOLD_HOST:-$$}" stdout > /tmp/rt30r/hold_subst.out 2>&1 &
exec "$@"
