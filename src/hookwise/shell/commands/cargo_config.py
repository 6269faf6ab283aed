"""Cargo's settings given on the line (red team s33 I): ``cargo --config KEY=VALUE`` and
the environment's ``CARGO_<KEY>`` (and rustc's own ``RUSTC_WRAPPER``, ``RUSTFLAGS``...)
set what cargo reads from its config files, where many values are programs it runs
(``target.<triple>.runner``, ``*.linker``, ``build.rustc-wrapper``, a credential
provider, ``-C linker=`` in rustflags) or a directory it deletes (``build.target-dir``
with ``cargo clean``). A key not known to change only how cargo reports or how much it
does is code on the line: unverifiable. ``build.target-dir`` is ``--target-dir``, judged
where that option is (tool_options.VALUE_CLEARERS).

Cold: loaded only for cargo and those variables. Standard library only."""

from __future__ import annotations

import re

from hookwise.shell.commands.option_words import option_values

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# keys (spelled as their variable is: upper case, ``.`` and ``-`` as ``_``) that change
# only how cargo reports or how much it does, or that are no setting (cargo's paths)
_HARMLESS = re.compile(
    r"TERM_\w+|BUILD_JOBS|BUILD_INCREMENTAL|INCREMENTAL|NET_OFFLINE|NET_RETRY|HTTP_TIMEOUT|"
    r"HTTP_MULTIPLEXING|HTTP_LOW_SPEED_LIMIT|HTTP_DEBUG|CARGO_NEW_VCS|LOG|LOG_\w+|"
    r"FUTURE_INCOMPAT_REPORT_FREQUENCY|REGISTRIES_CRATES_IO_PROTOCOL|HOME|MANIFEST_DIR|"
    r"PKG_\w+|CRATE_NAME|BIN_NAME|PRIMARY_PACKAGE|TARGET_TMPDIR|MAKEFLAGS|"
    r"PROFILE_\w+_(?:OPT_LEVEL|DEBUG|LTO|CODEGEN_UNITS|INCREMENTAL|OVERFLOW_CHECKS|"
    r"DEBUG_ASSERTIONS|STRIP|PANIC|SPLIT_DEBUGINFO)"
)
# the keys that name the directory cargo builds in (and ``cargo clean`` deletes)
_TARGET_DIR = frozenset(["BUILD_TARGET_DIR", "TARGET_DIR"])
# rustc's and cargo's variables that are no ``CARGO_`` key: each names a program cargo
# runs or holds compiler options (``-C linker=PROG``)
RUST_PROGRAM_VARIABLES = frozenset(
    ["RUSTC", "RUSTC_WRAPPER", "RUSTC_WORKSPACE_WRAPPER", "RUSTDOC", "RUSTFLAGS",
     "RUSTDOCFLAGS", "RUSTC_LINKER", "CARGO"]
)  # fmt: skip


_FLAGS = frozenset(["RUSTFLAGS", "RUSTDOCFLAGS"])
# rustc's options that tune the code it makes, and nothing else (no linker, no file)
_RUSTC_TUNING = re.compile(
    r"-C\s*(?:opt-level|target-cpu|target-feature|debuginfo|codegen-units|lto|panic|"
    r"overflow-checks|debug-assertions|force-frame-pointers|strip|embed-bitcode|"
    r"relocation-model|code-model|symbol-mangling-version)=[\w,+.-]*|-[DWAF]\s*[\w:-]+|"
    r"--cfg\s*[\w=\"-]+|--cap-lints\s*\w+|-g|-O"
)


def rustc_flags_known(words: list[str]) -> bool:
    """Whether rustc's options ``words`` only tune the code it makes (``-C opt-level=3``,
    ``-D warnings``): ``-C linker=PROG``, ``-C link-arg``, ``--emit``, ``@FILE`` do more."""
    joined, at = [], 0
    while at < len(words):  # `-C opt-level=3`: the option and its value
        word = words[at]
        if word in ("-C", "-D", "-W", "-A", "-F", "--cfg", "--cap-lints") and at + 1 < len(words):
            word = f"{word} {words[at + 1]}"
            at += 1
        joined.append(word)
        at += 1
    return all(_RUSTC_TUNING.fullmatch(word) for word in joined)


def _key(text: str) -> str:
    """A config key as its variable spells it (``target.'cfg(unix)'.runner``:
    ``TARGET_CFG(UNIX)_RUNNER``)."""
    return re.sub(r"[.\-]", "_", re.sub(r"""['"]""", "", text.strip())).upper()


def _toml_string(value: str) -> str | None:
    """A TOML basic or literal string's text (None: some other value)."""
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        inner = value[1:-1]
        return inner if "\\" not in inner or value[0] == "'" else None
    return None


def config_items(argv: list[str]) -> list[tuple[str, Any]]:
    """What ``cargo --config`` settings on the line make cargo run or delete."""
    from hookwise.shell.commands.tool_options import cleared

    out: list[tuple[str, Any]] = []
    for setting in option_values(argv, (), ("--config",)):
        key, equals, value = setting.partition("=")
        if not equals or not re.fullmatch(r"""[\w.\-'"()* ,]+""", key):
            why = f"cargo --config {setting[:60]} names a config file hookwise does not read"
            out.append(("unverifiable", why))
            continue
        name = _key(key)
        if name in _TARGET_DIR:
            directory = _toml_string(value)
            if directory is None:
                out.append(("unverifiable", f"cargo --config {setting[:60]}: a computed directory"))
            else:
                out += cleared("cargo", [*argv[1:], "--target-dir", directory])
        elif not _HARMLESS.fullmatch(name):
            why = f"cargo --config {setting[:60]} sets a key whose value may be a program it runs"
            out.append(("unverifiable", why))
    return out


def env_why(name: str, value: str, command: Any) -> str | None:
    """Why ``CARGO_<KEY>``/``RUSTC_WRAPPER``... in the environment makes cargo run what
    the line says (None: it does not)."""
    if name in _FLAGS and rustc_flags_known(value.split()):
        return None
    if name in RUST_PROGRAM_VARIABLES:
        return f"{name}={value[:60]} names a program or compiler options cargo (rustc) runs with"
    if not name.startswith("CARGO_"):
        return None  # (RUST_LOG, RUST_BACKTRACE...)
    key = name.removeprefix("CARGO_")
    if key in _TARGET_DIR:  # programs.ENV_LOADERS: "cleared" (the directory cargo clean deletes)
        return None
    if key in ("BUILD_RUSTFLAGS", "ENCODED_RUSTFLAGS") and rustc_flags_known(
        value.split("\x1f" if key == "ENCODED_RUSTFLAGS" else None)
    ):
        return None
    if _HARMLESS.fullmatch(key):
        return None
    return f"{name}={value[:60]} sets a cargo config key whose value may be a program it runs"
