"""What a (GNU) sed script runs, reads or writes: ``e CMD``, ``s///e``, ``r FILE``, ``w FILE``.

Cold: needed only for ``sed`` (its own module: ``sed -n 1,80p`` is an everyday
command, and loads nothing but this). Standard library only.
"""

from __future__ import annotations

from hookwise.shell.commands.option_words import option_values

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def _sed_scripts(argv: list[str]) -> list[str]:
    scripts = option_values(argv, ("-e",), ("--expression",))
    if scripts or any(w in ("-f", "--file") or w.startswith("--file=") for w in argv):
        return scripts
    for index, word in enumerate(argv[1:], start=1):
        if word.startswith("-") and len(word) > 1:
            continue
        if argv[index - 1] in ("-l", "--line-length"):
            continue
        return [word]
    return []


MAX_STEPS = 10_000


def sed_commands(script: str) -> list[tuple[str, Any]]:
    """What a (GNU) sed script runs, reads or writes: ``e CMD`` and the ``e`` flag of
    ``s``, ``r``/``R FILE`` (printed), ``w FILE`` and the ``w`` flag. Reading stops where
    the script is not understood."""
    out: list[tuple[str, Any]] = []
    i = 0
    n = len(script)

    def to_eol(at: int) -> tuple[str, int]:
        end = script.find("\n", at)
        end = n if end < 0 else end
        return script[at:end].strip(), end

    def delimited(at: int, delimiter: str) -> int:
        while at < n and script[at] != delimiter:
            at += 2 if script[at] == "\\" else 1
        return at + 1

    for _ in range(MAX_STEPS):
        while i < n and script[i] in " \t\n;{}!0123456789$,~+":
            i += 1
        if i >= n:
            break
        ch = script[i]
        if ch == "/":
            i = delimited(i + 1, "/")
            continue
        if ch == "\\" and i + 1 < n:
            i = delimited(i + 2, script[i + 1])
            continue
        i += 1
        if ch in "s" and i < n:
            delimiter = script[i]
            i = delimited(delimited(i + 1, delimiter), delimiter)
            flags_start = i
            while i < n and script[i] not in ";\n}w":
                i += 1
            if "e" in script[flags_start:i]:
                out.append(("unverifiable", "sed runs the pattern space as a command (s///e)"))
            if i < n and script[i] == "w":
                target, i = to_eol(i + 1)
                out.append(("write", target))
        elif ch == "y" and i < n:
            delimiter = script[i]
            i = delimited(delimited(i + 1, delimiter), delimiter)
        elif ch == "e":
            command, i = to_eol(i)
            if command:
                out.append(("script", command))
            else:
                out.append(("unverifiable", "sed runs the pattern space as a command (e)"))
        elif ch in "wW":
            target, i = to_eol(i)
            out.append(("write", target))
        elif ch in "rR":  # r FILE, R FILE: the file's lines go to the output
            target, i = to_eol(i)
            if target and target not in ("/dev/stdin", "-"):
                out.append(("read", target))
        elif ch in "aicbtT:qQlLvF#":
            _text, i = to_eol(i) if ch not in "bBtTqQlL" else (None, i)
            if ch in "bBtT:":
                while i < n and script[i] not in ";\n}":
                    i += 1
        elif ch not in "dDgGhHnNpPxz=":
            break
    else:  # (commands past the bound run too)
        out.append(("unverifiable", f"the sed script has more than {MAX_STEPS} commands"))
    return out


def sed_runs(argv: list[str]) -> list[tuple[str, Any]]:
    """What a ``sed`` command line runs or writes, from each of its scripts."""
    found: list[tuple[str, Any]] = []
    for text in _sed_scripts(argv):
        found += sed_commands(text)
    return found
