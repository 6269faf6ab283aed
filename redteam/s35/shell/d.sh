#!/usr/bin/env bash
# Decide a batch through the real hook in the decision fixture: d.sh BATCH OUT.tsv
. "$(dirname "$0")/env.sh"
# multi-call lines (⟫) need RT_ROOT=$RT_TOP/work: d.py restores it from pristine.tar
RT_ROOT="${RT_ROOT:-$RT_TOP/d}" exec python3 "$S33/d.py" "$@"
