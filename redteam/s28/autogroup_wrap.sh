#!/usr/bin/env bash
# WRAP for run_claude.sh: a process of the session (standing for what an earlier tool call
# left running) waits AG_DELAY s (the host has started), sets the session's autogroup to
# nice 19 and starts 6 busy loops, each in an autogroup of its own; then the CLI runs.
( sleep 0.7; echo 19 > /proc/self/autogroup
  for i in 1 2 3 4 5 6; do setsid sh -c 'sleep 40 & while kill -0 $! 2>/dev/null; do :; done' & done ) &
exec "$@"
