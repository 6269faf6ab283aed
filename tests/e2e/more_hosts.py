"""Factory Droid and Cline, the real CLIs: where they are installed, one offline run each.

``make e2e-install`` installs ``tests/e2e/more-hosts/package*.json``
(``@factory/cli-linux-x64`` 0.225.2 and ``@cline/cli-linux-x64`` 3.0.65: npm packages that
hold their native binaries and have no install scripts, so nothing is downloaded at install)
into ``$HOOKWISE_E2E_MORE_CLIS`` (default ``${XDG_CACHE_HOME:-~/.cache}/hookwise/e2e-more-hosts``).

A run: a fresh HOME and project, the fake model on 127.0.0.1 speaking Chat Completions and
playing a script of shell calls (Droid's ``Execute``, Cline's ``run_commands``), the host
under a bare environment, headless:

* Droid: ``~/.factory/settings.json`` names a BYOK custom model (``generic-chat-completion-api``
  at the fake model; no login); Factory's own endpoints (managed settings, feature flags,
  session sync, telemetry) point at a closed loopback port so they fail at once;
  ``droid exec -m custom:Fake-0 --auto high -o json PROMPT``.
* Cline: ``cline auth -p openai -k dummy -m fake-model -b URL`` stores the provider
  ``openai-compatible`` at the fake model (``~/.cline/data/settings/providers.json``; a file
  written by hand is replaced with Cline's own default); ``cline --json PROMPT``
  (act mode, auto-approve). Cline starts a hub daemon (``--cline-hub-daemon --cwd <proj>``)
  that outlives the run: the child stops the one naming this run's project.

``python -m tests.e2e.more_hosts HOST ROOT`` is the child that runs the fake model and the
host together (in a loopback-only namespace when the machine allows one).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

from tests.e2e import clis
from tests.e2e.fake_model import FakeModel, Script, ToolCall, call
from tests.e2e.runner import ROOT, bring_loopback_up, namespace_prefix, run_bounded

HERE = Path(__file__).resolve().parent
PACKAGE_JSON = HERE / "more-hosts" / "package.json"
HOSTS = ("droid", "cline")
PACKAGES = {"droid": "@factory/cli-linux-x64", "cline": "@cline/cli-linux-x64"}
TIMEOUT_S = 90.0
URL_PLACEHOLDER = "http://fake-model.invalid"
CLOSED_PORT = "http://127.0.0.1:9"


def install_dir() -> Path:
    explicit = os.environ.get("HOOKWISE_E2E_MORE_CLIS")
    if explicit:
        return Path(explicit)
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "hookwise" / "e2e-more-hosts"


def pinned(host: str) -> str:
    data = json.loads(PACKAGE_JSON.read_text(encoding="utf-8"))
    return str(data["optionalDependencies"][PACKAGES[host]])


def installed_version(host: str) -> str | None:
    meta = install_dir() / "node_modules" / PACKAGES[host] / "package.json"
    try:
        return str(json.loads(meta.read_text(encoding="utf-8"))["version"])
    except (OSError, ValueError, KeyError):
        return None


def binary(host: str) -> Path:
    name = "droid" if host == "droid" else "cline"
    return install_dir() / "node_modules" / PACKAGES[host] / "bin" / name


def skip_reason(host: str) -> str | None:
    """A reason to skip: no node/npm, or a machine the linux-x64 binaries cannot run on."""
    missing = clis.node_missing()
    if missing:
        return missing
    if not (sys.platform == "linux" and os.uname().machine == "x86_64"):
        return f"{host} is pinned as its linux-x64 binary package only"
    return None


def install_problem(host: str) -> str | None:
    """Why the pinned host cannot run from install_dir(), or None."""
    have = installed_version(host)
    if have != pinned(host):
        found = f"found {have}" if have else "not installed"
        return (
            f"{PACKAGES[host]}@{pinned(host)} is {found} under {install_dir()}; run "
            "`make e2e-install` (or set HOOKWISE_E2E_MORE_CLIS)"
        )
    if not os.access(binary(host), os.X_OK):
        return f"{binary(host)} is missing; rerun `make e2e-install`"
    return None


# --------------------------------------------------------------------------- set-up


def _write_json(path: Path, value: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=1) + "\n", encoding="utf-8")


def prepare(host: str, layout: clis.Layout) -> None:
    """The host's own configuration: the fake model as its provider (no hook)."""
    layout.create()
    if host == "droid":
        model = {
            "model": "fake-model",
            "displayName": "Fake",
            "baseUrl": f"{URL_PLACEHOLDER}/v1",
            "apiKey": "dummy",
            "provider": "generic-chat-completion-api",
            "maxOutputTokens": 4096,
        }
        _write_json(layout.home / ".factory" / "settings.json", {"customModels": [model]})
        return
    # Cline's provider is stored by `cline auth` (run_child: it needs the fake model's URL);
    # a providers.json written by hand is replaced with Cline's own default provider
    (layout.home / ".cline").mkdir(parents=True, exist_ok=True)


def write_raw_hook(
    host: str, layout: clis.Layout, command: str, *, timeout_s: int = clis.HOOK_TIMEOUT_SECONDS
) -> Path:
    """One pre-tool hook running ``command``, the way the host reads it (not hookwise's
    install): Droid's ``.factory/hooks.json`` with the event keys at the top level; Cline's
    executable file ``.clinerules/hooks/PreToolUse`` (no matcher, no timeout field)."""
    if host == "droid":
        path = layout.proj / ".factory" / "hooks.json"
        handler = {"type": "command", "command": command, "timeout": timeout_s}
        _write_json(path, {"PreToolUse": [{"matcher": "Execute", "hooks": [handler]}]})
        return path
    path = layout.proj / ".clinerules" / "hooks" / "PreToolUse"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\nexec {command}\n", encoding="utf-8")
    path.chmod(0o755)
    return path


def environment(host: str, layout: clis.Layout) -> dict[str, str]:
    """The host's whole environment (and so its hooks')."""
    env = {
        "PATH": clis.search_path(),
        "HOME": str(layout.home),
        "TMPDIR": str(layout.tmp),
        "TERM": "dumb",
        "NO_COLOR": "1",
        "LANG": "C.UTF-8",
        "HOOKWISE_E2E_HOOK_LOG": str(layout.hook_log),
    }
    if host == "droid":
        env |= {
            "FACTORY_API_BASE_URL": CLOSED_PORT,
            "FACTORY_TELEMETRY_INGEST_BASE_URL": CLOSED_PORT,
            "FACTORY_APP_BASE_URL": CLOSED_PORT,
            "FACTORY_DROID_AUTO_UPDATE_ENABLED": "false",
            "FACTORY_DISABLE_KEYRING": "true",
        }
    else:
        env["CLINE_NO_AUTO_UPDATE"] = "1"
    return env


def argv(host: str, extra: list[str] | None = None) -> list[str]:
    """The headless command; ``extra`` replaces Droid's ``--auto high`` (``[]``: read-only)."""
    if host == "droid":
        auto = ["--auto", "high"] if extra is None else extra
        return [str(binary(host)), "exec", "-m", "custom:Fake-0", *auto, "-o", "json", clis.PROMPT]
    return [str(binary(host)), "--json", *(extra or []), clis.PROMPT]


def shell_call(host: str, command: str) -> ToolCall:
    """The host's shell tool asked to run ``command`` (Droid ``Execute``, Cline
    ``run_commands``), with the arguments each host's model is told to give."""
    if host == "droid":
        return call(
            "Execute",
            command=command,
            summary="Run the command",
            riskLevel="medium",
            riskLevelReason="It changes one file in a scratch directory.",
        )
    return call("run_commands", commands=[command])


# --------------------------------------------------------------------------- one run


def _stop_hub(proj: Path) -> None:
    """Stop Cline's hub daemon of this project (it outlives the run)."""
    wanted = f"--cwd\0{proj}\0"
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            line = (entry / "cmdline").read_bytes().decode("utf-8", "replace")
        except OSError:
            continue
        if "--cline-hub-daemon" in line and wanted in line + "\0":
            pids.append(int(entry.name))
    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + 5
    while pids and time.monotonic() < deadline:
        pids = [p for p in pids if Path(f"/proc/{p}").exists()]
        time.sleep(0.1)
    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def _point_at(host: str, layout: clis.Layout, url: str, env: dict[str, str]) -> None:
    """The host's provider at the fake model's ``url`` (``cline auth`` in the run's ``env``:
    a moved data directory holds the provider too)."""
    if host == "droid":
        path = layout.home / ".factory" / "settings.json"
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace(URL_PLACEHOLDER, url), encoding="utf-8")
        return
    auth = [str(binary(host)), "auth", "-p", "openai", "-k", "dummy", "-m", "fake-model"]
    out, err, code, _ = run_bounded([*auth, "-b", f"{url}/v1"], layout.proj, env, 60)
    if code != 0:
        raise RuntimeError(f"cline auth failed ({code}): {(out + err).decode()[-2000:]}")


def run_child(host: str, root: Path) -> dict[str, Any]:
    """Fake model + host in this process's network; what the model received."""
    layout = clis.Layout(root)
    spec = json.loads((root / "run.json").read_text(encoding="utf-8"))
    calls = [call(name, args) for name, args in spec.get("calls", [])]  # (any tool's)
    script = Script([*[shell_call(host, c) for c in spec["commands"]], *calls])
    with FakeModel(script=script) as fake:
        env = {**environment(host, layout), **spec.get("env", {})}
        _point_at(host, layout, fake.url, env)
        started = time.monotonic()
        stdout, stderr, code, timed_out = run_bounded(
            argv(host, spec.get("args")), layout.proj, env, float(spec.get("timeout", TIMEOUT_S))
        )
        seconds = time.monotonic() - started
        if host == "cline":
            _stop_hub(layout.proj)
        requests = list(fake.requests)
        results = fake.tool_results()
        model_turns = len(fake.model_requests())
    (root / "cli-stdout.txt").write_bytes(stdout)
    (root / "cli-stderr.txt").write_bytes(stderr)
    return {
        "exit_code": code,
        "timed_out": timed_out,
        "seconds": round(seconds, 2),
        "model_turns": model_turns,
        "tool_results": results,
        "requests": requests,
    }


def run_host(
    host: str,
    root: Path,
    commands: list[str],
    *,
    args: list[str] | None = None,
    env: dict[str, str] | None = None,
    timeout: float = TIMEOUT_S,
    calls: list[tuple[str, dict[str, Any]]] | None = None,
) -> dict[str, Any]:
    """The child in a loopback-only namespace when the machine allows one; ``calls``: the
    model's (tool, arguments) after the shell commands."""
    import subprocess

    spec = {"commands": commands, "args": args, "env": env or {}, "timeout": timeout,
            "calls": calls or []}  # fmt: skip
    (root / "run.json").write_text(json.dumps(spec), encoding="utf-8")
    prefix = namespace_prefix()
    child = [sys.executable, "-m", "tests.e2e.more_hosts", host, str(root)]
    if prefix:
        child = [*prefix, *child, "--namespace"]
    proc = subprocess.run(
        child,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=timeout + 60,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"child failed for {host}:\n{proc.stderr[-4000:]}")
    result: dict[str, Any] = json.loads(proc.stdout)
    result["offline"] = "netns" if prefix else "config"
    return result


def main(argv_: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="run one Droid or Cline session")
    parser.add_argument("host", choices=HOSTS)
    parser.add_argument("root", type=Path)
    parser.add_argument("--namespace", action="store_true", help="bring loopback up first")
    args = parser.parse_args(argv_)
    if args.namespace:
        bring_loopback_up()
    print(json.dumps(run_child(args.host, args.root)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
