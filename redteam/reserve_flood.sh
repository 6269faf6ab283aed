#!/bin/bash
FAKEHOST="/usr/bin/python3 /work/wt-rt23/redteam/fakehost.py"
/usr/bin/python3 /work/wt-rt23/redteam/reserve_flood.py
sleep 1
$FAKEHOST claude 'git push --force origin rt23-marker-after-flood'
