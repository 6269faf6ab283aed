"""``hookwise policy fuzz``: escapes of naive rules are found, variants are real equivalents."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import hypothesis.strategies as st
from hypothesis import HealthCheck, given, settings

from hookwise.policy.tools.fuzz import _sample_regex, _verdict, fuzz_policy, near_misses, variants
from tests.policy.conftest import compile_text
from tests.policy.rules.test_packs import sandbox_run

HOOKWISE = str(Path(sys.executable).parent / "hookwise")

NAIVE = """\
version: 1
rules:
  - id: naive-rm
    match: {command: {line_regex: '^rm -rf'}}
    action: deny
"""
SOLID = """\
version: 1
extends: [hookwise/git]
"""


def fuzz(tmp: Path, policy: str, *args: str) -> subprocess.CompletedProcess[str]:
    path = tmp / "policy.yaml"
    path.write_text(policy)
    env = dict(os.environ, HOME=str(tmp), HOOKWISE_CACHE_DIR=str(tmp / "cache"))
    return subprocess.run(
        [HOOKWISE, "policy", "fuzz", "--policy", str(path), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
        cwd=tmp,
    )


def test_naive_regex_rule_gets_its_escapes_reported(tmp_path: Path) -> None:
    done = fuzz(tmp_path, NAIVE, "--format", "json")
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    forms = {f["form"] for f in report["rules"][0]["findings"] if f["kind"] == "escape"}
    # what a '^rm -rf' regex cannot see: other spellings, wrappers, chains, nested shells
    for expected in ("flags split", "sudo", "chain &&", "bash -c", "backslash \\rm"):
        assert expected in forms, forms
    assert report["rules"][0]["seed"] == "rm -rf"
    assert report["escapes"] >= 20


def test_text_output_and_rule_selection(tmp_path: Path) -> None:
    done = fuzz(tmp_path, NAIVE, "--rule", "naive-rm")
    assert done.returncode == 1
    assert "ESCAPE [sudo]: 'sudo rm -rf'" in done.stdout
    assert "1 rule(s):" in done.stdout


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    assert fuzz(tmp_path, NAIVE, "--rule", "missing").returncode == 2
    assert fuzz(tmp_path, "version: 1\nrules: [{id: x}]\n").returncode == 2
    assert fuzz(tmp_path, NAIVE, "--format", "xml").returncode == 2


def test_no_false_positives_on_pack_near_misses(tmp_path: Path) -> None:
    """A pack rule's near misses (echo, grep, commit messages...) all pass."""
    done = fuzz(tmp_path, SOLID, "--rule", "hookwise/git:no-force-push", "--format", "json")
    report = json.loads(done.stdout)
    assert report["false_positives"] == 0, report
    assert report["rules"][0]["tried"] > 40


def test_exit_0_when_nothing_is_found(tmp_path: Path) -> None:
    policy = "version: 1\nrules:\n  - {id: x, match: {command: mkfs}, action: deny}\n"
    done = fuzz(tmp_path, policy, "--format", "json")
    report = json.loads(done.stdout)
    assert done.returncode == (1 if report["escapes"] or report["false_positives"] else 0)


def test_near_misses_only_mention_the_command() -> None:
    for _form, command in near_misses("rm -rf x"):
        assert "rm -rf x" in command or "rm" in command


@given(st.sampled_from(["^rm -rf", r"git\s+push\s+--force", "(curl|wget) .*\\| *sh"]))
def test_regex_samples_match_their_regex(pattern: str) -> None:
    import re

    sample = _sample_regex(pattern)
    assert sample is not None and re.search(pattern, sample)


_UNSAFE = ("sudo", "busybox", "/bin/", "flock", "exec ", "node ", "perl ", "setsid")
_SEEDS = [
    "rm -rf ../victim",
    "rm -r -f ../victim",
    "chmod -R 777 ../victim",
    "rm --recursive ../victim",
]


# programs a variant may run that a machine need not have (GNU parallel is not Debian's
# default): a variant naming one that is missing cannot show anything here
_OPTIONAL = ("python3", "parallel", "sem", "tmux", "screen", "gdb", "sqlite3", "vim", "tclsh")


def _runnable(command: str) -> bool:
    if any(word in command for word in _UNSAFE):
        return False
    return all(
        shutil.which(name) is not None
        for name in _OPTIONAL
        if re.search(rf"(^|[\s;|&('\"]){name}\b", command)
    )


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.sampled_from(_SEEDS), st.data())
def test_filesystem_variants_do_what_the_seed_does(
    tmp_path_factory: object, seed: str, data: st.DataObject
) -> None:
    """Run in bash in throwaway directories, a variant changes ../victim iff the seed does."""
    options = [(f, c) for f, c in variants(seed) if _runnable(c)]
    form, command = data.draw(st.sampled_from(options))
    base = Path(str(tmp_path_factory.mktemp("fuzz")))  # type: ignore[attr-defined]
    assert sandbox_run(base / "seed", seed)
    assert sandbox_run(base / "variant", command), f"{form}: {command!r} is not equivalent"


_NEW_FORMS = (
    "ANSI-C octal program",
    "alias",
    "trap EXIT",
    "arithmetic substitution",
    "parameter default substitution",
    "case body",
    "while body",
    "until condition",
    "coproc",
    "eval ANSI-C",
    "env -i",
    "env -C",
    "command -p",
    "quoted wrapper",
    "timeout -s",
    "compgen -C",
    "git core.sshCommand",
    "GIT_SSH_COMMAND",
    "PROMPT_COMMAND",
    "tar --checkpoint-action",
    "sed e",
    "make --eval",
    "vim -c !",
    "awk getline",
    "xargs -I",
)


def test_every_spelling_class_added_by_the_red_team_really_runs_the_seed(tmp_path: Path) -> None:
    """Each of these forms, run by bash, changes ../victim just as the seed does; and the
    starter policy with every pack denies each of them."""
    from hookwise.policy.tools.starter import starter_policy

    forms = dict(variants("rm -rf ../victim"))
    assert set(_NEW_FORMS) <= set(forms)
    policy = compile_text(starter_policy(["all"]))
    for index, form in enumerate(_NEW_FORMS):
        command = forms[form]
        if form == "vim -c !" and shutil.which("vim") is None:
            continue
        assert sandbox_run(tmp_path / str(index), command), f"{form}: {command!r}"
        blocked, _ = _verdict(policy, command, "/home/dev/project", {"HOME": "/home/dev"})
        assert blocked, f"{form}: {command!r}"


_S23_FORMS = (
    "xargs -0 from printf",
    "xargs -d from printf",
    "xargs -I from printf",
    "xargs from a here-string of an array",
    "xargs from process substitution",
    "keyed array",
    "nameref to BASH_ALIASES",
    "python stdlib call that runs a command",
    "python module under another name",
)


def test_session_23_classes_really_run_the_seed_and_are_blocked(tmp_path: Path) -> None:
    """The fuzz draws on session 23's classes (tests/policy/corpus/escapes_s23.yaml): each
    form, run by bash, changes ../victim as the seed does, and every pack blocks it."""
    forms = dict(variants("rm -rf ../victim"))
    assert set(_S23_FORMS) <= set(forms)
    policy = compile_text(
        "version: 1\nextends: [hookwise/filesystem, hookwise/git, hookwise/secrets]\n"
    )
    for index, form in enumerate(_S23_FORMS):
        command = forms[form]
        assert sandbox_run(tmp_path / str(index), command), f"{form}: {command!r}"
        blocked, _ = _verdict(policy, command, "/home/dev/project", {"HOME": "/home/dev"})
        assert blocked, f"{form}: {command!r}"


def test_a_reader_seed_is_fuzzed_through_a_subcommand_that_reads(tmp_path: Path) -> None:
    """Session 23b: `cat .env` as `git diff --no-index /dev/null .env` prints the file in
    real bash (outside any repository), and the secrets pack blocks it."""
    command = dict(variants("cat .env"))["git diff --no-index"]
    (tmp_path / ".env").write_text("TOKEN=mark-9c2\n")
    done = subprocess.run(["bash", "-c", command], cwd=tmp_path, capture_output=True,
                          text=True, check=False, timeout=30)  # fmt: skip
    assert "mark-9c2" in done.stdout, done
    policy = compile_text("version: 1\nextends: [hookwise/secrets]\n")
    blocked, _ = _verdict(policy, command, "/home/dev/project", {"HOME": "/home/dev"})
    assert blocked, command


def test_a_reads_rule_is_fuzzed_through_a_reader() -> None:
    """`reads: true` has no program to respell: the fuzz seeds it with a reader."""
    from hookwise.policy.tools.fuzz import seeds

    policy = compile_text("version: 1\nextends: [hookwise/secrets]\n")
    rule = next(r for r in policy["rules"] if r["id"].endswith("no-shell-read-secret-files"))
    assert list(seeds(rule)) == ["cat .env"]


def test_fuzz_finds_the_escapes_of_a_line_regex_rule() -> None:
    policy = compile_text(
        "version: 1\nsettings: {unverifiable: allow}\nrules:\n"
        "  - {id: weak, match: {command: {line_regex: 'rm -rf'}}, action: deny}\n"
    )
    (report,) = fuzz_policy(policy)
    forms = {f.form for f in report.findings if f.kind == "escape"}
    assert {"ANSI-C octal program", "eval ANSI-C", "flags split", "base64 to sh"} <= forms
