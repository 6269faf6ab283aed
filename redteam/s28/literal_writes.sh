#!/usr/bin/env bash
# What self-protection says about literal tool calls that plant findings #1 and #4's
# variables in the project .env (Gemini CLI loads it at its next start), and about making
# the locale with localedef.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
cd "$PROJ"
for c in "printf 'LOCPATH=$PROJ/loc\\nLC_CTYPE=xx\\n' >> .env" "echo LC_ALL=xx >> .gemini/.env" \
         "echo CI=true >> .env" "localedef -f ./loc/bogus.cm -i POSIX ./loc/xx" \
         "echo HOOKWISE_POLICY=/tmp/x >> .env"; do
  for host in claude gemini; do
    tool=Bash; [ $host = gemini ] && tool=run_shell_command
    out=$(python3 -c 'import json,sys; print(json.dumps({"hook_event_name": sys.argv[3], "tool_name": sys.argv[2], "tool_input": {"command": sys.argv[1]}, "cwd": sys.argv[4], "session_id": "s"}))' "$c" $tool "$( [ $host = gemini ] && echo BeforeTool || echo PreToolUse)" "$PROJ" \
      | "$HOME/.local/share/hookwise/hook" --platform $host 2>/dev/null); rc=$?
    echo "[$host] $c -> exit $rc ${out:0:140}"
  done
done
