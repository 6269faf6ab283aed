"""The fast launcher of ``hookwise hook``: the same command, without the ``site`` step.

Register ``<python> -I -S <this file> [--platform NAME]`` (``hookwise policy hook-command``
prints it) instead of ``hookwise hook`` and each call skips the interpreter's site-packages
setup (``.pth`` files, ``_distutils_hack``...), which costs about as much as the whole
policy decision. Arguments and behaviour are exactly those of ``hookwise hook``; when the
policy cache must be rebuilt, site-packages are set up then (PyYAML lives there). The
per-user launcher ``hookwise install`` writes starts through snapshot.py instead.

Kept small, without ``from __future__`` or hookwise imports at its top: run as a script, it
is compiled afresh on every call, and it finds the ``hookwise`` package itself.
"""

import sys


def launch() -> None:
    """Run the hook with ``sys.argv`` and leave (earlier launchers call this too)."""
    import gc

    gc.disable()
    try:
        from hookwise.policy import snapshot

        snapshot.bytecode_off()
    except Exception as exc:  # a broken install must block (exit 2), not exit 1 and pass
        sys.stderr.write(f"hookwise: cannot start (reinstall hookwise): {exc!r}\n")
        sys.stderr.flush()
        import posix

        posix._exit(2)
    try:
        from hookwise.policy.hook import fast_exit, main
    except Exception as exc:  # (a .pyc cut short: from the sources, or exit 2)
        snapshot.from_sources(exc)
        from hookwise.policy.hook import fast_exit, main
    fast_exit(main(sys.argv[1:], own_process=True))


def _run() -> None:
    # sys.path[0] (-I: not this file's directory) becomes the root that holds
    # ``hookwise``: three levels up from .../hookwise/policy/run_hook.py
    import posix

    here = __file__ if __file__.startswith("/") else f"{posix.getcwd()}/{__file__}"
    sys.path[0] = here.rsplit("/", 3)[0]
    launch()


if __name__ == "__main__":
    _run()
