#!/bin/bash
# Inside `hookwise run`: 33 wrappers in front of a denied command leave the parser's
# 32-round prefix loop (shell/parser.py _strip_prefix) with the 33rd wrapper taken as the
# program: no rule matches, no "unverifiable", the hook has no objection.
FAKEHOST="/usr/bin/python3 /work/wt-rt23/redteam/fakehost.py"
W32=$(printf 'env %.0s' $(seq 32)); W33=$(printf 'env %.0s' $(seq 33))
$FAKEHOST claude "${W32}git push --force origin main"
$FAKEHOST claude "${W33}git push --force origin main"
$FAKEHOST gemini "$(printf 'nice %.0s' $(seq 33))rm -rf /tmp/rt23/home/proj/.."
$FAKEHOST claude "$(printf 'timeout 9 %.0s' $(seq 33))git push -f"
$FAKEHOST claude "$(printf 'command %.0s' $(seq 33))git push -f"
$FAKEHOST claude "$(printf 'env %.0s' $(seq 16))$(printf 'nohup %.0s' $(seq 17))git push -f"
