"""``--host``: the one flag that names a host; ``--dialect`` stays a hidden alias for a release."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from hookwise.protocol.hosts import hosts_with

_F = TypeVar("_F", bound=Callable[..., Any])


def _alias(ctx: click.Context, _param: click.Parameter, value: str | None) -> None:
    if value is not None:
        ctx.params["dialect"] = value


def _keep_alias(ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    # given flags are processed first: an alias already seen survives an absent --host
    return value if value is not None else ctx.params.get("dialect")


def host_option(help_text: str, feature: str = "runtime") -> Callable[[_F], _F]:
    """The ``dialect`` parameter, from ``--host`` (or the hidden ``--dialect``): one of the
    hosts whose registry row supports ``feature``."""
    names = hosts_with(feature)

    def decorate(func: _F) -> _F:
        func = click.option(
            "--dialect",
            type=click.Choice(names),
            default=None,
            hidden=True,
            expose_value=False,
            callback=_alias,
        )(func)
        return click.option(
            "--host",
            "dialect",
            type=click.Choice(names),
            default=None,
            callback=_keep_alias,
            help=f"{help_text} (--dialect: its former name, kept for a release)",
        )(func)

    return decorate
