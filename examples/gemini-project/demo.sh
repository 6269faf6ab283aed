#!/bin/sh
# `make demo`: fire events at this example project's hooks and show what they do.
set -e
BIN=${HOOKWISE_EXAMPLE_BIN:-.venv/bin}
DIR=$(cd "$(dirname "$0")" && pwd)
HOME_DIR=$(mktemp -d)
trap 'rm -rf "$HOME_DIR"' EXIT
BOLD=; PLAIN=
if [ -t 1 ] && [ -z "${NO_COLOR:-}" ]; then  # a terminal: titles in bold; a pipe: plain text
    BOLD=$(printf '\033[1m'); PLAIN=$(printf '\033[0m')
fi
fire() {
    event=$1; payload=$2; title=$3
    printf '\n%s=== %s%s\n' "$BOLD" "$title" "$PLAIN"
    "$BIN/hookwise" fire "$event" --project "$DIR" --home "$HOME_DIR" --payload "$DIR/payloads/$payload"
}
fire SessionStart session_start.json "SessionStart: context injected at startup"
fire BeforeTool shell_ls.json "BeforeTool: a harmless shell command goes ahead"
fire BeforeTool shell_rm_rf.json "BeforeTool: rm -rf is blocked (exit 2, reason from stderr)"
fire BeforeTool write_env.json "BeforeTool: an edit to .env is denied with a JSON answer"
fire AfterTool read_key.json "AfterTool: a file with an AWS key is withheld from the model"
fire BeforeToolSelection tool_selection.json "BeforeToolSelection: tools restricted to read_file and glob"
fire AfterAgent after_agent.json "AfterAgent: an answer without a summary is sent back for one retry"
