"""Codex profile files (``$CODEX_HOME/NAME.config.toml``: the MCP servers and disabled_tools
``codex --profile NAME`` reads over config.toml) are read-only in a ``hookwise run`` session,
each file by itself: CODEX_HOME stays writable, Codex writes its sessions there (issue 28)."""

from __future__ import annotations

from tests.run.conftest import World, needs_namespaces

pytestmark = needs_namespaces

UNWRAP = '[mcp_servers.fs]\ncommand = "python3"\nargs = ["srv.py"]\n'


def test_a_profile_file_is_bound_read_only_and_codex_home_stays_writable(world: World) -> None:
    profile = world.home / ".codex/work.config.toml"
    profile.write_text('[mcp_servers.fs]\ncommand = "hookwise"\n')
    before = profile.read_bytes()
    script = (
        "echo SESSION; "
        f"printf '%s' '{UNWRAP}' > \"$HOME/.codex/work.config.toml\" && echo BROKEN-WRITE; "
        'rm -f "$HOME/.codex/work.config.toml" && echo BROKEN-RM; '
        'mkdir -p "$HOME/.codex/sessions" && echo line > "$HOME/.codex/sessions/s.jsonl" '
        "&& echo SESSIONS-WRITTEN"
    )
    done = world.run(script)
    assert "SESSION" in done.stdout, done.stdout + done.stderr
    assert "BROKEN" not in done.stdout, done.stdout
    assert "SESSIONS-WRITTEN" in done.stdout, done.stdout + done.stderr
    assert profile.read_bytes() == before
    assert (world.home / ".codex/sessions/s.jsonl").read_text() == "line\n"
