"""Console entry point.

``hookwise hook`` is on the hot path of every tool call an agent makes, so it is
dispatched before click, rich or anything else heavy is imported; so is ``hookwise run``,
which starts an agent (run_cmd.py).
"""

from __future__ import annotations

import sys


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

        status = hook_main(args[1:])
        if argv is None:  # the console script: skip the interpreter's teardown
            fast_exit(status)
        return status
    if args[:1] == ["run"]:  # an agent's start: no click (run_cmd.py)
        from hookwise.cli.run_cmd import main as run_main

        return run_main(args[1:])
    from hookwise.cli.app import cli

    try:
        cli.main(args=args, prog_name="hookwise", standalone_mode=True)
    except SystemExit as exc:
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
