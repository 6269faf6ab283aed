"""Merging the scopes into one compiled policy (plain data, ready to marshal).

Merge rules:

- rules of the user, project and local scopes are combined; a rule of a later scope with the
  id of an earlier one replaces it (``policy show`` says so); ``overrides`` change a lower
  scope's rule (``enabled``, ``mode``, ``priority``);
- managed rules cannot be redefined, disabled or overridden, and a setting the managed file
  sets cannot be changed by another scope: any attempt is an error, never silently ignored;
- evaluation order: priority (high first), then scope (managed, local, project, user), then
  the order in the file.

The result also carries the host tables (see hosts.py) and every problem found, so the hot
path needs nothing but this data.
"""

from __future__ import annotations

import copy
from typing import Any

from hookwise import __version__
from hookwise.policy.rules import actions, budget, schema
from hookwise.policy.rules.loader import PolicyFile, Problem, load_policy_text, raised
from hookwise.policy.rules.schema import default_settings
from hookwise.policy.trust.store import (
    DISOWNED,
    MOVED,
    RESTRICTIVE_ACTIONS,
    TIGHTENING_SETTINGS,
    TRUSTED_SCOPES,
    USER_ONLY_SETTINGS,
    VANISHED,
    Trust,
    canonical_path,
)

COMPILED_FORMAT = 2  # 2: the index's ``arg`` table
_SCOPE_RANK = {"managed": 0, "local": 1, "project": 2, "user": 3}


def compile_sources(
    sources: list[tuple[str, str, bytes | None]],
    tables: dict[str, Any] | None = None,
    *,
    trust: Trust | None = None,
    until: float | None = None,
) -> dict[str, Any]:
    """Compile the scope files (scope, path, bytes or None) into the policy data.

    ``trust`` says which project and local files apply in full; without it none does
    (only their restrictive parts apply, see trust.py). The whole compile shares one
    deadline (``until``, ``time.monotonic()``; default: budget.UNATTENDED_BUDGET_S from now):
    past it the result is only an error naming the file being read (``over_budget``).
    """
    if tables is None:
        from hookwise.policy.adapters.hosts import host_tables

        tables = host_tables()
    if trust is None:
        trust = Trust()
    spent = budget.Budget()
    try:
        with budget.deadline(until, spent):
            return _compile(sources, tables, trust, spent)
    except budget.LoadTimeoutError as exc:
        return over_budget(exc.path, tables, spent.spent_cpu())


def over_budget(path: str, tables: dict[str, Any], cpu: float) -> dict[str, Any]:
    """The policy of a load stopped at its deadline: one error, naming the file."""
    problem = Problem(path, 0, 0, budget.message(path))
    return {
        "format": COMPILED_FORMAT,
        "version": __version__,
        "files": [],
        "rules": [],
        "index": {},
        "settings": default_settings(),
        "setting_origins": {},
        "errors": [problem.as_dict()],
        "warnings": [],
        "hosts": tables,
        "trust": [],
        "untrusted": [],
        "over_budget": {"file": path, "cpu": cpu},
    }


def _compile(
    sources: list[tuple[str, str, bytes | None]],
    tables: dict[str, Any],
    trust: Trust,
    spent: budget.Budget,
) -> dict[str, Any]:
    host_events = {
        host: {name: raised(spec) for name, spec in table["events"].items()}
        for host, table in tables.items()
    }
    files: list[PolicyFile] = []
    problems: list[Problem] = []
    raw: dict[int, bytes] = {}
    for scope, path, data in sources:
        if data is None:
            continue
        spent.file = path
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            problems.append(
                Problem(path, 1, 1, f"not UTF-8 text: {exc.reason} at byte {exc.start}")
            )
            continue
        if text.startswith("\ufeff"):
            text = text[1:]
        loaded = load_policy_text(text, path, scope, host_events)
        files.append(loaded)
        raw[id(loaded)] = data
        problems.extend(loaded.problems)

    settings = default_settings()
    origins: dict[str, str] = {}
    managed = [f for f in files if f.scope == "managed"]
    users = [f for f in files if f.scope == "user"]
    projects = [f for f in files if f.scope in ("project", "local")]
    others = users + projects  # merge order: user, then project files outermost first
    locked: dict[str, str] = {}
    for policy_file in managed:
        for key, (value, _pos) in policy_file.settings.items():
            settings[key] = value
            origins[key] = policy_file.path
            locked[key] = policy_file.path

    def take_settings(policy_file: PolicyFile) -> None:
        for key, (value, (line, column)) in policy_file.settings.items():
            if key in locked:
                problems.append(
                    Problem(
                        policy_file.path,
                        line,
                        column,
                        f"setting {key!r} is set by the managed policy ({locked[key]}) and "
                        "cannot be changed here",
                    )
                )
                continue
            if policy_file.scope not in TRUSTED_SCOPES and settings.get(key) != value:
                ignored = _ignored_setting(policy_file, key, value)
                if ignored:
                    policy_file.ignored.append(f"setting {key}")
                    problems.append(Problem(policy_file.path, line, column, ignored, "warning"))
                    continue
            settings[key] = value
            origins[key] = policy_file.path

    for policy_file in users:
        take_settings(policy_file)
    trust_report: list[dict[str, Any]] = []
    if trust.problem:
        problems.append(Problem(trust.problem.split(":", 1)[0], 0, 0, trust.problem, "warning"))
    for gone in trust.vanished:  # "blocked": the hook fails closed; the file is not invalid
        problems.append(Problem(gone, 0, 0, VANISHED.format(path=gone), "blocked"))
    for foreign in trust.foreign:
        problems.append(Problem(foreign, 0, 0, _foreign(foreign), "warning"))
    for pinned, uid in trust.disowned:
        problems.append(Problem(pinned, 0, 0, DISOWNED.format(path=pinned, uid=uid), "blocked"))
    for moved in trust.moved:
        real = canonical_path(moved)
        problems.append(Problem(moved, 0, 0, MOVED.format(path=moved, real=real), "blocked"))
    for policy_file in projects:
        trusted, why = trust.decide(policy_file.path, raw[id(policy_file)], settings)
        policy_file.trusted = trusted
        policy_file.trust_why = why
        changed = None if trusted else trust.changed(policy_file.path, raw[id(policy_file)])
        if changed is not None:
            problems.append(Problem(policy_file.path, 0, 0, changed, "blocked"))
        tampered = trust.tampered(policy_file.path)
        if tampered is not None:
            problems.append(Problem(policy_file.path, 0, 0, tampered, "error"))
    for policy_file in projects:
        take_settings(policy_file)

    rules: dict[str, dict[str, Any]] = {}
    managed_ids: dict[str, dict[str, Any]] = {}
    for policy_file in managed:
        for rule in policy_file.rules:
            managed_ids[rule["id"]] = rule
    for policy_file in others:
        for original in policy_file.rules:
            where = (original["file"], original["line"], original["column"])
            if _same_pack(original, managed_ids.get(original["id"])):
                continue  # the managed scope extends the same pack: its copy applies
            if original["id"] in managed_ids:
                problems.append(
                    Problem(
                        *where,
                        f"rule {original['id']!r} is defined by the managed policy "
                        f"({managed_ids[original['id']]['file']}); other scopes cannot "
                        "redefine it",
                    )
                )
                continue
            previous = rules.get(original["id"])
            if _same_pack(original, previous):
                continue  # two scopes extend the same pack version: one copy
            if not policy_file.trusted:
                refused = _untrusted_rule(original, previous)
                if refused and previous is None and not original["enabled"]:
                    # switched off in the file itself: nothing is ignored, nothing to say;
                    # listed (and counted) as it is once trusted, but no scope's override
                    # can switch it on until then
                    rule = copy.deepcopy(original)
                    rule.update(untrusted=True, inert=True)
                    rules[rule["id"]] = rule
                    continue
                if refused:
                    policy_file.ignored.append(f"rule {original['id']}")
                    problems.append(Problem(*where, _untrusted(policy_file, refused), "warning"))
                    continue
            rule = copy.deepcopy(original)
            if not policy_file.trusted:
                rule.pop("ask_fallback", None)  # only the user's fallback applies
                rule["untrusted"] = True
            if previous is not None:
                rule["replaces"] = f"{previous['scope']} ({previous['file']}:{previous['line']})"
            rules[rule["id"]] = rule
    for policy_file in others:
        for override in policy_file.overrides:
            target_id = override["id"]
            where = (override["file"], override["line"], override["column"])
            if target_id in managed_ids:
                problems.append(
                    Problem(
                        *where,
                        f"override of {target_id!r}: managed rules cannot be disabled or changed",
                    )
                )
                continue
            if not policy_file.trusted:
                policy_file.ignored.append(f"override of {target_id}")
                problems.append(
                    Problem(
                        *where,
                        _untrusted(policy_file, f"the override of {target_id!r} is ignored"),
                        "warning",
                    )
                )
                continue
            target = rules.get(target_id)
            if target is None:
                problems.append(
                    Problem(*where, f"override of unknown rule {target_id!r}", "warning")
                )
                continue
            if target.get("inert") and override.get("enabled"):
                problems.append(
                    Problem(
                        *where,
                        _untrusted(
                            _file_of(others, target["file"]),
                            f"the override enabling {target_id!r} is ignored",
                        ),
                        "warning",
                    )
                )
                continue
            changes: dict[str, Any] = {
                k: override[k] for k in ("enabled", "mode", "priority") if k in override
            }
            target.update(changes)
            target.setdefault("overridden", []).append(
                f"{override['scope']} ({override['file']}:{override['line']}): "
                + ", ".join(f"{k}={v}" for k, v in changes.items())
            )
    for rule in managed_ids.values():
        rules[rule["id"]] = copy.deepcopy(rule)
    for policy_file in projects:
        trust_report.append(
            {
                "file": policy_file.path,
                "scope": policy_file.scope,
                "trusted": policy_file.trusted,
                "why": policy_file.trust_why,
                "ignored": list(policy_file.ignored),
            }
        )

    ordered = sorted(
        rules.values(),
        key=lambda r: (-r["priority"], _SCOPE_RANK[r["scope"]], r["file"], r["line"]),
    )
    index: dict[str, dict[str, Any]] = {}
    for position, rule in enumerate(ordered):
        if not rule["enabled"]:
            continue
        kind, keys = _bucket_of(rule)
        for name in rule["on"]:
            bucket = index.setdefault(name, new_bucket())
            if kind == "prog":
                for key in keys:
                    if isinstance(key, tuple):  # (program, a word it must be given)
                        words = bucket["arg"].setdefault(key[0], {})
                        words.setdefault(key[1], []).append(position)
                    else:
                        bucket["prog"].setdefault(key, []).append(position)
            elif kind in ("tool", "lit"):
                for key in keys:
                    bucket[kind].setdefault(key, []).append(position)
            else:
                bucket[kind].append(position)
        problems.extend(_delivery_warnings(rule, tables))

    errors = [p for p in problems if p.severity in ("error", "blocked")]
    warnings = [p for p in problems if p.severity == "warning"]
    return {
        "format": COMPILED_FORMAT,
        "version": __version__,
        "files": [(scope, path) for scope, path, data in sources if data is not None],
        "rules": ordered,
        "index": index,
        "settings": settings,
        # what the engine asks of the action table (actions.py), so that the hook does not
        # build that table on every call
        "actions": {"approving": sorted(actions.APPROVING), "blocking": sorted(actions.BLOCKING)},
        "setting_origins": origins,
        "errors": [p.as_dict() for p in errors],
        "warnings": [p.as_dict() for p in warnings],
        "hosts": tables,
        "trust": trust_report,
        "untrusted": [
            f"{t['file']}: {t['why']}; ignored: {', '.join(t['ignored'])}"
            for t in trust_report
            if t["ignored"]
        ],
    }


def _foreign(path: str) -> str:
    import os

    from hookwise.policy.trust.scopes import FOREIGN

    try:
        uid: object = os.lstat(path).st_uid
    except OSError:
        uid = "?"
    return FOREIGN.format(uid=uid)


def _same_pack(rule: dict[str, Any], other: dict[str, Any] | None) -> bool:
    """Whether both rules come from the same version of the same pack."""
    return other is not None and "pack" in rule and rule.get("pack") == other.get("pack")


def _untrusted(policy_file: PolicyFile, what: str) -> str:
    return (
        f"{what}: this {policy_file.scope} policy is {policy_file.trust_why}; once you have "
        f"reviewed it, `hookwise policy trust {policy_file.path}` applies it in full"
    )


def _file_of(files: list[PolicyFile], path: str) -> PolicyFile:
    return next(f for f in files if f.path == path)


def _untrusted_rule(rule: dict[str, Any], previous: dict[str, Any] | None) -> str | None:
    """Why an untrusted file's rule is ignored (None: it applies)."""
    if rule["action"] not in RESTRICTIVE_ACTIONS:
        return f"rule {rule['id']!r} ({rule['action']}) is ignored"
    if previous is not None:
        return (
            f"rule {rule['id']!r} would replace the rule of the same id in "
            f"{previous['scope']} ({previous['file']}:{previous['line']}); it is ignored"
        )
    return None


def _ignored_setting(policy_file: PolicyFile, key: str, value: Any) -> str | None:
    """Why a project or local file's setting is ignored (None: it applies)."""
    if key in USER_ONLY_SETTINGS:
        return (
            f"setting {key!r} is read from the user and managed policies only "
            "(a repository's policy cannot name files or decide trust); it is ignored"
        )
    if policy_file.trusted:
        return None
    allowed = TIGHTENING_SETTINGS.get(key)
    if allowed is not None and value in allowed:
        return None
    return _untrusted(policy_file, f"setting {key}={value!r} is ignored")


def new_bucket() -> dict[str, Any]:
    """The candidate index of one canonical event (see engine.candidates)."""
    return {"any": [], "shell": [], "mcp": [], "tool": {}, "prog": {}, "arg": {}, "lit": {}}


def _required_words(spec: dict[str, Any]) -> list[str] | None:
    """Words one of which a command must be given for ``spec`` to match it: the
    alternatives of its most selective ``args`` glob made of literals only (None: none)."""
    best: list[str] | None = None
    for glob in spec["args"]:
        words = []
        for alternative in glob:
            if len(alternative) != 1 or alternative[0][0] != "L":
                break
            words.append(alternative[0][1])
        else:
            if words and (best is None or len(words) < len(best)):
                best = words
    return best


def _bucket_of(rule: dict[str, Any]) -> tuple[str, list[Any]]:
    """Which candidate list a rule goes to: only events it could match look at it.

    ``prog``: its command matchers name literal programs (only shell events running one of
    them), keyed ``(program, word)`` in the ``arg`` table when a matcher also needs one of
    a few literal arguments (``git push --force``: only commands running ``git`` with
    ``push`` among their arguments); ``lit``: its command matchers are line regexes with a
    required literal (only command lines containing it; ``=`` exact, ``~`` ASCII
    case-insensitive); ``shell``: other command matchers; ``mcp``: MCP tools; ``tool``:
    literal tool names; ``any``: the rest.
    """
    m = rule["m"]
    if "mcp" in m:
        return "mcp", []
    if "command" in m:
        programs: list[Any] = []
        literals: list[str] = []
        for spec in m["command"]:
            if spec["programs"] is not None:
                words = _required_words(spec)
                if words is None:
                    programs.extend(spec["programs"])
                else:
                    programs.extend((p, w) for p in spec["programs"] for w in words)
                continue
            known = [e for e in spec["line_regex"] if e[2]]
            if not known:
                return "shell", []
            _pattern, flags, literal = max(known, key=lambda e: len(e[2]))
            literals.append(("~" if flags & 2 else "=") + literal)
        if programs and literals:
            return "shell", []
        if literals:
            return "lit", sorted(set(literals))
        return "prog", list(dict.fromkeys(programs))
    if "tool" in m and not m["tool"]["globs"]:
        return "tool", list(m["tool"]["names"])
    return "any", []


def schema_order(scope: str) -> int:
    """Merge order of the non-managed scopes: user, then project, then local."""
    return {"user": 0, "project": 1, "local": 2}[scope]


def _host_events_for(tables: dict[str, Any], host: str, canon: str, on: Any) -> list[str]:
    names = []
    for name, spec in tables[host]["events"].items():
        if canon in raised(spec) and (on is None or f"{host}:{name}" in on):
            names.append(name)
    return names


# the answer fields that carry context to the model (Cline's PreToolUse: contextModification)
CONTEXT_FIELDS = frozenset(("additionalContext", "contextModification"))


def _delivery_warnings(rule: dict[str, Any], tables: dict[str, Any]) -> list[Problem]:
    """Say where a host cannot deliver what a rule does (instead of failing silently)."""
    out: list[Problem] = []
    where = (rule["file"], rule["line"], rule["column"])
    action = rule["action"]
    for canon, on in rule["on"].items():
        for host in tables:
            for name in _host_events_for(tables, host, canon, on):
                spec = tables[host]["events"][name]
                if (
                    "context" in rule
                    and canon in schema.ACTION_EVENTS["context"]
                    and not CONTEXT_FIELDS.intersection(spec["specific"])
                ):
                    out.append(
                        Problem(
                            *where,
                            f"rule {rule['id']!r}: {host} does not pass context to the "
                            f"model on {name} ({canon}); it is recorded in the audit log",
                            "warning",
                        )
                    )
                if (
                    action in ("deny", "validate")
                    and canon in schema.ACTION_EVENTS[action]
                    and (spec["decision"] in ("none", "context") or not spec["honoured"])
                ):
                    out.append(
                        Problem(
                            *where,
                            f"rule {rule['id']!r}: {host} cannot block {name} ({canon}); "
                            "the denial becomes a message",
                            "warning",
                        )
                    )
    return out


def compile_files(
    files: list[tuple[str, str]],
    tables: dict[str, Any] | None = None,
    *,
    trust: Trust | None = None,
) -> dict[str, Any]:
    """Read and compile scope files given as (scope, path); see compile_sources."""
    from hookwise.policy.trust.scopes import read_sources

    return compile_sources(read_sources(files), tables, trust=trust)
