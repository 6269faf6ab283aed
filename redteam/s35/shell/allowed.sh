#!/usr/bin/env bash
# The lines a decided batch allowed, as a batch to run in real bash: allowed.sh b1.tsv > v.txt
awk -F'\t' '$1=="allow"{print $2}' "$@"
