"""How this machine starts ``hookwise hook``: the per-user fast launcher and direct commands.

The portable command (``config/hookwise_command.py``) runs the launcher that install writes
(``~/.local/share/hookwise/hook``): this interpreter without its site step, loading the hook's
modules from its snapshot (``policy/snapshot.py``). A direct command (``--direct``,
``--console``: ``policy/run_hook.py`` or ``hookwise hook``) names this machine's paths instead
and is only for settings files that are not shared; the host's shell checks the hook's
resource limits before it (``hookwise_command.direct_command``).
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from hookwise.config.hookwise_command import direct_command, portable_command
from hookwise.policy.snapshot import NO_BYTECODE
from hookwise.policy.trust.scopes import snapshot_path


def hook_argv(host: str | None, *, console: bool = False) -> list[str]:
    """The argv of a direct hook command for this machine: the fast launcher, or
    ``hookwise hook`` with ``console``. Both name paths of this machine only (``host``
    None: the hook detects it from each payload)."""
    extra = ["--platform", host] if host else []
    if console:
        return [str(Path(sys.executable).parent / "hookwise"), "hook", *extra]
    from hookwise.policy import run_hook

    launcher = str(Path(run_hook.__file__).resolve())
    return [sys.executable, "-I", "-S", *UTF8, launcher, *extra]


def hook_command(host: str, *, console: bool = False, direct: bool = False) -> str:
    """The command line for the host's shell: portable unless ``console``/``direct``, which
    check the hook's limits as the portable form does, then exec this machine's argv."""
    if console or direct:
        return direct_command(hook_argv(host, console=console))
    return portable_command(host)


# UTF-8 mode: the interpreter takes its filesystem and stdio encodings as UTF-8, never from
# the locale the environment names. Without it, a locale whose charset no codec knows
# (LOCPATH + LC_CTYPE from a project `.env`) stopped Python before its first line, exit 1,
# and the host ran the tool (red team s28 run #1). -I already makes it ignore PYTHON*.
UTF8 = ("-X", "utf8")


def launcher_text(launcher: str) -> str:
    """The per-user fast launcher at ``launcher``: this interpreter without its site step
    (-I -S), in UTF-8 mode (-X utf8), loading the hook's modules from its snapshot
    (snapshot.py)."""
    from hookwise.policy import run_hook

    script = str(Path(run_hook.__file__).resolve())
    shebang = f"#!{sys.executable} -ISXutf8"
    broken = (
        "hookwise: cannot start (reinstall hookwise, or remove this hook from the agent settings):"
    )
    if len(shebang) < 127 and " " not in sys.executable:
        policy = str(Path(script).parent)
        return (
            f"{shebang}\n"
            "# Written by `hookwise install`: the fast path of the portable hook command on\n"
            "# this machine. `hookwise install` rewrites it; deleting it falls back to\n"
            "# `hookwise` on PATH. (snapshot.py is imported alone, by its directory.)\n"
            "import sys\n"
            "import posix\n"
            "if posix.environ.get(b'PYTHONDONTWRITEBYTECODE'):  # (snapshot.bytecode_off)\n"
            "    sys.dont_write_bytecode = True\n"
            f"sys.path[0] = {policy!r}\n"
            "try:\n"
            "    from snapshot import launch\n"
            "except Exception:  # a .pyc cut short: from the source (snapshot.from_sources)\n"
            "    sys.dont_write_bytecode = True\n"
            f"    sys.pycache_prefix = {NO_BYTECODE!r}\n"
            "    try:\n"
            "        from snapshot import launch\n"
            "    except Exception as exc:  # a half-removed install must block, not exit 1\n"
            f"        sys.stderr.write(f{broken + ' {exc}'!r} + '\\n')\n"
            "        sys.exit(2)\n"
            f"launch({snapshot_path(launcher)!r})\n"
        )
    python = shlex.quote(sys.executable)
    return (
        "#!/bin/sh\n"
        "# Written by `hookwise install`: the fast path of the portable hook command.\n"
        f"[ -x {python} ] || {{ echo {shlex.quote(broken)} >&2; exit 2; }}\n"
        f'exec {python} -I -S -X utf8 {shlex.quote(script)} "$@"\n'
    )


__all__ = ["hook_argv", "hook_command", "launcher_text"]
