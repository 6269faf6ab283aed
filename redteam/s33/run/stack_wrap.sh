#!/usr/bin/env bash
# WRAP for run_claude.sh (stack_host.py with the real CLI): what `python3 l.py` (allowed)
# does to its host, done from beside it: 1.5 s after the CLI starts, its RLIMIT_STACK is set
# to 14 KiB soft and hard; every process it starts after (hook shells, tool shells) has it.
"$@" & pid=$!
sleep 1.5; prlimit --pid "$pid" --stack=${STACK:-14336}:${STACK:-14336}
wait "$pid"
