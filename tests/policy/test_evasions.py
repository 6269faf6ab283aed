"""Command matching that cannot be talked around (issue 11, items 1-3).

The shell semantics each evasion relies on, the option table checked against the real
programs, and the unverifiable verdict; the large labelled corpus is test_corpus.py.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.policy.pipeline import decide
from hookwise.policy.tools.payloads import build_payload
from hookwise.shell.parser import split_command
from hookwise.shell.programs import OPTIONS, canonical_flag, expand_long, flags_of
from tests.policy.conftest import compile_text

POLICY = """\
version: 1
rules:
  - {id: no-rm-r, match: {command: rm -r}, action: deny, reason: RMR}
  - {id: no-force, match: {command: git push --force}, action: deny, reason: FORCE}
"""


def verdict(command: str, policy: str = POLICY, cwd: str = "/work/project") -> tuple[str, str]:
    compiled = compile_text(policy)
    payload = build_payload(
        "claude", "PreToolUse", tool="Bash", tool_input={"command": command}, cwd=cwd
    )
    outcome = decide(payload, compiled, "claude", {"HOME": "/home/dev"}, now=0.0)
    decision = outcome.decision
    assert decision is not None
    return decision.decision or "none", decision.reason


@pytest.mark.parametrize(
    "command",
    [
        "cat > notes <<EOF\nhello $(rm -r victim)\nEOF",
        "cat > notes <<EOF\n`rm -r victim`\nEOF",
        "find . -exec rm -rf {} +",
        "find . -execdir rm -rf {} \\;",
        "find . -ok rm -rf {} \\;",
        "find build -delete",
        "function f { rm -rf x; }; f",
        "coproc rm -rf x",
        "coproc worker { rm -rf x; }",
        "{rm,-rf,x}",
        '$"rm" -rf x',
        "env -S 'rm -rf x'",
        "rm --rec --force x",
        "rm --recur x",
        "rm -R x",
        "rm --recursive x",
        "setsid rm -rf x",
        "flock /tmp/lock rm -rf x",
        "flock -c 'rm -rf x' /tmp/lock",
        "chroot / rm -rf x",
        "taskset -c 0 rm -rf x",
        "watch -n 1 rm -rf x",
        "su -c 'rm -rf x'",
        "su - root -c 'rm -rf x'",
        "runuser -u me -- rm -rf x",
        "script -qc 'rm -rf x' /dev/null",
        "strace -f -o /dev/null rm -rf x",
        "unshare -r rm -rf x",
        "nsenter -t 1 -m rm -rf x",
        "parallel -j 2 rm -rf ::: a b",
        "busybox rm -rf x",
        "toybox rm -rf x",
        "echo 'rm -rf x' | sh",
        "printf 'rm -rf x\\n' | bash",
        "bash <<'E'\nrm -rf x\nE",
        "sh <<< 'rm -rf x'",
        "python3 -c \"import shutil; shutil.rmtree('x')\"",
        "python3 -c \"import os; os.system('rm -rf x')\"",
        "python3 -c \"import subprocess; subprocess.run(['rm', '-rf', 'x'])\"",
        "python3 - <<'EOF'\nimport shutil\nshutil.rmtree('x')\nEOF",
        "perl -e 'system(\"rm -rf x\")'",
        "perl -e 'system(q(rm -rf x))'",
        "ruby -e 'system(\"rm -rf x\")'",
        "node -e \"require('child_process').execSync('rm -rf x')\"",
        "node -e \"require('fs').rmSync('x', {recursive: true})\"",
        "awk 'BEGIN{system(\"rm -rf x\")}'",
        "ssh host 'rm -rf x'",
        "ssh -p 22 -i key user@host rm -rf x",
        "docker exec -it c rm -rf x",
        "podman exec c rm -rf x",
        "kubectl exec -n prod pod -- rm -rf x",
        "xargs rm -rf < list",
        "sudo -u root rm -rf x",
        "nohup nice -n 5 timeout 10 rm -rf x",
    ],
)
def test_evasions_of_rm_r_are_denied(command: str) -> None:
    assert verdict(command) == ("deny", "RMR"), command


@pytest.mark.parametrize(
    "command",
    [
        "git -c alias.p=push p --force",
        "git config alias.p 'push --force' && git p",
        "git -c alias.p='!git push --force' p",
        "git push -f origin main",
        "git push --force-with-lease=main origin main",
    ],
)
def test_evasions_of_force_push(command: str) -> None:
    decision, reason = verdict(command)
    if "force-with-lease" in command:
        assert decision == "none"  # --force-with-lease is not --force
    else:
        assert (decision, reason) == ("deny", "FORCE"), command


@pytest.mark.parametrize(
    "command",
    [
        "cat > notes <<'EOF'\n$(rm -r victim)\nEOF",  # a quoted delimiter: data
        "echo 'rm -rf x'",
        "grep -r rm .",
        "rm file.txt",
        "git push origin main",
        "find . -name '*.py' -print",
        "python3 -c 'print(1)'",
        "ssh host uptime",
        "docker exec c ls",
        "man rm",
    ],
)
def test_near_misses_pass(command: str) -> None:
    assert verdict(command)[0] == "none", command


@pytest.mark.parametrize(
    "command",
    ["read a; $a x", "${RM:-rm} x", "$(printf rm) x", "echo cm0= | base64 -d | sh", 'eval "$x"'],
)
def test_unverifiable_commands_ask_by_default_and_the_setting_decides(command: str) -> None:
    harmless = (
        "version: 1\nrules:\n  - {id: c, match: {tool: shell}, action: context, context: x}\n"
    )
    decision, reason = verdict(command, harmless)
    assert decision == "ask" and "cannot verify" in reason
    assert verdict(command, harmless + "settings: {unverifiable: deny}\n")[0] == "deny"
    assert verdict(command, harmless + "settings: {unverifiable: allow}\n")[0] == "none"


@pytest.mark.parametrize("command", ["a=rm; $a -rf x", "${RM:-rm} -rf x", "rm${IFS}-rf${IFS}x"])
def test_a_rule_matches_an_unknown_program_as_if_it_were_it(command: str) -> None:
    decision, reason = verdict(command)
    # the rule's reason, said to hold for what the program could be
    assert decision == "deny" and reason.endswith("RMR"), reason


def test_when_can_test_unverifiable() -> None:
    policy = (
        "version: 1\nsettings: {unverifiable: allow}\nrules:\n"
        "  - {id: dyn, match: {tool: shell}, when: 'len(unverifiable) > 0', action: deny,"
        " reason: DYN}\n"
    )
    assert verdict("$cmd x", policy) == ("deny", "DYN")
    assert verdict("ls", policy)[0] == "none"


@pytest.mark.parametrize(
    ("command", "decision"),
    [
        ("cd .. && rm -rf project", "deny"),
        ("(cd /; rm -rf etc)", "deny"),
        ("rm -rf ~root", "deny"),
        ("cd src && rm -rf build", "none"),
    ],
)
def test_cd_is_followed_along_the_line(command: str, decision: str) -> None:
    from tests.policy.corpus_support import starter_without_confirmations

    assert verdict(command, starter_without_confirmations())[0] == decision, command


# --------------------------------------------------------------------------- the table


def test_abbreviations_and_aliases_canonicalise() -> None:
    assert expand_long("rm", "--rec") == "--recursive"
    assert canonical_flag("rm", "--recur") == "-r" == canonical_flag("rm", "-R")
    assert expand_long("git", "--forc") == "--forc"  # ambiguous: git refuses it too
    flags, positionals = flags_of("git", ["git", "-C", "repo", "push", "-fu", "origin"])
    assert "-f" in flags and positionals == ["push", "origin"]


@pytest.mark.parametrize("program", ["rm", "cp", "mv", "chmod", "chown", "curl", "wget"])
def test_the_table_matches_the_real_programs_help(program: str) -> None:
    """Every long option listed is one the installed program documents."""
    binary = shutil.which(program)
    if binary is None:
        pytest.skip(f"{program} is not installed")
    text = subprocess.run(
        [binary, "--help"], capture_output=True, text=True, timeout=30, check=False
    ).stdout
    text += subprocess.run(
        [binary, "--help", "all"], capture_output=True, text=True, timeout=30, check=False
    ).stdout
    groups, longs, _values = OPTIONS[program]
    listed = {o for o in longs} | {s for g in groups for s in g if s.startswith("--")}
    missing = sorted(o for o in listed if o not in text)
    assert missing == [], f"{program} --help does not know {missing}"


def test_gnu_rm_really_accepts_the_spellings_the_table_expands(tmp_path: Path) -> None:
    for spelling in (["--rec", "--force"], ["--recur"], ["-R"], ["--recursive"]):
        victim = tmp_path / "victim"
        (victim / "sub").mkdir(parents=True)
        subprocess.run(["rm", *spelling, str(victim)], check=True, timeout=30)
        assert not victim.exists(), spelling
        assert verdict(f"rm {' '.join(spelling)} victim")[0] == "deny"


@given(st.text(max_size=200))
@settings(max_examples=300, deadline=None)
def test_the_parser_never_raises_on_any_text(text: str) -> None:
    script = split_command(text)
    assert isinstance(script.complete, bool)
    for command in script.commands:
        assert isinstance(command.argv, list)
