#!/bin/sh
# TurnStart: stdout is only shown; stderr goes to the model with the user's input.
echo "branch: main, 2 files changed"
echo "Reminder: run the linter before you say you are done." >&2
