"""Programs that delete the files they are given (red team s35 L): a compressor replaces
its input with the compressed file (``gzip F`` leaves ``F.gz``, ``F`` is gone; ``gunzip
F.gz`` the other way round), ``gzip -r D`` does so for every file under ``D``, and
``unlink F`` is ``rm F`` under another name. Each is read as the ``rm`` it amounts to, so
every rule about deletes (outside the project, of a guard file) judges it as it judges
``rm``.

Per program: whether it deletes its input unless told to keep it (gzip, xz, bzip2, lzma)
or only when told to (zstd/lz4/brotli ``--rm``), the options that keep the input
(``-k``, ``-c``, ``-t``, ``-l``), and the options that take the next word as their value
(``-S .x``, ``-T 0``, ``-o F``). An option not listed here is taken for a flag: its value
then counts as a file deleted (stricter, never looser). A list of names read from a file
(``xz --files=F``, ``zstd --filelist F``) is known only when it runs: unverifiable.
Standard library only; imports nothing of hookwise (programs imports it)."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class Replacer:
    """How one program treats its input files: ``default`` True when it deletes them
    unless kept; ``keep`` the flags (short letters and long words) that keep them,
    ``remove`` the ones that delete them, ``values`` options whose value is the next
    word, ``recursive`` the flags that walk directories, ``lists`` options naming a file of
    names."""

    __slots__ = ("default", "keep", "lists", "recursive", "remove", "values")

    def __init__(
        self,
        default: bool,
        keep: str,
        values: str,
        *,
        remove: str = "",
        recursive: str = "",
        lists: str = "",
    ) -> None:
        self.default = default
        self.keep = frozenset(keep.split())
        self.remove = frozenset(remove.split())
        self.values = frozenset(values.split())
        self.recursive = frozenset(recursive.split())
        self.lists = frozenset(lists.split())


_GZIP = Replacer(
    True,
    "-k --keep -c --stdout --to-stdout -t --test -l --list -h --help -V --version -L --license",
    "-S --suffix -b --blocksize -p --processes -I --iterations -J --maxsplits -C --comment",
    recursive="-r --recursive",
)
_XZ = Replacer(
    True,
    "-k --keep -c --stdout --to-stdout -t --test -l --list -h --help -H --long-help -V --version",
    "-S --suffix -F --format -C --check -T --threads -M --memlimit --memory "
    "--memlimit-compress --memlimit-decompress --block-size --block-list --filters",
    lists="--files --files0",
)
_BZIP2 = Replacer(True, "-k --keep -c --stdout -t --test -h --help -V --version -L --license", "")
_OPT_IN = Replacer(  # zstd, lz4, brotli: the input stays unless --rm
    False,
    "-k --keep -c --stdout -t --test -l --list -h --help -V --version",
    "-o --output -D --dict -T --threads -M --memory -S --suffix -w --lgwin "
    "--output-dir-flat --output-dir-mirror -B --block-size --patch-from",
    remove="--rm -j",
    recursive="-r",
    lists="--filelist",
)
REPLACERS: dict[str, Replacer] = {
    **dict.fromkeys(["gzip", "gunzip", "pigz", "unpigz", "uncompress", "compress"], _GZIP),
    **dict.fromkeys(["xz", "unxz", "lzma", "unlzma", "lzip", "plzip"], _XZ),
    **dict.fromkeys(["bzip2", "bunzip2", "pbzip2", "lbzip2"], _BZIP2),
    **dict.fromkeys(["zstd", "unzstd", "pzstd", "lz4", "unlz4", "brotli"], _OPT_IN),
}


def _flag(word: str, names: frozenset[str]) -> bool:
    """Whether ``word`` (``-kf``, ``--keep``) says one of ``names`` (``-k``...)."""
    if word.startswith("--"):
        return word.split("=", 1)[0] in names
    return any(f"-{letter}" in names for letter in word[1:])


def replaced(program: str, argv: list[str]) -> list[tuple[str, Any]]:
    """The ``rm`` that ``argv`` amounts to (empty: it deletes nothing). A flag that
    deletes wins over one that keeps (``zstd -k --rm``: fail closed)."""
    if program == "unlink":  # unlink F: rm F (one operand; `--` ends options)
        named = [w for w in argv[1:] if w != "--" and not w.startswith("--")]
        return [("argv", ["rm", "-f", "--", *named])] if named else []
    spec = REPLACERS[program]
    kept = removed = recursive = False
    files: list[str] = []
    words = iter(argv[1:])
    for word in words:
        if word == "--":
            files += [w for w in words if w != "-"]
            break
        if not word.startswith("-") or word == "-":
            if word != "-":  # (stdin to stdout: nothing deleted)
                files.append(word)
            continue
        name = word.split("=", 1)[0]
        if name in spec.lists or (not word.startswith("--") and name[:2] in spec.lists):
            return [("unverifiable", f"{program} {name} deletes files named in a file")]
        if name in spec.values and "=" not in word:
            next(words, "")  # its value (-S .x, -T 0)
            continue
        if not word.startswith("--") and word[:2] in spec.values:
            continue  # the value attached (-T0, -S.x)
        kept = kept or _flag(word, spec.keep)
        removed = removed or _flag(word, spec.remove)
        recursive = recursive or _flag(word, spec.recursive)
    if (
        program in ("lz4", "unlz4")
        and len(files) == 2
        and not any(
            _flag(w, frozenset(["-m", "--multiple"])) for w in argv[1:] if w.startswith("-")
        )
    ):
        files = files[:1]  # lz4 IN OUT: OUT is written, IN deleted (with --rm)
    if not (removed or (spec.default and not kept)) or not files:
        return []
    return [("argv", ["rm", *(["-r"] if recursive else []), "-f", "--", *files])]
