#!/usr/bin/env bash
# WRAP for run_claude.sh (#1): stands for a process an earlier tool call left running (the
# hook allows `python3 tools/warm.py &`): a write lease on hookwise's launcher, taken
# beside the CLI before its first tool call.
python3 "$(dirname "$0")/lease.py" "${LEASE_FILE:-/tmp/rt31r/home/.local/share/hookwise/hook}" 150 &
sleep 1
exec "$@"
