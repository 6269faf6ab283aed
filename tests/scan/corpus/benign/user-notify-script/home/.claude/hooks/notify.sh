#!/bin/sh
notify-send 'Claude Code' "$(jq -r .message)"
