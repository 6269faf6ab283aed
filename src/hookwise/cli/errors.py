"""The CLI's exit codes, in one place: 0 all is well, 1 a check failed, 2 a usage or
input error (an unknown option or value, a file that cannot be read or parsed).

click already exits 2 for its own usage errors; ``InputError`` is the same code for what
the commands find wrong with the files and values they were given.
"""

from __future__ import annotations

import click

EXIT_CHECK_FAILED = 1
EXIT_INPUT_ERROR = 2


class InputError(click.ClickException):
    """A file or value the command cannot use: exit 2, not 1 (a check that failed)."""

    exit_code = EXIT_INPUT_ERROR


def os_reason(exc: OSError) -> str:
    """``No such file or directory`` as a person says it: ``no such file or directory``,
    without the errno and the repeated path Python adds."""
    reason = exc.strerror or str(exc)
    return reason[:1].lower() + reason[1:]
