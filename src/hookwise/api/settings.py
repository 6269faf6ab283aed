"""Where the service keeps its data, how it is reached, and what it may execute.

Everything has a default that needs no set-up (SQLite under ``./.hookwise``, a token
generated on first start, loopback only, execution off) so ``hookwise serve`` runs on a
fresh checkout; deployments override through the environment or ``service.yaml``.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
MAX_BODY_BYTES = 1024 * 1024
TOKEN_FILE = "api-token"
SERVICE_FILE = "service.yaml"


class SettingsError(ValueError):
    """A service setting is wrong; the message names the file or variable and the field."""


@dataclass(frozen=True)
class ExecutePolicy:
    """Which commands ``execute-with-output`` may run: exact strings or full-match regexes.

    Commands come from the network, so nothing runs unless the server's own configuration
    names it; a regex must match the whole command string.
    """

    enabled: bool = False
    exact: frozenset[str] = frozenset()
    patterns: tuple[re.Pattern[str], ...] = ()

    def allows(self, command: str) -> bool:
        if not self.enabled:
            return False
        if command in self.exact:
            return True
        return any(p.fullmatch(command) for p in self.patterns)


@dataclass(frozen=True)
class ServiceSettings:
    data_dir: Path
    database_url: str
    api_token: str
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    execute: ExecutePolicy = field(default_factory=ExecutePolicy)
    max_body_bytes: int = MAX_BODY_BYTES
    workers: int = 1
    max_running_hooks: int = 16


def sqlite_url(data_dir: Path) -> str:
    return f"sqlite:///{(data_dir / 'service.db').resolve()}"


def load_token(data_dir: Path, env: Mapping[str, str]) -> str:
    """``HOOKWISE_API_TOKEN``, else the stored token, else a new one stored with mode 0600."""
    token = env.get("HOOKWISE_API_TOKEN", "").strip()
    if token:
        return token
    path = data_dir / TOKEN_FILE
    try:
        stored = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        stored = ""
    if stored:
        return stored
    data_dir.mkdir(parents=True, exist_ok=True)
    # Written whole to a private file, then linked into place: a process starting at the
    # same moment either wins the link or reads the winner's complete token, never a
    # half-written one.
    draft = data_dir / f".{TOKEN_FILE}.{os.getpid()}.{secrets.token_hex(4)}"
    fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(secrets.token_urlsafe(32) + "\n")
            out.flush()
            os.fsync(out.fileno())
        with contextlib.suppress(FileExistsError):
            os.link(draft, path)
    finally:
        draft.unlink(missing_ok=True)
    return path.read_text(encoding="utf-8").strip()


def _execute_policy(raw: Any, source: str) -> ExecutePolicy:
    if raw is None:
        return ExecutePolicy()
    if not isinstance(raw, dict):
        raise SettingsError(f"{source}: 'execute' must be a mapping with 'enabled' and 'allow'")
    unknown = set(raw) - {"enabled", "allow"}
    if unknown:
        raise SettingsError(f"{source}: unknown key(s) in 'execute': {', '.join(sorted(unknown))}")
    enabled = raw.get("enabled", False)
    if not isinstance(enabled, bool):
        raise SettingsError(f"{source}: 'execute.enabled' must be true or false")
    allow = raw.get("allow", [])
    if not isinstance(allow, list):
        raise SettingsError(f"{source}: 'execute.allow' must be a list")
    exact: set[str] = set()
    patterns: list[re.Pattern[str]] = []
    for i, entry in enumerate(allow):
        where = f"{source}: execute.allow[{i}]"
        if isinstance(entry, str):
            exact.add(entry)
        elif (
            isinstance(entry, dict) and set(entry) == {"regex"} and isinstance(entry["regex"], str)
        ):
            try:
                patterns.append(re.compile(entry["regex"]))
            except re.error as err:
                raise SettingsError(f"{where}: invalid regex: {err}") from None
        else:
            raise SettingsError(f"{where}: expected a command string or {{regex: PATTERN}}")
    return ExecutePolicy(enabled, frozenset(exact), tuple(patterns))


def load_settings(
    data_dir: Path | None = None,
    env: Mapping[str, str] | None = None,
    *,
    host: str | None = None,
    port: int | None = None,
    workers: int = 1,
    allow_commands: tuple[str, ...] = (),
) -> ServiceSettings:
    """Settings from the data directory's service.yaml and the environment; commands named
    by ``allow_commands`` (``--allow-command``) or ``HOOKWISE_EXECUTE_ALLOW`` (a JSON list
    of command strings) are added to the allow-list and turn execution on."""
    env = os.environ if env is None else env
    data_dir = (data_dir or Path(env.get("HOOKWISE_DATA_DIR", ".hookwise"))).resolve()
    service_file = data_dir / SERVICE_FILE
    raw: Any = {}
    if service_file.exists():
        try:
            raw = yaml.safe_load(service_file.read_text(encoding="utf-8")) or {}
        except yaml.YAMLError as err:
            raise SettingsError(f"{service_file}: not valid YAML: {err}") from None
        if not isinstance(raw, dict):
            raise SettingsError(f"{service_file}: expected a mapping at the top level")
        unknown = set(raw) - {"execute", "database_url"}
        if unknown:
            raise SettingsError(f"{service_file}: unknown key(s): {', '.join(sorted(unknown))}")
    url = env.get("HOOKWISE_DATABASE_URL") or raw.get("database_url") or sqlite_url(data_dir)
    if not isinstance(url, str):
        raise SettingsError(f"{service_file}: 'database_url' must be a string")
    data_dir.mkdir(parents=True, exist_ok=True)
    return ServiceSettings(
        data_dir=data_dir,
        database_url=url,
        api_token=load_token(data_dir, env),
        host=host or DEFAULT_HOST,
        port=DEFAULT_PORT if port is None else port,
        execute=_with_commands(
            _execute_policy(raw.get("execute"), str(service_file)),
            (*allow_commands, *_env_commands(env)),
        ),
        workers=workers,
        max_running_hooks=_positive(env, "HOOKWISE_MAX_RUNNING_HOOKS", 16),
    )


def _positive(env: Mapping[str, str], name: str, default: int) -> int:
    text = env.get(name, "").strip()
    if not text:
        return default
    if not text.isdigit() or int(text) < 1:
        raise SettingsError(f"{name}: expected a positive integer, got {text!r}")
    return int(text)


def _env_commands(env: Mapping[str, str]) -> tuple[str, ...]:
    text = env.get("HOOKWISE_EXECUTE_ALLOW", "").strip()
    if not text:
        return ()
    try:
        value = json.loads(text)
    except json.JSONDecodeError as err:
        raise SettingsError(f"HOOKWISE_EXECUTE_ALLOW: not valid JSON: {err}") from None
    if not isinstance(value, list) or not all(isinstance(c, str) and c for c in value):
        raise SettingsError(
            "HOOKWISE_EXECUTE_ALLOW: expected a JSON list of command strings, "
            'e.g. ["/opt/hooks/check.sh"]'
        )
    return tuple(value)


def _with_commands(policy: ExecutePolicy, commands: tuple[str, ...]) -> ExecutePolicy:
    if not commands:
        return policy
    return ExecutePolicy(True, policy.exact | frozenset(commands), policy.patterns)
