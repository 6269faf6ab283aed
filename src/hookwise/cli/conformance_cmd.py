"""``hookwise conformance gemini``: replay oracle cases through hookwise."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from hookwise.cli.errors import InputError, os_reason


@click.group()
def conformance() -> None:
    """Compare hookwise with the real engines on shared case files."""


@conformance.command()
@click.argument("files", nargs=-1, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--batch", is_flag=True, help="Read JSON Lines on stdin; one output line per case.")
@click.option("--inherit-env", is_flag=True, help="Hooks inherit the whole environment.")
@click.option("--keep-tmp", is_flag=True, help="Keep each case's {{TMP}} directory.")
def gemini(files: tuple[Path, ...], batch: bool, inherit_env: bool, keep_tmp: bool) -> None:
    """Run Gemini oracle cases (docs/conformance.md) in the gemini-cli profile.

    Without FILES and --batch, one case is read from stdin.
    """
    from hookwise.conformance.gemini_cases import CaseError, read_cases, run_case

    def emit(case: dict[str, object]) -> None:
        out = run_case(case, inherit_env=inherit_env, keep_tmp=keep_tmp)
        sys.stdout.write(json.dumps(out, ensure_ascii=False, separators=(",", ":")) + "\n")
        sys.stdout.flush()

    try:
        if files:
            for path in files:
                try:
                    text = path.read_text(encoding="utf-8")
                except OSError as exc:
                    raise InputError(f"cannot read {path}: {os_reason(exc)}") from None
                for case in read_cases([text.replace("\n", " ")]):
                    emit(case)
        elif batch:
            for case in read_cases(sys.stdin):
                emit(case)
        else:
            text = sys.stdin.read()
            if not text.strip():
                raise InputError(
                    "no case on stdin: give one JSON case (docs/conformance.md), case FILES, "
                    "or --batch with one case per line"
                )
            for case in read_cases([text.replace("\n", " ")]):
                emit(case)
    except CaseError as exc:
        raise InputError(str(exc)) from None
