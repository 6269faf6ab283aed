"""The compiled policy cache (policy/cache.py, cache_write.py): a cached policy decides as a
fresh compile; any change to a key byte recompiles; a damaged file costs a recompile, never
an answer; the lazy tables behave as the dicts they stand for."""

from __future__ import annotations

import marshal
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookwise.policy.cache import LazyTable, load_policy, name_hash
from hookwise.policy.pipeline import decide
from hookwise.policy.tools.payloads import build_payload
from hookwise.policy.trust.store import trust_file

POLICY = """\
version: 1
extends: [hookwise/git]
rules:
  - {id: no-curl, match: {tool: shell, command: curl}, action: deny, reason: no curl}
  - {id: slow, match: {tool: shell}, when: 'input.timeout > 600', action: ask}
  - {id: secrets, match: {tool: [write, edit], files: 'secrets/**'}, action: deny}
  - {id: deploy, match: {prompt: {words: [deploy]}}, action: context, context: use the pipeline}
"""


def _events(cwd: str) -> list[tuple[str, dict[str, Any]]]:
    return [
        ("claude", build_payload("claude", "PreToolUse", tool="Bash",
                                 tool_input={"command": "curl x"}, cwd=cwd)),
        ("claude", build_payload("claude", "PreToolUse", tool="Bash",
                                 tool_input={"command": "git push --force", "timeout": 900},
                                 cwd=cwd)),
        ("claude", build_payload("claude", "PreToolUse", tool="Write",
                                 tool_input={"file_path": f"{cwd}/secrets/k", "content": "x"},
                                 cwd=cwd)),
        ("gemini", build_payload("gemini", "BeforeAgent", prompt="deploy it", cwd=cwd)),
        ("codex", build_payload("codex", "PreToolUse", tool="Bash",
                                tool_input={"command": "ls"}, cwd=cwd)),
    ]  # fmt: skip


@pytest.fixture
def setup(isolated: Path) -> tuple[Path, dict[str, str]]:
    policy = isolated / "project" / ".hookwise" / "policy.yaml"
    policy.parent.mkdir(parents=True)
    policy.write_text(POLICY)
    env = dict(os.environ)
    trust_file(str(policy), env)
    return policy, env


def _answers(cwd: str, env: dict[str, str], *, use_cache: bool) -> list[str]:
    loaded = load_policy(cwd, env, use_cache=use_cache)
    return [
        decide(payload, loaded.policy, host, env, now=0.0).answer.stdout
        for host, payload in _events(cwd)
    ]


def _cache_file(env: dict[str, str], cwd: str) -> Path:
    return Path(load_policy(cwd, env).cache_file)


def test_a_cached_policy_decides_as_a_fresh_compile(setup: tuple[Path, dict[str, str]]) -> None:
    policy, env = setup
    cwd = str(policy.parent.parent)
    assert load_policy(cwd, env).compiled_now is True
    cached = load_policy(cwd, env)
    assert cached.compiled_now is False
    fresh = _answers(cwd, env, use_cache=False)
    assert _answers(cwd, env, use_cache=True) == fresh
    assert any('"deny"' in answer for answer in fresh)  # the events do meet rules
    assert len(cached.policy["rules"]) == len(load_policy(cwd, env, False).policy["rules"])


def test_every_key_change_recompiles(setup: tuple[Path, dict[str, str]]) -> None:
    policy, env = setup
    cwd = str(policy.parent.parent)
    load_policy(cwd, env)
    # one byte changed, same length and mtime: recompiled (and untrusted again)
    stat = policy.stat()
    policy.write_text(POLICY.replace("no curl", "no cUrl"))
    os.utime(policy, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert load_policy(cwd, env).compiled_now is True
    assert load_policy(cwd, env).compiled_now is False
    trust_file(str(policy), env)  # the trust store changed
    assert load_policy(cwd, env).compiled_now is True
    assert load_policy(cwd, env).compiled_now is False
    local = policy.parent / "policy.local.yaml"  # a scope file that appears
    local.write_text("version: 1\n")
    assert load_policy(cwd, env).compiled_now is True
    local.unlink()  # and disappears
    assert load_policy(cwd, env).compiled_now is True
    assert load_policy(cwd, env).compiled_now is False


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_a_damaged_cache_costs_a_recompile_not_an_answer(
    setup: tuple[Path, dict[str, str]], data: st.DataObject
) -> None:
    """Truncated, extended, garbage, or a byte of its key (versions at the head's start,
    the policy file's bytes) changed: recompiled, and the answers are a fresh compile's.
    (Damage elsewhere in the head may go unseen; only hookwise writes the file, and the
    agent cannot: self-protection covers the cache directory.)"""
    policy, env = setup
    cwd = str(policy.parent.parent)
    cache = _cache_file(env, cwd)
    good = cache.read_bytes()
    head = 8 + int.from_bytes(good[:8], "little")
    how = data.draw(st.sampled_from(["truncate", "extend", "head", "key", "garbage"]))
    if how == "truncate":
        bad = good[: data.draw(st.integers(0, len(good) - 1))]
    elif how == "extend":
        bad = good + data.draw(st.binary(min_size=1, max_size=64))
    elif how == "garbage":
        bad = data.draw(st.binary(max_size=256))
    else:  # a byte of the length, of the head's start, or of the policy file's bytes
        lo, hi = (0, 24) if how == "head" else (head, head + len(POLICY))
        at = data.draw(st.integers(lo, hi - 1))
        bad = good[:at] + bytes([good[at] ^ data.draw(st.integers(1, 255))]) + good[at + 1 :]
    cache.write_bytes(bad)
    loaded = load_policy(cwd, env)
    if how != "head" and bad != good:
        assert loaded.compiled_now is True
    assert _answers(cwd, env, use_cache=True) == _answers(cwd, env, use_cache=False)
    if loaded.compiled_now:
        assert cache.read_bytes() == good  # rewritten as it was


@given(table=st.dictionaries(st.text(max_size=8), st.recursive(
    st.none() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner,
                                                                 max_size=3),
    max_leaves=8,
), max_size=6), missing=st.text(max_size=8))  # fmt: skip
def test_a_lazy_table_reads_as_the_dict_it_stands_for(table: dict[str, Any], missing: str) -> None:
    body = bytearray()
    spans = {}
    for key, value in table.items():
        start = len(body)
        body.extend(marshal.dumps(value))
        spans[key] = (start, len(body))
    lazy = LazyTable(memoryview(bytes(body)), spans)
    assert dict(lazy.items()) == table
    assert list(lazy) == list(lazy.keys()) == list(table)
    assert list(lazy.values()) == list(table.values())
    assert len(lazy) == len(table)
    for key, value in table.items():
        assert key in lazy and lazy[key] == value == lazy.get(key)
    if missing not in table:
        assert missing not in lazy and lazy.get(missing, 7) == 7
        with pytest.raises(KeyError):
            lazy[missing]


def test_name_hash_is_stable_and_spreads() -> None:
    assert name_hash("") == "0000000000000000"
    assert name_hash("/a/b\0/c") == name_hash("/a/b\0/c")
    names = {name_hash(f"/home/u/project{i}/.hookwise/policy.yaml") for i in range(2000)}
    assert len(names) == 2000
    assert all(len(n) == 16 and int(n, 16) >= 0 for n in names)
    assert name_hash("\udcff") != name_hash("\udcfe")  # surrogates (undecodable paths) too


@given(
    pattern=st.text(alphabet="ab/.*?[]{},-", max_size=8),
    texts=st.lists(st.text(alphabet="ab/.-", max_size=6), max_size=8),
)
def test_a_literal_glob_stored_as_its_text_matches_the_same(pattern: str, texts: list[str]) -> None:
    from hookwise.policy.cache_write import _literal_globs
    from hookwise.policy.rules.glob_syntax import GlobError, compile_glob, is_literal
    from hookwise.policy.rules.globs import glob_match

    try:
        compiled = compile_glob(pattern)
    except GlobError:
        return
    stored = _literal_globs(compiled)
    if is_literal(pattern):
        assert stored == pattern  # (a glob whose syntax leaves one literal is one too)
    for text in [*texts, pattern]:
        assert glob_match(stored, text) == glob_match(compiled, text)
    # and inside the structures a rule holds (file globs with their flags, lists)
    assert _literal_globs({"globs": [(compiled, True, False)]}) == {
        "globs": [(stored, True, False)]
    }


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(order=st.permutations(range(64)))
def test_rules_read_in_groups_in_any_order_are_the_rules_compiled(
    setup: tuple[Path, dict[str, str]], order: list[int]
) -> None:
    """Each rule is in exactly one group (cache_write.rule_groups), and reading the cached
    rules in any order gives each rule as the hook's form of the compiled one."""
    from hookwise.policy.cache_write import hook_rule, rule_groups

    policy, env = setup
    cwd = str(policy.parent.parent)
    compiled = load_policy(cwd, env, use_cache=False).policy
    count = len(compiled["rules"])
    groups = rule_groups(compiled["index"], count)
    assert sorted(p for group in groups for p in group) == list(range(count))
    load_policy(cwd, env)  # writes the cache
    cached = load_policy(cwd, env)
    assert cached.compiled_now is False
    expected = [marshal.loads(marshal.dumps(hook_rule(r))) for r in compiled["rules"]]
    rules = cached.policy["rules"]
    for position in (p % count for p in order):
        assert rules[position] == expected[position]
    assert list(rules) == expected


def test_the_compilers_warnings_are_kept_but_not_in_the_head(
    setup: tuple[Path, dict[str, str]],
) -> None:
    """The warnings (a context rule on a host that drops context...) come back from the
    cache as compiled, from the body: the head, which every hook call unmarshals, does not
    carry them (a policy can have hundreds)."""
    policy, env = setup
    cwd = str(policy.parent.parent)
    fresh = load_policy(cwd, env, use_cache=False).policy["warnings"]
    assert fresh  # the context rule on a prompt warns for the hosts that drop it
    load_policy(cwd, env)  # writes the cache
    cached = load_policy(cwd, env)
    assert cached.compiled_now is False
    assert list(cached.policy["warnings"]) == fresh
    assert len(cached.policy["warnings"]) == len(fresh)
    data = Path(cached.cache_file).read_bytes()
    head = data[8 : 8 + int.from_bytes(data[:8], "little")]
    assert fresh[0]["message"].encode() not in head
    assert fresh[0]["message"].encode() in data
