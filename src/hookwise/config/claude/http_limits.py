"""Claude Code's limits on ``type: "http"`` hooks from its settings: ``allowedHttpHookUrls``
(the URLs an http hook may be sent to) and ``httpHookAllowedEnvVars`` (the variables it may
put into its headers), as Claude Code 2.1.330 reads them (its settings schema; recorded:
tests/e2e/fixtures/claude-events/http-allowlists*.json).

* Each list is undefined unless some settings file sets it; the lists of every file are
  concatenated (a project's ``.claude/settings.json`` can add URLs to the user's list:
  recorded, ``http-allowlists-project``).
* A value that is not an array of strings counts as an empty list (no http hook may run; no
  variable may be put into a header), with a warning naming the file and the key: a broken
  limit never opens.
* For hooks defined in managed settings only managed settings' lists count; where managed
  settings set none, those hooks have no limit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hookwise.config.claude.settings import ClaudeScope, ClaudeSettingsFile
from hookwise.protocol.claude import HTTP_HOOK_ENV_SETTING, HTTP_HOOK_URL_SETTING

__all__ = ["HttpHookLimits", "http_hook_limits"]

Limit = tuple[str, ...] | None


@dataclass(frozen=True)
class HttpHookLimits:
    """The merged lists (None: not set anywhere), for every hook and for managed ones."""

    urls: Limit = None
    env_vars: Limit = None
    managed_urls: Limit = None
    managed_env_vars: Limit = None
    warnings: tuple[str, ...] = ()

    def for_scope(self, scope: str) -> tuple[Limit, Limit]:
        """(URL patterns, variable names) that bind a hook of this settings scope."""
        if scope == ClaudeScope.MANAGED.value:
            return self.managed_urls, self.managed_env_vars
        return self.urls, self.env_vars


def _merge(current: Limit, more: tuple[str, ...]) -> tuple[str, ...]:
    return more if current is None else (*current, *more)


def _read(file: ClaudeSettingsFile, key: str, warnings: list[str]) -> tuple[str, ...] | None:
    if file.settings is None or key not in file.settings:
        return None
    value = file.settings[key]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    what = "no HTTP hooks may run" if key == HTTP_HOOK_URL_SETTING else "no variables"
    warnings.append(
        f"{file.origin}: {key} must be an array of strings; read as an empty list ({what}), "
        "as Claude Code does"
    )
    return ()


def http_hook_limits(files: Sequence[ClaudeSettingsFile]) -> HttpHookLimits:
    """The limits the loaded settings files set (see the module's rules)."""
    urls: Limit = None
    env_vars: Limit = None
    managed_urls: Limit = None
    managed_env: Limit = None
    warnings: list[str] = []
    for file in files:
        if file.ignored is not None:
            continue
        found_urls = _read(file, HTTP_HOOK_URL_SETTING, warnings)
        found_env = _read(file, HTTP_HOOK_ENV_SETTING, warnings)
        if found_urls is not None:
            urls = _merge(urls, found_urls)
            if file.scope is ClaudeScope.MANAGED:
                managed_urls = _merge(managed_urls, found_urls)
        if found_env is not None:
            env_vars = _merge(env_vars, found_env)
            if file.scope is ClaudeScope.MANAGED:
                managed_env = _merge(managed_env, found_env)
    return HttpHookLimits(urls, env_vars, managed_urls, managed_env, tuple(warnings))
