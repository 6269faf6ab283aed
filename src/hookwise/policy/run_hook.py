"""The fast launcher of ``hookwise hook``: the same command, without the ``site`` step.

Register ``<python> -I -S <this file> [--platform NAME]`` (``hookwise policy hook-command``
prints it) instead of ``hookwise hook`` and each call skips the interpreter's site-packages
setup (``.pth`` files, ``_distutils_hack``...), which costs about as much as the whole
policy decision. Arguments and behaviour are exactly those of ``hookwise hook``; when the
policy cache must be rebuilt, site-packages are set up then (PyYAML lives there). The
per-user launcher ``hookwise install`` writes also passes its snapshot (snapshot.py).

Kept small, without ``from __future__`` or hookwise imports at its top: run as a script, it
is compiled afresh on every call, and it finds the ``hookwise`` package itself.
"""

import sys


def launch(snapshot: str | None = None) -> None:
    """Run the hook with ``sys.argv`` and leave (also the per-user launcher's entry).

    ``snapshot``: the per-user launcher's snapshot file (snapshot.py)."""
    import gc

    gc.disable()
    fresh = False
    try:
        if snapshot is not None:
            from hookwise.policy import snapshot as snapshots

            fresh = snapshots.load(snapshot)
        from hookwise.policy.hook import fast_exit, main
    except Exception as exc:  # a broken install must block (exit 2), not exit 1 and pass
        sys.stderr.write(f"hookwise: cannot start (reinstall hookwise): {exc!r}\n")
        sys.stderr.flush()
        import posix

        posix._exit(2)
    code = main(sys.argv[1:])
    if snapshot is not None and not fresh:
        sys.stdout.flush()  # the host has its answer before the rebuild
        snapshots.rebuild(snapshot)
    fast_exit(code)


def _run() -> None:
    # sys.path[0] (-I: not this file's directory) becomes the root that holds
    # ``hookwise``: three levels up from .../hookwise/policy/run_hook.py
    import posix

    here = __file__ if __file__.startswith("/") else f"{posix.getcwd()}/{__file__}"
    sys.path[0] = here.rsplit("/", 3)[0]
    launch()


if __name__ == "__main__":
    _run()
