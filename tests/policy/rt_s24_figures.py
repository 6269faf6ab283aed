"""Red team s24's escapes (corpus/redteam_s24_open.tsv) asked again: how many the hook now
blocks, per finding. Not a test: the figures the session reports, printed by

    .venv/bin/python -m tests.policy.rt_s24_figures [--src DIR] [-v]

A decision project as the red team's (the starter with every pack, trusted, its
.hookwise/policy.yaml on disk, a git repository with .env and a key in the home) is made in
a temporary directory; each command is put to ``hookwise hook --host claude`` as a process.
``--src DIR``: the hookwise sources to run (an older tree, for the figure before).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from tests.policy.corpus_support import CORPUS

# findings by the red team's numbering (rt-shell-findings.md), from the technique column
FINDINGS = (
    ("#1/#2 parser", ("parser:",)),
    ("#3 interpreter options", ("interpreter option runs", "reads code from stdin", "vim/ex")),
    ("#4 guard files written", ("archiver: extraction", "python -m zipfile", "copy: cp -r",
                                "GIT_TRACE", "--output=FILE", "archive -o", "merge/switch",
                                "stash -u", "patch/git apply", "typescript FILE")),
    ("#6 files named in data/options", ("sed `r", "#include", "response file", "git index",
                                        "message file", "env-file", "local server", "dd if=",
                                        "--files0-from", "file -f", "--from-file", "xargs -a",
                                        "awk `getline", "perl one-liner", "formatter", "tree reader")),
    ("#5 force push", ("force", "bare remote", "--mirror=push", "compiler: C code")),
    ("#7 deletes", ("7z -sdel", "without -r", "mv of a directory")),
)  # fmt: skip


def rows() -> list[tuple[str, str, str]]:
    """(effect, technique, command) of every escape."""
    lines = (CORPUS / "redteam_s24_open.tsv").read_text().splitlines()
    found = []
    for line in lines:
        columns = line.split("\t")
        if line.startswith(("#", "n\t")) or len(columns) < 4:
            continue
        found.append((columns[1], columns[2], columns[3].replace("\\n", "\n")))
    return found


def finding(technique: str, command: str = "") -> str:
    """The red team's finding for a row; their editor rows belong to three of them."""
    if "vim/ex" in technique and "<<<" not in command:
        if "delete(" in command:
            return "#7 deletes"
        return (
            "#4 guard files written"
            if "writefile([" in command
            else "#6 files named in data/options"
        )
    for name, markers in FINDINGS:
        if any(marker in technique for marker in markers):
            return name
    return "other"


def decision_project(root: Path, env: dict[str, str], python: list[str]) -> Path:
    home = Path(env["HOME"])
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("-----BEGIN OPENSSH PRIVATE KEY-----\n")
    project = root / "work" / "proj"
    project.mkdir(parents=True)
    (root / "work" / "victim" / "sub").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=project, check=True, env=env)
    (project / ".env").write_text("SECRET_ENV=s3cr3t\n")
    (project / "README").write_text("hi\n")
    for argv in (["policy", "init", "--packs", "all"], ["policy", "trust"]):
        subprocess.run([*python, *argv], cwd=project, env=env, check=True, capture_output=True)
    return project


def decide(command: str, project: Path, env: dict[str, str], python: list[str]) -> str:
    payload = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "session_id": "rt",
               "tool_input": {"command": command}, "cwd": str(project)}  # fmt: skip
    done = subprocess.run([*python, "hook", "--host", "claude"], input=json.dumps(payload),
                          capture_output=True, text=True, cwd=project, env=env, timeout=60,
                          check=False)  # fmt: skip
    if done.returncode == 2:
        return "deny"
    if not done.stdout.strip():
        return "allow"
    answer = json.loads(done.stdout).get("hookSpecificOutput", {})
    return str(answer.get("permissionDecision", "allow"))


def main(argv: list[str]) -> None:
    src = argv[argv.index("--src") + 1] if "--src" in argv else None
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        env = {"PATH": os.environ["PATH"], "HOME": str(root / "home"), "LANG": "C.UTF-8",
               "XDG_CONFIG_HOME": str(root / "home" / ".config"),
               "XDG_CACHE_HOME": str(root / "home" / ".cache"),
               "XDG_STATE_HOME": str(root / "home" / ".local" / "state"),
               "PYTHONDONTWRITEBYTECODE": "1", "GIT_AUTHOR_NAME": "a",
               "GIT_AUTHOR_EMAIL": "a@b", "GIT_COMMITTER_NAME": "a",
               "GIT_COMMITTER_EMAIL": "a@b"}  # fmt: skip
        if src:
            env["PYTHONPATH"] = src
        python = [sys.executable, "-c", "import sys; from hookwise.cli.entry import main; "
                  "sys.argv[0] = 'hookwise'; sys.exit(main())"]  # fmt: skip
        project = decision_project(root, env, python)
        blocked: Counter[str] = Counter()
        total: Counter[str] = Counter()
        for _effect, technique, command in rows():
            name = finding(technique, command)
            answer = decide(command, project, env, python)
            total[name] += 1
            if answer in ("deny", "ask"):
                blocked[name] += 1
            if "-v" in argv and answer not in ("deny", "ask"):
                print(f"    allowed ({name}): {command!r}")
        for name, _markers in (*FINDINGS, ("other", ())):
            if total[name]:
                print(f"{name}: blocked {blocked[name]} of {total[name]}")
        print(f"all: blocked {sum(blocked.values())} of {sum(total.values())}")


if __name__ == "__main__":
    main(sys.argv)
