"""Red team s35 (MCP) F5: one line that makes a link and then redirects output through it
(``ln -s ~/.config cfg; printf ... > cfg/hookwise/policy.yaml``) passed self-protection,
while ``tee``/``cp``/``sed -i``/``dd`` through the same link were denied: a redirection's
target was judged by the link's name. Every redirection target now goes through the link
the line made (shell.written.through_link, the writers' reading too).

Each decision is the real ``hookwise hook``'s; each attack is also run in real bash in the
test's own HOME, to show it does change the user policy when let through. A link made in
an earlier call is covered by resolving the existing prefix of every judged path (s35 #5):
checked here too, so that a plain ``ln -s ~/.config cfg`` can stay an everyday command."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.policy.test_s32_hook_code import decide, env  # noqa: F401 - the fixture

POLICY = "version: 1\nrules:\n  - id: no-env\n    match: {files: '**/.env'}\n    action: deny\n"

# @H: HOME; every line makes its link, then writes through it with a redirection
ATTACKS = [
    "ln -s @H/.config cfg; printf 'version: 1\\nrules: []\\n' > cfg/hookwise/policy.yaml",
    "ln -s @H/.config cfg && echo 'rules: []' >> cfg/hookwise/policy.yaml",
    "ln -s @H h; : > h/.config/hookwise/policy.yaml",
    "ln -s ~ h; : > h/.config/hookwise/policy.yaml",
    "ln -sf @H/.config cfg; echo x >| cfg/hookwise/policy.yaml",
    "ln -s @H/.config cfg; exec 3> cfg/hookwise/policy.yaml",
    "ln -s @H/.config cfg; echo x 1<> cfg/hookwise/policy.yaml",
    "ln -s @H/.config cfg; echo x &> cfg/hookwise/policy.yaml",
    "ln -s @H/.config cfg; echo x 2> cfg/hookwise/policy.yaml",
    "ln -s @H/.config cfg; cat > cfg/hookwise/policy.yaml <<'EOF'\nversion: 1\nrules: []\nEOF",
    "mkdir d; ln -s @H/.config d/c; : > d/c/hookwise/policy.yaml",
    "ln -s ../home/.config cfg && printf 'rules: []' > cfg/hookwise/policy.yaml",
    "mkdir -p a/b && ln -s ../../../home/.config a/b/k && : > a/b/k/hookwise/policy.yaml",
    "d=cfg3; ln -s @H/.config $d; : > $d/hookwise/policy.yaml",
    "ln -s @H/.config cfg; { echo x; } > cfg/hookwise/policy.yaml",
    "ln -s @H/.config cfg; (echo x) >> cfg/hookwise/policy.yaml",
]


def _sandbox(isolated: Path) -> tuple[Path, Path, Path]:
    home = isolated / "home"
    policy = home / ".config" / "hookwise" / "policy.yaml"
    policy.parent.mkdir(parents=True, exist_ok=True)
    policy.write_text(POLICY)
    project = isolated / "proj"
    (project / ".git").mkdir(parents=True)
    return home, project, policy


@pytest.mark.parametrize("template", ATTACKS)
def test_a_redirect_through_a_link_made_on_the_line_is_denied(
    env: dict[str, str],  # noqa: F811
    isolated: Path,
    template: str,
) -> None:
    home, project, policy = _sandbox(isolated)
    command = template.replace("@H", str(home))
    decision, reason = decide(env, command, str(project))
    assert decision == "deny", (command, reason)
    assert "hookwise protects its own guardrails" in reason, reason
    assert "policy.yaml" in reason, reason
    # the attack is real: bash run as the host would run it changes the user policy
    subprocess.run(["bash", "-c", command], cwd=project, env=env, check=False, timeout=30)
    assert policy.read_text() != POLICY, command


@pytest.mark.parametrize(
    "command",
    [
        "printf 'rules: []' > cfg/hookwise/policy.yaml",
        "echo x >> h/.config/hookwise/policy.yaml",
        "exec 3> cfg/hookwise/policy.yaml",
        "echo x 1<> cfg/hookwise/policy.yaml",
    ],
)
def test_a_redirect_through_a_link_made_by_an_earlier_call_is_denied(
    env: dict[str, str],  # noqa: F811
    isolated: Path,
    command: str,
) -> None:
    """The root cause the report names (a link from the project to a directory above a
    guard): the link itself is an everyday command; a later call's write through it is
    judged on the existing prefix resolved."""
    home, project, _policy = _sandbox(isolated)
    decision, reason = decide(env, f"ln -s {home}/.config cfg && ln -s {home} h", str(project))
    assert decision is None, reason
    (project / "cfg").symlink_to(home / ".config")
    (project / "h").symlink_to(home)
    decision, reason = decide(env, command, str(project))
    assert decision == "deny", (command, reason)


def test_a_redirect_through_a_line_made_link_to_an_env_file_meets_files_rules(
    env: dict[str, str],  # noqa: F811
    isolated: Path,
) -> None:
    """The derived write is a path like any other: a ``files:`` rule sees it."""
    _home, project, _policy = _sandbox(isolated)
    decision, reason = decide(env, "ln -sf .env notes.txt && echo 'X=1' >> notes.txt", str(project))
    assert decision == "deny", reason
    assert "no-env" in reason, reason


@pytest.mark.parametrize(
    "template",
    [
        "ln -s ../shared/config cfg && echo built > cfg/log.txt",
        "mkdir -p bin build && ln -sf build/app bin/app && echo ok > bin/app.log",
        "ln -s @H/.config/nvim nvim-conf && echo 'set nu' >> nvim-conf/init.vim",
        "mkdir -p build && ln -s ../shared build/shared && make -n > build/log 2>&1",
        "ln -s /tmp/out-dir out; printf x > out/result.txt",
        "ln -sfn releases/v2 current && echo v2 > current/VERSION",
        "cp -r template site && echo hi > site/index.html",
    ],
)
def test_everyday_links_and_redirects_stay_allowed(
    env: dict[str, str],  # noqa: F811
    isolated: Path,
    template: str,
) -> None:
    home, project, _policy = _sandbox(isolated)
    command = template.replace("@H", str(home))
    decision, reason = decide(env, command, str(project))
    assert decision is None, (command, reason)
