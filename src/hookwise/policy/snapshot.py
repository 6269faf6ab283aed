"""The per-user launcher's snapshot: the hook's modules, compiled, in one file.

Finding, opening and unpacking some twenty ``.pyc`` files one by one through the import
system costs more than the policy decision itself. The launcher that ``hookwise install``
writes (run_hook.py) executes them from ``<launcher>.snapshot`` instead, without the
import system. The snapshot is validated the way Python validates a ``.pyc`` (each
source's mtime and size, plus the interpreter's bytecode magic), is used only when it
belongs to this user and nobody else can write it, and is rebuilt by the hook itself,
after it has answered, whenever it is missing or stale. A snapshot that cannot be used
costs time, never correctness: the modules are then imported as usual.

Standard library only, and no ``from __future__ import annotations``: the snapshot's
modules are compiled with that flag instead, so the hot path never imports ``__future__``.
"""

import marshal
import posix
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import CodeType, ModuleType
    from typing import Any

    # (module, source file, is a package, eager, (source mtime_ns, size), its code: read
    # with the eager modules, or where it lies in the file, read on its first import)
    Entry = tuple[str, str, bool, bool, tuple[int, int], CodeType | tuple[int, int]]

# The hot path's modules. EAGER: what ``hook.py`` imports at its top, in load order (the
# launcher executes them before ``main``); ON_DEMAND: what the hook imports on first use
# (served from the snapshot by a finder). A module missing here is imported as usual;
# tests/policy/test_snapshot.py checks that a hook run imports nothing from disk.
EAGER = (
    "hookwise",
    "hookwise.policy",
    "hookwise.policy.os_lite",
    "hookwise.policy.fastjson",
    "hookwise.policy.safe_files",
    "hookwise.policy.audit",
    "hookwise.policy.canonical",
    "hookwise.policy.adapters.base",
    "hookwise.policy.adapters",
    "hookwise.policy.trust",
    "hookwise.policy.confinement",
    "hookwise.policy.call_deadline",
    "hookwise.policy.trust.scopes",
    "hookwise.policy.cache",
    "hookwise.policy.rules",
    "hookwise.policy.rules.globs",
    "hookwise.policy.rules.engine",
    "hookwise.policy.pipeline",
    "hookwise.policy.hook",
)
ON_DEMAND = (
    "hookwise.shell",
    "hookwise.shell.programs",
    "hookwise.shell.py_entry",
    "hookwise.shell.accounting",
    "hookwise.shell.parser",
    "hookwise.shell.wrappers",
    "hookwise.shell.scripts",
    "hookwise.shell.ansi_c",
    "hookwise.shell.xargs_input",
    "hookwise.shell.quote",
    "hookwise.shell.find_exec",
    "hookwise.shell.remote_exec",
    "hookwise.shell.code_commands",
    "hookwise.shell.git_config",
    "hookwise.shell.commands.option_words",
    "hookwise.shell.option_commands",
    "hookwise.shell.sed_script",
    "hookwise.shell.commands.multiplexers",
    "hookwise.shell.variables",
    "hookwise.shell.braces",
    "hookwise.shell.printf_format",
    "hookwise.shell.code_readers",
    "hookwise.shell.code_residue",
    "hookwise.shell.code_paths",
    "hookwise.shell.code_paths.library_logins",
    "hookwise.shell.code_paths.path_objects",
    "hookwise.shell.tool_scripts",
    "hookwise.shell.assigns",
    "hookwise.shell.written",
    "hookwise.shell.exclusions",
    "hookwise.shell.commands.run_order",
    "hookwise.shell.commands",
    "hookwise.shell.commands.git_refs",
    "hookwise.shell.commands.env_files",
    "hookwise.shell.commands.env_loaders",
    "hookwise.shell.commands.proc_environ",
    "hookwise.shell.commands.includes",
    "hookwise.shell.commands.tree_deletes",
    "hookwise.shell.commands.tool_options",
    "hookwise.shell.commands.operands",
    "hookwise.shell.commands.plus_refs",
    "hookwise.shell.commands.build_files",
    "hookwise.shell.commands.open_words",
    "hookwise.policy.rules.maybe",
    "hookwise.policy.rules.trees",
    "hookwise.policy.rules.kept",
    "hookwise.policy.rules.git_ignored",
    "hookwise.policy.rules.condition",
    "hookwise.policy.rules.condition_compile",
    "hookwise.policy.rules.timed_regex",
    "hookwise.policy.rules.approval_cover",
    "hookwise.policy.rules.rewrite",
    "hookwise.protocol",
    "hookwise.protocol.guard_env",
    "hookwise.policy.trust.protect",
    "hookwise.policy.trust.named_places",
    "hookwise.policy.trust.hook_code",
    "hookwise.policy.trust.process_files",
    "hookwise.policy.trust.data_writes",
    "hookwise.policy.trust.find_selects",
    "hookwise.policy.trust.followed",
    "hookwise.protocol.hosts",
    "hookwise.policy.env_origin",
    "hookwise.policy.adapters.claude",
    "hookwise.policy.adapters.gemini",
    "hookwise.policy.adapters.codex",
    "hookwise.policy.adapters.copilot",
    "hookwise.policy.adapters.qwen",
    "hookwise.policy.adapters.detect",
    "hookwise.policy.blind_deny",
    "hookwise.policy.retry_state",
    "hookwise.policy.tool_input",  # an MCP tool, mapped by its own name
    "hookwise.policy.uri_paths",  # its arguments as a server may read them (arg_readings)
    "hookwise.policy.arg_roles",
    "hookwise.policy.arg_readings",
)
# 2: one blob of code after the index; 3: the extension modules; 4: without annotations;
# 5: the eager modules' code in one tuple; 6: location tables of lines only
SNAPSHOT_FORMAT = 6
# The C extensions the hot path imports: loaded from the file they were found in at build
# time (checked like the sources), without searching sys.path for them.
EXTENSIONS = ("_json",)


def _root() -> str:
    """The directory holding the ``hookwise`` package (.../hookwise/policy/snapshot.py)."""
    here = __file__ if __file__.startswith("/") else f"{posix.getcwd()}/{__file__}"
    return here.rsplit("/", 3)[0]


def _header(root: str) -> "tuple[Any, ...]":
    magic = sys.modules["_frozen_importlib_external"].MAGIC_NUMBER
    # the module lists too: a hookwise that snapshots other modules rebuilds it
    return (SNAPSHOT_FORMAT, magic, sys.hexversion, root, EAGER, ON_DEMAND)


def _read(path: str) -> "tuple[list[Entry], list[tuple[str, str]]] | None":
    """The snapshot's entries and fresh extension modules ((name, file)), when it is this
    user's, not writable by others, and fresh.

    Only the head and the eager modules' code are read here: the rest of the file is read
    module by module when the hook first imports one (through the same descriptor, kept
    open: what was checked is what is read). Each byte read costs a fresh page of memory."""
    try:
        fd = posix.open(path, posix.O_RDONLY | posix.O_NOFOLLOW | posix.O_NONBLOCK)
    except OSError:
        return None
    keep = False
    try:
        stat = posix.fstat(fd)
        if (
            (stat.st_mode & 0o170000) != 0o100000  # a regular file
            or stat.st_uid != posix.getuid()
            or stat.st_mode & 0o022
        ):
            return None
        size = int.from_bytes(posix.read(fd, 8), "little")
        if not 0 < size <= stat.st_size:
            return None
        header, index, extensions = marshal.loads(posix.read(fd, size))
        if header != _header(_root()):
            return None
        base = 8 + size
        eager_length = 0
        for _name, source, _package, eager, stamp, _offset, length in index:
            if eager:  # (an on-demand module's source is checked on its first import)
                found = posix.stat(source)
                if (found.st_mtime_ns, found.st_size) != stamp:
                    return None
                eager_length = length
        if base + eager_length > stat.st_size:  # (no read larger than the file)
            return None
        # the eager modules' code: one tuple, in their order (snapshot_build.py)
        eager_code = list(marshal.loads(posix.read(fd, eager_length)))
        if len(eager_code) != sum(1 for entry in index if entry[3]):
            return None
        eager_code.reverse()
        entries: list[Entry] = [
            (name, source, package, eager, stamp)
            + ((eager_code.pop(),) if eager else ((base + offset, length),))
            for name, source, package, eager, stamp, offset, length in index
        ]
        fresh = []
        for name, extension, stamp in extensions:
            found = posix.stat(extension)
            if (found.st_mtime_ns, found.st_size) == stamp:
                fresh.append((name, extension))
        keep = base + eager_length < stat.st_size  # modules left to read from it
    except (OSError, ValueError, EOFError, TypeError):
        return None
    finally:
        if keep:
            _descriptor[:] = [fd, stat.st_size]
        else:
            posix.close(fd)
    return entries, fresh


# the snapshot's descriptor and size while the finder serves from it; modules the finder
# could not serve (a source changed, or a snapshot cut short since): imported from their
# sources, and the snapshot rebuilt
_descriptor = [-1, 0]
_unread: list[str] = []


# The finder and loader of the on-demand modules is this module itself (find_spec,
# create_module, exec_module below): the import system asks any object on sys.meta_path,
# and a class would cost every hook call its creation.
_later: "dict[str, Entry]" = {}  # the on-demand modules not imported yet
_code: "dict[str, Any]" = {}  # read by find_spec, executed by exec_module


def _finder() -> "ModuleType":
    return sys.modules[__name__]


def find_spec(name: str, path: object = None, target: object = None) -> "Any":
    """An on-demand module's spec, its code read from the snapshot (import system)."""
    entry = _later.get(name)
    if entry is None or not isinstance(entry[5], tuple):
        return None
    offset, length = entry[5]
    try:
        found = posix.stat(entry[1])
        if (found.st_mtime_ns, found.st_size) != entry[4]:  # its source changed since
            raise ValueError(name)
        if offset + length > _descriptor[1]:  # (no read larger than the file)
            raise ValueError(name)
        _code[name] = marshal.loads(posix.pread(_descriptor[0], length, offset))
    except (OSError, ValueError, EOFError, TypeError):
        del _later[name]
        _unread.append(name)
        return None  # the next finder imports it from its source
    spec = sys.modules["_frozen_importlib"].ModuleSpec(
        name, _finder(), origin=entry[1], is_package=entry[2]
    )
    spec.has_location = True
    if entry[2]:  # a package: its modules that the snapshot cannot serve come from disk
        spec.submodule_search_locations = [entry[1].rpartition("/")[0]]
    return spec


def create_module(spec: object) -> None:
    return None


def exec_module(module: "ModuleType") -> None:
    del _later[module.__name__]
    exec(_code.pop(module.__name__), module.__dict__)  # our own compiled code


def load(path: str) -> bool:
    """Execute the snapshot's modules (True), or leave the imports to Python (False)."""
    found = _read(path)
    if found is None:
        return False
    entries, extensions = found
    before = set(sys.modules)
    try:
        for name, extension in extensions:
            if name not in sys.modules:
                _load_extension(name, extension)
        _execute(entries)
    except Exception:  # a snapshot that does not run: import from the sources, rebuild it
        for entry in entries:
            if entry[0] not in before:  # (modules imported before it stay as they are)
                sys.modules.pop(entry[0], None)
        sys.meta_path[:] = [f for f in sys.meta_path if f is not _finder()]
        _later.clear()
        return False
    return True


def _load_extension(name: str, extension: str) -> None:
    """A C extension from its known file: the loader ``import`` would pick, without the
    search through sys.path (a directory listing of the standard library and more)."""
    external = sys.modules["_frozen_importlib_external"]
    bootstrap = sys.modules["_frozen_importlib"]
    loader = external.ExtensionFileLoader(name, extension)
    spec = external.spec_from_file_location(name, extension, loader=loader)
    module = bootstrap.module_from_spec(spec)
    sys.modules[name] = module
    try:
        loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise


def _execute(entries: "list[Entry]") -> None:
    modules = sys.modules
    module_type = type(sys)
    later: dict[str, Entry] = {}
    loaded: list[tuple[str, str, ModuleType]] = []
    for entry in entries:
        name = entry[0]
        if name in modules:
            continue
        code = entry[5]
        if isinstance(code, tuple):  # (where it lies: read on first import)
            later[name] = entry
            continue
        module = module_type(name)
        parent, _, child = name.rpartition(".")
        module.__file__ = entry[1]
        if entry[2]:
            module.__path__ = [entry[1].rpartition("/")[0]]
            module.__package__ = name
        else:
            module.__package__ = parent
        modules[name] = module
        try:
            exec(code, module.__dict__)  # our own compiled code
        except BaseException:
            del modules[name]
            raise
        # bound to its package at once, as the import system does: `from package import
        # module` in the next module finds the attribute instead of taking the slow path
        # through importlib (tens of microseconds per statement)
        if parent in modules:
            setattr(modules[parent], child, module)
        else:
            loaded.append((parent, child, module))
    for parent, child, module in loaded:  # a package's children may run before it
        if parent:
            setattr(modules[parent], child, module)
    if later:
        _later.update(later)
        sys.meta_path.insert(0, _finder())


def rebuild(path: str) -> None:
    """``build``, reporting a failure on stderr (the hook has answered already)."""
    try:
        from hookwise.policy.snapshot_build import build

        root = _root()
        build(
            path,
            root,
            header=_header(root),
            eager=EAGER,
            on_demand=ON_DEMAND,
            extension_names=EXTENSIONS,
        )
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError) as exc:
        sys.stderr.write(f"hookwise: cannot write the launcher's snapshot {path}: {exc}\n")


# Where no ``.pyc`` can be (nothing can be made under /proc/self; no /proc: no such path):
# as ``sys.pycache_prefix``, the import system reads every module from its source.
NO_BYTECODE = "/proc/self/hookwise-no-bytecode"


def bytecode_off() -> None:
    """No ``.pyc`` written when the registered command says a file size limit is set
    (PYTHONDONTWRITEBYTECODE, which -I would ignore): Python writes a stale module's
    ``.pyc`` with one short write the limit cuts without an error, then renames it in
    place, and every later hook failed to import it (red team s31 run #6). Only then: with
    -B on every call each hook compiled what its snapshot does not hold."""
    if posix.environ.get(b"PYTHONDONTWRITEBYTECODE"):
        sys.dont_write_bytecode = True


def from_sources(exc: BaseException) -> None:
    """After the hook's modules failed to import with ``exc``: import them from their
    sources, without bytecode, saying so and naming the unreadable ``.pyc`` (a cut one has
    a valid header: "marshal data too short" on every import); exit 2 when that fails too
    or was done already (a broken install must block, not exit 1 and pass)."""
    if sys.pycache_prefix != NO_BYTECODE:
        sys.dont_write_bytecode = True
        sys.pycache_prefix = NO_BYTECODE
        try:
            from hookwise.policy.hook import main  # noqa: F401 (imported: it works)
        except Exception as again:
            exc = again
        else:
            sys.stderr.write(
                "hookwise: started from its sources, without bytecode: "
                f"{_unreadable(exc) or 'a compiled module'} could not be read ({exc!r}); "
                "remove it (or reinstall hookwise)\n"
            )
            return
    sys.stderr.write(f"hookwise: cannot start (reinstall hookwise): {exc!r}\n")
    sys.stderr.flush()
    posix._exit(2)


def _unreadable(exc: BaseException) -> str:
    """The ``.pyc`` the import system failed on (its ``get_code`` frame), or ""."""
    found = ""
    trace = exc.__traceback__
    while trace is not None:
        path = trace.tb_frame.f_locals.get("bytecode_path")
        if isinstance(path, str):
            found = path
        trace = trace.tb_next
    return found


def launch(path: str) -> None:
    """The per-user launcher's entry: the hook, its modules from the snapshot at ``path``.

    The launcher imports this file alone, as the top-level module ``snapshot`` (its
    directory first on ``sys.path``), so that neither package is imported through the
    import system: both come from the snapshot too. Then the path is the package root's
    again, for whatever is imported the usual way (the compiler, a stale snapshot)."""
    import gc

    gc.disable()
    bytecode_off()
    if __name__ != "hookwise.policy.snapshot":
        sys.path[0] = _root()
    try:
        fresh = load(path)
        if __name__ != "hookwise.policy.snapshot":  # one module under both names
            here = sys.modules[__name__]
            sys.modules.setdefault("hookwise.policy.snapshot", here)
        from hookwise.policy.hook import fast_exit, main
    except Exception as exc:  # a broken install must block (exit 2), not exit 1 and pass
        fresh = False
        from_sources(exc)
        from hookwise.policy.hook import fast_exit, main
    code = main(sys.argv[1:], own_process=True)
    # (inside `hookwise run` the snapshot is read-only and built outside, before the start)
    if (not fresh or _unread) and b"HOOKWISE_RUN" not in posix.environ:
        sys.stdout.flush()  # the host has its answer before the rebuild
        rebuild(path)
    fast_exit(code)
