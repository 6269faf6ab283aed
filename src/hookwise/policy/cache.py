"""The compiled policy cache: the hook reads a marshal file instead of parsing YAML.

The cache file is ``$HOOKWISE_CACHE_DIR`` (default ``$XDG_CACHE_HOME/hookwise`` or
``~/.cache/hookwise``) ``/policy-<hash of the scope paths>.marshal``. It holds the compiled
policy and its key: the exact bytes of every scope file (absent ones too) and of the trust
store, the hookwise version and a stamp of the compiler's source files. Any change to any of
them recompiles; nothing is trusted on mtimes alone. Reading the key costs one ``open`` per
policy file.

Layout (cache_write.py writes it): 8 bytes giving the length of a small marshalled head, the
head, then raw sections the head points into: the key's file bytes (compared where they
lie), the rules marshalled a group at a time (the rules of one index list together), three
arrays of 4-byte ints locating each rule's group, the index and host tables marshalled per
event and per host, and the compiler's warnings in one blob (``validate`` and ``doctor``
show them; no hook call reads them, and a policy can have hundreds). A hook call reads the
file once and unmarshals only the head, the groups of the rules its event looks at and one
entry of each table: every byte copied or object built costs a fresh page of memory, and on
the machines hooks run on a page fault costs microseconds.

Standard library only: the compiler (PyYAML) is imported only when the cache is stale.
"""

from __future__ import annotations

import marshal
import sys

from hookwise import __version__
from hookwise.policy import os_lite as os  # os without its import cost
from hookwise.policy.safe_files import read_private
from hookwise.policy.trust.scopes import (
    PolicyFileError,
    read_policy_file,
    read_scope_sources,
    scope_sources,
    trust_store_path,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence
    from typing import Any

    from hookwise.policy.loaded import Loaded

CACHE_FORMAT = 11  # bump when the layout or what cache_write.hook_rule keeps changes
MAX_CACHE_BYTES = 256 * 1024 * 1024  # (a larger file is damaged: recompiled, never read)


def cache_dir(env: dict[str, str]) -> str:
    explicit = env.get("HOOKWISE_CACHE_DIR")
    if explicit:
        return explicit
    base = env.get("XDG_CACHE_HOME") or os.path.join(env.get("HOME") or "~", ".cache")
    return os.path.join(os.path.expanduser(base), "hookwise")


# the largest prime below 2**64: names from a path hash spread over 64 bits
_NAME_MODULUS = 0xFFFFFFFFFFFFFFC5


def name_hash(text: str) -> str:
    """A stable 16-hex-digit name for ``text`` (cache and state file names; a collision
    costs a recompile, never a wrong answer, since the key is checked in full). The bytes
    as one integer modulo a prime: one C operation instead of a Python loop per byte."""
    value = int.from_bytes(text.encode("utf-8", "surrogatepass"), "little")
    return f"{value % _NAME_MODULUS:016x}"


def _package() -> str:
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def code_stamp(names: Sequence[str]) -> tuple[int, ...]:
    """The mtimes of ``names`` (relative to hookwise's directory; -1: absent): the sources
    the compiled data depends on, as code_sources found them when the cache was written.
    Each file's own (not the newest of them): an edit that leaves a file older than
    another is seen too.

    The rule packs count by their directory (a pack saved, added or removed through a
    rename, as editors and installers do, changes it): one stat instead of one per pack.
    """
    root = _package()
    stamps = []
    for name in names:
        try:
            stamps.append(os.stat(f"{root}/{name}").st_mtime_ns)
        except OSError:
            stamps.append(-1)
    return tuple(stamps)


def cache_path(files: list[tuple[str, str]], env: dict[str, str]) -> str:
    name = name_hash("\0".join(path for _, path in files))
    return os.path.join(cache_dir(env), f"policy-{name}.marshal")


def verdict_file(path: str, env: dict[str, str]) -> str:
    """Where the verdict that ``path`` was too slow to load is kept (rules/budget.py): the
    cache directory; inside `hookwise run`, where it is read-only, a directory of this
    user's under the session's temp directory. A verdict the agent forges there only
    denies (it can deny its own calls anyway); one it deletes costs the next call the
    budget again, which still denies."""
    from hookwise.policy import confinement

    if confinement.confined(env):
        base = env.get("TMPDIR") or "/tmp"
        directory = f"{base}/hookwise-slow-{os.getuid()}-{env.get('HOOKWISE_RUN', '')}"
    else:
        directory = os.path.join(cache_dir(env), "slow")
    return os.path.join(directory, f"slow-{name_hash(path)}")


class LazyRules:
    """The compiled rules of a cached policy, unmarshalled when first needed, a group at a
    time (cache_write.rule_groups: the rules an event's index lists hold together).

    A hook call looks at the few rules indexed for its event; unmarshalling all of a large
    policy would cost more than evaluating it. ``group_of[i]`` is rule ``i``'s group;
    ``groups[4 * g : 4 * g + 4]`` the start and end of group ``g``'s blob in the file's
    buffer and the range of its positions in ``members``. The compiler's warnings are read
    the same way, as one group.
    """

    __slots__ = ("_group_of", "_groups", "_members", "_rules", "_view")

    def __init__(
        self,
        view: memoryview,
        group_of: Sequence[int],
        groups: Sequence[int],
        members: Sequence[int],
    ) -> None:
        self._view = view
        self._group_of = group_of
        self._groups = groups
        self._members = members
        self._rules: list[dict[str, Any] | None] = [None] * len(group_of)

    def __getitem__(self, position: int) -> dict[str, Any]:
        rule = self._rules[position]
        if rule is None:
            at = 4 * self._group_of[position]
            start, end, first, last = self._groups[at : at + 4]
            loaded = marshal.loads(self._view[start:end])
            for member, value in zip(self._members[first:last], loaded, strict=True):
                self._rules[member] = value
            rule = self._rules[position]
            assert rule is not None  # (a position is in its group)
        return rule

    def __len__(self) -> int:
        return len(self._rules)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return (self[position] for position in range(len(self._rules)))


class LazyTable:
    """A table of the compiled policy (the index by event, the host tables by host, a host's
    events) whose entries are unmarshalled when first read: an event reads one of each.
    ``nested``: each entry is (its table, where its ``nested`` entries lie), that key a
    LazyTable of its own (a host's events)."""

    __slots__ = ("_nested", "_spans", "_values", "_view")

    def __init__(
        self, view: memoryview, spans: dict[str, tuple[int, int]], nested: str | None = None
    ) -> None:
        self._view = view
        self._spans = spans
        self._values: dict[str, Any] = {}
        self._nested = nested

    def __getitem__(self, key: str) -> Any:
        try:
            return self._values[key]
        except KeyError:
            start, end = self._spans[key]
            value = marshal.loads(self._view[start:end])
            if self._nested is not None:
                value, spans = value
                value[self._nested] = LazyTable(self._view, spans)
            self._values[key] = value
            return value

    def get(self, key: str, default: Any = None) -> Any:
        return self[key] if key in self._spans else default

    def __contains__(self, key: object) -> bool:
        return key in self._spans

    def __iter__(self) -> Iterator[str]:
        return iter(self._spans)

    def __len__(self) -> int:
        return len(self._spans)

    def keys(self) -> Iterator[str]:
        return iter(self._spans)

    def values(self) -> Iterator[Any]:
        return (self[key] for key in self._spans)

    def items(self) -> Iterator[tuple[str, Any]]:
        return ((key, self[key]) for key in self._spans)


def load_policy(
    cwd: str,
    env: dict[str, str],
    use_cache: bool = True,
    *,
    write: bool = True,
    since: float | None = None,
    also: Sequence[str] = (),
) -> Loaded:
    """:func:`compiled_policy` with its names (policy/loaded.py)."""
    from hookwise.policy.loaded import Loaded

    return Loaded(*compiled_policy(cwd, env, use_cache, write=write, since=since, also=also))


def compiled_policy(
    cwd: str,
    env: dict[str, str],
    use_cache: bool = True,
    *,
    write: bool = True,
    since: float | None = None,
    also: Sequence[str] = (),
) -> tuple[dict[str, Any], list[tuple[str, str]], str, bool]:
    """The compiled policy for an event's cwd: (the policy, its files as (scope, path), the
    cache file, whether it was compiled now). A tuple: the hook's call creates no class.

    Raises OSError (a PolicyFileError) when a policy file is present but cannot be used,
    or took longer to load than the budget (rules/budget.py; ``since``: when the call
    began, ``time.monotonic()``, so that every load of one call shares it). The key holds
    the trust store's bytes too: trusting a file recompiles. ``write`` False: a stale cache
    is compiled in memory and left as it is. ``also``: directories the command line moves
    into, whose project files apply too, restrictive parts only (trust/followed.py).
    """
    found = scope_sources(cwd, env, also)
    files = [(scope, path) for scope, path, _how in found]
    sources = read_scope_sources(found)
    trust_path = trust_store_path(env)
    try:
        trust_bytes = read_policy_file(trust_path, "discovered")
    except OSError:
        trust_bytes = b"!unreadable"
    # (a compile with ``also`` checks more pinned files, so it is cached apart)
    path = cache_path([*files, *(("also", d) for d in also)], env)
    if use_cache:
        try:
            cached = _cached(path, sources, trust_bytes)
        except (OSError, EOFError, ValueError, TypeError, IndexError):
            cached = None
        if cached is not None:
            return cached, files, path, False
    from hookwise.policy.rules import budget

    present = [(name, verdict_file(name, env)) for _s, name, data in sources if data is not None]
    slow = budget.known_slow(present) if use_cache else None
    if slow is not None:  # remembered: denied at once, not after the budget again
        raise PolicyFileError(slow, budget.message(slow))
    if sys.flags.no_site and "site" not in sys.modules:
        # the fast launcher (run_hook.py) runs without site-packages; the compiler needs them
        import site

        site.main()
    from hookwise.policy.rules.compiler import compile_sources
    from hookwise.policy.trust.scopes import start_dirs
    from hookwise.policy.trust.store import Trust

    trust = Trust.from_store(trust_bytes, env, start_dirs(cwd, env, also))
    if also:
        own = {path for _scope, path, _how in scope_sources(cwd, env)}
        trust.followed = {path for _scope, path in files if path not in own}
    until = None if since is None else since + budget.LOAD_BUDGET_S
    policy = compile_sources(sources, trust=trust, until=until)
    stopped = policy.get("over_budget")
    if stopped:
        if use_cache and write:
            budget.remember(stopped["file"], verdict_file(stopped["file"], env), stopped["cpu"])
        raise PolicyFileError(stopped["file"], budget.message(stopped["file"]))
    from hookwise.policy import confinement

    # inside `hookwise run` the cache is read-only: compiled rules the agent could have
    # written are never trusted, so a stale cache means compiling in memory each call
    if use_cache and write and not confinement.confined(env):
        from hookwise.policy.cache_write import store
        from hookwise.policy.code_sources import compiler_sources

        # the stamp after compiling: it imports the packs, and Python writing their bytecode
        # changes the mtime of their directory, which the stamp reads (a fresh checkout)
        names = compiler_sources(_package())
        code = (names, code_stamp(names))
        store(path, (CACHE_FORMAT, __version__, code), sources, trust_bytes, policy)
    return policy, files, path, True


def _cached(
    path: str,
    sources: list[tuple[str, str, bytes | None]],
    trust_bytes: bytes | None,
) -> dict[str, Any] | None:
    """The policy stored at ``path`` when its key is this one (see the layout above)."""
    data = read_private(path, MAX_CACHE_BYTES)  # (another user's: a miss)
    view = memoryview(data)
    size = int.from_bytes(view[:8], "little")
    form, version, code, spans, trust, policy, rules, index, hosts, warnings, length = (
        marshal.loads(view[8 : 8 + size])
    )
    body = view[8 + size :]
    if (form, version, length) != (CACHE_FORMAT, __version__, len(body)):
        return None
    names, stamp = code  # (the sources it was compiled with, and their stamp then)
    if code_stamp(names) != stamp:
        return None
    if len(spans) != len(sources) or not _same(body, trust, trust_bytes):
        return None
    for (scope, name, span), (source_scope, source_name, content) in zip(
        spans, sources, strict=True
    ):
        if scope != source_scope or name != source_name or not _same(body, span, content):
            return None
    group_of, groups, members = (body[start:end].cast("I") for start, end in rules)
    if len(members) != len(group_of) or len(groups) % 4:  # (a file damaged since)
        return None
    policy["rules"] = LazyRules(body, group_of, groups, members)
    start, end, count = warnings  # one group of ``count``, read if someone asks
    policy["warnings"] = LazyRules(body, bytes(count), (start, end, 0, count), range(count))
    policy["index"] = LazyTable(body, index)
    policy["hosts"] = LazyTable(body, hosts, "events")
    stored: dict[str, Any] = policy
    return stored


def _same(body: memoryview, span: tuple[int, int] | None, content: bytes | None) -> bool:
    """Whether the bytes at ``span`` (None: an absent file) are ``content``, compared where
    they lie in the file's buffer."""
    if span is None or content is None:
        return span is None and content is None
    start, end = span
    # (startswith compares with memcmp; memoryview == bytes goes byte by byte)
    return len(content) == end - start and content.startswith(body[start:end])
