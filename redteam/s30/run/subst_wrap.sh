#!/usr/bin/env bash
# WRAP for run_claude.sh: hold_subst.py (#2) beside the CLI (standing for a process an
# earlier tool call left running). (run_claude.sh runs the CLI under `env -i`.)
python3 /work/wt-rt30r/redteam/s30/run/hold_subst.py 200 $$ > /tmp/rt30r/hold_subst.out 2>&1 &
exec "$@"
