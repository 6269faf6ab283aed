#!/usr/bin/env bash
# WRAP for /work/shared/e2e/run_*.sh (which run the CLI under env -i): copies
# /tmp/rt28r/plant.env to the run's project env file (cwd = its proj), then execs the CLI.
# Models a .env that came with the repository or that an earlier session's program wrote.
[ -f /tmp/rt28r/plant.env ] && cp /tmp/rt28r/plant.env ./.env
exec "$@"
