"""Console entry point.

``hookwise hook`` is on the hot path of every tool call an agent makes, so it is
dispatched before click, rich or anything else heavy is imported; so is ``hookwise run``,
which starts an agent (run_cmd.py). ``hookwise mcp wrap`` is dispatched to its own command
without the rest of the CLI: it is an MCP server's start, which hosts wait for (Codex
leaves an optional server that is not ready within 1 s out of the first model request;
docs/mcp.md, bench/mcp_startup.py).
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # (typing costs `hookwise hook` its import: the hot path is this module)
    import click


def main(argv: list[str] | None = None) -> int:
    try:
        return _main(argv)
    except KeyboardInterrupt:  # before a command started (imports), or in `run`'s setup
        sys.stderr.write("\n")
        return 130


def _main(argv: list[str] | None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["hook"]:
        if argv is None:  # a short-lived process: no garbage-collector pauses
            import gc

            gc.disable()
        from hookwise.policy.hook import fast_exit
        from hookwise.policy.hook import main as hook_main

        status = hook_main(args[1:], own_process=argv is None)
        if argv is None:  # the console script: skip the interpreter's teardown
            fast_exit(status)
        return status
    if args[:1] == ["run"]:  # an agent's start: no click (run_cmd.py)
        from hookwise.cli.run_cmd import main as run_main

        return run_main(args[1:])
    if args[:2] == ["mcp", "wrap"]:
        from hookwise.cli.mcp_cmd import wrap

        return _click(wrap, args[2:], "hookwise mcp wrap")
    from hookwise.cli.app import cli

    return _click(cli, args, "hookwise")


def _click(command: click.Command, args: list[str], prog_name: str) -> int:
    try:
        command.main(args=args, prog_name=prog_name, standalone_mode=True)
    except SystemExit as exc:
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
