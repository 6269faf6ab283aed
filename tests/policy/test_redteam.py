"""An attacker's second pass over issues 10 and 11: forms bash runs that the matcher missed,
and what a hostile repository could do to hang or crash the hook.

Each evasion is first shown to be dangerous: bash (and the real tar, sed, make, awk, vim,
find, xargs, env) deletes a throwaway ``victim`` with it. Then the hook must deny it. The
hostile-repository attacks run ``hookwise hook`` as a process with the policy in a real
repository, and must be answered (blocked) well before a host's 10 s hook timeout.
"""

from __future__ import annotations

import random
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.shell import programs
from hookwise.shell.ansi_c import ansi_c
from hookwise.shell.code_commands import code_commands
from hookwise.shell.parser import split_command
from hookwise.shell.programs import COMPUTED, XARGS_INPUT
from hookwise.shell.sed_script import sed_commands
from hookwise.shell.xargs_input import xargs_replace
from tests.policy.test_evasions import verdict
from tests.policy.trust.test_trust_model import World

# --------------------------------------------------------------- forms bash really runs

REAL = [
    "shopt -s expand_aliases\nalias x='rm -rf'\nx victim",
    "echo victim | xargs rm -rf",
    "echo victim | xargs -I{} sh -c 'rm -rf {}'",
    "printf 'victim\\n' | xargs -n1 rm -rf",
    "xargs rm -rf <<< victim",
    "trap 'rm -rf victim' EXIT",
    "echo $((1+$(rm -rf victim; echo 0)))",
    ": ${x:=$(rm -rf victim)}",
    'echo "${x:-$(rm -rf victim)}"',
    "$'\\162m' -rf victim",
    "$'\\u0072m' -rf victim",
    "env -C . rm -rf victim",
    "env -iu X PATH=/usr/bin:/bin rm -rf victim",
    "tar -cf /dev/null seed --checkpoint=1 --checkpoint-action=exec='rm -rf victim'",
    "tar --to-command='rm -rf victim' -xf seed.tar",
    "sed -n '1e rm -rf victim' seed",
    "make --eval='x: ; rm -rf victim' x",
    "make -f - <<< $'x:\\n\\trm -rf victim'",
    "awk 'BEGIN{\"rm -rf victim\" | getline}'",
    "compgen -C 'rm -rf victim' x 2>/dev/null",
    "vim -es -c '!rm -rf victim' -c 'q!'",
    "find victim -type f -exec rm {} +",
    "find . -name victim -exec rm -r {} +",
    "echo 'rm -rf victim' > x.sh && bash x.sh",
    "cat > x.sh <<'EOF'\nrm -rf victim\nEOF\nchmod +x x.sh; ./x.sh",
    "tee x.sh <<< 'rm -rf victim' >/dev/null; . ./x.sh",
    "source <(echo 'rm -rf victim')",
    "bash /dev/stdin <<< 'rm -rf victim'",
]


def _tool(command: str) -> str | None:
    """The program a real check needs that may be missing here."""
    for name in ("tar", "make", "vim", "awk", "sed"):
        if command.startswith(name) or f"| {name}" in command:
            return name
    return None


@pytest.mark.parametrize("command", REAL)
def test_bash_really_runs_the_evasion_and_the_hook_denies_it(tmp_path: Path, command: str) -> None:
    needed = _tool(command)
    if needed and shutil.which(needed) is None:
        pytest.skip(f"{needed} is not installed")
    victim = tmp_path / "victim"
    (victim / "sub").mkdir(parents=True)
    (victim / "sub" / "file").write_text("x")
    (tmp_path / "seed").write_text("line\n")
    subprocess.run(["tar", "-cf", "seed.tar", "seed"], cwd=tmp_path, check=True, timeout=30)
    subprocess.run(
        ["bash", "-c", command],
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=30,
        check=False,
    )
    gone = not victim.exists() or not (victim / "sub" / "file").exists()
    assert gone, f"bash did not run it: {command}"
    assert verdict(command, cwd=str(tmp_path))[0] == "deny", command


@pytest.mark.parametrize(
    "command",
    [
        "alias ll='ls -la'; ll",
        "trap 'rm -f \"$tmp\"' EXIT",
        "echo $((1 + 2))",
        'echo "${HOME:-/tmp}"',
        "find . -name '*.pyc' | xargs rm -f",
        "find . -name node_modules -type d | xargs rm -rf",
        "git ls-files | xargs wc -l",
        "tar -czf out.tgz src",
        "sed -n '1,20p' file",
        "sed -i 's/a/b/' file",
        "make -C docs html",
        "awk '{print $1}' log",
        "vim -c 'set number' README.md",
        "env -C build make",
    ],
)
def test_the_same_programs_used_everyday_pass(command: str) -> None:
    from tests.policy.corpus_support import starter_without_confirmations

    assert verdict(command, starter_without_confirmations(["all"]))[0] == "none", command


# ---------------------------------------------------------------------- the pieces


def test_ansi_c_quoting_decodes_as_bash_does(tmp_path: Path) -> None:
    """Random escapes (octal, hex, \\u, \\c, unknown ones) against bash's own $'...'."""
    rng = random.Random(11)
    pieces = ["\\162", "\\x72", "\\u0072", "\\U0001F600", "\\cA", "\\q", "\\\\", "\\'", "\\n",
              "\\7", "\\08", "\\x4", "\\e", "m", "-", " "]  # fmt: skip
    samples = ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 6))) for _ in range(200)]
    script = "".join(f"printf '%s\\0' $'{s}'\n" for s in samples)
    done = subprocess.run(
        ["bash", "-c", script], capture_output=True, timeout=30, check=True, cwd=tmp_path
    )
    expected = done.stdout.decode("utf-8", "surrogateescape").split("\0")[:-1]
    got = [ansi_c(s) for s in samples]
    assert got == expected


def test_git_abbreviates_per_subcommand_as_the_table_says(tmp_path: Path) -> None:
    """``git clean --forc`` is --force (clean has one --force...), ``git push --forc`` is
    ambiguous and refused; the table (programs.GIT_LONGS) agrees with the real git."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True, timeout=30)
    (tmp_path / "untracked").write_text("x")
    clean = subprocess.run(
        ["git", "clean", "--forc", "--dry"], cwd=tmp_path, capture_output=True, text=True,
        timeout=30, check=False,
    )  # fmt: skip
    assert clean.returncode == 0 and "untracked" in clean.stdout
    push = subprocess.run(
        ["git", "push", "--forc"], cwd=tmp_path, capture_output=True, text=True, timeout=30,
        check=False,
    )  # fmt: skip
    assert "ambiguous option" in push.stderr
    assert "-f" in programs.flags_of("git", ["git", "clean", "--forc"])[0]
    assert "-f" not in programs.flags_of("git", ["git", "push", "--forc"])[0]
    for sub, longs in programs.GIT_LONGS.items():
        shown = subprocess.run(
            ["git", sub, "-h"], capture_output=True, text=True, timeout=30, check=False
        )
        text = shown.stdout + shown.stderr
        missing = [o for o in longs.split() if o not in text and "[no-]" + o[2:] not in text]
        assert missing == [], f"git {sub} -h does not know {missing}"


def test_xargs_operands_come_from_what_is_piped_in() -> None:
    def argvs(text: str) -> list[list[str]]:
        return [c.argv for c in split_command(text).commands]

    assert argvs("echo a b | xargs rm -f")[1] == ["rm", "-f", "a", "b"]
    assert argvs("echo a | xargs -I% mv % %.bak")[1] == ["mv", "a", "a.bak"]
    assert argvs("find / -name x | xargs rm -rf")[1] == ["rm", "-rf", "/x"]
    # a list read from a file when the line runs (cat, < list, -a): unknown until then, the
    # agent may have rewritten it a call earlier (docs/policy.md)
    assert argvs("cat list | xargs rm -rf")[1] == ["rm", "-rf", COMPUTED]
    # any other producer's output is words made when it runs (red team s28 B: `echo niam+ |
    # rev | xargs git push origin`); git's list of what it tracks stays the repository's names
    assert argvs("some-tool | xargs rm -rf")[1] == ["rm", "-rf", COMPUTED]
    assert argvs("git ls-files | xargs rm -f")[1] == ["rm", "-f", XARGS_INPUT]
    assert xargs_replace(["xargs", "-i"]) == "{}"
    assert xargs_replace(["xargs", "-IX"]) == "X"
    assert xargs_replace(["xargs", "-n1"]) is None


@pytest.mark.parametrize(
    ("script", "found"),
    [
        ("1e rm -rf x", [("script", "rm -rf x")]),
        ("s/a/b/e", [("unverifiable", "sed runs the pattern space as a command (s///e)")]),
        ("s/a/b/w out.txt", [("write", "out.txt")]),
        ("/x/w ~/.bashrc", [("write", "~/.bashrc")]),
        ("1,20p", []),
        ("s/e/w/g; /^$/d", []),
        ("s|/usr/e|/x|", []),
        ("y/abc/xyz/", []),
        ("/start/,/end/{s/a/b/;p}", []),
    ],
)
def test_sed_scripts_are_read_for_commands_and_writes(
    script: str, found: list[tuple[str, str]]
) -> None:
    assert sed_commands(script) == found


@given(st.text(max_size=120))
@settings(max_examples=300, deadline=None)
def test_option_readers_never_raise(text: str) -> None:
    sed_commands(text)
    code_commands(text, awk=True)
    for program in ("git", "tar", "rsync", "zip", "vim", "make", "npx", "sed", "compgen"):
        programs.runs(program, [program, *text.split()], [text])


# ------------------------------------------------------------- a hostile repository


def _blocked(answer: dict[str, object]) -> bool:
    return answer["exit"] == 2 or answer["decision"] in ("deny", "ask")


@pytest.mark.parametrize(
    ("policy", "command"),
    [
        # catastrophic backtracking: (a+)+$ on "aaa...!" runs for minutes
        (
            'version: 1\nrules:\n  - {id: r, match: {command: {line_regex: "(a+)+$"}},'
            " action: deny}\n",
            "a" * 40 + "!; git push --force",
        ),
        (
            "version: 1\nrules:\n  - {id: r, match: {tool: shell},"
            " when: 'command matches \"(a|aa)+$\"', action: deny}\n",
            "a" * 40 + "!",
        ),
        # libyaml recurses in C: tens of thousands of [ crash the process (SIGSEGV)
        ("version: 1\nrules: " + "[" * 60000 + "]" * 60000 + "\n", "git push --force"),
        ("version: 1\nrules: " + "{a: " * 60000 + "x" + "}" * 60000 + "\n", "ls"),
    ],
    ids=["regex", "when-regex", "deep-sequence", "deep-mapping"],
)
def test_a_hostile_policy_cannot_hang_or_crash_the_hook(
    world: World, policy: str, command: str
) -> None:
    world.policy(policy)
    started = time.monotonic()
    result = world.shell(command)
    # answered, and before the 10 s a host gives the installed hook (a killed hook lets the
    # tool run): this is the property under attack, not a performance figure
    assert time.monotonic() - started < 9
    assert _blocked(result), result


def test_a_billion_laughs_value_is_refused(world: World) -> None:
    lines = ["version: 1", "rules:", "  - id: r", "    match:", "      fields:",
             "        - {path: input.command, op: eq, value: {seed: &a0 [x, x, x, x, x, x, x, x]"]  # fmt: skip
    for level in range(1, 10):
        lines[-1] += f", a{level}: &a{level} [" + ", ".join([f"*a{level - 1}"] * 8) + "]"
    lines[-1] += "}}"
    lines.append("    action: deny")
    world.policy("\n".join(lines) + "\n")
    result = world.shell("ls")
    assert _blocked(result)
    assert "expands to more than" in str(result["reason"]) + str(result["stderr"])


@pytest.mark.parametrize(
    "command",
    [
        "find . -name policy.yaml -delete",
        "find . -name '*.yaml' -delete",
        "find . -iname POLICY.YAML -exec rm {} +",
        "find . -type f -delete",
        "ls .hookwise/* | xargs rm",
        "echo .hookwise/policy.yaml | xargs rm",
        "ln .hookwise/policy.yaml copy && : > copy",
        "cp -l .hookwise/policy.yaml copy",
        # a directory known only when it runs (cd "$X", popd): the line names the file
        'cd "$X"; rm -f .hookwise/policy.yaml',
        'X=.hookwise; cd "$X"; rm -f policy.yaml',
        "pushd /tmp; popd; : > .hookwise/policy.yaml",
        "rm -rf $D/.hookwise",
        "CDPATH=. cd .hookwise && rm -f policy.yaml",
    ],
)
def test_self_protection_sees_find_tests_xargs_and_hard_links(world: World, command: str) -> None:
    policy = world.policy("version: 1\nrules: []\n")
    result = world.shell(command)
    assert result["decision"] == "deny" and "protects its own guardrails" in str(result["reason"])
    assert policy.read_text() == "version: 1\nrules: []\n"


def test_a_hard_link_made_earlier_is_still_the_policy(world: World) -> None:
    policy = world.policy("version: 1\nrules: []\n")
    (world.repo / "innocent.txt").hardlink_to(policy)
    for command in (": > innocent.txt", "truncate -s0 innocent.txt", "sed -i d innocent.txt"):
        assert world.shell(command)["decision"] == "deny", command
    answer = world.tool("Write", {"file_path": str(world.repo / "innocent.txt"), "content": ""})
    assert answer["decision"] == "deny"
    assert world.shell("cat innocent.txt")["decision"] is None


@pytest.mark.parametrize(
    "command",
    ["find . -name '*.pyc' -delete", "find src -delete", "git stash", "ls .hookwise | xargs echo"],
)
def test_near_the_guardrails_everyday_commands_pass(world: World, command: str) -> None:
    world.policy("version: 1\nrules: []\n")
    (world.repo / "src").mkdir()
    assert world.shell(command)["decision"] is None, command


@pytest.fixture
def world(tmp_path: Path) -> World:
    return World(tmp_path)


TRUSTED = """\
version: 1
rules:
  - id: check
    match: {tool: shell}
    action: validate
    validator: {command: "touch VALIDATOR-RAN", timeout: 120}
"""


@pytest.mark.parametrize("link", ["file", "directory"])
def test_a_link_to_a_policy_trusted_elsewhere_is_not_trusted_here(
    world: World, tmp_path: Path, link: str
) -> None:
    """A trusted file's validators run in the event's directory: a repository that links
    its .hookwise/policy.yaml (or .hookwise/) to it must not get them run there."""
    trusted = world.policy(TRUSTED)
    assert world.cli("policy", "trust", str(trusted)).returncode == 0
    answer = world.shell("ls")
    assert (world.repo / "VALIDATOR-RAN").exists(), answer  # where it was trusted, it applies

    hostile = tmp_path / "hostile"
    subprocess.run(["git", "init", "-q", str(hostile)], check=True, timeout=30)
    if link == "file":
        (hostile / ".hookwise").mkdir()
        (hostile / ".hookwise" / "policy.yaml").symlink_to(trusted)
    else:
        (hostile / ".hookwise").symlink_to(trusted.parent)
    world.shell("ls", cwd=hostile)
    assert not (hostile / "VALIDATOR-RAN").exists()

    # trusting it through the link is the user's own choice, and untrusting it there
    # leaves the original trusted
    linked = hostile / ".hookwise" / "policy.yaml"
    assert world.cli("policy", "trust", str(linked)).returncode == 0
    answer = world.shell("ls", cwd=hostile)
    assert (hostile / "VALIDATOR-RAN").exists(), answer
    (hostile / "VALIDATOR-RAN").unlink()
    (world.repo / "VALIDATOR-RAN").unlink()
    assert world.cli("policy", "untrust", str(linked)).returncode == 0
    world.shell("ls", cwd=hostile)
    answer = world.shell("ls")
    assert not (hostile / "VALIDATOR-RAN").exists()
    assert (world.repo / "VALIDATOR-RAN").exists(), answer


def test_a_validator_read_from_the_cache_runs_where_its_policy_is(world: World) -> None:
    """The linked-trust test above failed in whole-suite runs only: when the trust store's
    bytes came back to those of an earlier call (the two trusts in one second), the last
    call read the compiled cache, whose rules had lost their file, and the validator ran in
    "/" (a ``VALIDATOR-RAN`` there) instead of the project. Here the second call is a cache
    hit for certain."""
    where = world.root / "where"
    world.policy(TRUSTED.replace("touch VALIDATOR-RAN", f"pwd >> {where}"))
    assert (
        world.cli("policy", "trust", str(world.repo / ".hookwise" / "policy.yaml")).returncode == 0
    )
    cache = world.home / ".cache" / "hookwise"
    first = world.shell("ls")
    compiled = {p: p.stat().st_mtime_ns for p in cache.glob("policy-*.marshal")}
    second = world.shell("ls")
    assert compiled and compiled == {p: p.stat().st_mtime_ns for p in compiled}  # (a hit)
    assert where.read_text().splitlines() == [str(world.repo)] * 2, (first, second)


@pytest.mark.parametrize(
    ("tool_input", "decision"),
    [
        ({"command": "rm policy.yaml", "dir_path": ".hookwise"}, "deny"),
        ({"command": ": > policy.yaml", "directory": ".hookwise"}, "deny"),
        ({"command": "rm -rf repo", "dir_path": ".."}, "deny"),
        ({"command": "git push --force", "dir_path": "sub"}, "deny"),
        ({"command": "rm -rf build", "dir_path": "sub"}, None),
        ({"command": "ls", "dir_path": ".hookwise"}, None),
    ],
)
def test_gemini_runs_the_command_in_its_dir_path(
    world: World, tool_input: dict[str, str], decision: str | None
) -> None:
    """Gemini's run_shell_command takes the directory to run in: paths resolve there, so
    ``rm policy.yaml`` in ``.hookwise`` is the policy, and ``rm -rf repo`` in ``..`` is
    the workspace."""
    from hookwise.policy.tools.payloads import build_payload

    world.policy("version: 1\nextends: [hookwise/filesystem]\nrules: []\n")
    (world.repo / "sub" / "build").mkdir(parents=True)
    payload = build_payload(
        "gemini", "BeforeTool", tool="run_shell_command", tool_input=tool_input,
        cwd=str(world.repo),
    )  # fmt: skip
    answer = world.answer(world.hook(payload, "--platform", "gemini"), "gemini")
    assert answer["decision"] == decision, answer
    assert (world.repo / ".hookwise" / "policy.yaml").exists()


@pytest.mark.parametrize(
    "command",
    [
        "HOOKWISE_ON_ERROR=allow codex exec 'rm -rf ~'",
        "HOOKWISE_USER_POLICY=/tmp/empty.yaml claude -p 'clean up'",
        "env HOOKWISE_TRUST_STORE=/tmp/t.json gemini -p hi",
        "export HOOKWISE_POLICY=/dev/null",
        "HOOKWISE_CACHE_DIR=/tmp/forged claude -p x",
        "CODEX_HOME=/tmp/nohooks codex exec 'rm -rf ~'",
        "HOME=/tmp/nohooks claude -p 'do it'",
        "echo 'export HOOKWISE_ON_ERROR=allow' >> ~/.bashrc",
        "tee -a .envrc <<< 'export HOOKWISE_POLICY=/dev/null'",
    ],
)
def test_the_agent_cannot_set_hookwise_variables_for_what_it_starts(
    world: World, command: str
) -> None:
    """A nested agent CLI runs its hooks with the environment it is given: the variables
    that move or loosen hookwise (and the hosts' config homes) are guardrails too."""
    result = world.shell(command)
    assert result["decision"] == "deny" and "protects its own guardrails" in str(result["reason"])


@pytest.mark.parametrize(
    "command",
    [
        "HOME=/tmp/x npm install",
        "XDG_CACHE_HOME=/tmp/c pip install -e .",
        "HOOKWISE_TEST_DATABASE_URL=postgres://localhost/x pytest",
        "claude -p 'summarize the diff'",
    ],
)
def test_everyday_environment_settings_pass(world: World, command: str) -> None:
    assert world.shell(command)["decision"] is None, command


def test_a_startup_file_line_is_asked_unless_read_as_harmless(world: World) -> None:
    """Red team s35 #1: a start-up line runs in the shell that starts the next agent
    (``export NODE_OPTIONS=--require ...``): asked unless every line is one hookwise reads
    as harmless (policy/trust/startup_lines.py, s35 B): PATH kept and extended after
    ``$PATH`` is; a writable directory put first, where a planted ``bash`` would run
    every later hook's shell, is not."""
    answer = world.shell("echo 'export PATH=/tmp/e:$PATH' >> ~/.bashrc")
    assert answer["decision"] == "ask" and "start-up file" in answer["reason"], answer
    assert world.shell("echo 'export PATH=$PATH:~/bin' >> ~/.bashrc")["decision"] is None


def test_a_file_tool_cannot_write_a_hookwise_variable_into_a_startup_file(world: World) -> None:
    home_rc = str(world.home / ".bashrc")
    answer = world.tool(
        "Write", {"file_path": home_rc, "content": "export HOOKWISE_ON_ERROR=allow\n"}
    )
    assert answer["decision"] == "deny"
    answer = world.tool("Write", {"file_path": home_rc, "content": "alias ll='ls -la'\n"})
    assert answer["decision"] == "ask"  # (any start-up line: red team s35 #1)


@pytest.mark.parametrize(
    ("host", "tool", "where"),
    [
        ("gemini", "write_file", ".gemini/policies/aaa.toml"),
        ("gemini", "write_file", ".gemini/policies/hookwise.toml"),
        ("claude", "Write", ".codex/rules/hookwise.rules"),
        ("claude", "Write", ".codex/rules/extra.rules"),
        ("claude", "Write", ".claude/.settings.json.hookwise-native.json"),
    ],
)
def test_the_native_rule_files_are_guarded(world: World, host: str, tool: str, where: str) -> None:
    """Red team s25 F16: a sibling ``~/.gemini/policies/aaa.toml`` with a higher-priority
    allow made the real Gemini CLI run what hookwise's exported rule denies; every file of
    the native rule directories (one tier) and install's records are guarded."""
    target = world.home / where
    answer = world.tool(tool, {"file_path": str(target), "content": "x"}, host=host)
    assert answer["decision"] == "deny", answer
    assert "protects its own guardrails" in str(answer["reason"])
    assert world.shell(f"rm -f {target}", host=host)["decision"] == "deny"
    assert world.shell(f"cat {target}", host=host)["decision"] is None  # reading is fine
