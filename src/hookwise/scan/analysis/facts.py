"""Facts: what one line of a command or script does, before it is judged.

The analysers (shell, Python, JavaScript, PowerShell) only record facts ("fetches from the
network", "reads ~/.aws/credentials", "writes ~/.bashrc") with the file and line; the rules
in ``scan.findings`` combine the facts of everything one runnable runs into findings. Nested code
(``python -c`` inside a hook command, ``os.system("curl ...")`` inside a script) goes back
through the :class:`Sink` to the analyser of its language.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

__all__ = ["KINDS", "Fact", "ScriptRef", "Sink"]

KINDS: Final = {
    "fetch": "reaches the network",
    "send": "sends data over the network",
    "download-exec": "runs code it downloads",
    "decode-exec": "runs code it decodes",
    "eval-dynamic": "runs code known only when it runs",
    "profile-write": "writes a shell profile",
    "agent-settings-write": "writes agent settings or instructions",
    "persistence": "installs itself to run later",
    "cred-file": "reads a credential file",
    "cred-env": "reads a secret from the environment",
    "env-dump": "reads the whole environment",
    "keychain": "reads the keychain or a CLI's token",
    "env-export": "sets a variable that hijacks the agent or its tools",
    "env-persist": "makes a hijacking variable stick",
    "outside-exec": "runs a program outside the repository",
    "temp-exec": "runs a program from a temporary directory",
    "registry-run": "downloads and runs a package",
    "destroy": "deletes outside the repository",
    "unverifiable": "runs something known only when it runs",
}


@dataclass(frozen=True)
class Fact:
    kind: str
    detail: str
    file: str
    line: int
    evidence: str = ""


@dataclass(frozen=True)
class ScriptRef:
    path: str  # resolved
    hint: str | None
    file: str  # where the reference is
    line: int


@dataclass
class Sink:
    """Collects facts and script references; nested code is analysed through ``analyse``."""

    facts: list[Fact] = field(default_factory=list)
    scripts: list[ScriptRef] = field(default_factory=list)

    def add(self, kind: str, detail: str, file: str, line: int, evidence: str = "") -> None:
        assert kind in KINDS, kind
        fact = Fact(kind, detail, file, line, evidence[:300])
        if fact not in self.facts:
            self.facts.append(fact)

    def kinds(self) -> set[str]:
        return {fact.kind for fact in self.facts}
