"""Trees deleted without ``rm -r`` (red team s24, finding 7): ``rm``/``rmdir`` given a
directory and what is under it, ``rmdir -p``, ``7z -sdel``, ``rsync
--remove-source-files``. Imported by ``programs.runs`` only for those programs
(``programs.TREE_DELETERS``); it imports nothing of hookwise (programs imports it).
Standard library only."""

from __future__ import annotations


def tree_deleted(program: str, argv: list[str]) -> list[str]:
    """The trees ``argv`` deletes without saying ``-r`` (empty: none)."""
    options = [w for w in argv[1:] if w.startswith("-") and w != "-"]
    operands = [w for w in argv[1:] if not w.startswith("-") or w == "-"]
    if "--" in argv:
        operands = [w for w in argv[1 : argv.index("--")] if not w.startswith("-")]
        operands += argv[argv.index("--") + 1 :]
    if program.startswith("7z"):
        # 7z a|u -sdel ARCHIVE FILES...: the files, directories whole, are deleted
        if "-sdel" not in options or len(operands) < 3 or operands[0] not in ("a", "u"):
            return []
        return operands[2:]
    if program == "rm" and any(
        o in ("--recursive", "-r", "-R") or (o[1:2] != "-" and ("r" in o or "R" in o))
        for o in options
    ):
        return []  # already rm -r
    if program == "rsync":  # --remove-source-files of a recursive copy: every file of it
        if (
            "--remove-source-files" not in options
            or len(operands) < 2
            or not any(
                o in ("--recursive", "--archive") or (o[1:2] != "-" and set("ra") & set(o))
                for o in options
            )
        ):
            return []
        shell = {argv[k + 1] for k in range(len(argv) - 1) if argv[k] in ("-e", "--rsh")}
        return [p for p in operands[:-1] if ":" not in p.split("/", 1)[0] and p not in shell]
    if program == "rmdir" and any(o in ("-p", "--parents") or (o[1:2] != "-" and "p" in o)
                                  for o in options):  # fmt: skip
        parents = []
        for path in operands:
            parts = path.rstrip("/").split("/")
            kept = [k for k in range(1, len(parts)) if parts[k - 1] not in ("", ".", "..")]
            parents += ["/".join(parts[:k]) for k in kept[:1]]
        return parents
    # an operand with another under it; by the others' prefixes, not every pair: rm a{0..5999}
    # made 36 million comparisons and the host's timeout let the line run (red team s27 #1)
    under: dict[str, set[str]] = {}  # a prefix ending before a "/" -> (up to 2) operands
    for q in operands:
        for at in range(len(q)):
            if q[at] == "/":
                holders = under.setdefault(q[:at], set())
                if len(holders) < 2:
                    holders.add(q)
    return [p for p in operands if under.get(p.rstrip("/"), set()) - {p}]
