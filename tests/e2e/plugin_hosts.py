"""OpenCode and Kilo Code, the plugin hosts: where they are installed, one offline run each.

``make e2e-install`` installs ``tests/e2e/plugin-hosts/package*.json`` (``opencode-ai``
1.18.33 and ``@kilocode/cli-linux-x64`` 7.7.9: npm packages holding the native binaries,
so ``--ignore-scripts`` downloads nothing) into ``$HOOKWISE_E2E_PLUGIN_CLIS`` (default
``${XDG_CACHE_HOME:-~/.cache}/hookwise/e2e-plugin-hosts``).

A run: a fresh HOME (with XDG directories under it) and project; the host's project config
(``opencode.json`` / ``kilo.json``) names a provider ``fake`` through the bundled
``@ai-sdk/openai-compatible`` at the fake model's Chat Completions endpoint, with its
``bash`` permission ``allow``; ``~/.npmrc`` says ``offline=true``, because both hosts install
their plugin package with npm before they load any plugin and offline would wait for npm
to give up (install and doctor say so too); ``<host> run --format json`` on the prompt, under
a bare environment with every update, share and telemetry switch off. The fake model plays
a script of ``bash`` calls (fake_model.Script).

``python -m tests.e2e.plugin_hosts HOST ROOT`` is the child that runs the fake model and the
host together (in a loopback-only namespace when the machine allows one).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from tests.e2e import clis
from tests.e2e.fake_model import FakeModel, Script, call
from tests.e2e.runner import ROOT, bring_loopback_up, namespace_prefix, run_bounded

HERE = Path(__file__).resolve().parent
PACKAGE_JSON = HERE / "plugin-hosts" / "package.json"
HOSTS = ("opencode", "kilo")
PACKAGES = {"opencode": "opencode-ai", "kilo": "@kilocode/cli-linux-x64"}
TIMEOUT_S = 150.0  # Kilo alone takes 8-50 s here on the loaded two-core machine
URL_PLACEHOLDER = "http://fake-model.invalid"


def install_dir() -> Path:
    explicit = os.environ.get("HOOKWISE_E2E_PLUGIN_CLIS")
    if explicit:
        return Path(explicit)
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "hookwise" / "e2e-plugin-hosts"


def pinned(host: str) -> str:
    data = json.loads(PACKAGE_JSON.read_text(encoding="utf-8"))
    return str({**data["dependencies"], **data["optionalDependencies"]}[PACKAGES[host]])


def binary(host: str) -> Path:
    modules = install_dir() / "node_modules"
    if host == "kilo":
        return modules / "@kilocode" / "cli-linux-x64" / "bin" / "kilo"
    # the platform package's native binary (opencode-ai's bin is a node launcher that its
    # skipped postinstall would have replaced)
    for name in ("opencode-linux-x64", "opencode-linux-x64-baseline", "opencode-linux-arm64"):
        candidate = modules / name / "bin" / "opencode"
        if candidate.exists():
            return candidate
    return modules / "opencode-linux-x64" / "bin" / "opencode"


def install_problem(host: str) -> str | None:
    """Why the pinned host cannot run from install_dir(), or None."""
    meta = install_dir() / "node_modules" / PACKAGES[host] / "package.json"
    try:
        have = json.loads(meta.read_text(encoding="utf-8"))["version"]
    except (OSError, ValueError, KeyError):
        have = None
    if have != pinned(host):
        found = f"found {have}" if have else "not installed"
        return (
            f"{PACKAGES[host]}@{pinned(host)} is {found} under {install_dir()}; run "
            "`make e2e-install` (or set HOOKWISE_E2E_PLUGIN_CLIS)"
        )
    if not os.access(binary(host), os.X_OK):
        return f"{binary(host)} is missing; rerun `make e2e-install`"
    return None


def skip_reason(host: str) -> str | None:
    """A reason to skip (no node, or Kilo's binary package skipped off linux-x64)."""
    missing = clis.node_missing()
    if missing:
        return missing
    if host == "kilo" and not (sys.platform == "linux" and os.uname().machine == "x86_64"):
        return "Kilo is pinned as its linux-x64 binary package only"
    return None


# --------------------------------------------------------------------------- one run


def prepare(host: str, layout: clis.Layout) -> None:
    """The host's own configuration (no plugin: `hookwise install` adds that)."""
    layout.create()
    (layout.home / ".npmrc").write_text("offline=true\nfetch-retries=0\n", encoding="utf-8")
    config = {
        "$schema": "https://opencode.ai/config.json",
        "provider": {
            "fake": {
                "npm": "@ai-sdk/openai-compatible",
                "name": "Fake",
                "options": {"baseURL": f"{URL_PLACEHOLDER}/v1", "apiKey": "dummy"},
                "models": {"fake-model": {"name": "Fake model", "tool_call": True}},
            }
        },
        "model": "fake/fake-model",
        "small_model": "fake/fake-model",
        "autoupdate": False,
        "share": "disabled",
        "permission": {"bash": "allow", "edit": "allow", "external_directory": "allow"},
    }
    name = "kilo.json" if host == "kilo" else "opencode.json"
    (layout.proj / name).write_text(json.dumps(config, indent=1) + "\n", encoding="utf-8")


def environment(host: str, layout: clis.Layout) -> dict[str, str]:
    """The host's whole environment (and so the plugin's and the hook's)."""
    home = layout.home
    prefix = "KILO" if host == "kilo" else "OPENCODE"
    env = {
        "PATH": clis.search_path(),
        "HOME": str(home),
        "TMPDIR": str(layout.tmp),
        "TERM": "dumb",
        "NO_COLOR": "1",
        "LANG": "C.UTF-8",
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
    }
    for switch in ("DISABLE_MODELS_FETCH", "DISABLE_AUTOUPDATE", "DISABLE_LSP_DOWNLOAD"):
        env[f"{prefix}_{switch}"] = "true"
    env[f"{prefix}_DISABLE_SHARE"] = "true"
    if host == "kilo":
        env |= {
            "KILO_TELEMETRY_LEVEL": "off",
            "KILO_DISABLE_SESSION_INGEST": "true",
            "KILO_DISABLE_PRESENCE": "true",
            "KILO_DISABLE_CODEBASE_INDEXING": "true",
        }
    return env


def script_of(commands: list[str], calls: list[Any] | None = None) -> Script:
    """``bash`` calls of ``commands``, then the (tool, arguments) ``calls`` of any tool."""
    shell = [call("bash", command=c, description="run it") for c in commands]
    return Script([*shell, *[call(name, args) for name, args in calls or []]])


def run_child(host: str, root: Path) -> dict[str, Any]:
    """Fake model + host in this process's network; what the model received."""
    layout = clis.Layout(root)
    commands = json.loads((root / "commands.json").read_text(encoding="utf-8"))
    scripted = root / "calls.json"  # the model's calls of other tools, after the commands
    calls = json.loads(scripted.read_text(encoding="utf-8")) if scripted.exists() else []
    name = "kilo.json" if host == "kilo" else "opencode.json"
    with FakeModel(script=script_of(commands, calls)) as fake:
        config = layout.proj / name
        config.write_text(
            config.read_text(encoding="utf-8").replace(URL_PLACEHOLDER, fake.url),
            encoding="utf-8",
        )
        argv = [str(binary(host)), "run", "--format", "json", "--print-logs", clis.PROMPT]
        started = time.monotonic()
        stdout, stderr, code, timed_out = run_bounded(
            argv, layout.proj, environment(host, layout), TIMEOUT_S
        )
        seconds = time.monotonic() - started
        requests = list(fake.requests)
    (root / "cli-stdout.txt").write_bytes(stdout)
    (root / "cli-stderr.txt").write_bytes(stderr)
    return {
        "exit_code": code,
        "timed_out": timed_out,
        "seconds": round(seconds, 2),
        "requests": requests,
    }


def run_host(
    host: str,
    root: Path,
    commands: list[str],
    *,
    calls: list[tuple[str, dict[str, Any]]] | None = None,
) -> dict[str, Any]:
    """The child in a loopback-only namespace when the machine allows one; ``calls``: the
    model's (tool, arguments) after the ``bash`` commands."""
    import subprocess

    (root / "commands.json").write_text(json.dumps(commands), encoding="utf-8")
    if calls:
        (root / "calls.json").write_text(json.dumps(calls), encoding="utf-8")
    prefix = namespace_prefix()
    argv = [sys.executable, "-m", "tests.e2e.plugin_hosts", host, str(root)]
    if prefix:
        argv = [*prefix, *argv, "--namespace"]
    proc = subprocess.run(
        argv,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S + 60,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"child failed for {host}:\n{proc.stderr[-4000:]}")
    result: dict[str, Any] = json.loads(proc.stdout)
    return result


def tool_messages(requests: list[dict[str, Any]]) -> list[str]:
    """The tool results the model read, in order (the last request holds them all)."""
    from tests.e2e.fake_model import tool_results

    turns = [r for r in requests if isinstance(r.get("body"), dict) and r["body"].get("tools")]
    return tool_results(turns[-1]["body"]) if turns else []


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="run one plugin-host session")
    parser.add_argument("host", choices=HOSTS)
    parser.add_argument("root", type=Path)
    parser.add_argument("--namespace", action="store_true", help="bring loopback up first")
    args = parser.parse_args(argv)
    if args.namespace:
        bring_loopback_up()
    print(json.dumps(run_child(args.host, args.root)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
