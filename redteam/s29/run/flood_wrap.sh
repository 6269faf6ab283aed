#!/usr/bin/env bash
# WRAP for run_claude.sh: a process of the session (standing for what an earlier tool call
# left running) starts FLOODERS exec_flood_env loops (#1) that begin FLOOD_DELAY s later
# (the host has started); then the CLI runs. They end with the session. (run_claude.sh runs
# the CLI under `env -i`: the paths are this red team's, written out.)
. /tmp/rt29r/flood_wrap.conf  # FLOODERS, FLOOD_DELAY (exec_flood_e2e.sh writes it)
start=$(( $(date +%s) + FLOOD_DELAY ))
for i in $(seq "$FLOODERS"); do
  /tmp/rt29r/exec_flood_env /tmp/rt29r/home/.local/share/hookwise/hook "$start" &
done
exec "$@"
