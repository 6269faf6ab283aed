#!/usr/bin/env bash
# WRAP for run_claude.sh (fuser_kill.sh with the real CLI, inside e2e_fuser.sh's namespace):
# the loop an earlier allowed call left running, started beside the CLI. Bounded: 30 s.
timeout 30 sh -c "while :; do fuser -s -k -${SIG:-KILL} $LIB; sleep 0.005; done" >/dev/null 2>&1 &
exec "$@"
