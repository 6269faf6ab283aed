"""``hookwise hooks``: list the hooks a project would run, enable/disable them, trust them.

Module-level imports stay light (click only): everything else loads inside the commands.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from hookwise.cli.errors import InputError
from hookwise.cli.guardrails import changes_guardrails
from hookwise.cli.host_option import host_option
from hookwise.cli.options import project_option, project_root

if TYPE_CHECKING:
    from hookwise.config.gemini.extensions import HookSources
    from hookwise.config.gemini.hook_trust import HookTrustReport
    from hookwise.config.gemini.paths import SettingsPaths
    from hookwise.config.gemini.settings_file import SettingsFile
    from hookwise.config.model import HookEntry
    from hookwise.protocol.profiles import Profile

F = TypeVar("F", bound=Callable[..., Any])

PROFILES = ("documented", "gemini-cli")


def _json(value: object) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


class ScopeChoice(click.Choice[str]):
    """project | user; ``workspace``, the former name of ``project``, is still taken."""

    def __init__(self) -> None:
        super().__init__(["project", "user"])

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        return super().convert("project" if value == "workspace" else value, param, ctx)


def _common_options(func: F) -> F:
    """Where to read settings from; the path overrides exist mostly for tests and CI."""
    options = [
        project_option(aliases=("--settings",), must_exist=True),
        click.option(
            "--profile",
            type=click.Choice(PROFILES),
            default="documented",
            show_default=True,
            help="Merge rules: as documented, or exactly as Gemini CLI does.",
        ),
        click.option(
            "--home",
            type=click.Path(file_okay=False, path_type=Path),
            default=None,
            help="Home directory holding .gemini/ (default: $GEMINI_CLI_HOME or ~).",
        ),
        click.option(
            "--system-settings",
            type=click.Path(dir_okay=False, path_type=Path),
            default=None,
            help="System settings file (default: $GEMINI_CLI_SYSTEM_SETTINGS_PATH or the OS path).",
        ),
        click.option(
            "--system-defaults",
            type=click.Path(dir_okay=False, path_type=Path),
            default=None,
            help="System defaults file (default: system-defaults.json next to system settings).",
        ),
        click.option(
            "--trusted-folders",
            type=click.Path(dir_okay=False, path_type=Path),
            default=None,
            help="trustedFolders.json (default: ~/.gemini/trustedFolders.json).",
        ),
        click.option(
            "--allow-insecure-system-files",
            is_flag=True,
            hidden=True,
            help="Read system settings files even if not root-owned (tests only).",
        ),
    ]
    for option in reversed(options):
        func = option(func)
    return func


class _Context:
    """The resolved options shared by every sub-command."""

    def __init__(self, kwargs: dict[str, Any]) -> None:
        from hookwise.config.gemini.paths import SettingsPaths
        from hookwise.protocol.profiles import Profile

        self.profile: Profile = Profile.parse(kwargs.pop("profile"))
        # From a subdirectory: the project install and doctor use (the nearest .hookwise up),
        # so that `hooks trust --folder`, as doctor advises, trusts the folder they check.
        self.paths: SettingsPaths = SettingsPaths.from_environment(
            project_root(kwargs.pop("project")),
            home=kwargs.pop("home"),
            system_settings=kwargs.pop("system_settings"),
            system_defaults=kwargs.pop("system_defaults"),
            trusted_folders=kwargs.pop("trusted_folders"),
            secure_system_files=not kwargs.pop("allow_insecure_system_files"),
        )

    def sources(self) -> HookSources:
        from hookwise.config.gemini.extensions import load_hook_sources

        return load_hook_sources(self.paths, profile=self.profile)


def _with_context(func: Callable[..., None]) -> Callable[..., None]:
    @functools.wraps(func)
    def wrapper(**kwargs: Any) -> None:
        ctx = _Context(kwargs)
        func(ctx, **kwargs)

    return wrapper


def _warn(messages: list[str]) -> None:
    for message in messages:
        click.echo(f"warning: {message}", err=True)


def _is_terminal() -> bool:
    return sys.stdout.isatty()


@click.group("hooks")
def hooks() -> None:
    """Show and manage the hooks of a project (settings of every scope and extensions)."""


# --------------------------------------------------------------------------- list


def _rows(
    sources: HookSources, report: HookTrustReport, warnings: list[str]
) -> list[dict[str, Any]]:
    from hookwise.config.registry import build_registry
    from hookwise.protocol.gemini import EVENTS

    settings = sources.settings
    disabled = settings.hooks_config.disabled
    active = build_registry(sources.objects, disabled)
    skipped = build_registry(settings.skipped_hooks_objects, disabled)
    warnings.extend(active.warnings)
    warnings.extend(w for w in skipped.warnings if w not in active.warnings)
    order = {event: i for i, event in enumerate(EVENTS)}
    tagged = [(e, False) for e in active.entries] + [(e, True) for e in skipped.entries]
    tagged.sort(key=lambda item: (order.get(item[0].event, len(order)), item[0].source.priority))
    rows = []
    for entry, untrusted in tagged:
        if untrusted:
            state = "untrusted-folder"
        elif not settings.hooks_config.enabled:
            state = "hooks-off"
        else:
            state = "enabled" if entry.enabled else "disabled"
        rows.append(_row(entry, state, report))
    return rows


def _row(entry: HookEntry, state: str, report: HookTrustReport) -> dict[str, Any]:
    from hookwise.protocol.jsvalue import UNDEFINED, drop_undefined

    status = report.status_of(entry)
    trust = "-"
    if status is not None:
        trust = status.state
        if report.refuse(entry) is not None:
            trust += " (refused: enforce)"
    config = drop_undefined({k: v for k, v in entry.config.items() if k != "source"})
    return {
        "event": entry.event,
        "name": entry.name,
        "source": entry.source.value,
        "scope": entry.scope,
        "origin": entry.origin,
        "matcher": drop_undefined(entry.matcher) if entry.matcher is not UNDEFINED else None,
        "enabled": state == "enabled",
        "state": state,
        "trust": trust,
        "config": config,
    }


@hooks.command("list")
@_common_options
@host_option("Whose hooks: detected from the project's settings files when omitted.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@_with_context
def list_hooks(ctx: _Context, dialect: str | None, as_json: bool) -> None:
    """Every hook: event, name, source and scope, file, matcher, enabled and trust state."""
    from hookwise.config.detect import detect_dialect
    from hookwise.protocol.hosts import host as host_info

    chosen = dialect or detect_dialect(ctx.paths.workspace, home=ctx.paths.home)
    shown = _shown_host(chosen, detected=dialect is None)
    lister = _LISTERS.get(host_info(chosen).settings_loader, _list_dialect_hooks)
    lister(ctx, chosen, as_json, shown)


def _list_gemini_hooks(ctx: _Context, chosen: str, as_json: bool, shown: str) -> None:
    """Gemini CLI's hooks through its settings loader: with the folder trust, the profile,
    the hooks switch and each hook's trust state."""
    from hookwise.config.gemini.hook_trust import assess_project_hooks

    sources = ctx.sources()
    settings = sources.settings
    report = assess_project_hooks(settings)
    warnings = [*sources.warnings, *report.warnings]
    rows = _rows(sources, report, warnings)
    if as_json:
        document = {
            "host": chosen,
            "workspace": str(ctx.paths.workspace),
            "profile": ctx.profile.value,
            "folderTrust": {
                "trusted": settings.trust.trusted,
                "source": settings.trust.source,
                "detail": settings.trust.detail,
            },
            "hooksEnabled": settings.hooks_config.enabled,
            "hookTrustMode": settings.hook_trust_mode.value,
            "hooks": rows,
            "warnings": warnings,
        }
        click.echo(_json(document))
        return
    _warn(warnings)
    header = (
        f"{shown} · project {ctx.paths.workspace} · profile {ctx.profile.value} · folder "
        f"{'trusted' if settings.trusted else 'NOT trusted'} ({settings.trust.source}) · "
        f"hooks {'on' if settings.hooks_config.enabled else 'OFF'} · "
        f"hook trust {settings.hook_trust_mode.value}"
    )
    if _is_terminal():
        _print_table(header, rows)
        return
    _print_plain(header, rows)


def _shown_host(host: str, *, detected: bool) -> str:
    """Whose hooks a listing shows, first: a project may be set up for several agents."""
    from hookwise.protocol.hosts import HOST_TITLES

    if not detected:
        return f"{HOST_TITLES[host]} hooks"
    return f"{HOST_TITLES[host]} hooks (detected from the settings files; --host picks another)"


def _list_dialect_hooks(ctx: _Context, dialect: str, as_json: bool, shown: str) -> None:
    """A host's hooks (every host but Gemini CLI): what would run, and what was read but
    skipped."""
    from hookwise.host.handlers.check import handler_notes
    from hookwise.host.runtime import LoadOptions
    from hookwise.host.runtimes import TABLE_RUNTIMES

    workspace, home = ctx.paths.workspace, ctx.paths.home
    # each host through its runtime's own loader: what `fire` runs is what is listed
    # (Claude Code's gates the project's hooks the user has not trusted)
    runtime = TABLE_RUNTIMES.get(dialect)
    if runtime is None or runtime.loader is None:
        raise click.UsageError(
            f"hooks list does not read {dialect}'s hooks: hookwise has no runtime for it "
            "(docs/hosts.md says which hosts have one)"
        )
    options = LoadOptions(home=home, env=dict(os.environ))
    loaded = runtime.loader(str(workspace), options)
    warnings = [*loaded.warnings]
    # what each handler that is not a plain command needs or lacks (an http URL outside
    # allowedHttpHookUrls, an mcp_tool server not connected, a prompt hook's model)
    notes = {n.origin: n for n in handler_notes(runtime, str(workspace), options, loaded)}
    warnings += [f"{n.origin}: {n.text}" for n in notes.values() if n.status == "warn"]
    rows = [
        {
            "event": entry.event,
            "name": entry.label,
            "type": entry.config.get("type"),
            "source": entry.source.value,
            "scope": entry.scope,
            "matcher": entry.matcher,
            "state": "enabled" if loaded.enabled else "hooks-off",
            "trust": "trusted",
            "origin": entry.origin,
            "command": entry.command,
            "timeout": entry.config.get("timeout"),
            "note": notes[entry.origin].text if entry.origin in notes else None,
        }
        for entry in loaded.registry.entries
    ]
    reasons = getattr(loaded, "skip_reasons", {})
    for skipped in loaded.skipped:
        rows.append(
            {
                "event": "*",
                "name": f"(skipped: {reasons[skipped.origin]})"
                if skipped.origin in reasons
                else "(skipped)",
                "source": skipped.source.value,
                "scope": skipped.scope,
                "matcher": None,
                "state": "skipped",
                "trust": "-",
                "origin": skipped.origin,
                "command": None,
                "timeout": None,
                "type": None,
                "note": None,
            }
        )
    for line in loaded.untrusted:
        # `NAME (EVENT, ORIGIN): WHY` (config/claude/trust.py): a row per hook (the why is
        # among the warnings already)
        event, name, origin = "*", line, ""
        head, sep, _ = line.partition("): ")
        label, paren, inside = head.rpartition(" (")
        if sep and paren and ", " in inside:
            event, origin = inside.split(", ", 1)
            name = label
        rows.append(
            {
                "event": event,
                "name": name,
                "source": "project",
                "scope": "project",
                "matcher": None,
                "state": "skipped",
                "trust": "untrusted",
                "origin": origin,
                "command": None,
                "timeout": None,
                "type": None,
                "note": None,
            }
        )
    if as_json:
        document = {
            "host": dialect,
            "workspace": str(workspace),
            "hooksEnabled": loaded.enabled,
            "managedSettings": getattr(loaded, "managed_source", None),
            "files": [str(f) for f in loaded.files],
            "hooks": rows,
            "warnings": warnings,
        }
        click.echo(_json(document))
        return
    _warn(warnings)
    header = f"{shown} · project {workspace} · hooks {'on' if loaded.enabled else 'OFF'}"
    if _is_terminal():
        _print_table(header, rows)
        return
    _print_plain(header, rows)


PLAIN_COLUMNS = ("event", "name", "source/scope", "state", "trust", "matcher", "defined in")


def _print_plain(header: str, rows: list[dict[str, Any]]) -> None:
    """Tab-separated rows for pipes, under a header row naming the columns."""
    click.echo(header)
    if not rows:
        click.echo("no hooks")
        return
    click.echo("\t".join(PLAIN_COLUMNS))
    for row in rows:
        fields = [row["event"], row["name"], f"{row['source']}/{row['scope']}", row["state"]]
        fields += [row["trust"], _matcher_text(row["matcher"]), row["origin"]]
        click.echo("\t".join(fields))


def _command_label(command: str | None) -> str:
    """A command hook as hooks list shows it: `hookwise` for hookwise's own, else cut."""
    from hookwise.config.model import hook_label

    return hook_label({"type": "command", "command": command or ""})


def _matcher_text(matcher: Any) -> str:
    if matcher is None:
        return "*"
    return matcher if isinstance(matcher, str) else json.dumps(matcher)


def _print_table(header: str, rows: list[dict[str, Any]]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    table = Table(title=header, title_justify="left", show_lines=False)
    for column in ("event", "name", "source / scope", "matcher", "state", "trust", "defined in"):
        table.add_column(column, overflow="fold")
    styles = {"enabled": "green", "disabled": "yellow", "hooks-off": "red"}
    for row in rows:
        table.add_row(
            row["event"],
            row["name"],
            f"{row['source']} / {row['scope']}",
            _matcher_text(row["matcher"]),
            f"[{styles.get(row['state'], 'red')}]{row['state']}[/]",
            row["trust"],
            row["origin"],
        )
    if rows:
        console.print(table)
    else:
        console.print(header)
        console.print("no hooks")


# --------------------------------------------------------------------------- enable/disable


def _scope_disabled(settings_file: SettingsFile) -> list[Any]:
    section = settings_file.raw.get("hooksConfig") if settings_file.loaded else None
    disabled = section.get("disabled") if isinstance(section, dict) else None
    return list(disabled) if isinstance(disabled, list) else []


def _known_names(sources: HookSources) -> set[str]:
    from hookwise.config.registry import build_registry

    objects = [*sources.objects, *sources.settings.skipped_hooks_objects]
    return {entry.name for entry in build_registry(objects).entries}


@hooks.command("disable")
@_common_options
@click.argument("name")
@click.option(
    "--scope",
    type=ScopeChoice(),
    default=None,
    help="Settings file to write (default: the project's if it exists, else the user's).",
)
@click.option("--force", is_flag=True, help="Disable NAME even though no hook here has it.")
@click.option("--json", "as_json", is_flag=True, help="Print the change as JSON.")
@_with_context
@changes_guardrails("hooks disable")
def disable_hook(ctx: _Context, name: str, scope: str | None, force: bool, as_json: bool) -> None:
    """Add NAME (a hook's name, or its command) to hooksConfig.disabled."""
    from hookwise.config.gemini.paths import SettingsScope
    from hookwise.config.gemini.settings_edit import SettingsEditError, update_disabled_hooks

    sources = ctx.sources()
    settings = sources.settings
    if scope is None:
        scope = "project" if settings.paths.workspace_settings.exists() else "user"
    target = SettingsScope.PROJECT if scope == "project" else SettingsScope.USER
    file = settings.file(target)
    if file.exists and not file.loaded:
        raise InputError(f"cannot edit {file.path}: {file.error}")
    known = _known_names(sources)
    if name not in known:
        if not force:  # a typo would otherwise be written into the settings silently
            names = ", ".join(sorted(known)) or "none"
            raise click.UsageError(
                f'no hook named "{name}" is defined here (hooks: {names}); '
                "--force disables it anyway"
            )
        _warn([f'no hook named "{name}" is defined here; it is disabled anyway'])
    current = _scope_disabled(file)
    if name in current:
        if as_json:
            click.echo(_json({"name": name, "disabled": True, "changed": []}))
            return
        click.echo(f'Hook "{name}" is already disabled.')
        return
    try:
        update_disabled_hooks(file.path, [*current, name])
    except SettingsEditError as exc:  # a settings file it cannot edit safely
        raise InputError(str(exc)) from exc
    except OSError as exc:
        raise click.ClickException(str(exc)) from exc
    if as_json:
        click.echo(_json({"name": name, "disabled": True, "changed": [str(file.path)]}))
        return
    click.echo(
        f'Hook "{name}" disabled by adding it to the disabled list in {scope} ({file.path}) '
        "settings."
    )


@hooks.command("enable")
@_common_options
@click.argument("name")
@click.option("--json", "as_json", is_flag=True, help="Print the change as JSON.")
@_with_context
@changes_guardrails("hooks enable")
def enable_hook(ctx: _Context, name: str, as_json: bool) -> None:
    """Remove NAME from hooksConfig.disabled in the project and user settings."""
    from hookwise.config.gemini.paths import SettingsScope
    from hookwise.config.gemini.settings_edit import SettingsEditError, update_disabled_hooks

    sources = ctx.sources()
    settings = sources.settings
    disabled_anywhere = any(
        name in _scope_disabled(settings.file(scope))
        for scope in (
            SettingsScope.PROJECT,
            SettingsScope.USER,
            SettingsScope.SYSTEM,
            SettingsScope.SYSTEM_DEFAULTS,
        )
    )
    known = _known_names(sources)
    if not disabled_anywhere and name not in known:  # a typo is not "already enabled"
        names = ", ".join(sorted(known)) or "none"
        raise click.UsageError(f'no hook named "{name}" is defined here (hooks: {names})')
    changed = []
    paths: list[str] = []
    for scope, label in ((SettingsScope.PROJECT, "project"), (SettingsScope.USER, "user")):
        file = settings.file(scope)
        current = _scope_disabled(file)
        if name not in current:
            continue
        try:
            update_disabled_hooks(file.path, [n for n in current if n != name])
        except (SettingsEditError, OSError) as exc:
            raise click.ClickException(str(exc)) from exc
        changed.append(f"{label} ({file.path})")
        paths.append(str(file.path))
    for scope in (SettingsScope.SYSTEM, SettingsScope.SYSTEM_DEFAULTS):
        if name in _scope_disabled(settings.file(scope)):
            _warn([f'"{name}" is also disabled by {settings.file(scope).path}, which is read-only'])
    if as_json:
        click.echo(_json({"name": name, "disabled": False, "changed": paths}))
        return
    if not changed:
        click.echo(f'Hook "{name}" is already enabled.')
        return
    where = " and ".join(changed)
    click.echo(f'Hook "{name}" enabled by removing it from the disabled list in {where} settings.')


# --------------------------------------------------------------------------- trust


@hooks.command("trust")
@_common_options
@click.option("--list", "list_only", is_flag=True, help="Only show hooks waiting for approval.")
@click.option("--folder", is_flag=True, help="Also trust the project folder (trustedFolders.json).")
@host_option("Whose project: detected from the project's settings files when omitted.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@_with_context
@changes_guardrails("hooks trust")
def trust_hooks(
    ctx: _Context, list_only: bool, folder: bool, dialect: str | None, as_json: bool
) -> None:
    """Approve the project's current hooks (after reviewing the project's settings).

    Gemini CLI: approves them in ~/.gemini/trusted_hooks.json; --folder also trusts the
    folder in ~/.gemini/trustedFolders.json. Claude Code: trusts the project and approves
    its project hooks in hookwise's own record (~/.claude/hookwise_trusted_hooks.json);
    ~/.claude.json is never written. Codex: approves their current hashes in hookwise's
    own record (~/.codex/hookwise_trusted_hooks.json); --folder also marks the project
    trusted in ~/.codex/config.toml, as Codex's own trust prompt does.
    """
    from hookwise.config.detect import detect_dialect
    from hookwise.protocol.hosts import host as host_info

    chosen = dialect or detect_dialect(ctx.paths.workspace, home=ctx.paths.home)
    info = host_info(chosen)
    truster = _TRUSTERS.get(info.settings_loader)
    if truster is None:  # no approvals of hookwise's own for the other hosts: say theirs
        click.echo(
            f"{info.title}: hookwise keeps no hook approvals for it; "
            + (info.trust or "it runs project hooks without a trust step"),
            err=True,
        )
        return
    truster(ctx, folder=folder, list_only=list_only, as_json=as_json)


def _trust_gemini(ctx: _Context, *, folder: bool, list_only: bool, as_json: bool) -> None:
    """Approve the project's current Gemini CLI hooks (trusted_hooks.json); with ``folder``
    trust the folder too (trustedFolders.json)."""
    from hookwise.config.gemini.folder_trust import TrustedFolders, TrustLevel
    from hookwise.config.gemini.hook_trust import approve_project_hooks, assess_project_hooks
    from hookwise.config.gemini.settings import load_settings

    settings = load_settings(ctx.paths, profile=ctx.profile)
    if list_only:
        report = assess_project_hooks(settings)
        pending = report.pending
        if as_json:
            click.echo(_json(_trust_document(report, pending)))
            return
        _warn(report.warnings)
        if not pending:
            click.echo(f"No project hooks waiting for approval in {report.project_root}.")
            return
        click.echo(f"Project hooks waiting for approval in {report.project_root}:")
        for status in pending:
            click.echo(
                f"  - {status.entry.label} ({status.entry.event}, {status.state}): "
                f"{status.entry.command or ''}"
            )
        click.echo("Review .gemini/settings.json, then run `hookwise hooks trust`.")
        return
    if folder:
        folders = TrustedFolders.load(ctx.paths.trusted_folders)
        try:
            folders.set_level(ctx.paths.workspace, TrustLevel.TRUST_FOLDER)
        except ValueError as exc:  # trustedFolders.json is not valid: fix it first
            raise InputError(str(exc)) from exc
        except OSError as exc:
            raise click.ClickException(str(exc)) from exc
        settings = load_settings(ctx.paths, profile=ctx.profile)
    report = approve_project_hooks(settings)
    if as_json:
        click.echo(_json(_trust_document(report, report.statuses)))
        return
    _warn(report.warnings)
    if folder:
        click.echo(f"Trusted folder {ctx.paths.workspace} ({ctx.paths.trusted_folders}).")
    count = len(report.statuses)
    click.echo(
        f"Approved {count} project hook{'s' if count != 1 else ''} in {report.project_root}."
    )
    for status in report.statuses:
        click.echo(f"  - {status.entry.label} ({status.entry.event})")
    if not settings.trusted:
        click.echo(
            "Note: the folder itself is not trusted, so project hooks still do not run "
            f"({settings.trust.detail})."
        )


def _trust_claude(ctx: _Context, *, folder: bool, list_only: bool, as_json: bool) -> None:
    """Trust a Claude Code workspace and approve exactly its current project hooks (the
    workspace is trusted in any case, so ``folder`` adds nothing); ``list_only`` shows the
    project hooks it would approve and writes nothing."""
    del folder
    from hookwise.config.claude.settings import ClaudePaths, load_claude_hooks
    from hookwise.config.claude.trust import CLAUDE_TRUST_STORE, ClaudeTrustStore
    from hookwise.config.model import Source

    paths = ClaudePaths.from_environment(ctx.paths.workspace, home=ctx.paths.home)
    loaded = load_claude_hooks(paths=paths)
    entries = [e for e in loaded.registry.entries if e.source is Source.PROJECT]
    store = ClaudeTrustStore(paths.config_dir / CLAUDE_TRUST_STORE)
    if list_only:  # --list: only show (it trusted the workspace before: a listing changed it)
        if as_json:
            hooks = [{"event": e.event, "name": e.name, "command": e.command} for e in entries]
            click.echo(_json({"projectRoot": str(paths.project), "hooks": hooks}))
            return
        click.echo(f"{len(entries)} project hook{'s' if len(entries) != 1 else ''} of "
                   f"{paths.project} `hookwise hooks trust` would approve:")  # fmt: skip
        for entry in entries:
            click.echo(f"  - {entry.label} ({entry.event})")
        return
    try:
        store.trust(str(paths.project), entries)
    except OSError as exc:
        raise click.ClickException(f"cannot save {store.path}: {exc}") from exc
    if as_json:
        document = {
            "projectRoot": str(paths.project),
            "store": str(store.path),
            "hooks": [{"event": e.event, "name": e.name, "command": e.command} for e in entries],
        }
        click.echo(_json(document))
        return
    from hookwise.config.claude.trust import (
        claude_global_config,
        claude_workspace_trust,
        trust_story,
    )

    verdict = claude_workspace_trust(
        paths.project,
        global_config=claude_global_config(ctx.paths.home, dict(os.environ)),
        store=store,
    )
    click.echo(f"Trusted Claude Code workspace {paths.project} for hookwise ({store.path}).")
    click.echo(f"  {trust_story(paths.project, verdict)}")
    click.echo(f"Approved {len(entries)} project hook{'s' if len(entries) != 1 else ''}.")
    for entry in entries:
        click.echo(f"  - {entry.label} ({entry.event})")


def _trust_codex(ctx: _Context, *, folder: bool, list_only: bool, as_json: bool) -> None:
    """Approve a Codex project's current hooks; with ``folder`` trust the project too."""
    from hookwise.config.atomic import write_text_atomic
    from hookwise.config.codex.settings import CodexPaths, load_codex_hooks, trust_codex_hooks
    from hookwise.config.model import Source
    from hookwise.policy.install.codex_hook_trust import (
        codex_project_trust,
        edit_codex_project_trust,
    )
    from hookwise.policy.install.errors import InstallError

    paths = CodexPaths.from_environment(ctx.paths.workspace, home=ctx.paths.home)
    root = paths.project_root()
    # Read the project's layer as if trusted, to approve exactly what is there now.
    loaded = load_codex_hooks(paths=paths, trust_project=True)
    _warn(loaded.warnings)
    hooks = [h for h in loaded.hooks if h.source is Source.PROJECT and not h.managed]
    pending = [h for h in hooks if h.trust != "trusted"]
    if list_only:
        if as_json:
            click.echo(_json({"projectRoot": str(root), "hooks": [_codex_row(h) for h in pending]}))
            return
        if not pending:
            click.echo(f"No project hooks waiting for approval in {root}.")
            return
        click.echo(f"Project hooks waiting for approval in {root}:")
        for hook in pending:
            click.echo(f"  - {_command_label(hook.command)} ({hook.event}, {hook.trust})")
        click.echo("Review .codex/hooks.json, then run `hookwise hooks trust --host codex`.")
        return
    config = paths.user_config
    if folder:
        try:
            before = config.read_text(encoding="utf-8") if config.exists() else None
            after = edit_codex_project_trust(before, str(config), root)
            if after != before:
                config.parent.mkdir(parents=True, exist_ok=True)
                write_text_atomic(config, after)
        except InstallError as exc:  # config.toml is invalid or laid out beyond safe edits
            raise InputError(str(exc)) from exc
        except UnicodeDecodeError:
            raise InputError(f"cannot read {config}: not UTF-8 text") from None
        except OSError as exc:
            raise click.ClickException(str(exc)) from exc
    try:
        trust_codex_hooks(hooks, codex_home=paths.codex_home)
    except ValueError as exc:
        raise InputError(str(exc)) from exc
    except OSError as exc:
        raise click.ClickException(str(exc)) from exc
    try:
        text = config.read_text(encoding="utf-8") if config.exists() else None
    except (OSError, UnicodeDecodeError) as exc:
        raise click.ClickException(f"cannot read {config}: {exc}") from exc
    trusted = codex_project_trust(paths.project, text, os.environ)[0] == "trusted"
    if as_json:
        document = {
            "projectRoot": str(root),
            "projectTrusted": trusted,
            "store": str(paths.trust_store),
            "hooks": [_codex_row(h) for h in hooks],
        }
        click.echo(_json(document))
        return
    if folder:
        click.echo(f"Trusted Codex project {root} ({config}).")
    click.echo(f"Approved {len(hooks)} project hook{'s' if len(hooks) != 1 else ''} in {root}.")
    for hook in hooks:
        click.echo(f"  - {_command_label(hook.command)} ({hook.event})")
    if not trusted:
        click.echo(
            f"Note: Codex does not load {root}/.codex until the project is trusted: run "
            "`hookwise hooks trust --host codex --folder`, or answer Codex's trust prompt."
        )


def _codex_row(hook: Any) -> dict[str, Any]:
    return {"event": hook.event, "command": hook.command, "key": hook.key, "trust": hook.trust}


def _trust_document(report: HookTrustReport, statuses: list[Any]) -> dict[str, Any]:
    return {
        "projectRoot": report.project_root,
        "folderTrusted": report.folder_trusted,
        "mode": report.mode.value,
        "hooks": [
            {
                "event": s.entry.event,
                "name": s.entry.name,
                "command": s.entry.command,
                "state": s.state,
                "fingerprint": s.fingerprint,
                "key": s.key,
                "engineKnown": s.engine_known,
            }
            for s in statuses
        ],
        "warnings": report.warnings,
    }


# `hooks list` and `hooks trust` through each settings loader of config/ (the registry row's
# ``settings_loader``): Gemini CLI's listing shows its folder trust, profile and switch, and
# each loader's trust command writes that host's approvals; a host without one is listed
# through its runtime's loader, and hookwise keeps no approvals for it.
_LISTERS: dict[str, Callable[[_Context, str, bool, str], None]] = {
    "hookwise.config.gemini": _list_gemini_hooks,
}
_TRUSTERS: dict[str, Callable[..., None]] = {
    "hookwise.config.gemini": _trust_gemini,
    "hookwise.config.claude": _trust_claude,
    "hookwise.config.codex": _trust_codex,
}
