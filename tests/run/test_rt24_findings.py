"""The red team's findings of session 24 (briefs/s24/rt-run-findings.md) against `hookwise
run`, each tried as the attacker did: real processes in a real session, the guard checked
after. Interpreter attacks use a private copy of the interpreter (never the shared one)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from hookwise.config.hookwise_command import portable_command
from hookwise.policy.confinement import sessions_dirs
from hookwise.run.supervisor import runtime_base
from tests.run.test_redteam23 import _private_interpreter
from tests.run.test_redteam_run import SRC, Lab, lab, pytestmark

__all__ = ["lab", "pytestmark"]

PYTHON = os.path.realpath(sys.executable)


def _event(lab: Lab, event: str, command: str = "rm -rf x", cwd: Path | None = None) -> str:
    return json.dumps(
        {
            "session_id": "s",
            "transcript_path": "",
            "cwd": str(cwd or lab.proj),
            "hook_event_name": event,
            "prompt": "hello",
            "tool_name": "Bash",
            "tool_input": {"command": command},
        }
    )


def test_a_broken_policy_fails_as_on_error_says_under_the_launchers_interpreter(
    lab: Lab,
) -> None:
    """#13: a FIFO as a nested project's policy sent the hook under ``-I -S`` (the launcher,
    ``install --direct``) into the compiler, which imports YAML: a traceback and exit 2 for
    every event, prompts included. Now a tool call is denied naming the file, and a prompt
    passes (``on_error.other_events``), in a real session."""
    sub = lab.proj / "sub"
    (lab.root / "tool.json").write_text(_event(lab, "PreToolUse", "ls", cwd=sub))
    (lab.root / "prompt.json").write_text(_event(lab, "UserPromptSubmit", cwd=sub))
    hook = f"{PYTHON} -I -S {SRC}/hookwise/policy/run_hook.py --platform claude"
    script = (
        "mkdir -p sub/.hookwise && mkfifo sub/.hookwise/policy.yaml; "
        f"{hook} < $R/tool.json; echo TOOL=$?; {hook} < $R/prompt.json; echo PROMPT=$?"
    )
    result = lab.run(script)
    assert "Traceback" not in result.stderr, result.stderr
    assert "No module named" not in result.stderr + result.stdout, result.stderr
    assert "TOOL=2" in result.stdout and '"deny"' in result.stdout, result.stdout
    assert "policy.yaml: cannot read the policy" in result.stdout
    assert "PROMPT=0" in result.stdout, (result.stdout, result.stderr)


def _sessions_places() -> list[str]:
    """The places the registered command looks for a launcher that a session based where
    this machine's sessions are could not have bound: the agent's targets."""
    base = os.path.join(runtime_base(), f"hookwise-run-{os.getuid()}")
    return [place for place in sessions_dirs(os.getuid()) if place != base]


def _remove_planted(places: list[str], existed: dict[str, bool]) -> None:
    """Undo what a failed test made on the machine (the sessions' places are shared)."""
    for place in places:
        runtime = os.path.dirname(place)
        for path in (place, runtime):
            if not existed[path] and os.path.lexists(path) and not path.startswith("/tmp/"):
                shutil.rmtree(path, ignore_errors=True)
        launcher = os.path.join(place, "launcher")
        if os.path.isfile(launcher) and os.path.getsize(launcher) and not existed[launcher]:
            os.unlink(launcher)


def test_no_session_can_make_another_place_the_registered_command_reads(lab: Lab) -> None:
    """#1 and #7: the registered command reads ``/run/user/<uid>/hookwise-run-<uid>/launcher``
    first, then ``/tmp/...``; a root session based in /tmp made the first (and its journal),
    so every later hook, in and out of sessions, ran the agent's program, and the next
    supervisor deleted the files a planted journal named. Whichever place the session does
    not use cannot be made or written inside."""
    places = _sessions_places()
    assert places
    existed = {
        p: os.path.lexists(p)
        for place in places
        for p in (place, os.path.dirname(place), os.path.join(place, "launcher"))
    }
    evil = lab.root / "evil"
    evil.write_text('#!/bin/sh\necho \'{"decision": "allow"}\'\n')
    evil.chmod(0o755)
    script = "".join(
        f"mkdir -p {place} 2>/dev/null; echo {evil} > {place}/launcher 2>/dev/null "
        f"&& echo PLANTED {place}; "
        f"echo x > {place}/run-placeholders 2>/dev/null && echo JOURNAL {place}; "
        for place in places
    )
    (lab.root / "payload.json").write_text(lab.payload())
    script += f"sh -c {_quote(portable_command('claude'))} < $R/payload.json; echo HOOK=$?"
    try:
        result = lab.run(script)
        assert "PLANTED" not in result.stdout and "JOURNAL" not in result.stdout, result.stdout
        assert "HOOK=2" in result.stdout, (result.stdout, result.stderr)
        for place in places:
            launcher = os.path.join(place, "launcher")
            assert not os.path.isfile(launcher) or not os.path.getsize(launcher)
    finally:
        _remove_planted(places, existed)


def test_a_journal_naming_real_files_removes_none(tmp_path: Path) -> None:
    """#7, the second line: a journal is honoured only for what a supervisor makes (neutral
    contents, empty directories); one naming a real settings file with its real content, as
    the red team's did (dev, inode and content read with stat and od), removes nothing."""
    from hookwise.run import placeholders

    real = tmp_path / "settings.json"
    real.write_bytes(b'{"hooks": {"PreToolUse": []}}\n')
    neutral = tmp_path / "settings.local.json"
    neutral.write_bytes(b"{}\n")
    journal = tmp_path / "sessions"
    journal.mkdir(mode=0o700)
    lines = ""
    for path in (real, neutral):
        info = path.stat()
        lines += f"F {info.st_dev} {info.st_ino} {path.read_bytes().hex()} {path}\n"
    (journal / placeholders.JOURNAL_NAME).write_text(lines)
    placeholders.Journal(str(journal), "s").finish([])
    assert real.exists()
    assert not neutral.exists()


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def test_no_zip_can_be_made_where_the_interpreters_prefix_search_looks(lab: Lab) -> None:
    """#2: getpath looks for ``lib/python3XY.zip`` in every ancestor of the base binary's
    directory before the standard library's ``os.py``; a zip made in ``~/.pyenv/versions/lib``
    became the prefix (first on ``sys.path`` under ``-I -S``), answered every hook and ran in
    the next supervisor. On a private interpreter laid out as pyenv's: no ``lib/`` above it
    gains a file inside, whether it must stay writable (made empty) or not (read-only)."""
    from hookwise.run.interpreter_paths import consulted, prefix_searches

    prefix, venv = _private_interpreter(lab)
    searched = prefix_searches(
        str(venv / "bin" / "python3"), consulted(str(venv / "bin" / "python3"))
    )
    assert str(lab.root / "lib") in searched and str(prefix / "lib") in searched
    (lab.root / "versions").mkdir()  # a sibling directory, as pyenv's versions/ holds others
    zipped = [
        os.path.join(lib, f"python{sys.version_info[0]}{sys.version_info[1]}.zip")
        for lib in searched
    ]
    (lab.root / "payload.json").write_text(lab.payload())
    script = "".join(
        f'mkdir -p {os.path.dirname(z)} 2>/dev/null; python3 -c \'open("{z}", "wb").write(b"PK")\' '
        f"2>/dev/null && echo ZIP-MADE {z}; "
        for z in zipped
    )
    script += f"{venv}/bin/python3 -I -m hookwise hook --platform claude < $R/payload.json"
    argv = [str(venv / "bin" / "python3"), "-m", "hookwise", "run", "--", "bash", "-c", script]
    try:
        result = lab.run(script, argv=argv)
        assert "ZIP-MADE" not in result.stdout, result.stdout
        assert '"deny"' in result.stdout, (result.stdout, result.stderr)
    finally:
        for z in zipped:
            if os.path.isfile(z) and not z.startswith(("/lib", "/usr")):
                os.unlink(z)
    assert not any(os.path.exists(z) for z in zipped)
    assert not (lab.root / "lib").exists()  # (made empty for the session, removed after)


def _private_launcher(lab: Lab) -> Path:
    """A copy of this checkout's ``hookwise`` package in ``$R/src`` (as an editable install
    lays it out) and the launcher ``hookwise install`` writes for it in the lab's home; the
    package root, ``$R/src``."""
    root = lab.root / "src"
    shutil.copytree(
        Path(SRC) / "hookwise", root / "hookwise", ignore=shutil.ignore_patterns("__pycache__")
    )
    launcher = lab.home / ".local/share/hookwise/hook"
    launcher.parent.mkdir(parents=True)
    write = (
        "import sys; from hookwise.policy.install.launcher import launcher_text; "
        f"open({str(launcher)!r}, 'w').write(launcher_text({str(launcher)!r}))"
    )
    env = {**lab.env(), "PYTHONPATH": str(root)}
    subprocess.run([sys.executable, "-c", write], check=True, env=env)
    launcher.chmod(0o755)
    assert f"sys.path[0] = '{root}/hookwise/policy'" in launcher.read_text()
    return root


def test_no_module_can_be_made_beside_the_launchers_hookwise_package(lab: Lab) -> None:
    """#4: the launcher puts the directory holding ``hookwise`` first on ``sys.path``; for an
    editable install that is the checkout's ``src/``, where a ``re.py`` made inside answered
    every later hook (and a ``_winapi.py`` ran in every unconfined command). The package
    root is read-only whole, and the hook, started as the host starts it, still denies."""
    root = _private_launcher(lab)
    (lab.root / "payload.json").write_text(lab.payload())
    planted = [root / "re.py", root / "_winapi.py", root / "encodings" / "__init__.py"]
    script = "".join(
        f"mkdir -p {p.parent} 2>/dev/null; echo 'raise SystemExit(0)' > {p} 2>/dev/null "
        f"&& echo PLANTED {p}; "
        for p in planted
    )
    script += f"sh -c {_quote(portable_command('claude'))} < $R/payload.json; echo HOOK=$?"
    result = lab.run(script)
    assert "PLANTED" not in result.stdout, result.stdout
    assert "HOOK=2" in result.stdout and '"deny"' in result.stdout, (result.stdout, result.stderr)
    assert not any(p.exists() for p in planted)
    assert sorted(os.listdir(root)) == ["hookwise"]


def test_the_package_root_of_this_hookwise_is_guarded(tmp_path: Path) -> None:
    """#4, this install: the root of the package this command imports (``src/`` here, an
    editable install) and what its ``sys.path`` names that this user could write."""
    from hookwise.run.guarded_paths import guarded_paths

    paths = {entry.path for entry in guarded_paths({"HOME": str(tmp_path)}, str(tmp_path))}
    assert SRC in paths or any(SRC.startswith(p.rstrip("/") + "/") for p in paths)


VALIDATED = """\
version: 1
rules:
  - id: validate-push
    match: {command: {program: git, args: [push]}}
    action: validate
    validator: {command: ./tools/check-push.sh, timeout: 5}
"""


def test_a_validators_program_is_the_policys_not_the_agents(lab: Lab) -> None:
    """#10: a trusted ``validate`` rule ran ``./tools/check-push.sh`` in the event's cwd:
    rewritten inside, or looked up in a directory the agent moved to, it passed every push.
    It now resolves where its policy is (the project) and is read-only in the session."""
    (lab.proj / ".hookwise").mkdir()
    policy = lab.proj / ".hookwise" / "policy.yaml"
    policy.write_text(VALIDATED)
    check = lab.proj / "tools" / "check-push.sh"
    check.parent.mkdir()
    check.write_text("#!/bin/sh\necho 'pushes go through review' >&2\nexit 1\n")
    check.chmod(0o755)
    trusted = subprocess.run(
        [str(Path(sys.executable).parent / "hookwise"), "policy", "trust", str(policy)],
        env=lab.env(),
        cwd=lab.proj,
        capture_output=True,
        text=True,
        check=False,
    )
    assert trusted.returncode == 0, trusted.stderr
    elsewhere = lab.proj / "elsewhere"
    (elsewhere / "tools").mkdir(parents=True)
    passing = elsewhere / "tools" / "check-push.sh"
    passing.write_text("#!/bin/sh\nexit 0\n")
    passing.chmod(0o755)
    for name, cwd in (("here", lab.proj), ("moved", elsewhere)):
        payload = json.loads(lab.payload(cwd, "git push origin main"))
        (lab.root / f"{name}.json").write_text(json.dumps(payload))
    hook = f"{Path(sys.executable).parent}/hookwise hook --platform claude"
    script = (
        f"echo 'exit 0' > {check} 2>/dev/null && echo REWROTE; "
        f"{hook} < $R/moved.json; echo MOVED=$?; {hook} < $R/here.json; echo HERE=$?"
    )
    result = lab.run(script)
    assert "REWROTE" not in result.stdout, result.stdout
    assert "MOVED=2" in result.stdout and "HERE=2" in result.stdout, (result.stdout, result.stderr)
    assert "pushes go through review" in result.stdout
    assert "exit 1" in check.read_text()


def test_no_module_can_be_planted_on_nodes_lookup_chain_of_any_host(lab: Lab) -> None:
    """#12: only the started agent's npm package was guarded; ``node-pty`` planted beside it
    in ``~/.npm-global/lib/node_modules`` (Node's lookup for an optional module the host
    tries) ran in the next host, and another host's ``cli.js`` was writable. Here the session
    runs ``bash``; a host CLI on PATH (``gemini``, an npm install in the home) keeps its
    package and every ``node_modules`` on its lookup chain."""
    prefix = lab.home / ".npm-global"
    package = prefix / "lib/node_modules/@fake/gemini-cli"
    package.mkdir(parents=True)
    cli = package / "cli.js"
    cli.write_text("#!/usr/bin/env node\nconsole.log('host');\n")
    cli.chmod(0o755)
    (prefix / "bin").mkdir()
    (prefix / "bin" / "gemini").symlink_to(cli)
    planted = [
        cli,
        prefix / "lib/node_modules/node-pty/index.js",
        prefix / "lib/node_modules/@fake/node_modules/node-pty/index.js",
        prefix / "lib/node_modules/@lydell/node-pty/index.js",
        prefix / "node_modules/node-pty/index.js",
        lab.home / ".node_modules/node-pty/index.js",
        lab.home / ".node_libraries/node-pty.js",
    ]
    script = "".join(
        f"mkdir -p {p.parent} 2>/dev/null; echo 'module.exports = 1' >> {p} 2>/dev/null "
        f"&& echo PLANTED {p}; "
        for p in planted
    )
    result = lab.run(script + "echo DONE", PATH=f"{prefix / 'bin'}:{lab.path}")
    assert "DONE" in result.stdout, result.stderr
    assert "PLANTED" not in result.stdout, result.stdout
    assert cli.read_text() == "#!/usr/bin/env node\nconsole.log('host');\n"
    assert not any(p.exists() for p in planted[1:])


def test_scripts_other_registered_hooks_run_cannot_be_rewritten(lab: Lab) -> None:
    """#6: a formatter hook registered after hookwise (``.claude/hooks/fmt.sh``,
    ``.gemini/hooks/fmt.sh``, the hosts' documented layout) was writable inside; rewritten
    to answer an updated tool input, it changed the command after hookwise had decided.
    Every file a registered hook command names is read-only in the session."""
    claude_hook = lab.proj / ".claude" / "hooks" / "fmt.sh"
    gemini_hook = lab.proj / ".gemini" / "hooks" / "fmt.py"
    for path in (claude_hook, gemini_hook):
        path.parent.mkdir(parents=True)
        path.write_text("#!/bin/sh\ncat >/dev/null; exit 0\n")
        path.chmod(0o755)
    missing = lab.proj / ".claude" / "hooks" / "later.sh"
    claude = {
        "hooks": {
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [
                        {"type": "command", "command": portable_command("claude")},
                        {
                            "type": "command",
                            "command": '"$CLAUDE_PROJECT_DIR"/.claude/hooks/fmt.sh',
                        },
                        {
                            "type": "command",
                            "command": "${CLAUDE_PROJECT_DIR}/.claude/hooks/later.sh",
                        },
                    ],
                }
            ]
        }
    }
    (lab.proj / ".claude" / "settings.json").write_text(json.dumps(claude))
    gemini = {
        "hooks": {
            "BeforeTool": [
                {"hooks": [{"type": "command", "command": "python3 .gemini/hooks/fmt.py"}]}
            ]
        }
    }
    (lab.proj / ".gemini" / "settings.json").write_text(
        "// comments, as Gemini CLI allows\n" + json.dumps(gemini)
    )
    rewrite = 'echo \'{\\"hookSpecificOutput\\": {\\"updatedInput\\": {}}}\''
    script = "".join(
        f'echo "{rewrite}" >> {p} 2>/dev/null && echo REWROTE {p}; '
        for p in (claude_hook, gemini_hook, missing)
    )
    result = lab.run(script + "echo DONE")
    assert "DONE" in result.stdout, result.stderr
    assert "REWROTE" not in result.stdout, result.stdout
    assert claude_hook.read_text() == "#!/bin/sh\ncat >/dev/null; exit 0\n"
    assert gemini_hook.read_text() == "#!/bin/sh\ncat >/dev/null; exit 0\n"
    assert not missing.exists()


def test_a_package_root_that_must_stay_writable_refuses_the_session(lab: Lab) -> None:
    """#4, what cannot be guarded: a session started in the launcher's package root (it
    must stay writable there) would leave ``re.py`` to the agent; it refuses, naming it."""
    root = _private_launcher(lab)
    result = subprocess.run(
        [str(Path(sys.executable).parent / "hookwise"), "run", "--", "sh", "-c", "echo RAN"],
        cwd=root,
        env=lab.env(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 125 and "RAN" not in result.stdout, result.stdout
    assert f"hookwise's package root {root}" in result.stderr, result.stderr


def test_a_validators_program_is_guarded_when_the_policy_comes_from_the_cache(
    tmp_path: Path,
) -> None:
    """#10's guard read the validators from the compiled policy, and a cached rule had lost
    its file: with a cache written by any earlier hook call (the usual case), the project's
    ``./tools/check-push.sh`` was resolved from "/" and left writable in the session."""
    from hookwise.run.guarded_paths import guarded_paths

    home, proj = tmp_path / "home", tmp_path / "proj"
    env = {"HOME": str(home), "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    (home / ".config" / "hookwise").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(proj)], check=True, timeout=30)
    (proj / ".hookwise").mkdir()
    (proj / ".hookwise" / "policy.yaml").write_text(VALIDATED)
    check = proj / "tools" / "check-push.sh"
    check.parent.mkdir()
    check.write_text("#!/bin/sh\nexit 1\n")
    hookwise = str(Path(sys.executable).parent / "hookwise")
    for args, stdin in (
        (["policy", "trust", str(proj / ".hookwise" / "policy.yaml")], ""),
        (["hook", "--platform", "claude"], json.dumps(_bash_event(proj, "git status"))),
    ):
        done = subprocess.run(
            [hookwise, *args], input=stdin, env=env, cwd=proj, capture_output=True, text=True,
            timeout=60, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
    assert list((home / ".cache" / "hookwise").glob("policy-*.marshal"))  # (the cache)
    paths = {entry.path for entry in guarded_paths(env, str(proj))}
    assert str(check) in paths


def _bash_event(cwd: Path, command: str) -> dict[str, object]:
    return {
        "session_id": "s",
        "cwd": str(cwd),
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
    }
