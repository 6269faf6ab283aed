#!/usr/bin/env bash
# F5 in the hook: Claude Code's PreToolUse for Bash with a16's commands, decided by
# `hookwise hook --host claude`, then each command run in bash when allowed (fresh sandbox
# per command), and the user policy checked. Run from the worktree root.
set -u
HERE=$(cd "$(dirname "$0")" && pwd); WT=$(cd "$HERE/../../.." && pwd); HW=${HOOKWISE_BIN:-$WT/.venv/bin/hookwise}
hook() { python3 -c 'import json,sys; print(json.dumps({"session_id":"s","transcript_path":"/dev/null","cwd":sys.argv[1],"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":sys.argv[2]}}))' "$1" "$2" | "$HW" hook --host claude | python3 -c 'import sys,json; t=sys.stdin.read().strip(); print(json.loads(t)["hookSpecificOutput"]["permissionDecision"] if t else "(no decision: allowed)")'; }
N=0
try() {
  label=$1; cmd=$2; N=$((N+1))
  B=/tmp/rt35m/a07-$N; rm -rf "$B"; mkdir -p "$B/home/.config/hookwise" "$B/proj/.git"
  export HOME=$B/home XDG_CONFIG_HOME=$B/home/.config XDG_STATE_HOME=$B/home/.local/state XDG_CACHE_HOME=$B/home/.cache
  unset HOOKWISE_USER_POLICY
  printf 'version: 1\nrules:\n  - id: no-env\n    match: {files: "**/.env"}\n    action: deny\n' > "$HOME/.config/hookwise/policy.yaml"
  cd "$B/proj"; cmd=${cmd//@H/$HOME}
  d=$(hook "$B/proj" "$cmd")
  case $d in deny|ask) ;; *) bash -c "$cmd" >/dev/null 2>&1 ;; esac
  printf '  %-44s -> %-24s policy now: %s\n' "$label" "$d" "$(head -c 40 "$HOME/.config/hookwise/policy.yaml" | tr '\n' '|')"
}
try "ln -s ~/.config cfg; printf > cfg/..."       "ln -s @H/.config cfg; printf 'version: 1\nrules: []\n' > cfg/hookwise/policy.yaml"
try "ln -s ~/.config cfg && echo >> cfg/..."      "ln -s @H/.config cfg && echo 'rules: []' >> cfg/hookwise/policy.yaml"
try "ln -s ~ h; > h/.config/hookwise/..."         "ln -s @H h; : > h/.config/hookwise/policy.yaml"
try "ln -s ~/.config cfg; cp /dev/null cfg/..."   "ln -s @H/.config cfg; cp /dev/null cfg/hookwise/policy.yaml"
try "ln -s ~/.config cfg; tee cfg/... (control)"  "ln -s @H/.config cfg; echo x | tee cfg/hookwise/policy.yaml"
try "> ~/.config/hookwise/policy.yaml (control)"  ": > @H/.config/hookwise/policy.yaml"
# other writers through the link made on the line (neighbours of the redirection)
try "ln -s ~/.config cfg; sed -i ... cfg/..."      "ln -s @H/.config cfg; sed -i 's/deny/allow/' cfg/hookwise/policy.yaml"
try "ln -s ~/.config cfg; truncate -s0 cfg/..."   "ln -s @H/.config cfg; truncate -s 0 cfg/hookwise/policy.yaml"
try "ln -s ~/.config cfg; dd of=cfg/..."          "ln -s @H/.config cfg; dd if=/dev/null of=cfg/hookwise/policy.yaml"
try "ln -s ~/.config cfg; python3 open(...)"      "ln -s @H/.config cfg; python3 -c 'open(\"cfg/hookwise/policy.yaml\",\"w\")'"
try "ln -s ~/.config cfg; rm cfg/..."             "ln -s @H/.config cfg; rm cfg/hookwise/policy.yaml"
try "ln -s ~/.config cfg; mv /dev/null? (echo>f; mv f cfg/...)" "ln -s @H/.config cfg; echo 'version: 1' > f; mv f cfg/hookwise/policy.yaml"
try "ln -s ~/.config cfg; exec 3> cfg/..."        "ln -s @H/.config cfg; exec 3> cfg/hookwise/policy.yaml"
try "ln -s ~/.config cfg; echo x 1<> cfg/..."     "ln -s @H/.config cfg; echo x 1<> cfg/hookwise/policy.yaml"
try "mkdir d; ln -s ~/.config d/c; > d/c/..."     "mkdir d; ln -s @H/.config d/c; : > d/c/hookwise/policy.yaml"
