"""What each language's fact reader is given: the analyser of one runnable, as a protocol.

The readers (``shell``, ``python``, ``text``) record facts in its sink, resolve paths with
its variables, and hand code nested in theirs (``python -c`` in a shell line, ``os.system``
in a script) back to it for that code's language. ``analyse.Analyser`` is the
implementation; it imports the readers, so they know it only by this shape.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from hookwise.scan.analysis.facts import Sink
    from hookwise.scan.context import ScanContext

__all__ = ["RunnableAnalyser"]


class RunnableAnalyser(Protocol):
    """The analyser of everything one runnable runs, as the language readers use it."""

    @property
    def ctx(self) -> ScanContext: ...

    @property
    def sink(self) -> Sink:
        """Where facts and the scripts named are recorded."""

    @property
    def home(self) -> str: ...

    @property
    def variables(self) -> Mapping[str, str]:
        """The variables the host gives the command (``analyse.host_variables``)."""

    @property
    def cwd(self) -> str: ...

    @property
    def repository(self) -> bool:
        """The runnable came with the repository (not the user's own configuration)."""

    def shell(self, text: str, file: str, line: int, *, located: bool) -> None: ...

    def python(self, code: str, file: str, line: int, *, located: bool) -> None: ...

    def node(self, code: str, file: str, line: int, *, located: bool) -> None: ...

    def powershell_text(self, text: str, file: str, line: int, *, located: bool) -> None: ...
