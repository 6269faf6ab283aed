"""Which agent a project is set up for: Gemini CLI, Claude Code or Codex.

The project's own files decide:

* gemini: ``.gemini/settings.json``
* claude: ``.claude/settings.json``, ``.claude/settings.local.json``
* codex: ``.codex/hooks.json``, ``.codex/config.toml``

A dialect whose files define hooks beats one whose files merely exist. When several tie,
the order is gemini, claude, codex (Gemini CLI is hookwise's first dialect, so a project
that has hooks for it keeps behaving as before). When the project has none of these files,
the same check runs on the user's files (``~/.gemini/settings.json``,
``~/.claude/settings.json``, ``$CODEX_HOME`` or ``~/.codex``), where only files that define
hooks count (most users have a config file for every agent they installed). Nothing found:
gemini. Unreadable or malformed files count as existing without hooks; this never raises.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from hookwise.config.codex.settings import parse_codex_config_text, parse_codex_hooks_json_text
from hookwise.config.dialect_hooks import read_text_file
from hookwise.config.jsonc import parse_jsonc
from hookwise.protocol.hosts import HOSTS, Host, hosts_with

__all__ = [
    "DIALECTS",
    "AmbiguousEventError",
    "Dialect",
    "detect_dialect",
    "dialect_files",
    "host_for_event",
]

Dialect = Host
DIALECTS: Final = hosts_with("runtime")
"""The hosts with a runtime; also the tie-break order (the registry's)."""


def dialect_files(base: Path, dialect: Dialect) -> list[Path]:
    """The project files of ``dialect`` under ``base`` (a row's pattern, such as Cline's
    ``.clinerules/hooks/*``, by the files it matches)."""
    out: list[Path] = []
    for name in HOSTS[dialect].project_files:
        out += sorted(base.glob(name)) if "*" in name else [base / name]
    return out


def _defines_hooks(path: Path) -> bool:
    text = read_text_file(path, "settings", [])
    if text is None:
        return False
    if path.suffix == ".toml":
        config, _ = parse_codex_config_text(text, str(path))
        hooks = config.get("hooks") if config is not None else None
        return isinstance(hooks, dict) and any(k != "state" and v for k, v in hooks.items())
    if path.name == "hooks.json":
        value, _ = parse_codex_hooks_json_text(text, str(path))
        return isinstance(value, dict) and any(value.values())
    value, problem = parse_jsonc(text)
    hooks = value.get("hooks") if problem is None and isinstance(value, dict) else None
    return isinstance(hooks, dict) and any(hooks.values())


def _score(files: list[Path], *, existing_counts: bool) -> int:
    present = [path for path in files if path.is_file()]
    if any(_defines_hooks(path) for path in present):
        return 2
    return 1 if present and existing_counts else 0


def _best(scores: dict[Dialect, int]) -> Dialect | None:
    top = max(scores.values())
    if top == 0:
        return None
    return next(dialect for dialect in DIALECTS if scores[dialect] == top)


class AmbiguousEventError(ValueError):
    """An event name several hosts have, in a project set up for more than one of them."""


def host_for_event(
    event: str,
    project_dir: str | os.PathLike[str] = ".",
    home: str | os.PathLike[str] | None = None,
    *,
    env: Mapping[str, str] | None = None,
) -> Dialect | None:
    """The host an event name means: the only host that has it, or the only one of those
    the project (else the user) has hooks for; None for a name no host has (detection
    decides, and the host's own error names its events).

    Raises AmbiguousEventError when several hosts have the name and the files do not
    single one out: guessing would fire another agent's hooks (issue 26, item 2).
    """
    from hookwise.protocol.hosts import HOST_TITLES, event_names

    having = [d for d in DIALECTS if event in event_names(d)]
    if len(having) <= 1:
        return having[0] if having else None
    for scores in _score_levels(project_dir, home, env):
        mine = {d: scores[d] for d in having}
        top = max(mine.values())
        if top == 0:
            continue
        best = [d for d, score in mine.items() if score == top]
        if len(best) == 1:
            return best[0]
        break
    titles = " and ".join(HOST_TITLES[d] for d in having)
    options = " or ".join(f"--host {d}" for d in having)
    raise AmbiguousEventError(f"{event} is an event of {titles}: pass {options}")


def _score_levels(
    project_dir: str | os.PathLike[str],
    home: str | os.PathLike[str] | None,
    env: Mapping[str, str] | None,
) -> list[dict[Dialect, int]]:
    """Each host's score in the project's files, then in the user's."""
    project = Path(os.path.abspath(project_dir))
    levels = [{d: _score(dialect_files(project, d), existing_counts=True) for d in DIALECTS}]
    environ = os.environ if env is None else env
    home_dir = Path(os.path.abspath(home)) if home is not None else Path(os.path.expanduser("~"))
    user_files = {d: [home_dir / name for name in HOSTS[d].user_files] for d in DIALECTS}
    if home is None and environ.get("CODEX_HOME"):
        codex_home = Path(environ["CODEX_HOME"])
        user_files["codex"] = [codex_home / "hooks.json", codex_home / "config.toml"]
    levels.append({d: _score(user_files[d], existing_counts=False) for d in DIALECTS})
    return levels


def detect_dialect(
    project_dir: str | os.PathLike[str] = ".",
    home: str | os.PathLike[str] | None = None,
    *,
    env: Mapping[str, str] | None = None,
) -> Dialect:
    """The dialect of ``project_dir`` (see the module docstring for the rules)."""
    project = Path(os.path.abspath(project_dir))
    found = _best({d: _score(dialect_files(project, d), existing_counts=True) for d in DIALECTS})
    if found is not None:
        return found
    environ = os.environ if env is None else env
    home_dir = Path(os.path.abspath(home)) if home is not None else Path(os.path.expanduser("~"))
    user_files = {d: [home_dir / name for name in HOSTS[d].user_files] for d in DIALECTS}
    if home is None and environ.get("CODEX_HOME"):
        codex_home = Path(environ["CODEX_HOME"])
        user_files["codex"] = [codex_home / "hooks.json", codex_home / "config.toml"]
    return _best({d: _score(user_files[d], existing_counts=False) for d in DIALECTS}) or "gemini"
