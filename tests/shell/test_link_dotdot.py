"""``..`` after a symbolic link, as the kernel takes it (red team s27 F15): ``cp x
l/../policy.yaml`` and ``cd l && cp x ../policy.yaml`` write next to the link's target, not
next to the link. Through the real ``hookwise hook`` (Claude's Bash), each allowed command run
by ``sh`` as the agent would, and ``kernel_path`` checked against what the kernel opens."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.policy.canonical import UNKNOWN_DIR, kernel_path

RULES = (
    "version: 1\nrules:\n  - id: no-rm\n    match: {tool: shell, command: rm}\n    action: deny\n"
)


def _hook(root: Path, command: str) -> str:
    """The hook's answer to a Bash call of ``command`` in ``root/proj``."""
    event = {"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash",
             "tool_input": {"command": command}, "cwd": str(root / "proj")}  # fmt: skip
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HOOKWISE_", "XDG_"))}
    env.update(HOME=str(root / "home"), XDG_STATE_HOME=str(root / "state"),
               HOOKWISE_USER_POLICY=str(root / "policy.yaml"))  # fmt: skip
    done = subprocess.run([sys.executable, "-m", "hookwise", "hook", "--host", "claude"],
                          input=json.dumps(event), capture_output=True, text=True, env=env,
                          timeout=60, check=False)  # fmt: skip
    return done.stdout


@pytest.fixture
def root(tmp_path: Path) -> Path:
    for name in ("proj", "sub", "home", "state"):
        (tmp_path / name).mkdir()
    (tmp_path / "policy.yaml").write_text(RULES)
    (tmp_path / "proj" / "empty.yaml").write_text("version: 1\nrules: []\n")
    return tmp_path


@pytest.mark.parametrize(
    "attack",
    [
        ["ln -s {root}/sub l3", "cp empty.yaml l3/../policy.yaml"],
        ["ln -s {root}/sub l3", "cd l3 && cp ../proj/empty.yaml ../policy.yaml"],
        ["ln -s {root}/sub l3 && cp empty.yaml l3/../policy.yaml"],
        ["ln -s {root}/sub l3; cat empty.yaml > l3/../policy.yaml"],
        ["mkdir l3", "rm -r l3 && ln -s {root}/sub l3 && cp empty.yaml l3/../policy.yaml"],
    ],
)
def test_the_agent_cannot_reach_its_policy_through_a_link_and_dotdot(
    root: Path, attack: list[str]
) -> None:
    """Each command the hook allows runs; the policy must survive and still deny ``rm``."""
    answers = []
    for line in attack:
        command = line.format(root=root)
        answer = _hook(root, command)
        answers.append(answer)
        if '"deny"' not in answer:
            subprocess.run(["sh", "-c", command], cwd=root / "proj", check=False)
    assert (root / "policy.yaml").read_text() == RULES, answers
    assert "hookwise protects its own guardrails" in answers[-1], answers
    assert '"deny"' in _hook(root, "rm -rf x")


def test_ordinary_dotdot_and_links_pass(root: Path) -> None:
    (root / "proj" / "src").mkdir()
    (root / "proj" / "l").symlink_to(root / "sub")
    for command in ("cp empty.yaml src/../copy.yaml", "cd l && cp ../proj/empty.yaml x.yaml",
                    "cp empty.yaml l/../sub/y.yaml", "mkdir -p d && cp empty.yaml d/../z.yaml"):  # fmt: skip
        assert _hook(root, command) == "", command


NAME = st.sampled_from(["a", "b", "l", "m", "..", ".", "x"])


@settings(max_examples=200, deadline=None)
@given(st.lists(NAME, min_size=1, max_size=6))
def test_kernel_path_is_what_the_kernel_opens(
    tmp_path_factory: pytest.TempPathFactory, parts: list[str]
) -> None:
    """On a tree with links, kernel_path (or the lexical reading when None) names the file
    open(2) reaches; UNKNOWN only where a name before a ``..`` does not exist."""
    base = tmp_path_factory.mktemp("k")
    (base / "a" / "b").mkdir(parents=True)
    (base / "a" / "b" / "x").write_text("ax")
    (base / "l").symlink_to(base / "a" / "b")
    (base / "a" / "m").symlink_to(base / "a" / "b" / "x")
    text = "/".join(parts)
    found = kernel_path(text, str(base))
    if found is not None and found.startswith(UNKNOWN_DIR):
        with pytest.raises(OSError):
            os.stat(str(base) + "/" + text)
        return
    expected = os.path.realpath(str(base) + "/" + text)
    got = os.path.realpath(found) if found is not None else None
    lexical = os.path.realpath(os.path.normpath(str(base) + "/" + text))
    assert (got or lexical) == expected


def test_kernel_path_never_raises() -> None:
    for text in ("", "..", "/..", "a/\0/../x", "~/../x", "//..//x", "\\..\\x"):
        kernel_path(text, "/tmp")
