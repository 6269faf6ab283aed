"""run/'s imports: nothing above it; what the hook asks about confinement imports nothing of
hookwise."""

from __future__ import annotations

from tests.test_layering import _imports, _layer, _modules


def _run_modules() -> list[str]:
    return [m for m in _modules() if _layer(m) == "run"]


def test_run_imports_only_the_layers_below_it() -> None:
    allowed = {"run", "policy", "shell", "protocol", "config", ""}
    offenders = {
        module: sorted(t for t in _imports(module)[0] if _layer(t) not in allowed)
        for module in _run_modules()
    }
    assert {m: bad for m, bad in offenders.items() if bad} == {}


def test_the_hook_side_modules_import_nothing_of_hookwise() -> None:
    for module in ("hookwise.policy.confinement",):
        assert _imports(module)[0] == frozenset(), module
