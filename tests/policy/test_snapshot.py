"""The per-user launcher's snapshot (policy/snapshot.py), through real launcher processes.

What is checked: the launcher writes it on its first call and then loads every hot-path
module from it (none from disk, and neither ``os`` nor ``__future__``); it answers exactly
as ``hookwise hook``; a stale, corrupt, broken or foreign snapshot is never executed and
costs nothing but a rebuild; the agent cannot write it.
"""

from __future__ import annotations

import json
import marshal
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hookwise.config.hookwise_command import portable_argv
from hookwise.policy import snapshot
from hookwise.policy.install.launcher import launcher_text
from hookwise.policy.tools.payloads import build_payload
from hookwise.policy.trust.scopes import launcher_path, snapshot_path
from hookwise.policy.trust.store import trust_file

SRC = str(Path(snapshot.__file__).resolve().parents[2])
HOOKWISE = str(Path(sys.executable).parent / "hookwise")

POLICY = """\
version: 1
extends: [hookwise/filesystem, hookwise/git]
rules:
  - {id: no-curl, match: {tool: shell, command: curl}, action: deny, reason: no curl here}
  - {id: slow, match: {tool: shell}, when: 'input.timeout > 600', action: ask}
  - {id: secrets, match: {tool: [write, edit], files: 'secrets/**'}, action: deny}
  - {id: read-secrets, match: {command: {reads: true}, files: 'secrets/**'}, action: deny}
  - {id: deploy, match: {prompt: {words: [deploy]}}, action: context, context: use the pipeline}
  - {id: mcp, match: {mcp: {server: db, tool: 'drop_*'}}, action: deny}
  - id: npm-ci
    match: {command: npm install}
    action: rewrite
    rewrite: {replace: [{arg: command, pattern: 'npm install( |$)', with: 'npm ci\\1'}]}
"""


def payloads(cwd: str) -> dict[str, dict[str, Any]]:
    """One event of each kind the hook meets, from each host."""
    patch = "*** Begin Patch\n*** Add File: secrets/key\n+x\n*** End Patch"
    return {
        "claude-bash": build_payload(
            "claude", "PreToolUse", tool="Bash", tool_input={"command": "curl x"}, cwd=cwd
        ),
        "claude-write": build_payload(
            "claude",
            "PreToolUse",
            tool="Write",
            tool_input={"file_path": f"{cwd}/secrets/k", "content": "x"},
            cwd=cwd,
        ),
        "claude-mcp": build_payload(
            "claude", "PreToolUse", tool="mcp__db__drop_table", tool_input={}, cwd=cwd
        ),
        "claude-rewrite": build_payload(  # the rewrite modules and the timed regexes
            "claude", "PreToolUse", tool="Bash", tool_input={"command": "npm install"}, cwd=cwd
        ),
        "claude-prompt": build_payload("claude", "UserPromptSubmit", prompt="deploy it", cwd=cwd),
        "claude-stop": build_payload("claude", "Stop", cwd=cwd),
        "claude-post": build_payload(
            "claude", "PostToolUse", tool="Bash", tool_input={"command": "ls"}, cwd=cwd
        ),
        "gemini-shell": build_payload(
            "gemini",
            "BeforeTool",
            tool="run_shell_command",
            tool_input={"command": "git push --force"},
            cwd=cwd,
        ),
        "gemini-prompt": build_payload("gemini", "BeforeAgent", prompt="deploy", cwd=cwd),
        "codex-patch": build_payload(
            "codex", "PreToolUse", tool="apply_patch", tool_input={"command": patch}, cwd=cwd
        ),
        "codex-shell": build_payload(
            "codex", "PreToolUse", tool="Bash", tool_input={"command": "rm -rf /"}, cwd=cwd
        ),
        # a line that reaches every module the parser imports only for some commands
        # (wrappers, shell scripts, $'...', xargs, aliases, find, ssh, one-liners, git -c,
        # tar, sed, tmux): those come from the snapshot too
        "claude-bash-cold": build_payload(
            "claude",
            "PreToolUse",
            tool="Bash",
            tool_input={"command": COLD_LINE},
            cwd=cwd,
        ),
        "copilot-pascal": build_payload(
            "copilot", "PreToolUse", tool="Bash", tool_input={"command": "curl x"}, cwd=cwd
        ),
        "copilot-camel": {
            "sessionId": "s1",
            "timestamp": 1,
            "cwd": cwd,
            "toolName": "bash",
            "toolArgs": {"command": "curl x"},
        },
        "qwen-shell": build_payload(
            "qwen",
            "PreToolUse",
            tool="run_shell_command",
            tool_input={"command": "git push --force"},
            cwd=cwd,
        ),
        # a Copilot payload hookwise cannot place: its deny in Copilot's JSON (blind_deny)
        "copilot-unplaced": {"sessionId": "s1", "cwd": cwd},
    }


COLD_LINE = (
    "alias k='ls -l'; k 'a b'; sudo bash -c $'echo hi'; find . -exec ls {} +; "
    "echo a | xargs ls; ssh host ls; python3 -c 'import os'; git -c core.pager=less log; "
    "tar --to-command=cat -xf a.tar; sed -n 1p f; tmux new -d ls; x=1; echo $x {a,b}; "
    "printf '%s\\n' a > b.sh; sqlite3 db .tables; read f; rm $f b; cp b.sh c.sh; zip -r a.zip . -x '*.o'; "
    "docker run --env-file ci.env alpine true; docker compose ps; echo '#include <x.h>' | cpp; "
    "x86_64 rm c.sh; printf '' > conftest.py; pytest -q; git branch +x; . ci.env; cat /proc/self/environ"
)


@pytest.fixture
def env(isolated: Path) -> dict[str, str]:
    policy = isolated / "policy.yaml"
    policy.write_text(POLICY)
    environment = dict(os.environ)
    environment.update(
        {
            "HOOKWISE_POLICY": str(policy),
            "HOOKWISE_AUDIT_LOG": str(isolated / "audit.jsonl"),
            "HOOKWISE_CACHE_DIR": str(isolated / "cache"),
        }
    )
    trust_file(str(policy), environment)
    launcher = Path(launcher_path(environment))
    launcher.parent.mkdir(parents=True)
    launcher.write_text(launcher_text(str(launcher)))
    launcher.chmod(0o755)
    return environment


def run(argv: list[str], env: dict[str, str], payload: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        argv,
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


def launcher(env: dict[str, str]) -> list[str]:
    return [launcher_path(env)]


def snap(env: dict[str, str]) -> Path:
    return Path(snapshot_path(launcher_path(env)))


def test_the_launcher_writes_its_snapshot_and_answers_as_the_hook(
    env: dict[str, str], isolated: Path
) -> None:
    events = payloads(str(isolated))
    first = run(launcher(env), env, events["claude-bash"])
    assert first.returncode == 0, first.stderr
    assert snap(env).is_file()
    assert stat.S_IMODE(snap(env).stat().st_mode) == 0o600
    for name, payload in events.items():
        fast = run(launcher(env), env, payload)
        slow = run([HOOKWISE, "hook"], env, payload)
        assert (fast.returncode, fast.stdout) == (slow.returncode, slow.stdout), name
        assert fast.stderr == slow.stderr, name
    portable = run(portable_argv("claude"), env, events["claude-bash"])
    assert json.loads(portable.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"


# where each hookwise module came from, whether os or __future__ were imported, and whether
# _json was searched for on sys.path (its directory then has a finder in the cache)
REPORT = """
sys.stdout.flush()
def origin(module):
    spec = getattr(module, "__spec__", None)
    if spec is None:
        return "snapshot"
    return "snapshot" if getattr(spec.loader, "__name__", "").endswith("snapshot") else "disk"
found = {{name: origin(m) for name, m in sys.modules.items() if name.startswith("hookwise")}}
searched = sys.modules["_json"].__file__.rpartition("/")[0] in sys.path_importer_cache
print(repr((loaded, found, "os" in sys.modules, "__future__" in sys.modules, searched)),
      file=sys.stderr)
"""

PROBE = (
    """\
import sys
sys.path[0] = {src!r}
from hookwise.policy import snapshot
loaded = snapshot.load({path!r})
from hookwise.policy.hook import main
main([])
"""
    + REPORT
)


LAUNCHER_PROBE = (
    """\
import sys
sys.path[0] = {policy!r}
import snapshot
sys.path[0] = snapshot._root()
loaded = snapshot.load({path!r})
sys.modules.setdefault("hookwise.policy.snapshot", snapshot)
from hookwise.policy.hook import main
main([])
"""
    + REPORT
)


@pytest.mark.parametrize("form", ["launcher", "package"])
def test_every_hot_module_comes_from_the_snapshot(
    env: dict[str, str], isolated: Path, form: str
) -> None:
    """As the launcher starts (snapshot.py alone, both packages from the snapshot), and as
    launchers of earlier versions do (through the package)."""
    events = payloads(str(isolated))
    run(launcher(env), env, events["claude-bash"])  # writes it
    if form == "launcher":
        policy = str(Path(SRC, "hookwise", "policy"))
        probe = LAUNCHER_PROBE.format(policy=policy, path=str(snap(env)))
        allowed = {"hookwise.policy.snapshot"}  # the launcher's module, by its other name
    else:
        probe = PROBE.format(src=SRC, path=str(snap(env)))
        allowed = {"hookwise", "hookwise.policy", "hookwise.policy.snapshot"}
    imported = set()
    for name, payload in events.items():
        done = run([sys.executable, "-I", "-S", "-c", probe], env, payload)
        loaded, found, has_os, has_future, searched = eval(done.stderr.strip().splitlines()[-1])
        assert loaded is True, name
        disk = {m for m, where in found.items() if where == "disk"}
        # the launcher's own imports come before the snapshot is read
        assert disk <= allowed, (name, disk)
        assert not has_os and not has_future, name
        assert not searched, name  # _json came from the file the snapshot names
        imported |= set(found)
    # every module the snapshot lists is one the hook uses (no dead weight, no typo)
    assert set(snapshot.EAGER + snapshot.ON_DEMAND) <= imported


# `from package import module` statements that take importlib's slow path (the module is
# not yet an attribute of its package) while the snapshot's modules run
FROMLIST_PROBE = """\
import sys
bootstrap = sys.modules["_frozen_importlib"]
handle = bootstrap._handle_fromlist
slow = []
def spy(module, fromlist, import_, *, recursive=False):
    slow.extend(f"{{module.__name__}}.{{x}}" for x in fromlist
                if isinstance(x, str) and x != "*" and not hasattr(module, x))
    return handle(module, fromlist, import_, recursive=recursive)
bootstrap._handle_fromlist = spy
sys.path[0] = {policy!r}
import snapshot
sys.path[0] = snapshot._root()
loaded = snapshot.load({path!r})
print(repr((loaded, slow)), file=sys.stderr)
"""


def test_each_module_is_bound_to_its_package_as_it_loads(
    env: dict[str, str], isolated: Path
) -> None:
    """As the import system does: otherwise each `from hookwise.policy import x` in the
    next module goes through importlib again (tens of microseconds per statement)."""
    run(launcher(env), env, payloads(str(isolated))["claude-bash"])  # writes it
    policy = str(Path(SRC, "hookwise", "policy"))
    probe = FROMLIST_PROBE.format(policy=policy, path=str(snap(env)))
    done = run([sys.executable, "-I", "-S", "-c", probe], env, {})
    loaded, slow = eval(done.stderr.strip().splitlines()[-1])
    assert loaded is True
    assert slow == []


EXTENSIONS: dict[Path, Any] = {}  # a snapshot's extension list, kept for _write


def _unpack(data: bytes) -> tuple[Any, list[Any], Any]:
    """(header, [[name, source, package, eager, stamp, code object], ...], extensions) of a
    snapshot's bytes."""
    size = int.from_bytes(data[:8], "little")
    header, index, extensions = marshal.loads(data[8 : 8 + size])
    base = 8 + size
    eager = iter(marshal.loads(data[base : base + next(e[6] for e in index if e[3])]))
    modules = [
        [*e[:5], next(eager) if e[3] else marshal.loads(data[base + e[5] : base + e[5] + e[6]])]
        for e in index
    ]
    return header, modules, extensions


def _entries(path: Path) -> tuple[Any, list[Any]]:
    """(header, [[name, source, package, eager, stamp, marshalled code], ...]) of a snapshot."""
    header, modules, EXTENSIONS[path] = _unpack(path.read_bytes())
    return header, [[*m[:5], marshal.dumps(m[5])] for m in modules]


def _same_snapshot(one: bytes, other: bytes) -> bool:
    """Whether two snapshots hold the same header, modules, stamps and code."""
    return _unpack(one) == _unpack(other)


def _write(path: Path, header: Any, entries: list[Any]) -> None:
    eager = marshal.dumps(tuple(marshal.loads(e[5]) for e in entries if e[3]))
    index, offset, blobs = [], len(eager), [eager]
    for entry in entries:
        if entry[3]:
            index.append((*entry[:5], 0, len(eager)))
        else:
            index.append((*entry[:5], offset, len(entry[5])))
            blobs.append(entry[5])
            offset += len(entry[5])
    head = marshal.dumps((header, index, EXTENSIONS.get(path, [])))
    path.write_bytes(len(head).to_bytes(8, "little") + head + b"".join(blobs))
    path.chmod(0o600)


def _plant(path: Path, marker: Path) -> None:
    """Make the snapshot's first module also write ``marker`` (stamps kept: fresh)."""
    header, entries = _entries(path)
    source = Path(entries[0][1]).read_text().replace("from __future__ import annotations", "")
    code = compile(
        f"open({str(marker)!r}, 'w').write('ran')\n" + source,
        entries[0][1],
        "exec",
        flags=__import__("__future__").annotations.compiler_flag,
    )
    entries[0][5] = marshal.dumps(code)
    _write(path, header, entries)


def _denies(done: subprocess.CompletedProcess[str]) -> bool:
    return json.loads(done.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_a_planted_snapshot_runs_only_when_it_is_the_users_own(
    env: dict[str, str], isolated: Path
) -> None:
    event = payloads(str(isolated))["claude-bash"]
    run(launcher(env), env, event)
    marker = isolated / "ran"
    _plant(snap(env), marker)
    done = run(launcher(env), env, event)  # positive control: the file is what runs
    assert marker.exists() and _denies(done)
    marker.unlink()
    _plant(snap(env), marker)
    snap(env).chmod(0o666)  # others could have written it
    done = run(launcher(env), env, event)
    assert not marker.exists() and _denies(done), done.stderr
    assert stat.S_IMODE(snap(env).stat().st_mode) == 0o600  # rebuilt from the sources
    run(launcher(env), env, event)
    assert not marker.exists()


def test_a_symlinked_or_foreign_snapshot_is_never_executed(
    env: dict[str, str], isolated: Path
) -> None:
    event = payloads(str(isolated))["claude-bash"]
    run(launcher(env), env, event)
    marker = isolated / "ran"
    elsewhere = isolated / "elsewhere.snapshot"
    elsewhere.write_bytes(snap(env).read_bytes())
    _plant(elsewhere, marker)
    snap(env).unlink()
    snap(env).symlink_to(elsewhere)
    done = run(launcher(env), env, event)
    assert not marker.exists() and _denies(done)
    assert not snap(env).is_symlink()  # replaced by the launcher's own
    if os.geteuid() == 0:  # another user's file (root can make one)
        _plant(snap(env), marker)
        os.chown(snap(env), 65534, 65534)
        done = run(launcher(env), env, event)
        assert not marker.exists() and _denies(done)
        assert snap(env).stat().st_uid == 0


@pytest.mark.parametrize(
    "damage",
    [
        "stale",
        "stale-on-demand",
        "magic",
        "garbage",
        "raises",
        "fifo",
        "empty",
        "truncated",
        "huge-eager",
        "huge-on-demand",
    ],
)
def test_a_damaged_snapshot_costs_a_rebuild_not_an_answer(
    env: dict[str, str], isolated: Path, damage: str
) -> None:
    event = payloads(str(isolated))["gemini-shell"]
    run(launcher(env), env, event)
    good = snap(env).read_bytes()
    header, entries = _entries(snap(env))
    if damage == "stale":  # a source changed since (an upgrade)
        entries[3][4] = (entries[3][4][0] - 1, entries[3][4][1])
        _write(snap(env), header, entries)
    elif damage == "stale-on-demand":  # a module read on first import (shell) changed
        at = next(i for i, e in enumerate(entries) if e[0] == "hookwise.shell.parser")
        entries[at][4] = (entries[at][4][0] - 1, entries[at][4][1])
        _write(snap(env), header, entries)
    elif damage == "magic":  # written by another Python
        _write(snap(env), (header[0], b"\x00\x00\r\n", *header[2:]), entries)
    elif damage == "garbage":
        snap(env).write_bytes(b"\x00not marshal" * 10)
    elif damage == "raises":
        entries[-1 - len(snapshot.ON_DEMAND)][5] = marshal.dumps(compile("1/0", "x", "exec"))
        _write(snap(env), header, entries)
    elif damage == "truncated":  # cut inside a module read on first import (shell)
        data = snap(env).read_bytes()
        size = int.from_bytes(data[:8], "little")
        index = marshal.loads(data[8 : 8 + size])[1]
        offset, length = next(e[5:7] for e in index if e[0] == "hookwise.shell.parser")
        snap(env).write_bytes(data[: 8 + size + offset + length // 2])
    elif damage.startswith("huge"):  # a length past the end: no read that large is tried
        data = snap(env).read_bytes()
        size = int.from_bytes(data[:8], "little")
        head, index, extensions = marshal.loads(data[8 : 8 + size])
        grown = [
            (*e[:6], 1 << 40)
            if (e[3] if damage == "huge-eager" else e[0] == "hookwise.shell.parser")
            else e
            for e in index
        ]
        new_head = marshal.dumps((head, grown, extensions))
        snap(env).write_bytes(len(new_head).to_bytes(8, "little") + new_head + data[8 + size :])
    elif damage == "fifo":  # would hang a reader that blocks
        snap(env).unlink()
        os.mkfifo(snap(env), 0o600)
    else:
        snap(env).write_bytes(b"")
        snap(env).chmod(0o600)
    done = run(launcher(env), env, event)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["decision"] == "deny", done.stdout
    assert stat.S_ISREG(snap(env).stat().st_mode)
    # rebuilt as it was: the same modules, stamps and code (not always the same bytes: a
    # string the building process had interned is marshalled with that flag)
    rebuilt = snap(env).read_bytes()
    assert _same_snapshot(rebuilt, good)


def test_a_launcher_with_a_broken_install_blocks(env: dict[str, str], isolated: Path) -> None:
    """A snapshot is no way around a broken hook: it still exits 2."""
    event = payloads(str(isolated))["claude-bash"]
    text = Path(launcher_path(env)).read_text()
    root = text.split("sys.path[0] = ", 1)[1].split("\n", 1)[0]
    broken = isolated / "broken" / "hookwise" / "policy"
    broken.mkdir(parents=True)
    (broken.parent / "__init__.py").write_text("")
    (broken / "__init__.py").write_text("")
    (broken / "run_hook.py").write_text(Path(SRC, "hookwise/policy/run_hook.py").read_text())
    (broken / "snapshot.py").write_text("raise ImportError('half removed')\n")
    Path(launcher_path(env)).write_text(text.replace(root, repr(str(broken))))
    done = run(launcher(env), env, event)
    assert done.returncode == 2 and "cannot start" in done.stderr


@pytest.mark.parametrize(
    "tool_input",
    [
        {"command": "rm ~/.local/share/hookwise/hook.snapshot"},
        {"command": "cp /tmp/x ~/.local/share/hookwise/hook.snapshot"},
        {"command": ": > $HOME/.local/share/hookwise/hook.snapshot"},
    ],
)
def test_the_agent_cannot_replace_the_snapshot(
    env: dict[str, str], isolated: Path, tool_input: dict[str, str]
) -> None:
    payload = build_payload(
        "claude", "PreToolUse", tool="Bash", tool_input=tool_input, cwd=str(isolated)
    )
    done = run(launcher(env), env, payload)
    assert _denies(done), done.stdout
    write = build_payload(
        "claude",
        "PreToolUse",
        tool="Write",
        tool_input={"file_path": str(snap(env)), "content": "x"},
        cwd=str(isolated),
    )
    assert _denies(run(launcher(env), env, write))


def test_the_direct_launcher_runs_from_a_relative_path(env: dict[str, str], isolated: Path) -> None:
    event = payloads(str(isolated))["claude-bash"]
    policy_dir = Path(SRC, "hookwise", "policy")
    done = subprocess.run(
        [sys.executable, "-I", "-S", "run_hook.py"],
        input=json.dumps(event),
        capture_output=True,
        text=True,
        env=env,
        cwd=policy_dir,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert _denies(done)
