"""``python -m hookwise``: the same commands as the ``hookwise`` console script."""

from __future__ import annotations

import sys

from hookwise.cli.entry import main

if __name__ == "__main__":
    sys.exit(main())
