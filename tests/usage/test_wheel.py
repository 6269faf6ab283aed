"""The package as PyPI users get it: the wheel, installed (not editable) in a fresh venv.

Without extras it must give the hook, the CLI and the simulator and none of the service's
packages; with ``[serve]`` the service starts. Slow (two venvs, a real pip), kept in
``make test``: a dependency moved to the wrong list only shows here.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def _run(*argv: str | Path, **kw: object) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(  # noqa: PLW1510 (checked below, with the output shown)
        [str(a) for a in argv], capture_output=True, text=True, timeout=600, **kw
    )  # type: ignore[call-overload]
    assert result.returncode == 0, (argv, result.stdout[-2000:], result.stderr[-2000:])
    return result


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    # a copy: builds write build/ and *.egg-info next to the sources, and xdist workers
    # building in the same tree at once break each other
    source = out / "src-copy"
    shutil.copytree(
        ROOT,
        source,
        symlinks=True,
        ignore=shutil.ignore_patterns(
            ".venv",
            ".git",
            "build",
            "dist",
            "*.egg-info",
            "__pycache__",
            ".*_cache",
            "node_modules",
        ),
    )
    _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", out, source)
    [built] = out.glob("hookwise-*.whl")
    return built


def _venv(where: Path, requirement: str) -> Path:
    _run(sys.executable, "-m", "venv", where)
    _run(where / "bin" / "python", "-m", "pip", "install", "-q", requirement)
    return where / "bin"


def _user_env(tmp: Path) -> dict[str, str]:
    home = tmp / "home"
    home.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k in ("LANG", "TMPDIR")}
    env.update(PATH="/usr/bin:/bin", HOME=str(home), NO_COLOR="1")
    env["HOOKWISE_MANAGED_POLICY"] = str(tmp / "managed.yaml")
    return env


def test_the_plain_wheel_runs_the_hook_and_the_cli(wheel: Path, tmp_path: Path) -> None:
    bin_dir = _venv(tmp_path / "venv", str(wheel))
    hookwise = bin_dir / "hookwise"
    env = _user_env(tmp_path)
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    # none of the service's packages came with it
    probe = "import importlib.util as u; print([m for m in ('fastapi','sqlalchemy','uvicorn','alembic','psycopg') if u.find_spec(m)])"
    assert _run(bin_dir / "python", "-c", probe).stdout.strip() == "[]"
    _run(hookwise, "policy", "init", cwd=project, env=env)
    assert "Rule packs" in _run(hookwise, "policy", "docs", env=env).stdout  # packaged
    event = {
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "ls"},
        "cwd": str(project),
        "session_id": "s",
    }
    _run(hookwise, "hook", "--platform", "claude", input=json.dumps(event), cwd=project, env=env)
    _run(hookwise, "install", "claude", cwd=project, env=env)
    doctor = _run(hookwise, "doctor", "--host", "claude", cwd=project, env=env)
    assert "all good" in doctor.stdout
    serve = subprocess.run(  # noqa: PLW1510
        [hookwise, "serve"], capture_output=True, text=True, env=env, cwd=project, timeout=60
    )
    assert serve.returncode == 2
    assert "hookwise[serve]" in serve.stderr and "Traceback" not in serve.stderr


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_the_serve_extra_starts_the_service(wheel: Path, tmp_path: Path) -> None:
    bin_dir = _venv(tmp_path / "venv", f"{wheel}[serve]")
    hookwise = bin_dir / "hookwise"
    env = _user_env(tmp_path)
    assert "--port" in _run(hookwise, "serve", "--help", env=env).stdout
    port = _free_port()
    server = subprocess.Popen(
        [hookwise, "serve", "--port", str(port), "--data-dir", tmp_path / "data"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        status = None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and server.poll() is None:
            try:
                url = f"http://127.0.0.1:{port}/internal/hook/health"
                with urllib.request.urlopen(url, timeout=2) as response:
                    status = response.status
            except urllib.error.HTTPError as exc:
                status = exc.code  # answered (e.g. 401 without the token): it is serving
            except OSError:
                time.sleep(0.3)
                continue
            break
        assert status is not None, server.stdout.read() if server.poll() is not None else ""
        assert status in (200, 401)
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_each_framework_extra_brings_what_its_documented_snippet_imports(wheel: Path) -> None:
    """The smolagents page's snippet uses OpenAIServerModel, which needs ``openai``: the
    wheel's `smolagents` extra asks for smolagents' own `openai` extra (issue 26)."""
    import zipfile

    with zipfile.ZipFile(wheel) as archive:
        [name] = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        metadata = archive.read(name).decode()
    requires = [line for line in metadata.splitlines() if line.startswith("Requires-Dist:")]
    smolagents = [line for line in requires if 'extra == "smolagents"' in line]
    assert smolagents and all("smolagents[openai]" in line for line in smolagents), smolagents
    snippet = (ROOT / "docs" / "integrations" / "smolagents.md").read_text()
    assert "OpenAIServerModel" in snippet
