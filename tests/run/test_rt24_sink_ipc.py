"""The red team's findings of session 24 (briefs/s24/rt-run-findings.md) against `hookwise
run` that this branch answers (#3, #5, #8, #9, #11), each tried as the attacker did: real
processes in a real session, the log or the guard checked after."""

from __future__ import annotations

import json
import os
import textwrap
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.run.test_redteam_run import Lab, lab, pytestmark

__all__ = ["lab", "pytestmark"]


def _records(lab: Lab) -> list[dict[str, object]]:
    log = lab.home / ".local" / "state" / "hookwise" / "audit.jsonl"
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


FORGE = textwrap.dedent(
    """
    # rt24 #5 (forge_records.py): a plain process inside, never a hook, writes as the
    # supervisor, as a hook, at any time, as another session
    import json, os, socket
    path = os.environ["HOOKWISE_RUN_AUDIT"]
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    for record in (
        {"time": "2026-11-27T23:59:00Z", "source": "run", "run_session": os.environ["HOOKWISE_RUN"],
         "event": "audit_capped", "decision": "info", "marker": "forged-1"},
        {"time": "2020-01-01T00:00:00Z", "source": "hook", "host": "claude", "decision": "allow",
         "input": {"command": "git push --force origin main"}, "marker": "forged-2",
         "sender": {"pid": 1, "hook": True}},
        {"time": "2026-11-27T23:59:02Z", "source": "run", "run_session": "other",
         "event": "session_end", "decision": "info", "marker": "forged-3"},
    ):
        s.sendto(json.dumps(record).encode(), path)
    print("session", os.environ["HOOKWISE_RUN"], "pid-inside", os.getpid())
    """
)


def test_records_from_inside_carry_what_the_kernel_says_of_their_sender(lab: Lab) -> None:
    """rt24 #5: three forged datagrams were written verbatim, as the supervisor's
    (``"source": "run"``), as a hook's ``allow``, as another session's. Now every record from
    inside is stamped by the sink with its sender (pid and uid from SCM_CREDENTIALS, whether
    it said it is a hook, this session, the time received), a claim to be the supervisor's
    is kept as ``claimed_source``, and a ``sender`` of the record's own is renamed; a real
    hook's record is stamped ``hook: true``."""
    (lab.root / "forge.py").write_text(FORGE)
    (lab.root / "payload.json").write_text(lab.payload())
    result = lab.run(  # (naming --platform makes no program of its own a hook)
        "python3 $R/forge.py --platform claude; "
        "sh -c 'python3 $R/forge.py --platform claude; : hookwise' >/dev/null; "
        "hookwise hook --platform claude < $R/payload.json"
    )
    assert result.returncode == 2, (result.stdout, result.stderr)
    session = result.stdout.split("session ", 1)[1].split()[0]
    records = _records(lab)
    forged = [r for r in records if str(r.get("marker", "")).startswith("forged")]
    assert len(forged) == 6, records
    assert all(r["sender"]["launched"] is False for r in forged)
    for record in forged:
        sender = record["sender"]
        assert isinstance(sender, dict)
        assert record.get("source") != "run"
        assert sender["hook"] is False and sender["run_session"] == session
        assert isinstance(sender["pid"], int) and sender["pid"] > 1  # its pid outside
        assert sender["uid"] == os.getuid() and str(sender["received"]).startswith("20")
    assert [r.get("claimed_source") for r in forged] == ["run", None, "run"] * 2
    assert forged[1]["claimed_sender"] == {"pid": 1, "hook": True}
    hooks = [r for r in records if r.get("rule") == "no-rm"]
    assert len(hooks) == 1 and hooks[0]["sender"]["hook"] is True, records
    assert hooks[0]["sender"]["launched"] is True  # (the exec watch saw it start)
    # the supervisor's own records are the only ones marked "run"
    assert all("sender" not in r for r in records if r.get("source") == "run")


APPROVER = textwrap.dedent(
    """
    # rt24 #11 (approver.py): read a local `hookwise serve`'s admin token, list the pending
    # approvals with it (deciding the agent's own ask would follow)
    import os, sys, urllib.request, urllib.error
    for path in sys.argv[2:]:
        try:
            token = open(path).read().strip()
            print("READ", path)
        except OSError as exc:
            print("unreadable", path, exc.strerror)
            continue
        request = urllib.request.Request(sys.argv[1] + "/api/approvals?status=pending",
                                         headers={"Authorization": "Bearer " + token})
        try:
            print("LISTED", urllib.request.urlopen(request, timeout=10).status)
        except urllib.error.HTTPError as exc:
            print("refused", exc.code)
    for name in ("HOOKWISE_API_TOKEN", "HOOKWISE_DATABASE_URL"):
        print(name, "SET" if os.environ.get(name) else "unset")
    """
)


def test_a_local_services_admin_token_and_database_are_hidden(lab: Lab) -> None:
    """rt24 #11: a local `hookwise serve` keeps a generated admin token in its data
    directory; read-only inside, the agent read it, approved its own ``ask`` and ran a
    rewritten project script outside through execute-with-output. Now the token, the
    database and the settings of the service's data directories are hidden: the default one
    (hookwise's data directory, the token generated by the service's own code) and the one a
    running service recorded as it started (its ``--data-dir``, covered whole); the
    service's variables leave the agent's environment."""
    import socket
    import subprocess
    import time
    import urllib.request

    from tests.run.test_redteam_run import HOOKWISE

    default = lab.home / ".local" / "share" / "hookwise"
    code = "from pathlib import Path; from hookwise.api.settings import load_token; "
    code += f"load_token(Path({str(default)!r}), {{}})"
    subprocess.run([os.path.join(os.path.dirname(HOOKWISE), "python"), "-c", code], check=True)
    data = lab.root / "svc"
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    service = subprocess.Popen(
        [HOOKWISE, "serve", "--port", str(port), "--data-dir", str(data)],
        env=lab.env(),
        cwd=lab.root,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(url + "/health", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        token = (data / "api-token").read_text().strip()
        recorded = lab.home / ".local" / "state" / "hookwise-run" / "services" / str(service.pid)
        assert recorded.read_text().strip() == str(data.resolve())
        listed = urllib.request.Request(
            url + "/api/approvals?status=pending", headers={"Authorization": "Bearer " + token}
        )
        assert urllib.request.urlopen(listed, timeout=10).status == 200  # the token works
        (lab.root / "approver.py").write_text(APPROVER)
        tokens = f"{default}/api-token {data}/api-token"
        result = lab.run(
            f"python3 $R/approver.py {url} {tokens}; ls {data} || echo HIDDEN; "
            f"cat {default}/service.db >/dev/null 2>&1 || echo DB-HIDDEN",
            HOOKWISE_API_TOKEN=token,
        )
    finally:
        service.terminate()
        service.wait(timeout=30)
    assert "READ" not in result.stdout and "LISTED" not in result.stdout, result.stdout
    assert result.stdout.count("unreadable") == 2, (result.stdout, result.stderr)
    assert "HOOKWISE_API_TOKEN unset" in result.stdout
    assert "HIDDEN" in result.stdout
    assert (default / "api-token").read_text().strip()  # outside, untouched


ABSTRACT = textwrap.dedent(
    """
    # an abstract socket outside (a D-Bus, an editor's server at @name), then one of the
    # session's own: connect to each
    import socket, sys
    for name in sys.argv[1:]:
        c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            c.connect("\\0" + name)
            print("REACHED", name)
        except OSError as exc:
            print("held", exc.errno, name)
    own = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    own.bind("\\0" + sys.argv[1] + "-inside"); own.listen(1)
    c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    c.connect("\\0" + sys.argv[1] + "-inside")
    print("OWN-OK")
    """
)


def test_command_servers_at_sockets_the_session_does_not_know_are_out_of_reach(
    lab: Lab,
) -> None:
    """rt24 #3: the user's tmux servers at ``tmux -S PATH`` and under another
    ``TMUX_TMPDIR`` ran ``run-shell`` outside the session (and wrote a guarded file). Every
    socket file bound outside when the session starts that this user could connect to is
    covered, whatever its name; abstract sockets made outside are out of reach through
    Landlock's scope (Linux 6.12), the session's own still work."""
    import shutil
    import socket
    import subprocess

    if shutil.which("tmux") is None:
        import pytest

        pytest.skip("tmux is not installed")
    sock = lab.root / "tsock"
    tmpdir = lab.root / "ttmp"
    tmpdir.mkdir()
    outside = {**lab.env(), "TMUX_TMPDIR": str(tmpdir)}
    start = ["tmux", "-S", str(sock), "new-session", "-d", "-s", "rt24", "sleep 300"]
    subprocess.run(start, env=lab.env(), check=True, timeout=30)
    subprocess.run(
        ["tmux", "-L", "work", "new-session", "-d", "-s", "rt24b", "sleep 300"],
        env=outside,
        check=True,
        timeout=30,
    )
    name = f"hookwise-rt24-{os.getpid()}"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind("\0" + name)
    server.listen(8)
    (lab.root / "abstract.py").write_text(ABSTRACT)
    guarded = lab.home / ".config" / "hookwise" / "rt24-tmux"
    try:
        result = lab.run(
            f"tmux -S {sock} run-shell 'echo out > $R/tmux1.out; touch {guarded}' "
            "&& echo SENT1; "
            f"TMUX_TMPDIR={tmpdir} tmux -L work run-shell 'echo out > $R/tmux2.out' && echo SENT2; "
            f"python3 $R/abstract.py {name}",
            timeout=90,
        )
    finally:
        server.close()
        subprocess.run(["tmux", "-S", str(sock), "kill-server"], check=False, timeout=30)
        subprocess.run(["tmux", "-L", "work", "kill-server"], env=outside, check=False)
    assert "SENT1" not in result.stdout and "SENT2" not in result.stdout, result.stdout
    assert not (lab.root / "tmux1.out").exists() and not (lab.root / "tmux2.out").exists()
    assert not guarded.exists()
    from hookwise.run import libc

    if libc.landlock_abi() >= libc.LANDLOCK_SCOPED_ABI:
        assert f"held 1 {name}" in result.stdout, (result.stdout, result.stderr)  # EPERM
    assert "OWN-OK" in result.stdout, (result.stdout, result.stderr)


def test_a_command_server_in_another_network_namespace_is_out_of_reach(lab: Lab) -> None:
    """Red team s25 #7: ``unshare -n tmux -S PATH`` before the session: the socket scan read
    only the session's network namespace, and the file was reachable all the same (a
    command ran outside and wrote a guarded file). Every namespace of the user's processes
    is read now."""
    import shutil
    import subprocess

    import pytest

    if shutil.which("tmux") is None or shutil.which("unshare") is None:
        pytest.skip("tmux or unshare is not installed")
    sock = lab.root / "nsock"
    start = ["unshare", "-rn", "tmux", "-S", str(sock), "new-session", "-d", "-s", "s25",
             "sleep 300"]  # fmt: skip
    if subprocess.run(start, env=lab.env(), check=False, timeout=30).returncode != 0:
        pytest.skip("no network namespaces for this user here")
    guarded = lab.home / ".config" / "hookwise" / "s25-tmux"
    try:
        marker = lab.root / "reached-outside"
        subprocess.run(
            ["tmux", "-S", str(sock), "run-shell", f"touch {marker}"],
            env=lab.env(), timeout=30, check=True,
        )  # fmt: skip
        assert marker.exists()  # outside a session it is reachable
        result = lab.run(f"tmux -S {sock} run-shell 'touch {guarded}' && echo SENT", timeout=90)
    finally:
        subprocess.run(["tmux", "-S", str(sock), "kill-server"], check=False, timeout=30)
    assert "SENT" not in result.stdout, result.stdout
    assert not guarded.exists()


KILLER = textwrap.dedent(
    """
    # rt24 #9 (killer.py): scan /proc every millisecond, SIGKILL every hook as it appears
    import os, signal, sys, time
    end = time.time() + float(sys.argv[1]); me = os.getpid()
    open(os.environ["R"] + "/killer.ready", "w").close()
    while time.time() < end:
        for d in os.listdir("/proc"):
            if not d.isdigit() or int(d) == me:
                continue
            try:
                cmd = open(f"/proc/{d}/cmdline", "rb").read()
            except OSError:
                continue
            if b"--platform" in cmd:
                try:
                    os.kill(int(d), signal.SIGKILL)
                except OSError:
                    pass
        time.sleep(0.001)
    """
)


def test_hooks_a_killer_scans_for_are_no_longer_killed(lab: Lab) -> None:
    """rt24 #9: a background process killed 10 of 10 hooks in their first milliseconds (the
    host's shell, or the interpreter before ``started``): the host ran every tool. The
    supervisor now sees every exec (a seccomp listener) and every signal of the session:
    a hook is protected from its exec on, so the killer's SIGKILLs are refused
    (``signal_refused``), and all 10 hooks answer their deny."""
    from hookwise.config.hookwise_command import portable_command

    (lab.root / "killer.py").write_text(KILLER)
    (lab.root / "payload.json").write_text(lab.payload())
    (lab.root / "portable.sh").write_text(portable_command("claude"))
    script = (
        "python3 $R/killer.py 30 & "
        "while [ ! -e $R/killer.ready ]; do sleep 0.05; done; sleep 0.2; "
        "for i in 1 2 3 4 5 6 7 8 9 10; do "
        '/bin/sh -c "$(cat $R/portable.sh)" < $R/payload.json >/dev/null 2>&1; '
        'echo "HOOK-RC=$?"; done; kill %1; sleep 1'  # (the agent goes on a moment)
    )
    result = lab.run(script, timeout=120)
    codes = [int(line.split("=")[1]) for line in result.stdout.split() if "HOOK-RC=" in line]
    assert codes == [2] * 10, (codes, result.stderr)
    assert not [r for r in _records(lab) if r.get("event") == "hook_lost"]
    refused = [r for r in _records(lab) if r.get("event") == "signal_refused"]
    assert refused and {r["signal"] for r in refused} == {9}, refused
    assert "signal(s) to hooks from other processes" in result.stderr


def test_a_hook_its_host_kills_before_it_said_started_is_lost(lab: Lab) -> None:
    """The host (an ancestor) may end its own hook: one it kills in its first milliseconds
    is seen from its exec on, a ``hook_lost`` record and a line on stderr."""
    from hookwise.config.hookwise_command import portable_command

    (lab.root / "payload.json").write_text(lab.payload())
    (lab.root / "portable.sh").write_text(portable_command("claude"))
    script = (
        "for i in 1 2 3 4 5; do "
        '/bin/sh -c "$(cat $R/portable.sh)" < $R/payload.json >/dev/null 2>&1 & '
        "sleep 0.01; kill -KILL $! 2>/dev/null; wait $!; done; sleep 1"
    )
    result = lab.run(script, timeout=120)
    lost = [r for r in _records(lab) if r.get("event") == "hook_lost"]
    assert lost, (result.stdout, result.stderr)
    assert any("before it could say it started" in str(r["reason"]) for r in lost), lost
    assert "started and never answered" in result.stderr
    assert not [r for r in _records(lab) if r.get("event") == "signal_refused"]


FLOOD = textwrap.dedent(
    """
    # rt24 #8 (flood.py): keep the audit socket's queue full of 1-byte datagrams
    import os, socket, sys, time
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.connect(os.environ["HOOKWISE_RUN_AUDIT"])
    end = time.time() + float(sys.argv[1])
    open(os.environ["R"] + "/flood.%d" % os.getpid(), "w").close()
    while time.time() < end:
        try:
            s.send(b"x")
        except OSError:
            pass
    """
)


def test_a_flood_of_datagrams_cannot_take_the_hooks_records(lab: Lab) -> None:
    """rt24 #8: three processes kept the audit socket's queue full of 1-byte datagrams: 12
    of 15 denied calls left no line in the log, and the refusals were counted on stderr
    only. A hook the supervisor saw start now sends on a socket of its own (put in it as its
    exec waits), which no other process can write to: every decision is in the log, and
    the refusals are in the log too (``records_refused``, by sender)."""
    from hookwise.config.hookwise_command import portable_command

    (lab.root / "flood.py").write_text(FLOOD)
    (lab.root / "portable.sh").write_text(portable_command("claude"))
    payloads = []
    for i in range(15):
        payload = lab.payload(command=f"rm -rf rt24-flood-marker-{i}")
        (lab.root / f"payload{i}.json").write_text(payload)
        payloads.append(f'/bin/sh -c "$(cat $R/portable.sh)" < $R/payload{i}.json >/dev/null; ')
    script = (
        "for n in 1 2 3; do python3 $R/flood.py 20 & done; "
        "while [ $(ls $R | grep -c '^flood\\.') -lt 3 ]; do sleep 0.05; done; sleep 0.5; "
        + "".join(f'{p}echo "HOOK-RC=$?"; ' for p in payloads)
        + "wait"
    )
    result = lab.run(script, timeout=180)
    codes = [line for line in result.stdout.split() if line.startswith("HOOK-RC=")]
    assert codes == ["HOOK-RC=2"] * 15, (result.stdout, result.stderr)
    records = _records(lab)
    marked = [
        r
        for r in records
        if "rt24-flood-marker" in json.dumps(r.get("cwd", ""))
        or "rt24-flood-marker" in json.dumps(r)
    ]
    decisions = [r for r in marked if r.get("decision") == "deny"]
    assert len(decisions) == 15, (len(decisions), result.stderr)
    assert all(r["sender"]["launched"] is True for r in decisions)
    refused = [r for r in records if r.get("event") == "records_refused"]
    assert sum(int(str(r["refused"])) for r in refused) > 1000, refused


@settings(max_examples=300, deadline=None)
@given(st.binary(min_size=80, max_size=80))
def test_any_notification_reads_as_one(data: bytes) -> None:
    """The listener's 80 bytes (struct seccomp_notif), whatever they hold, give an id, a pid
    and pointers, never an exception that would leave an exec waiting."""
    from hookwise.run.exec_watch import Notification

    notification = Notification(data, {322, 358})
    assert 0 <= notification.argv_at < 2**64 and 0 <= notification.pid < 2**32


@settings(max_examples=300, deadline=None)
@given(st.text(), st.lists(st.text(), max_size=6))
def test_only_hookwise_programs_are_hooks(program: str, argv: list[str]) -> None:
    """Whatever a process execs, only hookwise's own programs (by resolved path) can be a
    hook; naming ``--platform`` or ``hookwise`` in another program's arguments is not."""
    from hookwise.run.exec_watch import HookExecs

    execs = HookExecs({"PATH": "/usr/bin:/bin", "HOME": "/nonexistent"}, lambda _s: True)
    if "\0" in program:
        return
    hook = execs(program, ["x", *argv])
    real = os.path.realpath(program)
    assert not hook or real in execs.shells | execs.launchers | execs.consoles


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=300))
def test_a_recorded_service_directory_is_read_whatever_the_file_holds(content: bytes) -> None:
    """A server's record (``services/<pid>``: one absolute path) read by the supervisor:
    anything else in it is passed over, never raised."""
    import tempfile

    from hookwise.run.hidden import _serve_data_dirs

    with tempfile.TemporaryDirectory() as state:
        services = Path(state) / "hookwise-run" / "services"
        services.mkdir(parents=True)
        (services / str(os.getpid())).write_bytes(content)
        found = _serve_data_dirs({"XDG_STATE_HOME": state, "HOME": state})
    assert all(path.startswith("/") for path in found)
    assert len(found) <= 1
