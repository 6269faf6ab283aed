"""Files a program writes that an option names only together with another program's
syntax: the linker's own options passed through a compiler driver (``gcc -Wl,-o,F``,
``-Xlinker -o -Xlinker F``: ld writes F, red team s33 C/D) and rustc's ``--emit
KIND=PATH`` list. The plain ``-o F`` of each is programs.WRITE_OPTIONS'.

Read by programs._files_named for the programs of :data:`OUTPUT_READERS` only (cold)."""

from __future__ import annotations

from collections.abc import Callable

# compiler drivers that hand words to the linker (-Wl,A,B / -Xlinker A)
LINKER_DRIVERS = frozenset(
    ["gcc", "cc", "g++", "c++", "clang", "clang++", "gfortran", "cpp", "tcc", "icc", "icx"]
)
# ld's options whose value is the file it writes (getopt_long_only: one dash or two)
_LD_OUTPUTS = ("-o", "--output", "-output")


def linker_words(argv: list[str]) -> list[str]:
    """The words a compiler driver passes to the linker, in order."""
    out: list[str] = []
    words = iter(argv[1:])
    for word in words:
        if word.startswith("-Wl,"):
            out += word[4:].split(",")
        elif word == "-Xlinker":
            out.append(next(words, ""))
        elif word.startswith("-Xlinker="):  # (clang spells it so too)
            out.append(word.partition("=")[2])
    return out


def linker_outputs(words: list[str]) -> list[str]:
    """The files ld writes, from its own words (``-o F``, ``-oF``, ``--output=F``)."""
    out: list[str] = []
    for at, word in enumerate(words):
        following = words[at + 1] if at + 1 < len(words) else ""
        name, equals, value = word.partition("=")
        if word in _LD_OUTPUTS:
            out.append(following)
        elif equals and name in _LD_OUTPUTS[1:]:
            out.append(value)
        elif word.startswith("-o") and not word.startswith(("-oformat", "-output")):
            out.append(word[2:])
    return [w for w in out if w]


def _driver(argv: list[str]) -> list[str]:
    return linker_outputs(linker_words(argv))


def rustc_emits(argv: list[str]) -> list[str]:
    """rustc's ``--emit KIND=PATH[,KIND=PATH]`` (``--emit=...``): each PATH written."""
    out: list[str] = []
    for at, word in enumerate(argv[1:], start=1):
        if word == "--emit":
            value = argv[at + 1] if at + 1 < len(argv) else ""
        elif word.startswith("--emit="):
            value = word[len("--emit=") :]
        else:
            continue
        for item in value.split(","):
            _kind, equals, path = item.partition("=")
            if equals and path and path != "-":
                out.append(path)
    return out


OUTPUT_READERS: dict[str, Callable[[list[str]], list[str]]] = {
    **{name: _driver for name in LINKER_DRIVERS},
    "rustc": rustc_emits,
}


def output_files(program: str, argv: list[str]) -> list[str]:
    """The files ``program`` writes that :data:`OUTPUT_READERS` reads from ``argv``."""
    reader = OUTPUT_READERS.get(program)
    return reader(argv) if reader is not None else []
