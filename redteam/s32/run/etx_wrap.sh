#!/usr/bin/env bash
# WRAP for run_claude.sh (#5): the process an earlier tool call left (etxtbsy.sh): the
# launcher's interpreter held open for writing, 60 s, beside the CLI.
sleep 60 3>>"${PY:-/tmp/rt32r/venv2/bin/python3}" &
exec "$@"
