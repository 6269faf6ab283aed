"""Build, test and task runners that load code from a file of a conventional name: one
written earlier on the line is code made on the line (``echo '...' > conftest.py &&
pytest``, ``> justfile && just``, ``> Rakefile && rake``). hookwise reads make, npm's
package.json, CMakeLists.txt and ninja files itself (code_readers); these it does not,
so running one after writing its file is unverifiable; the same file already on disk is
the project's code.

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
