"""git configuration whose value runs a command (``git -c core.pager=CMD``, ``git config
alias.x "!CMD"``, ``core.hooksPath``, ``protocol.ext.allow``).

Cold: needed only for a git command that sets configuration (``-c`` or ``git config``
set/add); every other git command never loads it. Standard library only.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# git configuration whose value is a command line git runs (the ``!`` of an alias or a
# credential helper is dropped); ``*`` stands for one name part (pager.log, filter.x.clean)
GIT_COMMAND_KEYS = (
    "core.sshcommand",
    "core.pager",
    "core.editor",
    "core.askpass",
    "core.fsmonitor",
    "core.gitproxy",
    "sequence.editor",
    "diff.external",
    "pager.*",
    "credential.helper",
    "credential.*.helper",
    "gpg.program",
    "gpg.*.program",
    "uploadpack.packobjectshook",
    "filter.*.clean",
    "filter.*.smudge",
    "filter.*.process",
    "diff.*.textconv",
    "diff.*.command",
    "merge.*.driver",
    "mergetool.*.cmd",
    "difftool.*.cmd",
    "interactive.difffilter",
    "web.browser",
    "browser.*.cmd",
    "sendemail.sendmailcmd",
    "ssh.variant",
)


def _git_command_key(key: str) -> bool:
    parts = key.lower().split(".")
    for pattern in GIT_COMMAND_KEYS:
        wanted = pattern.split(".")
        if len(wanted) == len(parts) and all(
            w in ("*", p) for w, p in zip(wanted, parts, strict=True)
        ):
            return True
    return False


def git_value(key: str, value: str) -> list[tuple[str, Any]]:
    low = key.lower()
    if low == "core.hookspath" and value not in ("", "/dev/null"):
        return [("unverifiable", f"git runs hooks from {value}, known only when it runs")]
    if low == "protocol.ext.allow" and value != "never":
        return [("unverifiable", "git may run an ext:: transport command")]
    if _git_command_key(key) and value not in ("true", "false", ""):
        return [("script", value.removeprefix("!"))]
    return []
