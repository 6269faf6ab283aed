"""A red team's findings table through the hook as the red team set it up: how many of its
escapes the starter with every pack (``policy init --packs all``) now blocks, by technique
class. Not a test (the table lives with the red team's record, outside the project):

    .venv/bin/python -m tests.policy.tsv_figures FINDINGS.tsv [-v]

FINDINGS.tsv: a header line, then ``n, effect, technique class, command, ...`` separated
by tabs, ``\\n`` in a command standing for a newline (red team s24's rt-shell-findings.tsv),
or s25's ``class, command, answer, damage`` under a ``class`` header.
The hook is asked with the red team's working directory and home (under /tmp, which the
packs' outside-workspace rules exempt: only the starter's own rules guard there)."""

from __future__ import annotations

import ast
import os
import sys
from collections import Counter
from collections.abc import Iterable

CWD, HOME = "/tmp/rt24s/work/proj", "/tmp/rt24s/home"


def _unquoted(klass: str, command: str) -> str:
    """s25's friction rows hold Python's repr of the command (s26's hold it plain)."""
    if klass == "friction" and command[:1] in "'\"":
        return str(ast.literal_eval(command))
    return command


def figures(
    path: str,
    verbose: bool = False,
    cwd: str = CWD,
    home: str = HOME,
    relocated: tuple[str, str] | None = None,
) -> Iterable[str]:
    """Per class ``B of T  CLASS`` lines, then the total (``-v``: every command's answer).
    ``relocated`` (the red team's root, another): its paths in the commands moved there."""
    os.environ["HOME"] = home  # the packs' ~ globs read the home at compile time
    from hookwise.policy.pipeline import decide
    from hookwise.policy.tools.payloads import build_payload
    from hookwise.policy.tools.starter import starter_policy
    from tests.policy.conftest import compile_text

    policy = compile_text(starter_policy(["all"]))
    with open(path, encoding="utf-8") as handle:
        lines = [line for line in handle.read().splitlines() if line.strip()]
    rows = [line.split("\t") for line in lines[1:] if not line.startswith("#")]
    if lines and lines[0].startswith("class\t"):  # red team s25: class, command, answer, damage
        rows = [
            [str(n), row[3], row[0], _unquoted(row[0], row[1])] for n, row in enumerate(rows, 1)
        ]
    total: Counter[str] = Counter()
    blocked: Counter[str] = Counter()
    for row in rows:
        # (red team s25 wrote a newline inside a command as <NL>)
        klass, command = row[2], row[3].replace("\\n", "\n").replace("<NL>", "\n")
        if relocated is not None:
            command = command.replace(relocated[0], relocated[1])
        decision = "allow"
        for call in command.split(" ⟫ "):  # (`A ⟫ B`: two tool calls; the first block counts)
            payload = build_payload(
                "claude", "PreToolUse", tool="Bash", tool_input={"command": call}, cwd=cwd
            )
            found = decide(payload, policy, "claude", {"HOME": home}, now=0.0).decision
            decision = (found.decision if found else None) or "allow"
            if decision != "allow":
                break
        total[klass] += 1
        blocked[klass] += decision in ("deny", "ask")
        if verbose:
            yield f"{row[0]:>4} {decision:5} {command!r}"[:160]
    for klass in sorted(total):
        yield f"{blocked[klass]:3} of {total[klass]:3}  {klass}"
    yield f"all: blocked {sum(blocked.values())} of {sum(total.values())}"


if __name__ == "__main__":
    # --root /tmp/rt26s: the red team's own tree (its work/proj and home); --build: make
    # that tree first (tests/policy/redteam_tree.py), where it does not exist yet
    root = sys.argv[sys.argv.index("--root") + 1] if "--root" in sys.argv else None
    if root and "--build" in sys.argv and not os.path.exists(root):
        from pathlib import Path

        from tests.policy.redteam_tree import build

        build(Path(root))
    where = (f"{root}/work/proj", f"{root}/home") if root else (CWD, HOME)
    for line in figures(sys.argv[1], "-v" in sys.argv, *where):
        print(line)
