#!/usr/bin/env bash
# Run a batch in real bash, a fresh fixture per line: v.sh BATCH OUT.tsv
. "$(dirname "$0")/env.sh"
exec python3 "$S33/verify.py" "$@"
