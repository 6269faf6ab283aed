"""curl's URL globbing (red team s28 S): without ``-g``/``--globoff`` curl expands
``{a,b}`` lists and ``[m-n]`` / ``[001-100:5]`` ranges in every URL it is given, so
``file:///proc/self/cwd/.e[m-n]v`` reads ``.env`` and ``.{hookwise}/policy.local.yaml``
names the local policy: each URL word stands for the URLs it expands to, which the
parser adds as operands (every rule then sees them); past a bound, a word known only when
it runs.

Cold: needed only for a curl command with ``{`` or ``[`` in a word. Standard library only.
"""

from __future__ import annotations

MAX_URLS = 64  # more expansions than this: the URLs are read as unknown


def globoff(argv: list[str]) -> bool:
    """Whether curl's options turn its globbing off (``-g``, ``--globoff``, ``-sg``)."""
    for word in argv[1:]:
        if word == "--":
            break
        if word == "--globoff" or (word[:1] == "-" and word[1:2] not in ("-", "") and "g" in word):
            return True
    return False


def expand(url: str) -> list[str] | None:
    """The URLs curl makes of ``url`` (``[url]`` when it has no glob); None when there are
    more than MAX_URLS or the pattern is one curl refuses (it then fetches nothing)."""
    found = [""]
    i = 0
    while i < len(url):
        ch = url[i]
        if ch == "\\" and i + 1 < len(url) and url[i + 1] in "{}[]":
            found = [f + url[i + 1] for f in found]
            i += 2
            continue
        if ch in "{[":
            close = url.find("}" if ch == "{" else "]", i + 1)
            if close < 0:
                return None
            body = url[i + 1 : close]
            items = body.split(",") if ch == "{" else _range(body)
            if items is None or len(found) * max(len(items), 1) > MAX_URLS:
                return None
            found = [f + item for f in found for item in items]
            i = close + 1
            continue
        found = [f + ch for f in found]
        i += 1
    return found


def _range(body: str) -> list[str] | None:
    """``a-z``, ``0-9``, ``001-100``, each with an optional ``:step`` (None: not a range
    curl accepts, or past the bound)."""
    spec, _, step_text = body.partition(":")
    low, dash, high = spec.partition("-")
    if not dash or not low or not high:
        return None
    step = int(step_text) if step_text.isdigit() and int(step_text) > 0 else 1
    if step_text and not step_text.isdigit():
        return None
    if low.isdigit() and high.isdigit():
        width = len(low) if low.startswith("0") else 0
        first, last = int(low), int(high)
        if last < first or (last - first) // step + 1 > MAX_URLS:
            return None
        return [str(n).zfill(width) for n in range(first, last + 1, step)]
    if len(low) == 1 and len(high) == 1 and low.isalpha() and high.isalpha() and low <= high:
        return [chr(c) for c in range(ord(low), ord(high) + 1, step)]
    return None
