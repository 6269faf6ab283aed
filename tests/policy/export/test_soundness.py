"""An exported entry never denies what the policy lets through: every command a host's
own rule refuses (by the model of its matcher, native_models.py) is put to the policy
engine, which must deny it (deny entries) or deny or ask (ask entries). Commands come from
the labelled corpora of every rule pack and from hypothesis, hostile words included."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookwise.policy.export.build import EXPORTERS, export_policy
from hookwise.policy.export.model import EXPORT_HOSTS, Export, Prefix
from hookwise.policy.pipeline import decide
from hookwise.policy.rules.compiler import compile_sources
from hookwise.policy.tools.payloads import build_payload
from hookwise.policy.trust.store import Trust
from tests.policy.corpus_support import CORPUS, HOME, WORKSPACE
from tests.policy.export.native_models import MODELS


def _strings(node: Any) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, dict):
        return [s for v in node.values() for s in _strings(v)]
    if isinstance(node, list):
        return [s for v in node for s in _strings(v)]
    return []


def corpus_commands(name: str) -> list[str]:
    """Every string of a corpus file, whatever its layout (block/pass, classes, cases)."""
    return _strings(yaml.safe_load((CORPUS / f"{name}.yaml").read_text()))


PACKS = sorted(p.stem for p in CORPUS.glob("*.yaml"))
POLICY = """
version: 1
extends: [hookwise/filesystem, hookwise/git, hookwise/secrets, hookwise/database,
          hookwise/kubernetes, hookwise/cloud]
rules:
  - id: no-curl
    match: {tool: shell, command: {program: [curl, wget]}}
    action: ask
  - id: rm-recursive
    match: {tool: shell, command: rm -r}
    action: deny
    reason: "rm -r is for people"
  - id: no-npm-publish
    match: {command: npm publish --force}
    action: deny
"""


@cache
def policy() -> dict[str, Any]:
    compiled = compile_sources(
        [("project", "/p/policy.yaml", POLICY.encode())], trust=Trust.everything_trusted()
    )
    assert not compiled["errors"], compiled["errors"]
    return compiled


@cache
def exported(host: str) -> Export:
    return export_policy(policy(), host)


@cache
def engine_blocks(command: str) -> str | None:
    """(Cached: the corpora hold the same command for many hosts and entries.)"""
    payload = build_payload(
        "claude", "PreToolUse", tool="Bash", tool_input={"command": command}, cwd=WORKSPACE
    )
    env = {"HOME": HOME, "PATH": "/usr/bin:/bin"}
    outcome = decide(payload, policy(), "claude", env, now=0.0, run_validators=False)
    return None if outcome.decision is None else outcome.decision.decision


def check(host: str, command: str) -> None:
    for native in exported(host).natives:
        if MODELS[host](native, command):
            got = engine_blocks(command)
            allowed = ("deny",) if native.decision == "deny" else ("deny", "ask")
            assert got in allowed, (
                f"{host} entry {native.entry!r} ({native.rule}) refuses {command!r}, "
                f"the policy answers {got}"
            )


def test_every_host_with_an_exporter_is_listed() -> None:
    assert tuple(EXPORTERS) == EXPORT_HOSTS


@pytest.mark.parametrize("host", EXPORT_HOSTS)
def test_exports_command_entries(host: str) -> None:
    assert any(isinstance(n.intent, Prefix) for n in exported(host).natives)


@pytest.mark.parametrize("host", EXPORT_HOSTS)
@pytest.mark.parametrize("pack", PACKS)
def test_corpus_commands_a_host_refuses_are_refused_by_the_policy(host: str, pack: str) -> None:
    for command in corpus_commands(pack):
        check(host, command)


HOSTILE = [
    ";",
    "&&",
    "||",
    "|",
    "--",
    "-h",
    "--help",
    '"',
    "'",
    "\\",
    "$(",
    ")",
    "#",
    "\n",
    "=x",
    "--no-force",
    "origin",
    "main",
    "+main",
    ":main",
    "--force-with-lease",
    'x"y',
    "*",
    "~",
    ">",
    "/dev/null",
    "<<EOF",
    "-rf",
    "/",
    "..",
    "$HOME",
    "`id`",
]
WORDS = st.one_of(st.sampled_from(HOSTILE), st.text("abcxyz-+=./:\"'\\$ \t", max_size=6))


@pytest.mark.parametrize("host", EXPORT_HOSTS)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), words=st.lists(WORDS, max_size=4), glue=st.sampled_from([" ", "\t", ""]))
def test_generated_commands_a_host_refuses_are_refused_by_the_policy(
    host: str, data: st.DataObject, words: list[str], glue: str
) -> None:
    """A prefix with anything after it, joined by a space, a tab or nothing at all (so a
    quote or letters glued to the last word: `--force"x"` is bash's `--forcex`)."""
    prefixes = [n for n in exported(host).natives if isinstance(n.intent, Prefix)]
    native = data.draw(st.sampled_from(prefixes))
    assert isinstance(native.intent, Prefix)
    command = " ".join(native.intent.words) + glue + " ".join(words)
    check(host, command)


GLUED = ['"x"', "'x'", '"-with-lease"', "\\x", "=x", "x", '""', "''", "\\ x", '"\\t"']


@pytest.mark.parametrize("host", EXPORT_HOSTS)
def test_words_glued_to_a_prefix_are_not_refused_unless_the_policy_refuses_them(host: str) -> None:
    """Bash joins quoted text to the word before it (`--force"x"` is `--forcex`): an entry
    that holds for it would refuse another option the policy lets through."""
    for native in exported(host).natives:
        if isinstance(native.intent, Prefix):
            for tail in GLUED:
                check(host, " ".join(native.intent.words) + tail)


def test_qwen_here_documents_are_its_only_overreach_and_said() -> None:
    """Qwen Code reads here-document lines as commands (it splits at every newline): the
    commands of the corpora it refuses beyond the policy are all here-documents, and every
    rule with a command entry says so."""
    from hookwise.policy.export.qwen import HEREDOC_GAP
    from tests.policy.export.native_models import qwen_matches

    beyond: list[str] = []
    for pack in PACKS:
        for command in corpus_commands(pack):
            natives = exported("qwen").natives
            refused = any(qwen_matches(n, command, heredocs=True) for n in natives)
            if refused and engine_blocks(command) is None:
                beyond.append(command)
    assert all("<<" in command for command in beyond), beyond
    assert beyond, "the corpora hold no here-document with a prefix: the check says nothing"
    for item in exported("qwen").coverage:
        if any(e.startswith("Bash(") for e in item.entries):
            assert HEREDOC_GAP in item.why
