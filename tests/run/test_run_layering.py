"""run/'s imports: the policy package only through guarded_paths.py (its modules are moving:
one place to fix), nothing above it; the hook's client modules import nothing of hookwise."""

from __future__ import annotations

from tests.test_layering import _imports, _layer, _modules


def _run_modules() -> list[str]:
    return [m for m in _modules() if _layer(m) == "run"]


def test_run_reaches_policy_only_through_guarded_paths() -> None:
    offenders = {
        module: sorted(t for t in _imports(module)[0] if _layer(t) == "policy")
        for module in _run_modules()
        if module != "hookwise.run.guarded_paths"
    }
    assert {m: bad for m, bad in offenders.items() if bad} == {}
    assert any(_layer(t) == "policy" for t in _imports("hookwise.run.guarded_paths")[0])


def test_run_imports_only_the_layers_below_it() -> None:
    allowed = {"run", "policy", "protocol", ""}
    offenders = {
        module: sorted(t for t in _imports(module)[0] if _layer(t) not in allowed)
        for module in _run_modules()
    }
    assert {m: bad for m, bad in offenders.items() if bad} == {}


def test_the_hook_side_modules_import_nothing_of_hookwise() -> None:
    for module in ("hookwise.run.audit_sink", "hookwise.run.status"):
        assert _imports(module)[0] == frozenset(), module
