"""Build, test and task runners that load code from a file of a conventional name: one
written earlier on the line is code made on the line (``echo '...' > conftest.py &&
pytest``, ``> justfile && just``, ``> Rakefile && rake``). hookwise reads make, npm's
package.json, CMakeLists.txt and ninja files itself (code_readers); these it does not,
so running one after writing its file is unverifiable; the same file already on disk is
the project's code.

More generally (:func:`written_loads`): a program that runs the project's code
(programs.CODE_RUNNERS: test runners, build tools) may load any file the line wrote
before it (``> test_x.py && pytest``, ``> g.go && go generate``, ``>
CTestTestfile.cmake && ctest``, ``> d/x && run-parts d``), whatever its name: which
files a runner collects, imports or runs is its own rule, not one the guard can follow.
A written file whose content and language are known is read as that code; any other is
unverifiable. Data files (notes, logs, tables) are not loaded as code.

The config and rc files programs read (:data:`CONFIG_FILES`) are the same kind of fact: one
written earlier on the line makes a later run of its readers run what it says.

Cold: loaded only when a line writes a file and runs a program afterwards
(accounting.account: :func:`config_written`). Standard library only."""

from __future__ import annotations

# program -> names of the files it loads as code or as commands to run
BUILD_FILES: dict[str, frozenset[str]] = {
    **dict.fromkeys(
        ["pytest", "py.test"],
        frozenset(["conftest.py"]),
    ),
    "just": frozenset(["justfile", "Justfile", ".justfile"]),
    "rake": frozenset(["Rakefile", "rakefile", "Rakefile.rb", "rakefile.rb"]),
    "scons": frozenset(["SConstruct", "Sconstruct", "sconstruct", "SConscript"]),
    "meson": frozenset(["meson.build", "meson_options.txt", "meson.options"]),
    "tox": frozenset(["tox.ini", "setup.cfg", "pyproject.toml"]),
    "nox": frozenset(["noxfile.py"]),
    "task": frozenset(["Taskfile.yml", "Taskfile.yaml", "taskfile.yml", "taskfile.yaml"]),
    "invoke": frozenset(["tasks.py", "invoke.yaml"]),
    "inv": frozenset(["tasks.py", "invoke.yaml"]),
    "fab": frozenset(["fabfile.py"]),
    **dict.fromkeys(["pip", "pip3"], frozenset(["setup.py", "pyproject.toml", "setup.cfg"])),
    "direnv": frozenset([".envrc", ".env"]),
    **dict.fromkeys(
        ["gradle", "gradlew"],
        frozenset(
            [
                "build.gradle",
                "build.gradle.kts",
                "settings.gradle",
                "settings.gradle.kts",
                "init.gradle",
            ]
        ),
    ),
    **dict.fromkeys(["mvn", "mvnw"], frozenset(["pom.xml", ".mvn/maven.config"])),
    "cargo": frozenset(["build.rs", "Cargo.toml", ".cargo/config.toml", ".cargo/config"]),
    **dict.fromkeys(
        ["bazel", "bazelisk"],
        frozenset(["BUILD", "BUILD.bazel", "WORKSPACE", "MODULE.bazel", ".bazelrc"]),
    ),
    "deno": frozenset(["deno.json", "deno.jsonc"]),
    "bun": frozenset(["bunfig.toml"]),
    "composer": frozenset(["composer.json"]),
    "bundle": frozenset(["Gemfile"]),
    "poetry": frozenset(["pyproject.toml"]),
    "hatch": frozenset(["pyproject.toml", "hatch.toml"]),
    "pdm": frozenset(["pyproject.toml"]),
    "uv": frozenset(["pyproject.toml", "uv.toml"]),
    "pre-commit": frozenset([".pre-commit-config.yaml"]),
    "lefthook": frozenset(["lefthook.yml", "lefthook.yaml"]),
    "vagrant": frozenset(["Vagrantfile"]),
    "gulp": frozenset(["gulpfile.js", "gulpfile.mjs", "gulpfile.ts"]),
    "grunt": frozenset(["Gruntfile.js", "Gruntfile.coffee"]),
    "webpack": frozenset(["webpack.config.js", "webpack.config.mjs", "webpack.config.ts"]),
    "vite": frozenset(["vite.config.js", "vite.config.mjs", "vite.config.ts"]),
    "jest": frozenset(["jest.config.js", "jest.config.mjs", "jest.config.ts"]),
    "vitest": frozenset(
        ["vitest.config.js", "vitest.config.ts", "vite.config.js", "vite.config.ts"]
    ),
}


def build_file_written(program: str, written: dict[str, str | None]) -> str | None:
    """Why ``program`` runs code from a build file written earlier on the line, or None."""
    names = BUILD_FILES.get(program)
    if names is None:
        return None
    for key in written:
        path = "/" + key
        for name in names:
            if path.endswith("/" + name):
                return f"{key} was written on the line and {program} loads it as code"
    return None


def written_loads(program: str, written: dict[str, str | None]) -> list[tuple[str, object]]:
    """What ``program`` (a CODE_RUNNER) may run of the files written earlier on the line:
    the code of each it could load, read by its language (``#!`` line or suffix), or
    ("unverifiable", why) for one whose content or language the guard cannot read."""
    itself = READ_ITSELF.get(program, ())
    keys = [k for k in written if not k.endswith(itself) and k.rsplit("/", 1)[-1] not in itself]
    return _loads(program, written, keys)


# the files a CODE_RUNNER's own code reader reads where the line wrote them (code_readers:
# make's Makefile, ninja's build.ninja, cmake's CMakeLists.txt and *.cmake; written.py:
# npm's package.json): read there, not unverifiable here
READ_ITSELF: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(["make", "gmake"], ("Makefile", "makefile", "GNUmakefile")),
    "ninja": ("build.ninja",),
    "cmake": ("CMakeLists.txt", ".cmake"),
    **dict.fromkeys(["npm", "yarn", "pnpm", "bun"], ("package.json",)),
}


def named_loads(
    program: str, argv: list[str], written: dict[str, str | None]
) -> list[tuple[str, object]]:
    """What ``program`` may run of a file written on the line that one of its words names
    (``pygmentize -x -l l.py:L``, ``pydoc3 ./x.py``, ``tool --plugin=p.py``): a program
    the guard does not read may load a file it is given as code."""
    keys: list[str] = []
    for word in argv[1:]:
        for part in (word, word.rsplit(":", 1)[0], word.partition("=")[2]):
            key = part
            while key.startswith("./"):
                key = key[2:]
            if key in written and key not in keys:
                keys.append(key)
    return _loads(program, written, keys, code_only=True) if keys else []


def _loads(
    program: str, written: dict[str, str | None], keys: list[str], code_only: bool = False
) -> list[tuple[str, object]]:
    """The code of ``keys`` (written files); ``code_only``: only files of a code suffix
    or with a ``#!`` line count (a file named as an operand is data to most programs)."""
    from hookwise.shell.code_readers import code_suffix, file_items, suffix_language
    from hookwise.shell.programs import may_load

    found: list[tuple[str, object]] = []
    for key in keys:
        content = written[key]
        name = key.rsplit("/", 1)[-1]
        if code_only and not code_suffix(name) and not (content or "").startswith("#!"):
            continue
        if not may_load(program, key, content):
            continue  # `ls > out; pytest`: output or notes, not code
        if content is None:
            why = f"{key} was written on the line (content known only when it runs)"
            return [("unverifiable", f"{why} and {program} may load it as code")]
        items = file_items(content, key) if content.startswith("#!") else None
        if items is None and content.startswith("#!"):
            items = [("script", content)]
        if items is None and name.endswith((".sh", ".bash")):
            items = [("script", content)]
        if items is None:
            items = suffix_language(content, key)
        if items is None:
            why = f"{key} was written on the line and {program} may load it as code"
            return [("unverifiable", f"{why}, which hookwise does not read")]
        found += items
    return found


# Config and rc files a program reads (by path suffix), and the programs reading them: one
# written earlier on the line makes a later run of those programs run what it says.
CONFIG_FILES: dict[str, frozenset[str]] = {
    **dict.fromkeys([".git/config", ".gitconfig", "git/config", ".gitmodules"], frozenset(["git"])),
    **dict.fromkeys(
        [".bashrc", ".bash_profile", ".bash_login", ".profile", ".inputrc"],
        frozenset(["bash", "sh"]),
    ),
    **dict.fromkeys([".zshenv", ".zshrc", ".zprofile", ".zlogin"], frozenset(["zsh"])),
    ".ssh/config": frozenset(["ssh", "scp", "sftp", "rsync", "git"]),
    ".npmrc": frozenset(["npm", "npx", "yarn", "pnpm"]),
    ".curlrc": frozenset(["curl"]),
    ".wgetrc": frozenset(["wget"]),
    ".psqlrc": frozenset(["psql"]),
    ".gdbinit": frozenset(["gdb"]),
    ".vimrc": frozenset(["vim", "vi", "nvim"]),
    **dict.fromkeys(["sitecustomize.py", "usercustomize.py"], frozenset(["python", "python3"])),
    # debuggers', REPLs' and logout rc files: code they run at start or at exit
    ".pdbrc": frozenset(["python", "python3", "pdb", "pdb3", "ipdb"]),
    ".perldb": frozenset(["perl"]),
    ".bash_logout": frozenset(["bash", "sh"]),
    ".zlogout": frozenset(["zsh"]),
    ".lldbinit": frozenset(["lldb"]),
    ".sqliterc": frozenset(["sqlite3"]),
    ".irbrc": frozenset(["irb", "ruby"]),
    ".Rprofile": frozenset(["R", "Rscript"]),
    ".tclshrc": frozenset(["tclsh"]),
    ".exrc": frozenset(["vim", "vi", "nvim", "ex"]),
    ".my.cnf": frozenset(["mysql", "mariadb"]),
    ".mongoshrc.js": frozenset(["mongosh"]),
    ".tmux.conf": frozenset(["tmux"]),
    ".screenrc": frozenset(["screen"]),
}


def config_written(program: str, written: dict[str, str | None]) -> str | None:
    """Why ``program`` runs what a config, rc or build file written earlier on the line
    says (``>> .git/config; git x``, ``> .bashrc; bash -i``, ``> conftest.py; pytest``), or
    None: the guard read the line, not the file the program reads."""
    for key in written:
        path = "/" + key
        for suffix, readers in CONFIG_FILES.items():
            if program in readers and path.endswith("/" + suffix):
                return f"{key} was written on the line and {program} reads it as its config"
    return build_file_written(program, written)


# Options whose value is a configuration or argument file a program runs commands from (red
# team s29 P and I): ssh's ``Match exec``/``ProxyCommand``, a vimrc's ``system()``, cmake's
# initial-cache script, a kubeconfig's exec plugin, docker's credential helpers, npm's
# script-shell, tmux's and screen's rc files, wget's ``--config`` (``use_askpass``), gradle's
# init scripts; a compiler's ``@file`` is arguments (``-wrapper``, ``-B``, ``-fplugin``).
# Given a file written on the line, what the program runs is what that file says, which the
# guard did not read. The same file on disk is the project's (or the user's) own. Files a
# code reader reads as code (``gdb -x``, ``vim -S``, ``cmake -P``, ``sed -f``:
# code_readers.READERS) are read there, not listed here.
OPTION_FILES: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(["ssh", "scp", "sftp", "ssh-keyscan"], ("-F",)),
    **dict.fromkeys(["vim", "vi", "nvim", "view", "vimdiff", "ex", "gvim", "rvim"], ("-u", "-U")),
    "cmake": ("-C",),
    **dict.fromkeys(["kubectl", "helm"], ("--kubeconfig",)),
    "docker": ("--config",),
    **dict.fromkeys(["npm", "npx", "yarn", "pnpm"], ("--userconfig", "--globalconfig")),
    "tmux": ("-f",),
    "screen": ("-c",),
    "mutt": ("-F",),
    "wget": ("--config",),
    "gradle": ("-I", "--init-script"),
}
# programs that read arguments from ``@file`` (GCC's and clang's response files, javac's
# and java's argument files: a JVM option there runs a command too)
RESPONSE_FILES = frozenset(
    ["gcc", "cc", "c++", "g++", "cpp", "clang", "clang++", "tcc", "gfortran", "ld", "ld.bfd",
     "ld.gold", "ld.lld", "as", "ar", "nm", "objcopy", "objdump", "strip", "javac", "java",
     "jar", "javadoc", "kotlinc", "scalac"]
)  # fmt: skip


def option_file_written(
    program: str, argv: list[str], written: dict[str, str | None]
) -> str | None:
    """Why ``program`` runs commands from a file the line wrote and gives it as its
    configuration, command or argument file (``ssh -F c``, ``vim -u c``, ``gcc @o``), or
    None. A versioned name (``gcc-12``, ``x86_64-linux-gnu-gcc``) is its family's."""
    from hookwise.shell.programs import family

    stripped = program.rstrip("0123456789.-")  # gcc-12, x86_64-linux-gnu-gcc-12
    names = [program, stripped, stripped.rsplit("-", 1)[-1], family(program) or program]
    options = next((OPTION_FILES[n] for n in names if n in OPTION_FILES), ())
    responses = any(n in RESPONSE_FILES for n in names)
    from hookwise.shell.commands.option_words import option_values

    shorts = tuple(o for o in options if len(o) == 2)
    longs = tuple(o for o in options if len(o) > 2)
    values = option_values(argv, shorts, longs) if options else []
    if responses:
        values += [w[1:] for w in argv[1:] if w.startswith("@") and len(w) > 1]
    for value in values:
        key = value
        while key.startswith("./"):
            key = key[2:]
        if key in written or (key.startswith("/") and any(key.endswith("/" + k) for k in written)):
            kind = "its arguments" if f"@{value}" in argv else "its configuration or commands"
            return (
                f"{key} was written on the line and {program} takes {kind} from it, "
                "which may run commands the guard did not read"
            )
    return None
