#!/bin/bash
input=$(cat)
command=$(echo "$input" | jq -r '.tool_input.command')
if echo "$command" | grep -q 'rm -rf /'; then
  echo '{"decision":"deny","reason":"no"}'
  exit 0
fi
echo '{}'
