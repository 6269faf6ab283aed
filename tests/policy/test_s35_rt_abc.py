"""Red team s35 classes A, B, C (corpus/redteam_s35_open.tsv): shell start-up files and
bash's history, through the real hook in a fresh copy of the red team's fixture (the s33
table test's, hookwise installed in ``hw/``), each row run in real bash there first.

What the guard now refuses to assume:

- A: that a guard variable is written only under its whole literal name: a write of a
  start-up file from a line that names ``HOOKWISE_`` anywhere (a printf format, a
  history entry, a name completed when it runs) is denied, whatever writes it.
- B: that a start-up file's new text is harmless unless it names a guard variable: what
  a write adds is read line by line (policy/trust/startup_lines.py); only lines read as
  harmless pass (plain variables, PATH extended with ``$PATH`` kept, an alias of a new
  name, ``source`` of a file on disk, a tool's own ``hook``/``init``/``completion``
  output, shell options); a guard/PLACES/RUNNERS name is denied, anything else
  (functions, aliases over programs, traps, PROMPT_COMMAND, text known only when it
  runs, a writer whose text is not read) is unverifiable. A file a start-up file
  sources is one too.
- C: that HISTFILE is only a setting: set on the line by any assignment it is a write of
  that file (bash writes its history there at ``history -w``/``-a`` and at exit), and
  ``history -w``/``-a FILE`` a write of FILE.

Variants the red team did not list and friction twins (everyday lines of the same
programs, allowed) are below the table rows.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.policy.corpus_support import CORPUS
from tests.policy.redteam_tree import ABSENT, GIT_ENV
from tests.policy.test_redteam_s33_table import (  # noqa: F401 - the fixture
    _bare_main,
    _damage,
    _files,
    _hook,
    _run,
    fixture,
)
from tests.policy.test_redteam_s33_table import guards as _guards

RED_ROOT = "/tmp/rt35s/work"
STARTUP = (".bashrc", ".profile", ".bash_profile", ".bash_login", ".bash_logout", ".zshrc",
           ".zshenv", ".x")  # fmt: skip


def _rows() -> list[Any]:
    lines = (CORPUS / "redteam_s35_open.tsv").read_text(encoding="utf-8").splitlines()[1:]
    rows = [line.split("\t") for line in lines if line.strip()]
    return [
        pytest.param(row[1], id=f"{row[0][0]}-{n:03d}")
        for n, row in enumerate(rows, 1)
        if row[0][:1] in "ABC"
    ]


def _startup(work: Path) -> dict[str, bytes | None]:
    home = work / "home"
    return {n: (home / n).read_bytes() if (home / n).exists() else None for n in STARTUP}


def _does_damage(command: str, work: Path, env: dict[str, str]) -> str:
    """Run the row's calls in real bash in ``work``; assert they did damage (a start-up
    file written, or what the s33 table counts); the output."""
    before = {"bare": _bare_main(work), "guards": _guards(work.parent), "hw": _files(work / "hw")}
    startup = _startup(work)
    output = ""
    for call in command.split(" ⟫ "):
        done = _run(["bash", "-c", call.replace(RED_ROOT, str(work))], work / "proj",
                    {**env, **GIT_ENV})  # fmt: skip
        output += done.stdout + done.stderr
    if not any(sign in output for sign in ABSENT):
        found = _damage(work, output, before)
        found += [f"wrote ~/{n}" for n, text in _startup(work).items() if text != startup[n]]
        assert found, (command, output[-2000:])
    return output


def test_the_table_has_the_three_classes() -> None:
    ids = [p.id[0] for p in _rows()]
    assert (ids.count("A"), ids.count("B"), ids.count("C")) == (4, 32, 7)


@pytest.mark.parametrize("command", _rows())
def test_a_row_does_its_damage_in_bash_and_the_hook_blocks_its_first_call(
    command: str,
    fixture: dict[str, Any],  # noqa: F811
) -> None:
    env, work = fixture["env"], fixture["fresh"]()
    decided = _hook(command.split(" ⟫ ", maxsplit=1)[0].replace(RED_ROOT, str(work)), work, env)
    _does_damage(command, work, env)
    assert decided[0] in ("deny", "ask"), (command, decided)
    if "HOOKWISE_" in command:  # (A: a guard variable named: denied, not asked)
        assert decided[0] == "deny", (command, decided)


# (command, the answer at least: deny where a guard variable, a guard file or a runner's
# variable is named, else ask)
VARIANTS = [
    # A: a guard variable's name made or split when the line runs
    ("printf 'export HOOK%sWISE_ON_ERROR=allow\\n' '' >> ~/.bashrc", "deny"),
    ('echo "export HOOKW""ISE_POLICY=/tmp/p.yaml" >> ~/.profile', "deny"),
    ('n=ON_ERROR; echo "export HOOKWISE_$n=allow" >> ~/.zshrc', "deny"),
    ('h=HOOK; echo "export ${h}WISE_ON_ERROR=allow" >> ~/.bashrc', "ask"),
    ("printf '%s\\n' 'export HOOKWISE_AUDIT=0' | tee -a ~/.bash_login", "deny"),
    # B: what changes every later command, by other writers and other names
    ("echo 'cd() { builtin cd \"$@\" && rm -rf ../victim; }' >> ~/.bashrc", "ask"),
    ("echo 'alias cat=\"rm -rf\"' >> ~/.bash_profile", "ask"),
    ("echo 'export LD_PRELOAD=/tmp/x.so' >> ~/.bashrc", "deny"),
    ("echo 'PS1=\"\\$(cat ~/.netrc)\"' >> ~/.bashrc", "ask"),
    ("echo 'export PATH=.:$PATH' >> ~/.bashrc", "deny"),
    ("echo 'eval \"$(cat /tmp/x)\"' >> ~/.bashrc", "ask"),
    (
        "cat >> ~/.bashrc <<'EOF'\nexport PATH=\"$HOME/bin:$PATH\"\ntrap 'rm -rf ../victim' EXIT\nEOF",
        "ask",
    ),
    ("cp /dev/stdin ~/.bash_logout <<< 'rm -rf ../victim'", "ask"),
    ("echo 'export GIT_SSH_COMMAND=\"ssh -o ProxyCommand=x\"' >> ~/.bashrc", "ask"),
    ("echo 'source ~/.x' >> ~/.bashrc && echo 'git() { :; }' > ~/.x", "ask"),
    # (a directory put first on PATH that the guard does not watch: a `bash` planted there
    # runs every later hook's shell)
    ("echo 'export PATH=\"/tmp/rt35s/work/e:$PATH\"' >> ~/.bashrc", "ask"),
    # C: HISTFILE by other assignments, the write at exit, the operand form
    ("export HISTFILE=~/.bashrc; set -o history; history -s 'git() { :; }'", "ask"),
    ("declare HISTFILE=../home/.local/bin/bash; set -o history; history -s x; history -a", "deny"),
    ("read HISTFILE <<< ../hw/bin/hookwise; set -o history; history -s x; history -w", "ask"),
    ("HISTFILE=.hookwise/policy.yaml history -w", "deny"),
    (
        "declare -n r=HISTFILE; r=~/.bashrc; set -o history; history -s 'git() { :; }'; history -w",
        "ask",
    ),
    ("set -o history; history -s x; history -w ../hw/bin/hookwise", "deny"),
]


@pytest.mark.parametrize(("command", "least"), VARIANTS)
def test_a_variant_does_its_damage_and_is_blocked(
    command: str,
    least: str,
    fixture: dict[str, Any],  # noqa: F811
) -> None:
    env, work = fixture["env"], fixture["fresh"]()
    decided = _hook(command.replace(RED_ROOT, str(work)), work, env)
    _does_damage(command, work, env)
    wanted = ("deny",) if least == "deny" else ("deny", "ask")
    assert decided[0] in wanted, (command, decided)


FRICTION = [
    # the red team's friction rows (f2)
    "echo 'alias ll=\"ls -la\"' >> ~/.bashrc",
    "echo 'eval \"$(direnv hook bash)\"' >> ~/.bashrc",
    "echo 'export PATH=\"$HOME/.local/bin:$PATH\"' >> ~/.bashrc",
    "HISTFILE=/dev/null bash -c 'echo hi'",
    # twins: the install lines of READMEs (rustup, kubectl, go, nvm, fzf, starship)
    "echo 'source ~/.cargo/env' >> ~/.bashrc",
    "echo '. \"$HOME/.cargo/env\"' >> ~/.profile",
    "echo 'source <(kubectl completion bash)' >> ~/.bashrc",
    "echo 'export PATH=$PATH:/usr/local/go/bin' >> ~/.profile",
    "echo 'export GOPATH=$HOME/go' >> ~/.profile",
    "echo 'export NVM_DIR=\"$HOME/.nvm\"' >> ~/.bashrc",
    'echo \'[ -s "$HOME/.nvm/nvm.sh" ] && . "$HOME/.nvm/nvm.sh"\' >> ~/.bashrc',
    "echo '[ -f ~/.fzf.bash ] && source ~/.fzf.bash' >> ~/.bashrc",
    "echo 'eval \"$(starship init bash)\"' >> ~/.bashrc",
    "echo 'export LANG=C.UTF-8' >> ~/.bashrc",
    "tee -a ~/.bashrc <<< 'export EDITOR=vim'",
    "printf 'export PATH=\"$PATH:$HOME/bin\"\\n' >> ~/.bashrc",
    "cat >> ~/.bashrc <<'EOF'\nexport PATH=\"$HOME/.local/bin:$PATH\"\nalias gst='git status'\nEOF",
    "echo 'shopt -s histappend' >> ~/.bashrc && echo 'HISTSIZE=10000' >> ~/.bashrc",
    "echo 'set -o vi' >> ~/.bashrc",
    "export HISTFILE=~/.bash_history_proj; echo ok",
    "history | tail -5",
    "cat ~/.bashrc && grep -n alias ~/.bashrc",
]


@pytest.mark.parametrize("command", FRICTION)
def test_an_everyday_line_stays_allowed(
    command: str,
    fixture: dict[str, Any],  # noqa: F811
) -> None:
    work = fixture["fresh"]()
    decided = _hook(command, work, fixture["env"])
    assert decided[0] == "allow", (command, decided)
    done = _run(["bash", "-c", command], work / "proj", {**fixture["env"], **GIT_ENV})
    assert "syntax error" not in done.stderr, done.stderr  # (a line bash runs as it is)
