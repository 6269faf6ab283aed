"""Everything one runnable runs: its command, then the scripts it calls, read and analysed.

The command is analysed in the language the host runs it in (a shell command line, or an
argv for MCP servers and turn hooks), with the variables the host sets; every script it
names is read and analysed in its own language, and so on for scripts those scripts run
(up to :data:`MAX_DEPTH` levels and :data:`MAX_SCRIPTS` files), each fact keeping its file
and line.
"""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass, field
from typing import Final

from hookwise.protocol.hosts import HOST_NAMES, cwd_env, project_env
from hookwise.scan.analysis.facts import Sink
from hookwise.scan.analysis.python import analyse_python
from hookwise.scan.analysis.scripts import read_script
from hookwise.scan.analysis.shell import analyse_shell
from hookwise.scan.analysis.text import analyse_node, analyse_powershell
from hookwise.scan.context import ScanContext
from hookwise.scan.model import Runnable, ScriptFile

__all__ = ["Analyser", "Analysis", "analyse_runnable", "host_variables"]

MAX_DEPTH: Final = 4
MAX_SCRIPTS: Final = 32
MAX_NESTING: Final = 6


def host_variables(runnable: Runnable, ctx: ScanContext) -> dict[str, str]:
    """The variables the host gives the command (only those a path can be built from)."""
    project = str(ctx.project)
    found = {"PWD": runnable.cwd or project}
    if runnable.host in HOST_NAMES:  # the host's protocol module names them
        for name in (*project_env(runnable.host), *cwd_env(runnable.host)):
            found[name] = project
    elif runnable.host == "hookwise":
        found["HOOKWISE_PROJECT_DIR"] = project
    found.update(dict(runnable.env))
    return found


@dataclass
class Analysis:
    sink: Sink
    scripts: list[ScriptFile] = field(default_factory=list)


class Analyser:
    """Analyses text in a language and records facts (and the scripts named) in ``sink``.

    The language readers get it as a
    :class:`~hookwise.scan.analysis.runnable_analyser.RunnableAnalyser`.
    """

    def __init__(self, ctx: ScanContext, runnable: Runnable) -> None:
        self.ctx = ctx
        self.runnable = runnable
        self.sink = Sink()
        self.home = str(ctx.user_home)
        self.variables = host_variables(runnable, ctx)
        self.cwd = runnable.cwd or str(ctx.project)
        self.repository = runnable.repository
        self._nesting = 0

    def _nested(self) -> bool:
        return self._nesting < MAX_NESTING

    def shell(self, text: str, file: str, line: int, *, located: bool) -> None:
        if not self._nested():
            return
        self._nesting += 1
        try:
            analyse_shell(self, text, file, line, located=located)
        finally:
            self._nesting -= 1

    def python(self, code: str, file: str, line: int, *, located: bool) -> None:
        if not self._nested():
            return
        self._nesting += 1
        try:
            analyse_python(self, code, file, line, located=located)
        finally:
            self._nesting -= 1

    def node(self, code: str, file: str, line: int, *, located: bool) -> None:
        if not self._nested():
            return
        self._nesting += 1
        try:
            analyse_node(self, code, file, line, located=located)
        finally:
            self._nesting -= 1

    def powershell_text(self, text: str, file: str, line: int, *, located: bool) -> None:
        analyse_powershell(self, text, file, line, located=located)

    def script(self, script: ScriptFile) -> None:
        if script.text is None:
            return
        if script.language == "python":
            self.python(script.text, script.path, 1, located=True)
        elif script.language == "node":
            self.node(script.text, script.path, 1, located=True)
        elif script.language == "powershell":
            self.powershell_text(script.text, script.path, 1, located=True)
        else:
            self.shell(script.text, script.path, 1, located=True)


def analyse_runnable(ctx: ScanContext, runnable: Runnable) -> Analysis:
    analyser = Analyser(ctx, runnable)
    if runnable.command:
        text = runnable.command if runnable.argv is None else shlex.join(runnable.argv)
        analyser.shell(text, runnable.file, runnable.line, located=False)
    analysis = Analysis(analyser.sink)
    seen: set[str] = set()
    level = 0
    start = 0
    while level < MAX_DEPTH and start < len(analyser.sink.scripts):
        refs = analyser.sink.scripts[start:]
        start = len(analyser.sink.scripts)
        for ref in refs:
            real = os.path.realpath(ref.path)
            if real in seen or len(seen) >= MAX_SCRIPTS or not os.path.isfile(real):
                continue
            seen.add(real)
            script = read_script(ref.path, ref.hint)
            analysis.scripts.append(script)
            analyser.script(script)
        level += 1
    return analysis
