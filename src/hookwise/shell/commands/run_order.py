"""Run order is not text order (red team s28 A): ``(sleep 1; bash p) & rev <<< ... > p``
writes ``p`` after ``bash p`` in the text but before it runs; ``mkfifo p; bash p & ... >
p`` needs no delay. When anything on the line runs beside the rest (a background job, a
pipe, a coprocess, a process substitution, a FIFO), a file written anywhere on the line may
be written before any command of it runs: the line is read again with every such file
counted as written earlier, its content unknown (what runs it is then unverifiable, as
after ``base64 -d > x.sh``), and every copy as made earlier.

Deferred runners need no concurrency (red team s29 A): a trap's handler runs on its signal
(EXIT: after the rest), a function's body when it is called, a loop's body again after what
an earlier iteration wrote, ``PROMPT_COMMAND`` before each prompt: ``trap 'bash p' EXIT;
echo ... > p``, ``f() { bash p; }; ... > p; f``, ``for i in 1 2; do [ $i = 2 ] && bash p;
... > p; done``. A line with any of them is read in the same way.

Cold: needed only for lines that both write files and run something out of text order. It must
not import the parser (the parser imports it): the parse and the script type come in.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


def written_anywhere(
    text: str, script: Any, parse: Callable[[str, int, Any], None], make: Callable[[], Any]
) -> Any:
    """``text`` parsed again with the files ``script`` saw written (or copied) anywhere on
    the line known as written from its start, their content unknown."""
    again = make()
    again.vars = script.vars
    again.written = dict.fromkeys(script.written)
    again.first_written = dict(script.written)
    again.copies = dict(script.copies)
    again.concurrent = True
    parse(text, 0, again)
    again.complete = again.complete and script.complete
    again.problems = list(dict.fromkeys(script.problems + again.problems))
    return again
