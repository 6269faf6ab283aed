"""One spelling per concept: ``--project`` for the project directory, ``--trust-project``
for trusting it for one run.

The older spellings (``--cwd``, ``--dir``, ``--settings``, ``--workspace``,
``--trust-workspace``) stay as hidden aliases so that scripts written against earlier
releases keep working.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

_F = TypeVar("_F", bound=Callable[..., Any])

# One default for every command: the project is the directory holding the nearest .hookwise/
# up from here (where the hook finds the policy), else the current directory (project_root).
PROJECT_HELP = (
    "The project directory (default: the nearest one up from here holding a .hookwise/, "
    "else the current directory)."
)


def project_option(
    dest: str = "project",
    *,
    aliases: tuple[str, ...] = (),
    must_exist: bool = False,
    help_text: str = PROJECT_HELP,
) -> Callable[[_F], _F]:
    """``--project`` (and hidden ``aliases``) into the parameter ``dest``.

    ``must_exist``: a directory that does not exist is a usage error (exit 2), so that a
    typo never creates settings files somewhere unexpected.
    """
    path_type = click.Path(file_okay=False, exists=must_exist, path_type=Path)

    def remember(ctx: click.Context, _param: click.Parameter, value: Path | None) -> None:
        if value is not None:
            ctx.params[dest] = value

    def keep(ctx: click.Context, _param: click.Parameter, value: Path | None) -> Path | None:
        # flags given are processed first: an alias seen before survives an absent --project
        return value if value is not None else ctx.params.get(dest)

    def decorate(func: _F) -> _F:
        for alias in aliases:
            func = click.option(
                alias,
                type=path_type,
                default=None,
                hidden=True,
                expose_value=False,
                callback=remember,
                help=f"Former name of --project, kept for a release. {help_text}",
            )(func)
        return click.option(
            "--project", dest, type=path_type, default=None, callback=keep, help=help_text
        )(func)

    return decorate


def trust_project_option(help_text: str) -> Callable[[_F], _F]:
    """``--trust-project`` into the parameter ``trust_project``; ``--trust-workspace``, its
    former name, is a hidden alias."""

    def remember(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
        if value:
            ctx.params["trust_project"] = True

    def keep(ctx: click.Context, _param: click.Parameter, value: bool) -> bool:
        return value or bool(ctx.params.get("trust_project"))

    def decorate(func: _F) -> _F:
        func = click.option(
            "--trust-workspace",
            is_flag=True,
            hidden=True,
            expose_value=False,
            callback=remember,
            help=f"Former name of --trust-project, kept for a release. {help_text}",
        )(func)
        return click.option(
            "--trust-project", "trust_project", is_flag=True, callback=keep, help=help_text
        )(func)

    return decorate


def project_root(given: Path | None) -> Path:
    """The directory to work on: ``given``, else the nearest one up with a ``.hookwise``.

    From a subdirectory the hook finds the policy by walking up; install and doctor must
    then write and check the settings of that same project, not of the subdirectory.
    """
    if given is not None:
        return given.resolve()
    from hookwise.policy.trust.scopes import find_project

    here = Path.cwd().resolve()
    found = find_project(str(here))
    return Path(found) if found else here
