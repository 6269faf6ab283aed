#!/bin/bash
# Inside `hookwise run`: fill the file system that holds the audit log (the home here), let
# a hook decide, then free the space: the decision is nowhere in the log.
FAKEHOST="/usr/bin/python3 /work/wt-rt23/redteam/fakehost.py"
dd if=/dev/zero of="$HOME/fill" bs=64k 2>/dev/null
$FAKEHOST claude 'git push --force origin rt23-marker-disk-full'
sleep 0.5
rm -f "$HOME/fill" "$HOME"/f*
$FAKEHOST claude 'git push --force origin rt23-marker-after-free'
