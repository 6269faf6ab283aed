"""The fast launcher of ``hookwise hook``: the same command, without the ``site`` step.

Register ``<python> -I -S <this file> [--platform NAME]`` (``hookwise policy hook-command``
prints it) instead of ``hookwise hook`` and each call skips the interpreter's site-packages
setup (``.pth`` files, ``_distutils_hack``...), which costs about as much as the whole
policy decision. Arguments and behaviour are exactly those of ``hookwise hook``; when the
policy cache must be rebuilt, site-packages are set up then (PyYAML lives there).
"""

from __future__ import annotations

import os
import sys


def launch() -> None:
    """Run the hook with ``sys.argv`` and leave (also the per-user launcher's entry)."""
    import gc

    gc.disable()
    from hookwise.policy.hook import fast_exit, main

    fast_exit(main(sys.argv[1:]))


def _run() -> None:
    # sys.path[0] is this file's directory: replace it by the root that holds ``hookwise``.
    sys.path[0] = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    launch()


if __name__ == "__main__":
    _run()
