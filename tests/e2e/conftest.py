"""The ``e2e`` marker: tests that run the real agent CLIs (installed by `make e2e-install`)."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "e2e: runs the real Claude Code / Codex / Gemini CLI offline (make e2e-install);"
        " skipped only when node or npm is missing",
    )
