#!/usr/bin/env bash
# WRAP for run_claude.sh: a process of the session (standing for what an earlier tool call
# left running) starts FLOODERS exec_flood_env loops (#1) that begin FLOOD_DELAY s later
# (the host has started); then the CLI runs. They end with the session. (run_claude.sh runs
# the CLI under `env -i`: the paths are this red team's, written out.)
start=$(( $(date +%s) + ${FLOOD_DELAY:-2} ))
for i in $(seq "${FLOODERS:-20}"); do
  /tmp/rt29r/exec_flood_env /tmp/rt29r/home/.local/share/hookwise/hook "$start" &
done
exec "$@"
