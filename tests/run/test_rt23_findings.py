"""The red team's findings of session 23 (redteam/, briefs rt23) against `hookwise run`, each
performed as the attacker did: real processes in a real session, the guard checked after.
Interpreter attacks use a private copy of the interpreter (never the shared one)."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

import pytest

from tests.run.test_redteam23 import _private_interpreter
from tests.run.test_redteam_run import SRC, Lab, lab, pytestmark

__all__ = ["lab", "pytestmark"]


def test_start_files_cannot_be_planted_beside_the_hooks_interpreter(lab: Lab) -> None:
    """rt23 #1 and #2: ``<base>/bin/python3.11._pth`` (its lines replace sys.path, even under
    ``-I -S``), ``pybuilddir.txt`` (a build tree: ``<bin>/Lib`` first) and ``pyvenv.cfg``
    above ``bin/`` were creatable inside; the next hook (and the next supervisor, unconfined)
    imported the agent's ``encodings``. Today's sys.path cannot name tomorrow's files: the
    directories are read-only whole."""
    prefix, venv = _private_interpreter(lab)
    real = Path(os.path.realpath(sys.executable)).name
    planted = [
        prefix / "bin" / f"{real}._pth",
        prefix / "bin" / "python3._pth",
        prefix / "bin" / "pybuilddir.txt",
        prefix / "bin" / "Lib",
        prefix / "pyvenv.cfg",
        venv / "bin" / "python3._pth",
    ]
    (lab.root / "payload.json").write_text(lab.payload())
    script = "".join(f"echo x > {p} 2>/dev/null && echo MADE {p}; " for p in planted)
    script += f"{venv}/bin/python3 -I -m hookwise hook --platform claude < $R/payload.json"
    argv = [str(venv / "bin" / "python3"), "-m", "hookwise", "run", "--", "bash", "-c", script]
    result = lab.run(script, argv=argv)
    assert "MADE" not in result.stdout, result.stdout
    assert '"deny"' in result.stdout, (result.stdout, result.stderr)
    assert not any(p.exists() for p in planted)


def test_a_start_file_planted_earlier_refuses_the_session(lab: Lab) -> None:
    """rt23 #2: a ``._pth`` beside the base binary planted before (an unconfined run, an older
    hookwise) is named, and nothing starts. It lists a working path, as a quiet attack would."""
    prefix, venv = _private_interpreter(lab)
    real = Path(os.path.realpath(sys.executable)).name
    stdlib = os.path.dirname(os.__file__)
    lines = [stdlib, os.path.join(stdlib, "lib-dynload"), SRC, sysconfig.get_paths()["purelib"]]
    pth = prefix / "bin" / f"{real}._pth"
    pth.write_text("\n".join(lines) + "\n")
    argv = [str(venv / "bin" / "python3"), "-m", "hookwise", "run", "--", "bash", "-c", "echo RAN"]
    result = lab.run("", argv=argv)
    assert "RAN" not in result.stdout
    assert result.returncode != 0
    assert f"{pth}: a start file beside the hook's interpreter" in result.stderr, result.stderr


def test_every_start_file_getpath_reads_is_named(tmp_path: Path) -> None:
    """Build-tree markers and a ``pyvenv.cfg`` beside (or above, for an installation) the
    binaries are named too, whether or not the interpreter still starts with them."""
    from hookwise.run.interpreter_paths import consulted, unexpected_start_files

    real = Path(os.path.realpath(sys.executable))
    prefix = tmp_path / "py"
    (prefix / "bin").mkdir(parents=True)
    (prefix / "lib").mkdir()
    (prefix / "lib" / Path(os.path.dirname(os.__file__)).name).symlink_to(
        os.path.dirname(os.__file__)
    )
    binary = prefix / "bin" / real.name
    binary.write_bytes(real.read_bytes())
    binary.chmod(0o755)
    (prefix / "bin" / "python3").symlink_to(real.name)
    found = consulted(str(prefix / "bin" / "python3"))
    assert unexpected_start_files(str(prefix / "bin" / "python3"), found) == []
    planted = [
        prefix / "bin" / "pybuilddir.txt",
        prefix / "bin" / "Modules" / "Setup.local",
        prefix / "bin" / "pyvenv.cfg",
        prefix / "pyvenv.cfg",
        prefix / "bin" / "python3._pth",
    ]
    for path in planted:
        path.parent.mkdir(exist_ok=True)
        path.write_text("x\n")
    named = unexpected_start_files(str(prefix / "bin" / "python3"), found)
    assert sorted(named) == sorted(str(p) for p in planted)


def test_wrappers_past_the_parsers_bound_still_get_a_decision(lab: Lab) -> None:
    """rt23 #4: ``env`` x33 (or ``nice``, ``timeout 9``, mixed) in front of a denied command:
    the 33rd wrapper was taken for the program, no rule matched, the hook said nothing."""
    for name, wrapper in (("env", "env "), ("nice", "nice "), ("mix", "env nohup ")):
        command = wrapper * 33 + "rm -rf x"
        (lab.root / f"{name}.json").write_text(lab.payload(command=command))
    script = (
        'for n in env nice mix; do echo "$n: $(hookwise hook --platform claude < $R/$n.json)"; done'
    )
    result = lab.run(script)
    lines = result.stdout.splitlines()
    assert len(lines) == 3, (result.stdout, result.stderr)
    for line in lines:
        assert '"permissionDecision":' in line.replace(" ", ""), line
        assert '"allow"' not in line, line


SERVER = """\
import os, socket, sys
servers = []
for path in sys.argv[1:]:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(path)
    s.listen(8)
    servers.append(s)
print("ready", flush=True)
sys.stdin.read()
"""

CLIENT = """\
import socket, sys
for path in sys.argv[1:]:
    c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        c.connect(path)
        print("REACHED", path)
    except OSError as exc:
        print("held", exc.errno, path)
"""


def test_sockets_of_servers_that_run_commands_are_hidden(lab: Lab) -> None:
    """rt23 #3: the project's test PostgreSQL (trust auth) listened on a socket file in /tmp;
    ``COPY ... TO PROGRAM`` from inside ran a shell in the machine's namespaces. Sockets of
    servers that run commands for local clients are covered like tmux's: a PostgreSQL socket
    found where it is bound (/proc/net/unix), and a docker.sock named by $DOCKER_HOST."""
    run_dir = lab.root / "pg" / "run"
    run_dir.mkdir(parents=True)
    pg = run_dir / ".s.PGSQL.55999"
    docker = lab.root / "engine" / "docker.sock"
    docker.parent.mkdir()
    other = lab.root / "engine" / "app.sock"  # the SSH agent's, kept reachable (rt24 #3)
    (lab.root / "server.py").write_text(SERVER)
    (lab.root / "client.py").write_text(CLIENT)
    server = subprocess.Popen(
        [sys.executable, str(lab.root / "server.py"), str(pg), str(docker), str(other)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None and server.stdout.readline().strip() == "ready"
        result = lab.run(
            f"python3 $R/client.py {pg} {docker} {other}",
            DOCKER_HOST=f"unix://{docker}",
            SSH_AUTH_SOCK=str(other),
        )
    finally:
        server.kill()
        server.wait()
    assert f"REACHED {other}" in result.stdout, (result.stdout, result.stderr)
    assert f"REACHED {pg}" not in result.stdout
    assert f"REACHED {docker}" not in result.stdout
    assert result.stdout.count("held") == 2


def test_files_that_make_a_host_load_code_are_read_only(lab: Lab) -> None:
    """rt23 #8: ``~/.gemini/extensions/`` was writable inside: an extension's BeforeTool hook
    rewrites the tool_input hookwise decided on (hookwise's own gemini-cli model: last
    hookSpecificOutput wins). Claude Code's agents, skills and commands (hooks in their front
    matter) and its installed plugins (hooks/hooks.json) are the same class. Read from the
    rows' ``code_files``: the extension is written as the red team wrote it."""
    (lab.home / ".claude" / "plugins" / "cache" / "p" / "hooks").mkdir(parents=True)
    (lab.root / "ext.sh").write_text((Path(SRC).parent / "redteam/gemini_extension.sh").read_text())
    targets = [
        lab.home / ".claude/agents/helper.md",
        lab.home / ".claude/skills/s/SKILL.md",
        lab.home / ".claude/commands/c.md",
        lab.home / ".claude/plugins/cache/p/hooks/hooks.json",
        lab.proj / ".claude/agents/helper.md",
        lab.proj / ".claude/skills/s/SKILL.md",
    ]
    front = "---\\nhooks:\\n  PreToolUse: []\\n---\\n"
    script = "bash $R/ext.sh 2>/dev/null && echo EXTENSION-WRITTEN; " + "".join(
        f"mkdir -p {t.parent} 2>/dev/null; printf '{front}' > {t} 2>/dev/null && echo MADE {t}; "
        for t in targets
    )
    result = lab.run(script)
    assert "EXTENSION-WRITTEN" not in result.stdout, result.stdout
    assert "MADE" not in result.stdout, result.stdout
    assert not (lab.home / ".gemini/extensions/helper").exists()
    assert not any(t.exists() for t in targets)


ENV_RULE = """\
  - id: protect-env-files
    match:
      tool: [write, edit, read, shell]
      files: {globs: [".env", ".env.*"], exclude: [".env.example"]}
    action: deny
    reason: Do not touch .env files
"""


def _tool_payload(lab: Lab, tool: str, tool_input: dict[str, str]) -> str:
    import json

    return json.dumps(
        {
            "session_id": "s",
            "transcript_path": "",
            "cwd": str(lab.proj),
            "hook_event_name": "PreToolUse",
            "tool_name": tool,
            "tool_input": tool_input,
        }
    )


def test_file_rules_judge_what_a_link_reaches(tmp_path: Path) -> None:
    """rt23 #6: ``ln -s .env a.txt`` (no rule objects to it), then Write ``a.txt``: the tool
    follows the link and writes ``.env``, which ``files:`` rules judged by the name only. The
    link is made by one call inside a session and the write is asked of the hook by the
    next; an exclusion (``.env.example``) pointed at ``.env`` does not excuse it either."""
    lab = Lab(tmp_path, ENV_RULE)
    (lab.proj / ".env").write_text("SECRET=1\n")
    payloads = {
        "plain": ("Write", {"file_path": str(lab.proj / "notes.txt"), "content": "x"}),
        "env": ("Write", {"file_path": str(lab.proj / ".env"), "content": "x"}),
        "link": ("Write", {"file_path": str(lab.proj / "a.txt"), "content": "x"}),
        "excluded": ("Edit", {"file_path": ".env.example", "old_string": "a", "new_string": "b"}),
        "dirlink": ("Read", {"file_path": str(lab.proj / "d" / ".env")}),
        "shell": ("Bash", {"command": "cp /dev/null a.txt"}),
    }
    for name, (tool, tool_input) in payloads.items():
        (lab.root / f"{name}.json").write_text(_tool_payload(lab, tool, tool_input))
    script = (
        "ln -s .env a.txt && ln -s .env .env.example && ln -s . d && "
        "for n in plain env link excluded dirlink shell; do "
        'echo "$n: $(hookwise hook --platform claude < $R/$n.json)"; done'
    )
    result = lab.run(script)
    answers = dict(line.split(": ", 1) for line in result.stdout.splitlines() if ": " in line)
    assert set(answers) == set(payloads), (result.stdout, result.stderr)
    assert "Do not touch .env" not in answers["plain"]
    for name in ("env", "link", "excluded", "dirlink", "shell"):
        assert "Do not touch .env" in answers[name], (name, answers[name])


FLOOD = """\
import os, socket, sys
sink, cap = sys.argv[1], int(sys.argv[2])
def rec(i, n):
    body = '{"decision":"none","i":%d,"p":"' % i
    return (body + "x" * max(0, n - len(body) - 2) + '"}').encode()
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
total = i = 0
while total < cap:  # the cap, from one process
    r = rec(i, 8192); s.sendto(r, sink); total += len(r) + 1; i += 1
# then the reserve: each fork says it is a hook and sends one record (the red team's flood)
for size, count in ((60 * 1024, 60), (4096, 20), (512, 20), (64, 40)):
    for j in range(count):
        pid = os.fork()
        if pid == 0:
            c = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            c.sendto(b'{"hookwise_run": "started"}', sink)
            c.sendto(rec(100000 + j, size), sink)
            os._exit(0)
        os.waitpid(pid, 0)
"""

HOOK = """\
import sys
from hookwise.policy.audit import HOOK_STARTED, send_record
send_record(sys.argv[1], HOOK_STARTED)
send_record(sys.argv[1], b'{"decision": "deny", "rule": "no-force-push", "tool": "shell", '
            b'"command": "git push --force origin rt23-marker-after-flood"}')
"""


def test_a_flood_of_false_hooks_does_not_cost_a_real_hooks_record(tmp_path: Path) -> None:
    """rt23 #3 (the red team's reserve_flood.py, scaled to a 256 KiB cap and 128 KiB reserve):
    past the cap, forked processes each said ``started`` and sent one record, using the
    hooks' reserve up; a real hook's deny after that was only counted. The reserve now
    takes only the records of hooks the exec watch started as registered (their own
    channel; red team s25 #8 used it up from one process saying ``started`` each time)."""
    import json
    import threading

    from hookwise.run.audit_sink import AuditSink
    from tests.run.launched import go, start_launched

    log = tmp_path / "audit.jsonl"
    sink = AuditSink(str(tmp_path / "s.sock"), str(log), cap=256 * 1024, reserve=128 * 1024)
    thread = threading.Thread(target=sink.serve)
    thread.start()
    try:
        flood = [sys.executable, "-c", FLOOD, sink.socket_path, str(256 * 1024)]
        subprocess.run(flood, check=True, timeout=300)
        assert go(start_launched(sink, HOOK, sink.socket_path)) == 0
    finally:
        sink.stop()
        thread.join(timeout=60)
        sink.close()
    records = [json.loads(line) for line in log.read_text().splitlines()]
    kept = [r for r in records if "rt23-marker-after-flood" in json.dumps(r)]
    assert kept and kept[0]["decision"] == "deny", records[-3:]
    assert kept[0]["sender"]["launched"] is True
    assert not [r for r in records if r.get("event") == "audit_record_shortened"]
    assert sink.capped > 100  # (the false hooks' records past the cap, refused)
    assert sink.reserved < 4096  # the real hook's record at most, none of the false ones


def test_records_the_disk_refuses_wait_and_a_loss_is_recorded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """rt23 #8: the agent fills the log's file system, acts, frees it: the decisions made
    meanwhile were lost without a count. The disk's refusal is made here by RLIMIT_FSIZE
    (EFBIG, and a short write at the limit, as ENOSPC gives on a full tmpfs): the refused
    lines wait in memory and go in order when the log takes lines again; past the memory
    bound they are counted, and a ``records_lost`` record says how many."""
    import json
    import resource
    import signal
    import threading

    from hookwise.policy.audit import send_record
    from hookwise.run import audit_sink

    monkeypatch.setattr(audit_sink, "PENDING_MAX", 1000)
    log = tmp_path / "audit.jsonl"
    log.write_text('{"n": -1}\n')
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    previous = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    sink = audit_sink.AuditSink(str(tmp_path / "s.sock"), str(log))
    thread = threading.Thread(target=sink.serve)
    thread.start()
    try:
        resource.setrlimit(resource.RLIMIT_FSIZE, (log.stat().st_size + 150, hard))
        for n in range(20):  # ~105 bytes each: one fits, one is cut, the rest wait or are lost
            send_record(sink.socket_path, json.dumps({"n": n, "pad": "x" * 80}).encode())
        deadline = time.monotonic() + 10
        while sink.lost == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert sink.lost > 0 and sink.pending
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))  # space returns
        send_record(sink.socket_path, json.dumps({"n": 100}).encode())
        time.sleep(0.3)
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        sink.stop()
        thread.join(timeout=10)
        sink.close()
        signal.signal(signal.SIGXFSZ, previous)
    records = [json.loads(line) for line in log.read_text().splitlines()]  # every line whole
    numbers = [r["n"] for r in records if "n" in r]
    lost = [r for r in records if r.get("event") == "records_lost"]
    assert len(lost) == 1 and lost[0]["lost"] == sink.lost, records
    assert numbers == sorted(numbers) and numbers[-1] == 100
    assert len(numbers) - 2 + sink.lost == 20  # each record written, or counted lost
    assert not sink.pending
