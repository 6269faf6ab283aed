"""Bash's ANSI-C quoting (``$'...'``) decoded, as bash decodes it.

Cold: needed only for a word with ``$'...'`` quoting (rare in commands agents write, and a
classic way to spell ``rm`` so a filter misses it). Standard library only.
"""

from __future__ import annotations

_ANSI = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "e": "\x1b", "f": "\f", "v": "\v"}


def ansi_c(body: str) -> str:
    """Bash's ``$'...'`` decoding: ``\\x72``, octal ``\\162``, ``\\u0072``, ``\\cX``..."""
    out: list[str] = []
    i = 0
    n = len(body)
    while i < n:
        ch = body[i]
        if ch == "\\" and i + 1 < n:
            nxt = body[i + 1]
            if nxt in _ANSI:
                out.append(_ANSI[nxt])
                i += 2
                continue
            if nxt in "xuU" or nxt in "01234567":
                base, size, j = (8, 3, i + 1) if nxt in "01234567" else (16, 0, i + 2)
                size = size or {"x": 2, "u": 4, "U": 8}[nxt]
                digits = ""
                allowed = "01234567" if base == 8 else "0123456789abcdefABCDEF"
                while j < n and len(digits) < size and body[j] in allowed:
                    digits += body[j]
                    j += 1
                if digits:
                    code = int(digits, base)
                    if code == 0:
                        break  # bash's word ends at a NUL (a C string)
                    out.append(chr(code & 0xFF if base == 8 else min(code, 0x10FFFF)))
                    i = j
                    continue
            if nxt == "c" and i + 2 < n:
                if not ord(body[i + 2]) & 0x1F:
                    break
                out.append(chr(ord(body[i + 2]) & 0x1F))
                i += 3
                continue
            out.append(nxt if nxt in "\\'\"?" else ch + nxt)
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)
