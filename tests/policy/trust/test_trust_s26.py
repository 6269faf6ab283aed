"""Red team s26's policy-loading and trust findings, as real hook processes (issue 23).

Each test performs the attack of rt-run-findings.md (the number in the test's name) through
``hookwise hook`` with a real home, repository and trust store, and checks what the host
would get.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.policy.cache import verdict_file
from hookwise.policy.rules import budget
from tests.policy.trust.test_trust_model import World


@pytest.fixture
def world(tmp_path: Path) -> World:
    return World(tmp_path)


# The red team's big_policy.py (redteam/s26 on branch redteam-s26-run), run as the agent's
# allowed `python3 tools/gen.py`: block style (few flow openers: the fast C loader), under
# 1 MiB, ~8,800 rules whose command matchers the shell parser reads (12 s of CPU to load).
BIG_POLICY = """\
import sys
out, size, i = ["version: 1", "rules:"], 0, 0
while True:
    r = (f"  - id: r{i}\\n    match:\\n      tool: shell\\n"
         f"      command: 'a{i} $(b | c) && d \\"$e\\" || f <<< g; h{i}'\\n    action: deny")
    if size + len(r) + 1 > (1 << 20) - 100:
        break
    out.append(r); size += len(r) + 1; i += 1
open(sys.argv[1], "w").write("\\n".join(out) + "\\n")
"""


def _big_policy(directory: Path) -> Path:
    (directory / ".hookwise").mkdir(parents=True, exist_ok=True)
    path = directory / ".hookwise" / "policy.yaml"
    subprocess.run([sys.executable, "-c", BIG_POLICY, str(path)], check=True, timeout=60)
    return path


def _slow_policy(directory: Path) -> Path:
    """rt26's slow_policy.py: under the 1 MiB cap, >10,000 '{' (the Python YAML loader)."""
    item = "- {a: {b: {c: {d: [1, 2, {e: f}]}}}}\n"
    body = "version: 1\nx-pad:\n" + item * ((1024 * 1024 - 300) // len(item))
    (directory / ".hookwise").mkdir(parents=True, exist_ok=True)
    path = directory / ".hookwise" / "policy.yaml"
    path.write_text(body)
    return path


def _timed(
    world: World, command: str, host: str = "claude", cwd: Path | None = None
) -> tuple[dict[str, Any], float]:
    started = time.monotonic()
    answer = world.shell(command, host=host, cwd=cwd)
    return answer, time.monotonic() - started


# ------------------------------------------- 4: fast to parse, slow to validate and compile


def test_4_a_policy_slow_to_validate_fails_closed_fast_every_time(world: World) -> None:
    """Written into an ancestor of the project (the red team's ~/.hookwise/): every call of
    every project below timed out (12 s of validation, nothing cached). Now the first call
    denies within the budget, naming the file, and the next ones at once."""
    big = _big_policy(world.root)
    answer, elapsed = _timed(world, "git push --force origin main")
    assert answer["decision"] == "deny" and str(big) in answer["reason"], answer
    # past the budget it is named as such; a machine fast enough to finish validating in
    # the budget names the file's problems instead: either way the call is denied in time
    assert "took more than" in answer["reason"] or "more)" in answer["reason"], answer
    assert elapsed < 10, elapsed  # (the installed timeout; the budget is 5 s from the start)
    for host in ("claude", "gemini"):  # remembered: no call pays the budget again
        again, elapsed = _timed(world, "rm -rf build", host=host)
        assert again["decision"] == "deny" and str(big) in again["reason"], again
        assert elapsed < budget.LOAD_BUDGET_S, elapsed


def test_4_the_verdict_is_forgotten_when_the_file_changes(world: World) -> None:
    big = _big_policy(world.repo)
    assert world.shell("ls")["decision"] == "deny"
    big.write_text("version: 1\nrules:\n  - {id: no-ls, match: {command: ls}, action: deny}\n")
    answer = world.shell("ls")
    assert answer["decision"] == "deny" and "took more than" not in answer["reason"], answer
    assert world.shell("git status")["decision"] is None


def test_4_a_small_file_on_a_loaded_machine_is_not_remembered(tmp_path: Path) -> None:
    """A person's policy that missed the deadline because the machine was busy (little
    CPU of its own) is denied for that call only."""
    small = tmp_path / "policy.yaml"
    small.write_text("version: 1\n")
    verdict = verdict_file(str(small), {"HOOKWISE_CACHE_DIR": str(tmp_path / "cache")})
    assert not budget.remember(str(small), verdict, cpu=0.1)
    assert budget.known_slow([(str(small), verdict)]) is None
    assert budget.remember(str(small), verdict, cpu=budget.LOAD_BUDGET_S)
    assert budget.known_slow([(str(small), verdict)]) == str(small)
    small.write_text("version: 1\nrules: []\n")  # (another version: forgotten)
    assert budget.known_slow([(str(small), verdict)]) is None


def test_4_the_deadline_stops_python_code_and_restores_an_outer_timer() -> None:
    import signal

    signal.setitimer(signal.ITIMER_REAL, 100.0)
    try:
        spent = budget.Budget()
        spent.file = "/x/.hookwise/policy.yaml"
        with (
            pytest.raises(budget.LoadTimeoutError) as stopped,
            budget.deadline(time.monotonic() + 0.2, spent),
        ):
            while True:
                pass
        assert stopped.value.path == "/x/.hookwise/policy.yaml"
        left = signal.getitimer(signal.ITIMER_REAL)[0]
        assert 90 < left <= 100, left
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


# ------------------------------------------------ 2: one budget per call, not per file


def test_2_nested_slow_policies_share_one_budget(world: World) -> None:
    """Four nested directories below the project, each with a slow (>10,000 '{')
    policy, and a call whose cwd is the innermost: 4 x 3 s passed the host's 10 s."""
    inner = world.repo
    for _ in range(4):
        inner = inner / "n"
        _slow_policy(inner)
    answer, elapsed = _timed(world, "git push --force origin main", cwd=inner)
    assert answer["decision"] == "deny" and "took more than" in answer["reason"], answer
    assert elapsed < 10, elapsed  # (4 x 3 s of parsing before; one budget now)


# ------------------------------------- 3: a trusted .hookwise/ given to another uid (root)

TRUSTED = """\
version: 1
rules:
  - id: no-rm-rf
    match: {command: rm -rf}
    action: deny
    reason: PROJECT-RULE no rm -rf
"""


def _nobody() -> int:
    import pwd

    return pwd.getpwnam("nobody").pw_uid


# the red team's tools/own.py: the literal `chown 65534 .hookwise` is denied by
# self-protection; a program computing the name is not
OWN = "import os; os.chown('.hook' + 'wise', {uid}, -1)"


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a directory away needs root")
@pytest.mark.parametrize("where", ["", "sub"])
def test_3_a_trusted_hookwise_dir_given_to_another_uid_fails_closed(
    world: World, where: str
) -> None:
    """A root agent's one allowed call made discovery skip the trusted project as another
    user's: `git push --force` and `rm -rf` got no decision, `policy show` said no files."""
    world.policy("version: 1\n")
    policy = world.policy(TRUSTED, where=where)
    trusted = world.cli("policy", "trust", str(policy))
    assert trusted.returncode == 0, trusted.stderr
    cwd = world.repo / where
    assert world.shell("rm -rf build", cwd=cwd)["decision"] == "deny"
    tool = world.repo / "tools" / "own.py"
    tool.parent.mkdir()
    tool.write_text(OWN.format(uid=_nobody()) + "\n")
    own = world.shell(f"python3 {tool}", cwd=cwd)
    assert own["decision"] is None, own  # (allowed: the attack's one call)
    subprocess.run([sys.executable, str(tool)], cwd=cwd, check=True, timeout=30)
    for host, command in (("claude", "git push --force origin main"), ("gemini", "rm -rf x")):
        answer = world.shell(command, host=host, cwd=cwd)
        assert answer["decision"] == "deny", (host, answer)
        assert "belongs to another user" in answer["reason"], answer
    # given back, it applies again
    os.chown(policy.parent, os.getuid(), -1)
    answer = world.shell("rm -rf build", cwd=cwd)
    assert answer["decision"] == "deny" and "PROJECT-RULE" in answer["reason"], answer
    assert world.shell("ls", cwd=cwd)["decision"] is None


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a directory away needs root")
def test_3_another_users_untrusted_dir_above_is_still_only_a_warning(world: World) -> None:
    """s25 #10 stands: a .hookwise/ of another user nobody trusted is skipped, not fatal."""
    shared = world.root / ".hookwise"
    shared.mkdir()
    (shared / "policy.yaml").write_text(TRUSTED)
    os.chown(shared, _nobody(), -1)
    assert world.shell("ls")["decision"] is None


# ------------------------------------------------- 9: computed writes into a plain .env

ENCODED = "SE9PS1dJU0VfUE9MSUNZPS90bXAvZW1wdHkueWFtbAo="  # HOOKWISE_POLICY=/tmp/empty.yaml


@pytest.mark.parametrize(
    "command",
    [
        # the red team's, as written
        f"echo {ENCODED} | base64 -d >> .env",
        "cp {planted} .env",
        "sed -i 's/^X=/BASH_ENV=/' .env",
        # other programs computing what goes there
        "cp {planted} sub/.env",
        "install -m 600 {planted} .env",
        "cd sub && cp {planted} .env",
        "ln -sf {harmless} .env",
        "printf '%s\\n' \"$LINE\" >> .env",
        'echo "$LINE" | tee -a .env',
        "dd if={planted} of=.env",
        "python3 -c \"open('.e'+'nv'[:0]+'.env','a').write(open('{planted}').read())\"",
        f"echo {ENCODED} | base64 -d > /tmp/x.env && cp /tmp/x.env .env",
        "cp {fifo} .env",
        "python3 tools/gen.py && cp {missing} .env",  # (made by a program first)
    ],
)
@pytest.mark.parametrize("host", ["gemini", "claude"])
def test_9_computed_writes_into_a_plain_env_are_not_let_through(
    world: World, command: str, host: str
) -> None:
    """Each passed the literal check: the content is made when the command runs (or comes
    from a file that says HOOKWISE_POLICY), so the guard cannot read what lands in .env."""
    (world.repo / "sub").mkdir()
    (world.repo / ".env").write_text("A=1\nX=2\n")
    planted = world.root / "e"
    planted.write_text("HOOKWISE_POLICY=/tmp/empty.yaml\n")
    harmless = world.root / "ok"
    harmless.write_text("PORT=1\n")
    fifo = world.root / "fifo"
    os.mkfifo(fifo)
    line = command.format(
        planted=planted, harmless=harmless, missing=world.root / "nothere", fifo=fifo
    )
    answer = world.shell(line, host=host)
    assert answer["decision"] in ("deny", "ask"), (line, answer)
    assert ".env" in answer["reason"], answer


@pytest.mark.parametrize(
    "command",
    [
        "cp .env.example .env",
        "cp {harmless} .env",
        "echo APP_MODE=dev >> .env",
        "echo APP_MODE=dev | tee -a .env",
        "printf 'A=1\\nB=2\\n' > .env",
        "cat > .env <<'EOF'\nPORT=3000\nEOF",
        "mv .env .env.bak",
        "cp .env /tmp/env.backup",
        "echo X=$RANDOM > .env.local",
        "cp {missing} .env",  # (the copy fails: nothing is written)
        "[ -f .env ] || cp {missing} .env",
    ],
)
def test_9_everyday_env_writes_still_pass(world: World, command: str) -> None:
    (world.repo / ".env").write_text("A=1\n")
    (world.repo / ".env.example").write_text("A=1\n")
    harmless = world.root / "ok"
    harmless.write_text("PORT=1\n")
    line = command.format(harmless=harmless, missing=world.root / "nothere")
    answer = world.shell(line, host="gemini")
    assert answer["decision"] is None, (line, answer)


def _gemini_hook(world: World, command: str, env: dict[str, str]) -> dict[str, object]:
    from hookwise.policy.tools.payloads import build_payload

    payload = build_payload(
        "gemini",
        "BeforeTool",
        tool="run_shell_command",
        tool_input={"command": command},
        cwd=str(world.repo),
    )
    result = world.hook(payload, "--platform", "gemini", env=env)
    answer = World.answer(result, "gemini")
    answer["stderr"] = result.stderr
    return answer


@pytest.mark.parametrize("name", [".env", ".gemini/.env"])
def test_9_the_hook_does_not_take_hookwise_variables_from_a_project_env_file(
    world: World, name: str
) -> None:
    """The effect the red team verified: Gemini CLI exports the project's .env to hooks, so
    the hook ran with HOOKWISE_POLICY naming an empty file and `git push --force` got `{}`;
    the project's trusted rules (and the changed/vanished rule) were off."""
    world.policy(TRUSTED)
    assert world.cli("policy", "trust").returncode == 0
    empty = world.root / "empty.yaml"
    empty.write_text("version: 1\n")
    env_file = world.repo / name
    env_file.parent.mkdir(exist_ok=True)
    env_file.write_text(f"A=1\nHOOKWISE_POLICY={empty}\nHOOKWISE_ON_ERROR=allow\n")
    exported = {"HOOKWISE_POLICY": str(empty), "HOOKWISE_ON_ERROR": "allow"}
    answer = _gemini_hook(world, "rm -rf build", exported)
    assert answer["decision"] == "deny" and "PROJECT-RULE" in str(answer["reason"]), answer
    assert "ignored $HOOKWISE_POLICY" in str(answer["stderr"]), answer
    # the same variable from the person's shell, with no file setting it, is taken (by
    # another host process: this one's hooks remember what they dropped, s27 #4)
    from tests.policy.trust.test_trust_s27 import _host, _shell

    env_file.write_text("A=1\n")
    world.env["HOOKWISE_POLICY"] = str(empty)
    assert [a["decision"] for a in _host(world, [_shell(world, "rm -rf build")])] == [None]


# ------------------------------------------- 5: a `cd` into a nested project on the line

NO_CURL = """\
version: 1
rules:
  - id: no-curl-in-sub
    match: {command: curl}
    action: deny
    reason: SUB-RULE no curl in sub
"""


def _nested(world: World) -> Path:
    """The red team's set-up: a trusted sub/.hookwise/policy.yaml denying curl."""
    world.policy("version: 1\n")
    world.policy(NO_CURL, where="sub")
    trusted = world.cli("policy", "trust", ".hookwise/policy.yaml", "sub/.hookwise/policy.yaml")
    assert trusted.returncode == 0, trusted.stderr
    return world.repo / "sub"


@pytest.mark.parametrize(
    "command",
    [
        "cd sub && curl http://example.com",  # the red team's
        "cd sub; curl http://example.com",
        "(cd sub; curl http://example.com)",
        "pushd sub && curl http://example.com",
        "bash -c 'cd sub && curl http://example.com'",
        "env -C sub curl http://example.com",
        "cd {repo}/sub && curl http://example.com",
        'cd "$(echo sub)" && curl http://example.com',  # a directory known only when it runs
        'cd "$X" && curl http://example.com',
    ],
)
@pytest.mark.parametrize("host", ["claude", "gemini"])
def test_5_a_cd_into_a_nested_project_brings_its_rules(
    world: World, command: str, host: str
) -> None:
    sub = _nested(world)
    assert world.shell("curl http://example.com", host=host, cwd=sub)["decision"] == "deny"
    line = command.format(repo=world.repo)
    answer = world.shell(line, host=host)
    assert answer["decision"] == "deny", (line, answer)
    assert "SUB-RULE" in answer["reason"], answer


def test_5_the_parents_own_commands_and_other_directories_are_untouched(world: World) -> None:
    _nested(world)
    (world.repo / "other").mkdir()
    for line in ("curl http://example.com", "cd other && curl http://example.com"):
        answer = world.shell(line)  # (the user's ask-curl only, as designed)
        assert answer["decision"] == "ask" and "SUB-RULE" not in answer["reason"], answer
    assert world.shell("cd sub && ls")["decision"] is None
    assert world.shell("cd /tmp && ls")["decision"] is None


def test_5_a_nested_trusted_policy_gone_blocks_a_cd_into_it(world: World) -> None:
    """The changed/vanished rule follows the cd too: deleting sub/'s trusted policy (any
    spelling) and then `cd sub && curl` from the parent."""
    sub = _nested(world)
    (sub / ".hookwise" / "policy.yaml").unlink()
    answer = world.shell("cd sub && curl http://example.com")
    assert answer["decision"] == "deny" and "trusted here, and now gone" in answer["reason"]
    assert world.shell("ls")["decision"] is None  # (the parent's own calls are not blocked)


def test_5_an_allow_of_the_nested_project_does_not_reach_the_parents_commands(
    world: World,
) -> None:
    """The nested scope's files apply to the line as restrictive only: its allow cannot
    approve the parent's commands."""
    world.policy("version: 1\n")
    world.policy(
        "version: 1\nrules:\n  - {id: all, match: {tool: shell}, action: allow}\n", where="sub"
    )
    assert world.cli("policy", "trust", "sub/.hookwise/policy.yaml").returncode == 0
    answer = world.shell("cd sub && ls; cd .. && curl http://example.com")
    assert answer["decision"] != "allow", answer


# ------------------------------------------------ the readers above, on arbitrary input


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=400))
def test_pinned_directories_never_fail_on_any_trust_store(data: bytes) -> None:
    """followed._pinned reads the trust store on the hook's path: whatever the file holds,
    it yields absolute directories or nothing (the compiler reports a damaged store)."""
    import tempfile

    from hookwise.policy.trust import followed

    with tempfile.TemporaryDirectory() as home:
        store = Path(home, ".config", "hookwise", "trust.json")
        store.parent.mkdir(parents=True)
        store.write_bytes(data)
        found = followed._pinned({"HOME": home, "XDG_CONFIG_HOME": str(Path(home, ".config"))})
    assert all(isinstance(d, str) and d.startswith("/") for d in found)


@settings(max_examples=200, deadline=None)
@given(
    st.text(alphabet=st.sampled_from("HOKWISE_PLCYA=:#'\" \t\nexport.-1"), max_size=200),
    st.sampled_from(["HOOKWISE_POLICY", "HOOKWISE_ON_ERROR", "HOOKWISE_X"]),
)
def test_env_origin_drops_exactly_what_a_project_file_sets(text: str, name: str) -> None:
    """Any dotenv text: a HOOKWISE_* variable is dropped if and only if the file sets it (as
    the hosts' dotenv reading, protocol/dotenv.keys, finds keys), never raising."""
    import tempfile

    from hookwise.policy import env_origin
    from hookwise.protocol.dotenv import keys

    with tempfile.TemporaryDirectory() as project:
        Path(project, ".env").write_text(text)
        env = {name: "x", "HOOKWISE_RUN": "s"}
        notes = env_origin.drop_planted(env, [project])
    assert (name in keys(text)) == (name not in env) == bool(notes)
    assert env.get("HOOKWISE_RUN") == "s"  # (the session's own: its record decides)


def test_9_a_planted_variable_that_breaks_the_load_is_dropped_too(world: World) -> None:
    """HOOKWISE_POLICY naming a file that is not there fails the first load; the hook still
    drops it (a project file set it) and decides with the project's own policy."""
    world.policy(TRUSTED)
    assert world.cli("policy", "trust").returncode == 0
    (world.repo / ".env").write_text("HOOKWISE_POLICY=/nonexistent/policy.yaml\n")
    exported = {"HOOKWISE_POLICY": "/nonexistent/policy.yaml"}
    assert _gemini_hook(world, "ls", exported)["decision"] is None
    answer = _gemini_hook(world, "rm -rf build", exported)
    assert answer["decision"] == "deny" and "PROJECT-RULE" in str(answer["reason"]), answer
