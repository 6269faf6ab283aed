#!/usr/bin/env bash
# WRAP for run_claude.sh (#5, no `hookwise run`): stands for a first tool call that ran
# `prlimit --pid <its host> --stack=${RT_STACK:-24576}:${RT_STACK:-24576}`: 0.4 s after the CLI starts (before its
# first tool call), its RLIMIT_STACK is set; every hook it starts inherits it.
(sleep 0.4; prlimit --pid $$ --stack=${RT_STACK:-24576}:${RT_STACK:-24576} && echo "set" > /tmp/rt30r/rlimit_wrap.out) &
exec "$@"
