"""The layers of src/hookwise and the direction of their imports (DESIGN: protocol <- config
<- host <- the rest; shell <- policy; policy's hook path on its own; cli on top), checked on
the source.

Every ``import`` counts, wherever it stands: at module level, inside a function (a lazy
import is still a dependency) and under ``TYPE_CHECKING``. There is no import cycle anywhere,
lazy imports included, and no package holds more than 25 modules of its own.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterable
from functools import cache
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "hookwise"


def _module_name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _resolve(target: str) -> str | None:
    """The hookwise module an import names (``from a.b import c``: ``a.b.c`` if it is one)."""
    modules = _modules()
    while target and target not in modules:
        target = target.rpartition(".")[0]
    return target or None


@cache
def _imports(module: str) -> tuple[frozenset[str], frozenset[str]]:
    """(every hookwise module it imports, those imported at module level outside
    ``TYPE_CHECKING``)."""
    path = _modules()[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    everywhere: set[str] = set()
    top_level: set[str] = set()

    def names(node: ast.Import | ast.ImportFrom) -> Iterable[str]:
        if isinstance(node, ast.Import):
            return [alias.name for alias in node.names]
        base = node.module or ""
        if node.level:
            anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
            base = ".".join([*anchor, *([base] if base else [])])
        return [f"{base}.{alias.name}" for alias in node.names]

    def visit(node: ast.AST, at_top: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if (
                isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test)
            ) or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                visit(child, False)
            elif isinstance(child, ast.Import | ast.ImportFrom):
                for name in names(child):
                    found = _resolve(name) if name.startswith("hookwise") else None
                    # a package's own __init__ is imported with any of its modules
                    if found is None or found == module or module.startswith(found + "."):
                        continue
                    everywhere.add(found)
                    if at_top:
                        top_level.add(found)
            else:
                visit(child, at_top)

    visit(ast.parse(path.read_text(encoding="utf-8"), str(path)), True)
    return frozenset(everywhere), frozenset(top_level)


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _offenders(layer: str, allowed: set[str]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for module in _modules():
        if _layer(module) != layer:
            continue
        bad = sorted(t for t in _imports(module)[0] if _layer(t) not in allowed | {layer})
        if bad:
            found[module] = bad
    return found


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root, edges in graph.items():
        if root in index:
            continue
        work = [(root, iter(sorted(edges)))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def _closure(start: str, *, top_level_only: bool) -> set[str]:
    seen: set[str] = set()
    todo = [start]
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        todo.extend(_imports(module)[1 if top_level_only else 0])
    return seen


# --------------------------------------------------------------------------- the checks


def test_the_source_walk_sees_every_kind_of_import() -> None:
    """The checks below are only as good as this reader: lazy, relative and TYPE_CHECKING
    imports all count, and a name imported from a package resolves to its module."""
    everywhere, top = _imports("hookwise.config.gemini.hook_trust")
    assert "hookwise.config.gemini.settings" in top
    everywhere, top = _imports("hookwise.cli.hooks_cmd")
    assert "hookwise.config.gemini.hook_trust" in everywhere - top  # TYPE_CHECKING and lazy
    everywhere, top = _imports("hookwise.policy.adapters.hosts")
    assert (
        "hookwise.protocol.gemini" in everywhere - top
    )  # ``from hookwise.protocol import gemini``
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_protocol_imports_nothing_of_hookwise_but_itself() -> None:
    assert _offenders("protocol", set()) == {}


def test_config_imports_only_protocol() -> None:
    """config reads where hooks come from; it never imports host (so the timeout units,
    JSONC and trust stay usable without the runtime) nor policy, the service or the CLI."""
    assert _offenders("config", {"protocol"}) == {}


def test_host_imports_only_config_and_protocol() -> None:
    assert _offenders("host", {"config", "protocol"}) == {}


def test_shell_imports_nothing_of_hookwise_but_itself() -> None:
    """What a command line runs is bash's semantics alone: policy and scan read it. One
    leaf is shared: policy/os_lite.py (os without its import cost, importing nothing of
    hookwise), for the few readings that follow a link as the kernel does (a python
    script's real path, /dev/fd/.. after a source)."""
    found = _offenders("shell", set())
    leaf = {m: bad for m, bad in found.items() if bad != ["hookwise.policy.os_lite"]}
    assert leaf == {}, found
    assert not [t for t in _imports("hookwise.policy.os_lite")[0] if t.startswith("hookwise")]


def test_policy_never_imports_the_layers_built_on_it() -> None:
    built_on = {"api", "cli", "integrations", "scan", "sim", "turns", "conformance", "run"}
    everything = {_layer(m) for m in _modules()} | {""}
    assert _offenders("policy", everything - built_on) == {}


def test_run_stands_on_policy_and_below() -> None:
    """The supervisor reads where the guard's files are; nothing but the CLI starts it."""
    allowed = {"protocol", "config", "shell", "policy", ""}
    assert _offenders("run", allowed) == {}
    users = {m for m in _modules() if "run" in {_layer(t) for t in _imports(m)[0]}}
    assert {m for m in users if _layer(m) not in {"run", "cli"}} == set()


def test_nothing_below_the_cli_imports_it_and_only_the_cli_imports_the_service() -> None:
    offenders = {
        module: sorted(t for t in _imports(module)[0] if _layer(t) in {"cli", "api"})
        for module in _modules()
        if _layer(module) not in {"cli", "api", "__main__"}
    }
    assert {m: bad for m, bad in offenders.items() if bad} == {}


@pytest.mark.parametrize("entry", ["hookwise.policy.hook", "hookwise.policy.run_hook"])
def test_the_hook_path_loads_only_policy_modules(entry: str) -> None:
    """What ``hookwise hook`` imports to answer from a warm cache (module-level imports) is
    policy's own; protocol and config are reached only lazily, to rebuild the cache.
    tests/policy/test_hook_process.py checks the same on a real run."""
    loaded = _closure(entry, top_level_only=True)
    assert {m for m in loaded if _layer(m) not in {"policy", ""}} == set()
    # the hook's own modules, never the install side or the author's tools
    off_path = ("hookwise.policy.install.", "hookwise.policy.tools.", "hookwise.policy.approvals.")
    assert {m for m in loaded if m.startswith(off_path)} == set()


def test_install_and_doctor_are_off_the_hook_path() -> None:
    """Install edits settings through config/; none of it may ever load into the hook, not
    even lazily."""
    reachable = _closure("hookwise.policy.hook", top_level_only=False)
    reachable |= _closure("hookwise.policy.run_hook", top_level_only=False)
    install_side = {
        m
        for m in _modules()
        if m.startswith(("hookwise.policy.install.", "hookwise.policy.tools."))
    }
    assert {"hookwise.policy.install.plan", "hookwise.policy.install.doctor"} <= install_side
    assert install_side <= set(_modules())
    assert reachable & install_side == set()
    assert {m for m in reachable if _layer(m) in {"config", "host"}} <= {"hookwise.config.atomic"}


def test_no_import_cycle_at_module_level() -> None:
    graph = {m: set(_imports(m)[1]) for m in _modules()}
    assert _cycles(graph) == []


def test_no_import_cycle_anywhere_even_through_lazy_imports() -> None:
    graph = {m: set(_imports(m)[0]) for m in _modules()}
    assert _cycles(graph) == []


def test_no_package_holds_more_than_25_modules() -> None:
    """A package past about 25 modules has more than one job (DESIGN)."""
    sizes = {
        str(d.relative_to(SRC)): len(list(d.glob("*.py")))
        for d in [PACKAGE, *PACKAGE.rglob("*")]
        if d.is_dir() and (d / "__init__.py").exists()
    }
    assert {name: n for name, n in sizes.items() if n > 25} == {}
    assert sizes["hookwise/shell"] > 1  # (the walk sees the packages)


FRAMEWORK_BRIDGES = frozenset(
    f"hookwise.integrations.{name}"
    for name in (
        "claude_agent_sdk",
        "google_adk",
        "langchain",
        "openai_agents",
        "pydantic_ai",
        "smolagents",
    )
)
"""Each imports its framework (seconds apiece); tests/integrations/test_<name>.py imports
each of them, so the check below leaves them out to stay fast."""


def test_every_module_imports_in_a_fresh_interpreter() -> None:
    """All of src/hookwise, in one new process, leaves first: a module that names something
    its dependency no longer has (a move half done) fails here. With no module-level cycle
    (above), the order cannot matter."""
    assert set(_modules()) >= FRAMEWORK_BRIDGES
    # run by python -m / alembic
    scripts = ("hookwise.__main__", "hookwise.api.storage.migrations.")
    names = sorted(
        (m for m in _modules() if not m.startswith(scripts) and m not in FRAMEWORK_BRIDGES),
        key=lambda m: -m.count("."),
    )
    probe = (
        "import importlib, sys\n"
        "for name in sys.argv[1:]:\n"
        "    importlib.import_module(name)\n"
        "print(len(sys.argv) - 1)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, *names],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(len(names))]
