"""Service settings: the token (generated once, mode 0600), service.yaml, the allow-list."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from hookwise.api.settings import (
    DEFAULT_HOST,
    SettingsError,
    load_settings,
    load_token,
)


def test_token_generated_once_with_mode_0600(tmp_path: Path) -> None:
    first = load_token(tmp_path, {})
    path = tmp_path / "api-token"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert len(first) >= 32
    assert load_token(tmp_path, {}) == first
    assert load_token(tmp_path, {"HOOKWISE_API_TOKEN": "from-env"}) == "from-env"
    assert path.read_text().strip() == first  # the environment does not overwrite it


def test_concurrent_first_starts_agree_on_one_token(tmp_path: Path) -> None:
    tokens: list[str] = []
    barrier = threading.Barrier(8)

    def start() -> None:
        barrier.wait()
        tokens.append(load_token(tmp_path, {}))

    threads = [threading.Thread(target=start) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(tokens)) == 1


def test_defaults_need_nothing(tmp_path: Path) -> None:
    loaded = load_settings(tmp_path / "data", env={})
    assert loaded.host == DEFAULT_HOST == "127.0.0.1"
    assert loaded.database_url.startswith("sqlite:///")
    assert loaded.database_url.endswith("data/service.db")
    assert loaded.execute.enabled is False
    assert not loaded.execute.allows("true")


def test_database_url_from_environment(tmp_path: Path) -> None:
    loaded = load_settings(tmp_path, env={"HOOKWISE_DATABASE_URL": "postgresql+psycopg://x/y"})
    assert loaded.database_url == "postgresql+psycopg://x/y"


def test_allow_list(tmp_path: Path) -> None:
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    a, lint = _executable(hooks, "a.sh"), _executable(hooks, "lint.sh")
    (tmp_path / "service.yaml").write_text(
        f"execute:\n  enabled: true\n  allow:\n    - {a}\n"
        f"    - {{regex: '{hooks}/[a-z]+\\.sh --fast'}}\n"
    )
    policy = load_settings(tmp_path, env={}).execute
    assert policy.allows(a)
    assert policy.allows(f"{lint} --fast")
    assert not policy.allows(f"{a}; rm -rf /")
    assert not policy.allows(f"{lint} --fast; id")
    assert not policy.allows(str(hooks / "b.sh"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("execute: [1]\n", "'execute' must be a mapping"),
        ("execute: {enabled: yes please}\n", "'execute.enabled' must be true or false"),
        ("execute: {allow: x}\n", "'execute.allow' must be a list"),
        ("execute: {allow: [{regex: '('}]}\n", "execute.allow[0]: invalid regex"),
        ("execute: {allow: [3]}\n", "execute.allow[0]: expected a command string"),
        ("execute: {enable: true}\n", "unknown key(s) in 'execute': enable"),
        ("bogus: 1\n", "unknown key(s): bogus"),
        ("execute: [\n", "not valid YAML"),
        ("- a\n", "expected a mapping at the top level"),
    ],
)
def test_bad_service_yaml_names_file_and_field(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / "service.yaml").write_text(text)
    with pytest.raises(SettingsError) as err:
        load_settings(tmp_path, env={})
    assert str(tmp_path / "service.yaml") in str(err.value)
    assert message in str(err.value)


def test_serve_refuses_a_bad_service_yaml(tmp_path: Path) -> None:
    (tmp_path / "service.yaml").write_text("execute: {enable: true}\n")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "hookwise.cli.entry",
            "serve",
            "--data-dir",
            str(tmp_path),
            "--port",
            "1",
        ],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "HOOKWISE_DATABASE_URL": ""},
    )
    assert result.returncode != 0
    assert "service.yaml" in result.stderr
    assert "enable" in result.stderr


def _executable(directory: Path, name: str) -> str:
    path = directory / name
    path.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    path.chmod(0o755)
    return str(path)


def test_allowed_commands_from_flags_and_environment(tmp_path: Path) -> None:
    env_hook = _executable(tmp_path, "env.sh")
    flag_hook = _executable(tmp_path, "flag.sh")
    loaded = load_settings(
        tmp_path,
        env={"HOOKWISE_EXECUTE_ALLOW": json.dumps([env_hook])},
        allow_commands=(flag_hook,),
    )
    assert loaded.execute.enabled
    assert loaded.execute.allows(flag_hook)
    assert loaded.execute.allows(env_hook)
    assert not loaded.execute.allows(str(tmp_path / "other.sh"))


@pytest.mark.parametrize("value", ["not json", '{"a": 1}', '["ok", 3]', '[""]'])
def test_bad_execute_allow_variable(tmp_path: Path, value: str) -> None:
    with pytest.raises(SettingsError, match="HOOKWISE_EXECUTE_ALLOW"):
        load_settings(tmp_path, env={"HOOKWISE_EXECUTE_ALLOW": value})


def test_allow_command_flag_reaches_every_worker(tmp_path: Path) -> None:
    """`--allow-command` with two workers: each worker runs the command (not a 403)."""
    import httpx

    from tests.api.conftest import TOKEN, free_port

    hook = tmp_path / "hook.sh"
    hook.write_text("#!/bin/sh\necho '{}'\n")
    hook.chmod(0o755)
    port = free_port()
    env = {**os.environ, "HOOKWISE_API_TOKEN": TOKEN}
    env.pop("HOOKWISE_DATABASE_URL", None)
    env.pop("HOOKWISE_EXECUTE_ALLOW", None)
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "hookwise.cli.entry",
            "serve",
            "--port",
            str(port),
            "--workers",
            "2",
            "--data-dir",
            str(tmp_path / "data"),
            "--allow-command",
            str(hook),
            "--project-root",
            str(tmp_path),
            "--log-level",
            "warning",
        ],
        env=env,
        start_new_session=True,
    )
    try:
        url = f"http://127.0.0.1:{port}"
        for _ in range(300):
            try:
                httpx.get(f"{url}/openapi.json", timeout=1)
                break
            except httpx.HTTPError:
                import time

                time.sleep(0.1)
        body = {
            "hookConfig": {"command": str(hook), "event": "Stop", "matcher": "", "timeout": 5},
            "input": {
                "session_id": "s",
                "transcript_path": "",
                "cwd": str(tmp_path),
                "hook_event_name": "Stop",
            },
        }
        headers = {"Authorization": f"Bearer {TOKEN}", "Connection": "close"}
        codes = {
            httpx.post(
                f"{url}/internal/hook/execute-with-output", json=body, headers=headers, timeout=30
            ).status_code
            for _ in range(12)
        }
        assert codes == {200}
        other = dict(body, hookConfig=dict(body["hookConfig"], command="/bin/true"))
        refused = httpx.post(
            f"{url}/internal/hook/execute-with-output", json=other, headers=headers, timeout=30
        )
        assert refused.status_code == 403
    finally:
        import signal

        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=20)
