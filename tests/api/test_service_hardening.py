"""A real `hookwise serve`: what a hook can see, which files it writes, what it logs."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.api.conftest import TOKEN, LiveServer, free_port
from tests.api.test_execute import request, script

EXECUTE = "/internal/hook/execute-with-output"
SECRET = "ghp_not_for_hooks_0123456789"


def _serve_with(tmp_path: Path, command: str, project: Path) -> dict[str, object]:
    data_dir = tmp_path / "server"
    data_dir.mkdir(exist_ok=True)
    service = {"execute": {"enabled": True, "allow": [command], "project_roots": [str(project)]}}
    (data_dir / "service.yaml").write_text(json.dumps(service), encoding="utf-8")
    return {"data_dir": data_dir, "extra_env": {"GITHUB_TOKEN": SECRET}}


@pytest.mark.parametrize("workers", [1, 2])
def test_a_hook_sees_no_secret_of_the_service(
    live_server: Callable[..., LiveServer], tmp_path: Path, workers: int
) -> None:
    """Not in its own environment, nor in any ancestor's /proc/<pid>/environ (the server
    re-executed itself without the operator's variables; its workers got them through
    their pickled configuration), nor in a file of the data directory."""
    project = tmp_path / "project"
    project.mkdir()
    data_dir = tmp_path / "server"
    probe = script(
        tmp_path,
        "probe.sh",
        'env; echo ---; p=$PPID; while [ "$p" -gt 1 ]; do tr "\\0" "\\n" '
        "< /proc/$p/environ 2>/dev/null; "
        'p=$(ps -o ppid= -p $p | tr -d " "); done; echo ---; '
        f"cat {data_dir}/.serve* {data_dir}/*.json 2>/dev/null; true",
    )
    server = live_server(workers=workers, **_serve_with(tmp_path, probe, project))
    with server.client(timeout=30) as api:
        answer = api.post(EXECUTE, json=request(probe, project, "Stop"))
    assert answer.status_code == 200, answer.text
    seen = answer.json()["raw"]["stdout"]
    own_env = seen.split("---")[0]
    assert "CLAUDE_PROJECT_DIR=" in own_env and "PATH=" in own_env
    assert "PATH=/usr/local/sbin:" in own_env  # the fixed PATH, not the service's
    assert TOKEN not in seen
    assert SECRET not in seen  # the service's environment, its ancestors' included
    assert "HOOKWISE_DATABASE_URL" not in seen


def test_cwd_outside_the_project_roots_is_400_and_nothing_runs(
    live_server: Callable[..., LiveServer], tmp_path: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    marker = tmp_path / "ran"
    hook = script(tmp_path, "touch.sh", f"touch {marker}")
    server = live_server(**_serve_with(tmp_path, hook, project))
    with server.client(timeout=30) as api:
        for cwd in (tmp_path, project / "..", Path("/")):
            answer = api.post(EXECUTE, json=request(hook, cwd))
            assert answer.status_code == 400, answer.text
            assert answer.json()["details"][0]["field"] == "input.cwd"
        relative = api.post(EXECUTE, json=request("./touch.sh", project))
        assert relative.status_code == 403
    assert not marker.exists()


def test_files_are_private_and_errors_are_logged_with_their_request_id(
    live_server: Callable[..., LiveServer], tmp_path: Path
) -> None:
    data_dir = tmp_path / "fresh"
    db = tmp_path / "db" / "service.db"
    db.parent.mkdir()
    server = live_server(data_dir=data_dir, database_url=f"sqlite:///{db}")
    with server.client(timeout=30) as api:
        missing = api.get("/api/webhooks/nope", headers={"X-Request-Id": "probe-404"})
        assert missing.status_code == 404
        assert api.get("/internal/hook/pending-permissions").status_code == 200
    assert stat.S_IMODE(data_dir.stat().st_mode) == 0o700
    for path in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
        if path.exists():
            assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    deadline = time.monotonic() + 5
    while "probe-404" not in server.log.read_text() and time.monotonic() < deadline:
        time.sleep(0.1)
    log = server.log.read_text()
    assert "WARNING" in log and "probe-404" in log and "404" in log
    assert TOKEN not in log  # a token from the environment is never printed


def test_a_generated_token_is_printed_once_after_the_bind(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "HOOKWISE_API_TOKEN"}
    env["HOOKWISE_DATABASE_URL"] = ""
    argv = [sys.executable, "-m", "hookwise.cli.entry", "serve", "--port", str(port)]
    argv += ["--data-dir", str(data_dir), "--log-level", "warning"]
    outputs = []
    for _ in range(2):
        process = subprocess.Popen(argv, env=env, stderr=subprocess.PIPE, text=True)
        try:
            line = process.stderr.readline() if process.stderr else ""
            outputs.append(line)
        finally:
            process.terminate()
            process.wait(timeout=15)
    token = (data_dir / "api-token").read_text().strip()
    assert stat.S_IMODE((data_dir / "api-token").stat().st_mode) == 0o600
    assert f"http://127.0.0.1:{port}/#token={token}" in outputs[0]
    assert token not in outputs[1] and f"127.0.0.1:{port}" in outputs[1]


def test_execution_on_a_public_address_needs_an_explicit_flag(tmp_path: Path) -> None:
    argv = [sys.executable, "-m", "hookwise.cli.entry", "serve", "--bind", "0.0.0.0"]
    argv += ["--port", str(free_port()), "--data-dir", str(tmp_path), "--allow-command", "true"]
    env = {**os.environ, "HOOKWISE_DATABASE_URL": ""}
    result = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode != 0
    assert "--allow-remote-execution" in result.stderr


UNDUMPABLE_PROBE = """
import os, subprocess, sys, time
child = '''
import os, sys, time
sys.path.insert(0, sys.argv[1])
if sys.argv[2] == "yes":
    from hookwise.api.secret_env import make_undumpable
    assert make_undumpable()
print("ready", flush=True)
time.sleep(30)
'''
for undumpable in ("no", "yes"):
    p = subprocess.Popen([sys.executable, "-c", child, sys.argv[1], undumpable],
                         stdout=subprocess.PIPE, env={"SERVER_SECRET": "s3cr3t", "PATH": "/usr/bin:/bin"})
    p.stdout.readline()
    try:
        with open(f"/proc/{p.pid}/environ", "rb") as f:
            print(undumpable, "s3cr3t" in f.read().decode())
    except PermissionError:
        print(undumpable, "denied")
    p.kill()
    p.wait()
"""


@pytest.mark.skipif(
    os.geteuid() != 0 or not shutil.which("setpriv"), reason="needs root to drop to another user"
)
def test_an_undumpable_process_hides_its_environment_from_its_own_users_children() -> None:
    """The second wall (after the environment is scrubbed): a process of the same user,
    not root, cannot read /proc/<pid>/environ of an undumpable one, and can of another."""
    src = str(Path(__file__).resolve().parents[2] / "src")
    python = "/usr/bin/python3"
    argv = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
            python, "-c", UNDUMPABLE_PROBE, src]  # fmt: skip
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
    assert done.stdout.split("\n")[:2] == ["no True", "yes denied"], done.stdout + done.stderr


@pytest.mark.parametrize(
    ("group", "method", "path", "limit"),
    [
        ("configuration", "GET", "/api/hook/output-config", 10),
        ("permissions", "GET", "/internal/hook/pending-permissions", 50),
    ],
)
def test_rotating_session_ids_and_addresses_stays_within_the_tokens_cap(
    live_server: Callable[..., LiveServer], group: str, method: str, path: str, limit: int
) -> None:
    """X-Session-Id is the client's word: a fresh one per request (from several loopback
    addresses) must not buy more than the token's cap in a minute (CLIENT_FACTOR times
    the group's session budget)."""
    import httpx

    from hookwise.api.edge.ratelimit import CLIENT_FACTOR

    server = live_server()
    if time.time() % 60 > 40:  # all in one window of the limiter
        time.sleep(61 - time.time() % 60)
    cap = limit * CLIENT_FACTOR
    passed = 0
    for address in ("127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.4"):
        transport = httpx.HTTPTransport(local_address=address)
        with httpx.Client(base_url=server.url, headers=server.headers, transport=transport) as api:
            for index in range(cap // 2 + 5):
                answer = api.request(method, path, headers={"X-Session-Id": f"{address}-{index}"})
                assert answer.status_code in (200, 429), answer.text
                passed += answer.status_code == 200
    assert passed <= cap, (group, passed)
