"""Issue 24's evasion classes: each command is first shown to do the damage in real bash
(a throwaway ``victim`` is gone), then the policy must not let it through: ``deny`` by the
rule, or ``ask`` because hookwise cannot account for what it runs (settings.unverifiable).
And everyday commands from public repositories' CI scripts must pass untouched."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from hookwise.policy.tools.starter import starter_policy
from tests.policy.test_evasions import verdict

# (class, command): every one deletes ./victim when bash runs it
CLASSES = [
    ("flag from a variable", "f=-rf; rm $f victim"),
    ("default expansion", "rm ${x:--rf} victim"),
    ("positional parameters", 'set -- -rf victim; rm "$@"'),
    ("array", 'a=(rm -rf victim); "${a[@]}"'),
    ("declare", "declare p=rm; $p -rf victim"),
    ("printf -v", "printf -v p '%s' rm; $p -rf victim"),
    ("read from a here-string", "read p <<< rm; $p -rf victim"),
    ("arithmetic subscript", "i='a[$(rm -rf victim)]'; echo $(( i ))"),
    ("prompt expansion", "p='$(rm -rf victim)'; echo \"${p@P}\" >/dev/null"),
    ("mapfile callback", "printf 'x\\n' | mapfile -C 'rm -rf victim #' -c 1 a"),
    ("PS4 tracing", "PS4='$(rm -rf victim)'; set -x; :"),
    ("exported function", "f() { rm -rf victim; }; export -f f; bash -c f"),
    ("python on stdin", "echo 'import shutil; shutil.rmtree(\"victim\")' | python3"),
    ("python /dev/stdin", "python3 /dev/stdin <<< 'import shutil; shutil.rmtree(\"victim\")'"),
    ("perl here-string", 'perl <<< \'system("rm", "-rf", "victim")\''),
    ("python reflection", "python3 -c \"getattr(__import__('shu'+'til'), 'rmt'+'ree')('victim')\""),
    (
        "python list-form subprocess",
        "python3 -c \"import subprocess as s; s.run(['rm','-rf','victim'])\"",
    ),
    ("perl list exec", 'perl -e \'system("rm", "-rf", "victim")\''),
    ("perl interpolated command", 'perl -e \'$f="-rf"; system("rm $f victim")\''),
    (
        "file written then run",
        "printf 'import shutil\\nshutil.rmtree(\"victim\")\\n' > t.py; python3 t.py",
    ),
    ("base64 script", "echo cm0gLXJmIHZpY3RpbQo= | base64 -d > t.sh; bash t.sh"),
    ("computed subcommand", "$(echo rm) -rf victim"),
    ("glob in the program's place", "/bin/r[l-n] -rf victim"),
    ("awk from a pipe", "echo 'BEGIN{system(\"rm -rf victim\")}' > p.awk; awk -f p.awk"),
]


@pytest.mark.parametrize(("kind", "command"), CLASSES)
def test_the_class_does_damage_in_bash_and_is_not_let_through(
    tmp_path: Path, kind: str, command: str
) -> None:
    for tool in ("python3", "perl", "awk", "base64"):
        if tool in command and shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed")
    victim = tmp_path / "victim"
    (victim / "sub").mkdir(parents=True)
    (victim / "sub" / "file").write_text("x")
    subprocess.run(
        ["bash", "-c", command],
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=30,
        check=False,
    )
    assert not (victim / "sub" / "file").exists(), f"bash did not do the damage: {command}"
    decision, reason = verdict(command, cwd=str(tmp_path))
    assert decision in ("deny", "ask"), (kind, command, decision, reason)


# Everyday commands from public repositories' CI scripts, Makefiles and READMEs (the kind of
# line an agent runs all day): none may be denied or asked about.
EVERYDAY = [
    "python -m pip install -e '.[test]'",
    "pytest -q tests/",
    "python tools/generate.py --check",
    "npm ci && npm run build",
    "npm test -- --watch=false",
    "make -j4 test",
    "go test ./...",
    "cargo build --release",
    "git status --porcelain",
    "git diff --stat HEAD~1",
    "git log --oneline -20",
    "ls -la src/",
    "grep -rn TODO src/ | head -20",
    "zip -r dist.zip . -x '*.git*'",
    "find . -path ./node_modules -prune -o -name '*.js' -print",
    "openssl genrsa -out server.key 2048",
    "tar -czf release.tgz dist/",
    "docker build -t app .",
    "black --check . && ruff check .",
    "for f in *.md; do echo $f; done",
    "export PATH=$HOME/.local/bin:$PATH; which python",
]


@pytest.mark.parametrize("command", EVERYDAY)
def test_everyday_commands_pass(command: str) -> None:
    """Under the test policy and under the starter policy with every pack (`policy init
    --packs all`, what a newcomer runs)."""
    for policy in (None, starter_policy(["all"])):
        decision, reason = verdict(command) if policy is None else verdict(command, policy)
        assert decision == "none", (command, decision, reason)
