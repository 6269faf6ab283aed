"""Where the service keeps its data, how it is reached, and what it may execute.

Everything has a default that needs no set-up (SQLite in a per-user data directory, a
token generated on first start, loopback only, execution off) so ``hookwise serve`` runs on a
fresh checkout; deployments override through the environment or ``service.yaml``.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml

from hookwise.api.allowlist import AllowList, AllowListError, Argv, build_allow_list
from hookwise.api.webhooks.targets import TargetPolicy

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
MAX_BODY_BYTES = 1024 * 1024
TOKEN_FILE = "api-token"
SERVICE_FILE = "service.yaml"


class SettingsError(ValueError):
    """A service setting is wrong; the message names the file or variable and the field."""


@dataclass(frozen=True)
class ExecutePolicy:
    """Which commands ``execute-with-output`` may run, where, and with which variables.

    Commands come from the network, so nothing runs unless the server's own configuration
    names it (api/allowlist.py: argv entries resolved at startup); ``input.cwd`` must lie
    inside one of ``roots``; hooks get a minimal environment plus the names in ``env``.
    """

    enabled: bool = False
    allow: AllowList = field(default_factory=AllowList)
    roots: tuple[Path, ...] = ()
    env: tuple[str, ...] = ()

    def resolve(self, command: str) -> Argv | None:
        """The argv to run for ``command``; None when it is not allowed."""
        return self.allow.match(command) if self.enabled else None

    def allows(self, command: str) -> bool:
        return self.resolve(command) is not None


def execute_policy(
    commands: Iterable[str] = (),
    *,
    regexes: Iterable[str] = (),
    roots: Iterable[Path] | None = None,
    env: Iterable[str] = (),
    enabled: bool = True,
    source: str = "--allow-command",
) -> ExecutePolicy:
    """A policy from entries as an operator writes them (AllowListError when one is bad);
    ``roots`` default to the server's working directory."""
    try:
        allow = build_allow_list(
            ((c, f"{source}[{i}]") for i, c in enumerate(commands)),
            ((r, f"{source} regex[{i}]") for i, r in enumerate(regexes)),
        )
    except AllowListError as err:
        raise SettingsError(str(err)) from None
    chosen = tuple(roots) if roots is not None else ()
    return ExecutePolicy(enabled, allow, _roots(chosen or (Path.cwd(),), source), tuple(env))


def _roots(roots: Iterable[Path], source: str) -> tuple[Path, ...]:
    out: list[Path] = []
    for root in roots:
        if not root.is_absolute() or not root.is_dir():
            raise SettingsError(
                f"{source}: project root {str(root)!r} must be an absolute path of a directory"
            )
        out.append(Path(os.path.realpath(root)))
    return tuple(out)


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
    token_generated: bool = False  # created by this start: printed once, after the bind
    webhook_targets: TargetPolicy = field(default_factory=TargetPolicy)  # none internal
    # Where people reach the console (approval links in notifications): --public-url,
    # HOOKWISE_PUBLIC_URL or service.yaml's public_url; else the bound address.
    public_url: str = ""

    @property
    def page_base(self) -> str:
        if self.public_url:
            return self.public_url.rstrip("/")
        shown = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{shown}:{self.port}"


def sqlite_url(data_dir: Path) -> str:
    return f"sqlite:///{(data_dir / 'service.db').resolve()}"


def default_data_dir(env: Mapping[str, str]) -> Path:
    """Per user, never the project: ``HOOKWISE_DATA_DIR``, else ``$XDG_DATA_HOME/hookwise``,
    else ``~/.local/share/hookwise``. (The project's ``.hookwise/`` holds the policy that
    teams commit; a token or a database there would be committed with it.)"""
    if env.get("HOOKWISE_DATA_DIR"):
        return Path(env["HOOKWISE_DATA_DIR"])
    xdg = env.get("XDG_DATA_HOME", "")
    base = Path(xdg) if xdg.startswith("/") else Path.home() / ".local" / "share"
    return base / "hookwise"


def private_dir(path: Path) -> Path:
    """``path`` created if needed, mode 0700 (it holds the token and the database)."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(path, 0o700)
    return path


def private_sqlite_files(url: str) -> None:
    """A SQLite database file created 0600 before SQLite opens it (its WAL and SHM files
    take the database's mode), and any existing one and its companions made 0600."""
    if not url.startswith("sqlite:///"):
        return
    db = url.removeprefix("sqlite:///")
    if not db or db == ":memory:":
        return
    os.close(os.open(db, os.O_WRONLY | os.O_CREAT, 0o600))
    for name in (db, f"{db}-wal", f"{db}-shm", f"{db}-journal"):
        with contextlib.suppress(FileNotFoundError):
            os.chmod(name, 0o600)


def load_token(data_dir: Path, env: Mapping[str, str]) -> str:
    """``HOOKWISE_API_TOKEN``, else the stored token, else a new one stored with mode 0600."""
    return read_token(data_dir, env)[0]


def read_token(data_dir: Path, env: Mapping[str, str]) -> tuple[str, bool]:
    """(token, whether this call generated it)."""
    token = env.get("HOOKWISE_API_TOKEN", "").strip()
    if token:
        return token, False
    path = data_dir / TOKEN_FILE
    try:
        stored = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        stored = ""
    if stored:
        return stored, False
    private_dir(data_dir)
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
    return path.read_text(encoding="utf-8").strip(), True


def _string_list(raw: Any, where: str) -> list[str]:
    if not isinstance(raw, list) or not all(isinstance(x, str) and x for x in raw):
        raise SettingsError(f"{where}: expected a list of non-empty strings")
    return list(raw)


def _execute_policy(
    raw: Any, source: str, commands: tuple[str, ...], roots: tuple[Path, ...]
) -> ExecutePolicy:
    """service.yaml's ``execute`` plus the command line's and the environment's entries."""
    raw = {} if raw is None else raw
    if not isinstance(raw, dict):
        raise SettingsError(f"{source}: 'execute' must be a mapping with 'enabled' and 'allow'")
    unknown = set(raw) - {"enabled", "allow", "project_roots", "env"}
    if unknown:
        raise SettingsError(f"{source}: unknown key(s) in 'execute': {', '.join(sorted(unknown))}")
    enabled = raw.get("enabled", False)
    if not isinstance(enabled, bool):
        raise SettingsError(f"{source}: 'execute.enabled' must be true or false")
    allow = raw.get("allow", [])
    if not isinstance(allow, list):
        raise SettingsError(f"{source}: 'execute.allow' must be a list")
    exact: list[tuple[str, str]] = []
    regexes: list[tuple[str, str]] = []
    for i, entry in enumerate(allow):
        where = f"{source}: execute.allow[{i}]"
        if isinstance(entry, str):
            exact.append((entry, where))
        elif (
            isinstance(entry, dict) and set(entry) == {"regex"} and isinstance(entry["regex"], str)
        ):
            regexes.append((entry["regex"], where))
        else:
            raise SettingsError(f"{where}: expected a command string or {{regex: PATTERN}}")
    exact.extend(
        (c, f"--allow-command / HOOKWISE_EXECUTE_ALLOW [{i}]") for i, c in enumerate(commands)
    )
    try:
        allow_list = build_allow_list(exact, regexes)
    except AllowListError as err:
        raise SettingsError(str(err)) from None
    yaml_roots = [
        Path(r)
        for r in _string_list(raw.get("project_roots", []), f"{source}: execute.project_roots")
    ]
    env = _string_list(raw.get("env", []), f"{source}: execute.env")
    chosen = (*roots, *yaml_roots) or (Path.cwd(),)
    return ExecutePolicy(enabled or bool(commands), allow_list, _roots(chosen, source), tuple(env))


def load_settings(
    data_dir: Path | None = None,
    env: Mapping[str, str] | None = None,
    *,
    host: str | None = None,
    port: int | None = None,
    workers: int = 1,
    allow_commands: tuple[str, ...] = (),
    project_roots: tuple[Path, ...] = (),
    webhook_allow_private: bool = False,
    webhook_allow_cidrs: tuple[str, ...] = (),
    public_url: str | None = None,
) -> ServiceSettings:
    """Settings from the data directory's service.yaml and the environment; commands named
    by ``allow_commands`` (``--allow-command``) or ``HOOKWISE_EXECUTE_ALLOW`` (a JSON list
    of command strings) are added to the allow-list and turn execution on."""
    env = os.environ if env is None else env
    data_dir = (data_dir or default_data_dir(env)).resolve()
    service_file = data_dir / SERVICE_FILE
    raw: Any = {}
    if service_file.exists():
        try:
            raw = yaml.safe_load(service_file.read_text(encoding="utf-8")) or {}
        except yaml.YAMLError as err:
            raise SettingsError(f"{service_file}: not valid YAML: {err}") from None
        if not isinstance(raw, dict):
            raise SettingsError(f"{service_file}: expected a mapping at the top level")
        unknown = set(raw) - {"execute", "database_url", "public_url"}
        if unknown:
            raise SettingsError(f"{service_file}: unknown key(s): {', '.join(sorted(unknown))}")
    url = env.get("HOOKWISE_DATABASE_URL") or raw.get("database_url") or sqlite_url(data_dir)
    if not isinstance(url, str):
        raise SettingsError(f"{service_file}: 'database_url' must be a string")
    private_dir(data_dir)
    private_sqlite_files(url)
    token, generated = read_token(data_dir, env)
    try:
        targets = TargetPolicy.from_env(
            env, allow_private=webhook_allow_private, allow_cidrs=webhook_allow_cidrs
        )
    except ValueError as err:
        raise SettingsError(str(err)) from None
    public = public_url or env.get("HOOKWISE_PUBLIC_URL", "").strip() or raw.get("public_url", "")
    return ServiceSettings(
        public_url=check_public_url(public, "--public-url / HOOKWISE_PUBLIC_URL / public_url"),
        data_dir=data_dir,
        database_url=url,
        api_token=token,
        token_generated=generated,
        host=host or DEFAULT_HOST,
        port=DEFAULT_PORT if port is None else port,
        execute=_execute_policy(
            raw.get("execute"),
            str(service_file),
            (*allow_commands, *_env_commands(env)),
            (*project_roots, *_env_roots(env)),
        ),
        workers=workers,
        max_running_hooks=_positive(env, "HOOKWISE_MAX_RUNNING_HOOKS", 16),
        webhook_targets=targets,
    )


def check_public_url(value: Any, where: str) -> str:
    """An http(s) base URL without query or fragment (approval links are built on it)."""
    if value in ("", None):
        return ""
    if not isinstance(value, str):
        raise SettingsError(f"{where}: expected a string URL")
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise SettingsError(
            f"{where}: expected an http(s) URL without query or fragment, "
            f"e.g. https://hookwise.example.com, got {value!r}"
        )
    return value.rstrip("/")


def database_url_for(data_dir: Path | None, env: Mapping[str, str]) -> tuple[Path, str]:
    """(data dir, database URL) as ``hookwise serve`` would choose them, without reading or
    making a token (``hookwise serve token`` works on the server's database)."""
    data_dir = (data_dir or default_data_dir(env)).resolve()
    raw: Any = {}
    service_file = data_dir / SERVICE_FILE
    if service_file.exists():
        try:
            raw = yaml.safe_load(service_file.read_text(encoding="utf-8")) or {}
        except yaml.YAMLError as err:
            raise SettingsError(f"{service_file}: not valid YAML: {err}") from None
    url = env.get("HOOKWISE_DATABASE_URL") or (
        raw.get("database_url") if isinstance(raw, dict) else None
    )
    if url is None:
        private_dir(data_dir)
        url = sqlite_url(data_dir)
        private_sqlite_files(url)
    if not isinstance(url, str):
        raise SettingsError(f"{service_file}: 'database_url' must be a string")
    return data_dir, url


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


def _env_roots(env: Mapping[str, str]) -> tuple[Path, ...]:
    text = env.get("HOOKWISE_PROJECT_ROOTS", "").strip()
    return tuple(Path(p) for p in text.split(os.pathsep) if p) if text else ()
