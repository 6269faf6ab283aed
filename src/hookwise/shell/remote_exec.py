"""The command a remote-execution command runs elsewhere: ``ssh HOST CMD``, ``docker
exec``/``run``, ``kubectl exec ... -- CMD`` (the names: :data:`programs.REMOTE`).

Cold: needed only for those programs. Standard library only.
"""

from __future__ import annotations

from hookwise.shell.programs import OPTIONS

_SSH_VALUES = frozenset(
    [
        "-b",
        "-c",
        "-D",
        "-E",
        "-e",
        "-F",
        "-I",
        "-i",
        "-J",
        "-L",
        "-l",
        "-m",
        "-O",
        "-o",
        "-p",
        "-Q",
        "-R",
        "-S",
        "-W",
        "-w",
        "-B",
    ]
)


def remote_inner(program: str, argv: list[str]) -> tuple[list[str] | None, str | None]:
    """(argv, script) a remote-execution command runs elsewhere (one of them, or neither)."""
    if program == "ssh":
        i = 1
        while i < len(argv) and argv[i].startswith("-") and argv[i] != "--":
            i += 2 if argv[i] in _SSH_VALUES else 1
        if i < len(argv) and argv[i] == "--":
            i += 1
        rest = argv[i + 1 :]  # after the host
        return None, (" ".join(rest) if rest else None)
    sub = next((w for w in argv[1:] if not w.startswith("-")), "")
    if program in ("kubectl", "oc"):
        if sub in ("exec", "debug", "run") and "--" in argv:
            rest = argv[argv.index("--") + 1 :]
            return (rest or None), None
        return None, None
    if sub not in ("exec", "run"):
        return None, None
    values = OPTIONS["docker"][2] | frozenset(["-e", "--env", "-u", "--user", "-w", "--workdir"])
    i = argv.index(sub) + 1
    while i < len(argv) and argv[i].startswith("-"):
        i += 2 if (argv[i] in values and "=" not in argv[i]) else 1
    rest = argv[i + 1 :]  # after the container or image
    return (rest or None), None
