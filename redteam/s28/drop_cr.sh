#!/usr/bin/env bash
# s27 #4's fix re-attacked: a dropped variable is remembered only when its value has no CR
# or LF (env_origin.remember); Gemini's dotenv turns "\r" in a double-quoted value into a CR.
# After `mv .env notes.txt` the variable is taken: HOOKWISE_POLICY names an empty policy.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
cd "$PROJ"
printf 'version: 1\n' > "$RT/empty.yaml"; printf 'version: 1\n' > "$RT/e"$'\r'"mpty.yaml"
for value in "$RT/empty.yaml" "$RT/e\\rmpty.yaml"; do
  [ -f notes.txt ] && mv notes.txt .env.bak; rm -f .env notes.txt
  printf 'SECRET=hunter2\nHOOKWISE_POLICY="%s"\n' "$value" > .env
  echo "== .env: HOOKWISE_POLICY=\"$value\""
  python3 "$here/gemini_host.py" "rm -rf build" "mv .env notes.txt" "rm -rf build"
  mkdir -p build; mv notes.txt .env
done
printf 'SECRET=hunter2\n' > .env; rm -f .env.bak
