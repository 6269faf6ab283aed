"""A host that loads a project env file as Gemini CLI does, for the s27 tests: at its start,
from its cwd up, the first of ``.gemini/.env`` and ``.env`` found, parsed with a transcription
of dotenv 16's line splitting (a lone CR ends a line), into its own environment, setting only
unset variables; then it runs each step: a hook through ``bash -c`` (as Gemini CLI runs hook
commands: the registered command, with ``GEMINI_PROJECT_DIR`` and ``CLAUDE_PROJECT_DIR`` set
to the event's cwd), or a file move between hooks (before the first hook too). With
``LIKE_RELAUNCH`` set it first relaunches itself, as older Gemini CLI versions did.

usage: python3 gemini_like_host.py HOOKWISE_BIN STEPS_JSON   (prints one JSON answer per hook)
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys

# dotenv 16.6.1's LINE regex (lib/main.js) with JavaScript's \s spelled as Python's
# (plus the BOM), after its "\r\n?" -> "\n"
LINE = re.compile(
    r"(?:^)[\s\ufeff]*(?:export[\s\ufeff]+)?([\w.-]+)(?:[\s\ufeff]*=[\s\ufeff]*?|:[\s\ufeff]+?)"
    r"([\s\ufeff]*'(?:\\'|[^'])*'|[\s\ufeff]*\"(?:\\\"|[^\"])*\"|[^#\r\n]+)?",
    re.MULTILINE,
)


def load_env(cwd: str) -> None:
    current = os.path.abspath(cwd)
    while True:
        for name in (".gemini/.env", ".env"):
            path = os.path.join(current, name)
            if os.path.isfile(path):
                with open(path, "rb") as handle:
                    text = re.sub(r"\r\n?", "\n", handle.read().decode("utf-8", "replace"))
                for match in LINE.finditer(text):
                    value = (match.group(2) or "").strip().strip("'\"")
                    os.environ.setdefault(match.group(1), value)
                return
        parent = os.path.dirname(current)
        if parent == current:
            return
        current = parent


def main() -> None:
    hookwise, steps = sys.argv[1], json.loads(sys.argv[2])
    if not os.environ.get("LIKE_RELAUNCHED"):
        load_env(os.getcwd())
    if os.environ.get("LIKE_RELAUNCH") and not os.environ.get("LIKE_RELAUNCHED"):
        # as Gemini CLI versions that relaunched themselves with more memory did: a child of
        # the same program, started with the environment the file was loaded into
        env = {**os.environ, "LIKE_RELAUNCHED": "1"}
        sys.exit(subprocess.run([sys.executable, *sys.argv], env=env, check=False).returncode)
    command = f"{shlex.quote(hookwise)} hook --platform gemini"
    for step in steps:
        if "mv" in step:
            os.rename(*step["mv"])
            continue
        project = step["payload"].get("cwd") or os.getcwd()
        done = subprocess.run(
            ["bash", "-c", command],
            input=json.dumps(step["payload"]),
            # what Gemini CLI adds for its hooks (hookRunner.ts): the project it names
            env={**os.environ, "GEMINI_PROJECT_DIR": project, "CLAUDE_PROJECT_DIR": project},
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        out = json.loads(done.stdout) if done.stdout.strip() else {}
        print(json.dumps({"decision": out.get("decision"), "stderr": done.stderr}), flush=True)


if __name__ == "__main__":
    main()
