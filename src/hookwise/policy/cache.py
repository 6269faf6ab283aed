"""The compiled policy cache: the hook reads a marshal file instead of parsing YAML.

The cache file is ``$HOOKWISE_CACHE_DIR`` (default ``$XDG_CACHE_HOME/hookwise`` or
``~/.cache/hookwise``) ``/policy-<hash of the scope paths>.marshal``. It holds the compiled
policy and its key: the exact bytes of every scope file (absent ones too), the hookwise
version and a stamp of the compiler's source files. Any change to any of them recompiles;
nothing is trusted on mtimes alone. Reading the key costs one ``open`` per policy file.

Standard library only: the compiler (PyYAML) is imported only when the cache is stale.
"""

from __future__ import annotations

import marshal
import sys

from hookwise import __version__
from hookwise.policy import os_lite as os  # os without its import cost
from hookwise.policy.scopes import (
    read_policy_file,
    read_scope_sources,
    scope_sources,
    trust_store_path,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

CACHE_FORMAT = 2  # bump when what _pack keeps changes
# The modules whose code shapes the compiled data (a change recompiles the cache).
_COMPILER_SOURCES = (
    "policy/compiler.py",
    "policy/loader.py",
    "policy/schema.py",
    "policy/hosts.py",
    "policy/canonical.py",
    "policy/condition.py",
    "policy/condition_syntax.py",
    "policy/globs.py",
    "policy/shell.py",
    "policy/trust.py",
    "policy/actions.py",
    "policy/scopes.py",
    "protocol/gemini.py",
    "protocol/claude.py",
    "protocol/codex.py",
    "protocol/dialect.py",
)


def cache_dir(env: dict[str, str]) -> str:
    explicit = env.get("HOOKWISE_CACHE_DIR")
    if explicit:
        return explicit
    base = env.get("XDG_CACHE_HOME") or os.path.join(env.get("HOME") or "~", ".cache")
    return os.path.join(os.path.expanduser(base), "hookwise")


def _fnv1a(text: str) -> str:
    value = 0xCBF29CE484222325
    for byte in text.encode("utf-8", "surrogatepass"):
        value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return f"{value:016x}"


def code_stamp() -> int:
    """The newest mtime of the sources the compiled data depends on.

    The rule packs count by their directory (a pack saved, added or removed through a
    rename, as editors and installers do, changes it): one stat instead of one per pack.
    """
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    newest = 0
    for name in (*_COMPILER_SOURCES, "policy/packs", "policy/packs/__init__.py"):
        try:
            newest = max(newest, os.stat(os.path.join(root, name)).st_mtime_ns)
        except OSError:
            continue
    return newest


def cache_path(files: list[tuple[str, str]], env: dict[str, str]) -> str:
    name = _fnv1a("\0".join(path for _, path in files))
    return os.path.join(cache_dir(env), f"policy-{name}.marshal")


class LazyRules:
    """The compiled rules of a cached policy, each unmarshalled when first needed.

    A hook call looks at the few rules indexed for its event; unmarshalling all of a large
    policy would cost more than evaluating it.
    """

    __slots__ = ("_blobs", "_rules")

    def __init__(self, blobs: list[bytes]) -> None:
        self._blobs = blobs
        self._rules: list[dict[str, Any] | None] = [None] * len(blobs)

    def __getitem__(self, position: int) -> dict[str, Any]:
        rule = self._rules[position]
        if rule is None:
            rule = self._rules[position] = marshal.loads(self._blobs[position])
        return rule

    def __len__(self) -> int:
        return len(self._blobs)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return (self[position] for position in range(len(self._blobs)))


# What only `policy show`, `explain` and `scan` read (they compile afresh): not in the
# hook's cache, where every byte of a rule is unmarshalled on each call that looks at it.
_SHOW_ONLY = (
    "metadata",
    "column",
    "when_src",
    "replaces",
    "overridden",
    "file",
    "line",
    "pack",
    "enabled",
)


def _hook_rule(rule: dict[str, Any]) -> dict[str, Any]:
    """The rule as the hook reads it (the description only stands in for a reason)."""
    slim = {k: v for k, v in rule.items() if k not in _SHOW_ONLY}
    if slim.get("reason"):
        slim.pop("description", None)
    matchers = slim.get("m")
    if matchers and "command" in matchers:
        commands = [{k: v for k, v in c.items() if k != "source"} for c in matchers["command"]]
        slim["m"] = {**matchers, "command": commands}
    return slim


def _pack(policy: dict[str, Any]) -> dict[str, Any]:
    packed = dict(policy)
    packed["rules"] = [marshal.dumps(_hook_rule(rule)) for rule in policy["rules"]]
    packed["packed_rules"] = True
    return packed


def _unpack(stored: dict[str, Any]) -> dict[str, Any]:
    if stored.pop("packed_rules", False):
        stored["rules"] = LazyRules(stored["rules"])
    return stored


class Loaded:
    """A compiled policy and where it came from."""

    __slots__ = ("cache_file", "compiled_now", "files", "policy")

    def __init__(
        self, policy: dict[str, Any], files: list[tuple[str, str]], cache_file: str, now: bool
    ) -> None:
        self.policy = policy
        self.files = files
        self.cache_file = cache_file
        self.compiled_now = now


def load_policy(cwd: str, env: dict[str, str], use_cache: bool = True) -> Loaded:
    """The compiled policy for an event's cwd.

    Raises OSError (a PolicyFileError) when a policy file is present but cannot be used.
    The key holds the trust store's bytes too: trusting a file recompiles.
    """
    found = scope_sources(cwd, env)
    files = [(scope, path) for scope, path, _how in found]
    sources = read_scope_sources(found)
    trust_path = trust_store_path(env)
    try:
        trust_bytes = read_policy_file(trust_path, "discovered")
    except OSError:
        trust_bytes = b"!unreadable"
    key = (CACHE_FORMAT, __version__, code_stamp(), tuple(sources), trust_bytes)
    path = cache_path(files, env)
    if use_cache:
        try:
            with open(path, "rb") as handle:
                stored = marshal.loads(handle.read())
            if stored[0] == key:
                return Loaded(_unpack(stored[1]), files, path, False)
        except (OSError, EOFError, ValueError, TypeError, IndexError):
            pass
    if sys.flags.no_site and "site" not in sys.modules:
        # the fast launcher (run_hook.py) runs without site-packages; the compiler needs them
        import site

        site.main()
    from hookwise.policy.compiler import compile_sources
    from hookwise.policy.trust import Trust

    policy = compile_sources(sources, trust=Trust.from_store(trust_bytes, env))
    if use_cache:
        _store(path, (key, _pack(policy)))
    return Loaded(policy, files, path, True)


def _store(path: str, value: Any) -> None:
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        temp = f"{path}.{os.getpid()}.tmp"
        with open(temp, "wb") as handle:
            handle.write(marshal.dumps(value))
        os.replace(temp, path)
    except (OSError, ValueError):
        pass  # a cache that cannot be written costs time, not correctness
