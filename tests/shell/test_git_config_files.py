"""The configuration files git reads, as hookwise reads them at decision time
(shell/commands/git_aliases.py: aliases an earlier call set; policy/trust/foreign_history.py: the
configured remotes), and the netrc entries of shell/commands/stored_logins.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookwise.shell.commands.git_aliases import UnreadableError, alias_values, entries
from hookwise.shell.commands.stored_logins import hosts, netrc_entries
from hookwise.shell.parser import Command, split_command


def test_values_are_read_as_git_reads_them() -> None:
    text = (
        "[Alias]\n"
        '\tsync = "push -f" ; a comment\n'
        "\tlong = push \\\n"
        "\t\t--force\n"
        '\tq = "!f() { echo \\"$1\\"; }; f"\n'
        '[remote "origin"]\n'
        "\turl = ../remote.git\n"
        "[core] bare = false\n"
        "\tflag\n"
    )
    found = {(section, key): value for section, key, value in entries(text)}
    assert found[("alias", "sync")] == "push -f"
    assert found[("alias", "long")] == "push \t\t--force"
    assert found[("alias", "q")] == '!f() { echo "$1"; }; f'
    assert found[("remote.origin", "url")] == "../remote.git"
    assert found[("core", "bare")] == "false"
    assert found[("core", "flag")] == "true"


def _command(line: str) -> tuple[Command, int]:
    script = split_command(line)
    (command, at), *_ = script.git_unresolved
    return command, at


def test_aliases_come_from_every_file_git_reads_and_their_includes(tmp_path: Path) -> None:
    home, repo = tmp_path / "home", tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (home / ".config" / "git").mkdir(parents=True)
    (home / ".gitconfig").write_text("[alias]\n\tx = push --force\n[include]\n\tpath = ~/more\n")
    (home / "more").write_text("[alias]\n\tx = log\n")
    (home / ".config" / "git" / "config").write_text("[alias]\n\tx = status\n")
    (repo / ".git" / "config").write_text('[includeIf "gitdir:/nowhere/"]\n\tpath = ../extra\n')
    (repo / "extra").write_text("[alias]\n\tX = !rm -rf /\n")
    command, at = _command("git x origin main")
    env = {"HOME": str(home), "GIT_CONFIG_NOSYSTEM": "1"}
    values = [value for value, _ in alias_values("x", command, at, str(repo), env)]
    # every definition, whatever includeIf's condition (reading too many is the safe side)
    assert values == ["status", "push --force", "log", "!rm -rf /"]
    env["GIT_CONFIG_GLOBAL"] = str(home / "more")
    assert [v for v, _ in alias_values("x", command, at, str(repo), env)] == ["log", "!rm -rf /"]


def test_a_file_git_would_read_that_cannot_be_read_is_unreadable(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "config").write_text("[include]\n\tpath = d\n")
    (tmp_path / ".git" / "d").mkdir()
    command, at = _command("git x")
    with pytest.raises(UnreadableError):
        alias_values("x", command, at, str(tmp_path), {"GIT_CONFIG_NOSYSTEM": "1"})
    for chain in range(2):  # an include loop is stopped by the budget, as unreadable
        (tmp_path / ".git" / "config").write_text("[include]\n\tpath = config\n" * (chain + 1))
        with pytest.raises(UnreadableError):
            alias_values("x", command, at, str(tmp_path), {"GIT_CONFIG_NOSYSTEM": "1"})


def test_git_commands_of_its_own_are_never_looked_up() -> None:
    assert split_command("git status && git push origin main").git_unresolved == []
    assert [c.argv for c, _ in split_command("git -C x sync").git_unresolved] == [
        ["git", "-C", "x", "sync"]
    ]


def test_netrc_entries_and_url_hosts() -> None:
    text = "machine a.example login u password p\nmacdef init\ndefault x\n\ndefault login d\n"
    assert netrc_entries(text) == ({"a.example"}, True)
    assert netrc_entries("machine b login u password p\n") == ({"b"}, False)
    # (a macro's body is not entries)
    assert netrc_entries("machine b login u\nmacdef m\ndefault x\n\n") == ({"b"}, False)
    words = ["-q", "http://u:p@Host.Example:8080/x", "--index-url=https://[::1]:1/s", "file:///x"]
    assert hosts(words) == ["host.example", "::1"]
