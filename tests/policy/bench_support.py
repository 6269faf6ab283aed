"""bench/hook_cold.py as a module, for the tests that guard its figure (the hot path's
tests load its policy, payloads and home rather than restating them)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("hook_cold", ROOT / "bench" / "hook_cold.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BENCH = _load()
