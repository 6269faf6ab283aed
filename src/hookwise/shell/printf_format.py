"""What bash's ``printf`` and ``echo`` builtins print for literal arguments.

``printf '\\x72\\x6d -rf x' > x.sh`` writes ``rm -rf x``: a file written on the line is
read as what it holds, so the escapes and the format are applied as bash applies them.
What is not handled here (a width, ``%q``, ``%(...)T``) makes the output unknown (None),
never a guess. Cold: imported for ``echo``/``printf`` with a backslash or ``%``.
"""

from __future__ import annotations

_SIMPLE = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "a": "\a",
    "b": "\b",
    "e": "\x1b",
    "E": "\x1b",
    "f": "\f",
    "v": "\v",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "?": "?",
}
_HEX = "0123456789abcdefABCDEF"


def _escape_at(text: str, i: int, zero_octal: bool) -> tuple[str, int, bool]:
    """The backslash escape at ``text[i]``: (what it prints, the index after it, whether
    it is ``\\c``, which stops all output). ``zero_octal``: octal is ``\\0NNN`` (``%b``,
    ``echo -e``), else ``\\NNN`` (a printf format)."""
    if i + 1 >= len(text):
        return "\\", i + 1, False
    nxt = text[i + 1]
    if nxt == "c":
        return "", i + 2, True
    if nxt in _SIMPLE:
        return _SIMPLE[nxt], i + 2, False
    if nxt in "xuU":
        size = {"x": 2, "u": 4, "U": 8}[nxt]
        j = i + 2
        while j < len(text) and j - i - 2 < size and text[j] in _HEX:
            j += 1
        if j == i + 2:
            return "\\" + nxt, i + 2, False
        return chr(min(int(text[i + 2 : j], 16), 0x10FFFF)), j, False
    if nxt in "01234567":
        j = i + 2 if (zero_octal and nxt == "0") else i + 1
        start = j
        while j < len(text) and j - start < 3 and text[j] in "01234567":
            j += 1
        return chr(int(text[start:j] or "0", 8) & 0xFF), j, False
    return "\\" + nxt, i + 2, False


def _decode(text: str, zero_octal: bool) -> tuple[str, bool]:
    out: list[str] = []
    i = 0
    while i < len(text):
        if text[i] == "\\":
            piece, i, stop = _escape_at(text, i, zero_octal)
            out.append(piece)
            if stop:
                return "".join(out), True
            continue
        out.append(text[i])
        i += 1
    return "".join(out), False


MAX_ROUNDS = 1000  # reuses of the format


def printf_output(args: list[str]) -> str | None:
    """``printf FORMAT ARGS...`` with ``%s %b %d %i %c %%`` (the format reused while
    arguments remain); None for anything else."""
    if args[:1] == ["--"]:
        args = args[1:]
    if not args or args[0].startswith("-v"):
        return None
    fmt, rest = args[0], list(args[1:])
    out: list[str] = []
    for _round in range(MAX_ROUNDS):
        used = 0
        i = 0
        while i < len(fmt):
            ch = fmt[i]
            if ch == "\\":
                piece, i, stop = _escape_at(fmt, i, zero_octal=False)
                out.append(piece)
                if stop:
                    return "".join(out)
                continue
            if ch != "%":
                out.append(ch)
                i += 1
                continue
            spec = fmt[i + 1 : i + 2]
            i += 2
            if spec == "%":
                out.append("%")
                continue
            value = rest.pop(0) if rest else ""
            used += 1
            if spec == "s":
                out.append(value)
            elif spec == "b":
                decoded, stop = _decode(value, zero_octal=True)
                out.append(decoded)
                if stop:
                    return "".join(out)
            elif spec in ("d", "i"):
                try:
                    out.append(str(int(value or "0", 0)))
                except ValueError:
                    return None
            elif spec == "c":
                out.append(value[:1])
            else:
                return None
        if not rest or not used:
            break
    else:
        return None  # (arguments left: what they would print is unknown, not absent)
    return "".join(out)


def echo_output(args: list[str]) -> str:
    """bash's ``echo``: ``-n``/``-e``/``-E`` options, escapes only with ``-e``."""
    interpret = False
    words = list(args)
    while words and len(words[0]) > 1 and words[0][0] == "-" and set(words[0][1:]) <= set("neE"):
        interpret = ("e" in words[0] or interpret) and "E" not in words[0]
        words.pop(0)
    text = " ".join(words)
    return _decode(text, zero_octal=True)[0] if interpret else text
