"""Red team s35 (MCP) F7: the agent unwrapped a wrapped MCP server with one host command
the hook allowed (``claude mcp add fs -- <server>`` shadows the wrapped ``.mcp.json``
entry from ``~/.claude.json``; ``gemini mcp add`` / ``codex mcp add`` overwrite it;
``gemini extensions link`` adds an unwrapped one). A direct write of those files was
denied; the host's CLI wrote them unseen. The protocol table now says which subcommands
of each host's program write its registrations (``HostInfo.registrations``), and
self-protection denies them as it denies the direct write.

The decisions are the real ``hookwise hook``'s; the effect is shown on real files with the
real Gemini CLI (``make e2e-install``; skipped without it): ``gemini mcp add`` replaces
the entry ``install gemini --mcp`` wrapped."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.policy.trust import protect
from hookwise.protocol.hosts import HOSTS, registration_commands
from tests.e2e import clis
from tests.policy.test_s32_hook_code import decide, env  # noqa: F401 - the fixture

# (found before the tests' own HOME is set: the CLIs are installed under the real one)
GEMINI = None if clis.install_problem("gemini") is not None else str(clis.binary("gemini"))

ATTACKS = [
    "claude mcp add fs -- python3 srv.py",
    "claude mcp add --scope user fs -- npx -y @modelcontextprotocol/server-filesystem .",
    'claude mcp add-json fs \'{"command":"python3","args":["srv.py"]}\'',
    "claude mcp remove fs",
    "claude mcp add-from-claude-desktop",
    "claude plugin install evil@market",
    "claude plugin marketplace add ./market",
    "/usr/local/bin/claude --debug mcp add fs -- python3 srv.py",
    "command claude mcp add fs -- python3 srv.py",
    "cd sub && claude mcp add fs -- python3 srv.py",
    "gemini mcp add fs python3 srv.py",
    "gemini mcp remove fs",
    "gemini mcp disable fs",
    "gemini extensions link tools/ext --consent",
    "gemini extensions install https://github.com/x/y",
    "codex mcp add fs -- python3 srv.py",
    "codex -c model=o3 mcp add fs -- python3 srv.py",
    "codex mcp remove fs",
    "qwen mcp add fs python3 srv.py",
    "qwen extensions link tools/ext",
]


@pytest.mark.parametrize("command", ATTACKS)
def test_a_host_cli_writing_its_registrations_is_denied(
    env: dict[str, str],  # noqa: F811
    isolated: Path,
    command: str,
) -> None:
    project = isolated / "proj"
    (project / ".git").mkdir(parents=True)
    (project / "sub").mkdir()
    decision, reason = decide(env, command, str(project))
    assert decision == "deny", (command, reason)
    assert "hookwise protects its own guardrails" in reason, reason
    assert "registrations" in reason, reason


@pytest.mark.parametrize(
    "command",
    [
        "claude mcp list",
        "claude mcp get fs",
        "claude plugin list",
        "claude --version",
        "claude -p 'add an mcp server named fs'",
        "gemini mcp list",
        "gemini extensions list",
        "gemini extensions validate ./ext",
        "codex mcp list",
        "codex mcp get fs",
        "codex exec 'run the tests'",
        "qwen mcp list",
        "npm run mcp -- add",
        "grep -rn 'mcp add' docs/",
    ],
)
def test_reading_host_registrations_stays_allowed(
    env: dict[str, str],  # noqa: F811
    isolated: Path,
    command: str,
) -> None:
    project = isolated / "proj"
    (project / ".git").mkdir(parents=True)
    decision, reason = decide(env, command, str(project))
    assert decision is None, (command, reason)


def test_every_programs_registrations_come_from_its_row() -> None:
    """One fact in one place: the lookup is the rows' own subcommands, per program."""
    table = registration_commands()
    for host in HOSTS.values():
        for program in host.commands:
            if host.registrations:
                assert table[program] == (host.title, host.registrations)
            else:
                assert program not in table
    assert ("mcp", "add") in table["claude"][1] and ("extensions", "link") in table["gemini"][1]


@pytest.mark.skipif(GEMINI is None, reason="no real Gemini CLI (make e2e-install)")
def test_gemini_mcp_add_rewrites_the_wrapped_entry_on_real_files(
    env: dict[str, str],  # noqa: F811
    isolated: Path,
) -> None:
    """What the denied command does when run: the entry install wrapped is replaced by
    the bare server command (Gemini CLI 0.61.0, offline), the hook's own settings stay."""
    project = isolated / "proj"
    (project / ".git").mkdir(parents=True)
    settings = project / ".gemini" / "settings.json"
    settings.parent.mkdir()
    server = {"command": "python3", "args": [str(project / "srv.py")]}
    settings.write_text(json.dumps({"mcpServers": {"fs": server}}), "utf-8")
    run_env = {**env, "HOME": str(isolated / "home")}
    install = [sys.executable, "-m", "hookwise", "install", "gemini", "--mcp"]
    done = subprocess.run(
        [*install, "--project", str(project)], env=run_env, capture_output=True, text=True,
        timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "wrap" in json.loads(settings.read_text("utf-8"))["mcpServers"]["fs"]["args"]
    command = f"gemini mcp add fs python3 {project / 'srv.py'}"
    decision, _reason = decide(env, command, str(project))
    assert decision == "deny"
    assert GEMINI is not None
    subprocess.run(
        [GEMINI, "mcp", "add", "fs", "python3", str(project / "srv.py")], cwd=project,
        env={**run_env, "PATH": os.environ.get("PATH", "")}, capture_output=True,
        timeout=120, check=False,
    )  # fmt: skip
    assert json.loads(settings.read_text("utf-8"))["mcpServers"]["fs"] == server


def _doctor(environment: dict[str, str], project: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "hookwise", "doctor", "--host", "gemini", "--project",
         str(project), "--no-self-test"],
        env=environment, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    return done.stdout + done.stderr


def test_doctor_warns_of_an_extensions_unwrapped_server(
    env: dict[str, str],  # noqa: F811
    isolated: Path,
) -> None:
    """doctor read only the settings' servers: a server an installed extension starts
    (``gemini extensions install``/``link``) went unreported. It is warned about now,
    and a wrapped one is not."""
    project = isolated / "proj"
    (project / ".git").mkdir(parents=True)
    extension = isolated / "home" / ".gemini" / "extensions" / "tools"
    extension.mkdir(parents=True)
    servers = {"fs2": {"command": "python3", "args": ["${extensionPath}${/}srv.py"]}}
    manifest = {"name": "tools", "version": "1.0.0", "mcpServers": servers}
    (extension / "gemini-extension.json").write_text(json.dumps(manifest), "utf-8")
    report = _doctor(env, project)
    assert "MCP server 'fs2' of extension 'tools'" in report, report
    assert "not run through `hookwise mcp wrap`" in report, report

    wrapped = [sys.executable, "-m", "hookwise", "mcp", "wrap", "--name", "fs2", "--"]
    servers["fs2"] = {"command": wrapped[0], "args": [*wrapped[1:], "python3", "srv.py"]}
    (extension / "gemini-extension.json").write_text(json.dumps(manifest), "utf-8")
    assert "'fs2' of extension" not in _doctor(env, project)


_OPTION = st.from_regex(r"--?[a-z][a-z-]{0,8}", fullmatch=True)
_WORD = st.from_regex(r"[a-z0-9./_]{1,10}", fullmatch=True)


@settings(max_examples=300, deadline=None)
@given(
    host=st.sampled_from(sorted(registration_commands())),
    pick=st.integers(min_value=0),
    options=st.lists(_OPTION, max_size=4),
    rest=st.lists(_WORD, max_size=4),
)
def test_a_registration_subcommand_is_found_whatever_options_surround_it(
    host: str, pick: int, options: list[str], rest: list[str]
) -> None:
    """Options before, between and after the subcommand's words, and the server's own
    words after ``--``, never hide it."""
    subcommands = registration_commands()[host][1]
    sub = list(subcommands[pick % len(subcommands)])
    argv = [host, *options, sub[0], *options, *sub[1:], *rest, "--", *rest]
    with pytest.raises(protect._FoundError):
        protect._check_registration(host, argv)


@settings(max_examples=300, deadline=None)
@given(
    host=st.sampled_from(sorted(registration_commands())),
    words=st.lists(st.sampled_from(["list", "get", "fs", "-p", "--debug", "help", "x"])),
    after=st.lists(st.sampled_from(["mcp", "add", "extensions", "link", "remove"])),
)
def test_reading_words_alone_never_count_as_a_registration(
    host: str, words: list[str], after: list[str]
) -> None:
    """No registration run among the words before ``--`` (a server's argv after it may
    say anything): nothing is raised."""
    protect._check_registration(host, [host, *words, "--", *after])
