"""Matching rules against canonical events and combining what they do into one decision.

This is the only implementation: ``hookwise hook``, ``hookwise explain``, ``hookwise test``
and the service all call :func:`evaluate` (``explain`` passes a trace list to see why).

Combination: every matching rule counts, in evaluation order (priority, then scope, then
file order). ``deny`` beats ``ask`` beats ``allow``; the first (highest-priority) deny gives
the reason; contexts and user messages join in that order. ``warn`` mode turns a blocking
action into a visible warning, ``audit`` mode only records. A rewrite applies only when
nothing denies, and the rewritten input is checked again against the deny and ask rules
(a rewrite cannot smuggle a denied command past them).

Standard library only. What a typical event does not need lives in modules imported on
first use: regex matching under the time budget (timed_regex.py), limiting an approval to
what its rules cover (approval_cover.py), rewrites (rewrite.py), validators (validator.py).
"""

from __future__ import annotations

import sys

from hookwise.policy import canonical
from hookwise.policy import os_lite as os  # os without its import cost
from hookwise.policy.rules.globs import glob_match

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import Any

    from hookwise.policy.canonical import Event, PathRef
    from hookwise.policy.retry_state import RetryState
    from hookwise.shell.parser import Command

    # retry counters, or what makes them when an event first needs them (the hook's own
    # are made only for a prompt, a stop or a retry rule: policy/retry_state.py)
    State = RetryState | Callable[[], RetryState] | None


def _regex0(pattern: str) -> Any:
    """A condition's regex (``matches``), under the budget."""
    from hookwise.policy.rules.timed_regex import regex

    return regex(pattern, 0)


def search(entry: tuple[str, int, str], text: str) -> bool:
    """Whether a compiled-policy regex entry finds a match; its literal is checked first,
    so text without it costs neither :mod:`re` nor the timed matcher (timed_regex.py)."""
    pattern, flags, literal = entry
    if literal:
        if flags & 2:  # re.IGNORECASE: the literal is lower case ASCII
            if text.isascii() and literal not in text.lower():
                return False
        elif literal not in text:
            return False
    from hookwise.policy.rules.timed_regex import regex

    return regex(pattern, flags).search(text) is not None


def _condition(holder: dict[str, Any], key: str, ev: Event) -> bool:
    """Evaluate the condition ``holder[key]``: walked on a rule's first use in a process
    (a hook call looks at each rule once), compiled from its second (processes that
    decide many events)."""
    slot = "_" + key
    compiled = holder.get(slot)
    if compiled is None:
        from hookwise.policy.rules.condition import evaluate

        holder[slot] = False
        return bool(evaluate(holder[key], ev.root, _regex0))
    if compiled is False:
        from hookwise.policy.rules.condition_compile import compile_condition

        compiled = holder[slot] = compile_condition(holder[key])
    return bool(compiled(ev.root, _regex0))


# ------------------------------------------------------------------------------ matchers


def _note(trace: list[Any] | None, matcher: str, ok: bool, detail: str) -> bool:
    if trace is not None:
        trace.append((matcher, ok, detail))
    return ok


def _m_tool(spec: dict[str, Any], ev: Event, trace: list[Any] | None) -> bool:
    # without a trace (every decision but `explain`), no note text is formatted
    tool, host_tool = ev.tool, ev.host_tool
    if tool is None:
        return _note(trace, "tool", False, "the event has no tool")
    names = spec["names"]
    if tool in names or host_tool in names:
        return trace is None or _note(trace, "tool", True, f"{host_tool} is {tool}")
    also = ev.acts_as  # a resource tool reading is a ``read`` too
    if also is not None and also in names:
        return trace is None or _note(trace, "tool", True, f"{host_tool} ({tool}) is {also}")
    for glob in spec["globs"]:
        if (
            glob_match(glob, tool)
            or (host_tool and glob_match(glob, host_tool))
            or (also is not None and glob_match(glob, also))
        ):
            return trace is None or _note(
                trace, "tool", True, f"{host_tool} ({tool}) matches a glob"
            )
    return trace is not None and _note(trace, "tool", False, f"{host_tool} ({tool}) is not listed")


def _m_tool_regex(spec: list[Any], ev: Event, trace: list[Any] | None) -> bool:
    for entry in spec:
        for name in (ev.tool, ev.host_tool):
            if name and search(entry, name):
                return _note(trace, "tool_regex", True, f"/{entry[0]}/ finds {name}")
    return _note(trace, "tool_regex", False, f"no regex finds {ev.host_tool!r}")


def _m_host_tool(spec: list[Any], ev: Event, trace: list[Any] | None) -> bool:
    ok = bool(ev.host_tool) and any(glob_match(g, ev.host_tool or "") for g in spec)
    return _note(trace, "host_tool", ok, f"host tool {ev.host_tool!r}")


def _m_host(spec: list[str], ev: Event, trace: list[Any] | None) -> bool:
    return _note(trace, "host", ev.host in spec, f"host is {ev.host}")


def _m_mcp(spec: dict[str, Any], ev: Event, trace: list[Any] | None) -> bool:
    mcp = ev.mcp
    if mcp is None:
        return _note(trace, "mcp", False, "not an MCP tool")
    server, tool = mcp
    if "server" in spec and not any(glob_match(g, server) for g in spec["server"]):
        return _note(trace, "mcp", False, f"server {server!r} is not listed")
    if "tool" in spec and not any(glob_match(g, tool) for g in spec["tool"]):
        return _note(trace, "mcp", False, f"MCP tool {tool!r} is not listed")
    return _note(trace, "mcp", True, f"MCP {server}/{tool}")


def _options(cmd: Command) -> tuple[set[str], list[str]]:
    """The command's flags in their canonical spellings and its positionals (programs.py);
    a word known only when it runs stands as a positional placeholder (maybe.py)."""
    if cmd.options is None:
        from hookwise.shell.programs import flags_of

        argv = cmd.argv
        if cmd.shapes:
            from hookwise.policy.rules.maybe import sentinel

            argv = [sentinel(i) if i in cmd.shapes and i else w for i, w in enumerate(argv)]
        flags, positional = flags_of(cmd.program, argv)
        signed = [i for i, shape in (cmd.shapes or {}).items() if i and _signed(shape)]
        if signed:  # git push origin "+$(git branch --show-current)": a + refspec still
            spelled = ["+" + w if i in signed else w for i, w in enumerate(argv)]
            flags = flags | flags_of(cmd.program, spelled)[0]
        cmd.options = (flags, positional)
    return cmd.options


def _signed(shape: tuple[tuple[str, ...], ...]) -> bool:
    """Whether a word known only when it runs starts with a literal ``+``."""
    return bool(shape) and shape[0][0] == "L" and shape[0][1].startswith("+")


_CANONICAL: dict[tuple[str, str], str] = {}


def _canonical(program: str, flag: str) -> str:
    """programs.canonical_flag, memoised: a rule's flag is looked up once per program."""
    key = (program, flag)
    found = _CANONICAL.get(key)
    if found is None:
        from hookwise.shell.programs import canonical_flag

        found = _CANONICAL[key] = canonical_flag(program, flag)
    return found


def _program_matches(spec: dict[str, Any], cmd: Command) -> bool:
    # cmd.unknown_program, inlined (this runs for every rule and command): an unknown
    # program could be the rule's, so it is matched as if it were
    if cmd.unverifiable is None or not cmd.dynamic or not cmd.dynamic[0]:
        not_readers = spec.get("reads")  # `reads: true`: all but the catalog's non-readers
        if not_readers is not None and (not cmd.program or cmd.program in not_readers):
            return False
        programs = spec["programs"]
        if programs is not None:
            if cmd.program not in programs:
                return False
        elif spec["program"] is not None and not any(
            glob_match(g, cmd.program) for g in spec["program"]
        ):
            return False
    return True


def _command_matches(spec: dict[str, Any], cmd: Command) -> bool:
    if not cmd.argv:  # `> file` alone: only a writes matcher can hold
        return bool(spec["writes"]) and spec["program"] is None and _writes_only(spec, cmd)
    program = cmd.program
    if not _program_matches(spec, cmd):
        return False
    if cmd.unknown_args:
        return True
    flags, any_flags = spec["flags"], spec["any_flags"]
    if flags or any_flags:
        present, _ = _options(cmd)
        for flag in flags:  # loops, not generators: this runs for every rule and command
            if _canonical(program, flag) not in present:
                return False
        if any_flags:
            for flag in any_flags:
                if _canonical(program, flag) in present:
                    break
            else:
                return False
    if spec["writes"] and not _writes(spec, cmd):
        return False
    if spec["args"]:
        positional = iter(_options(cmd)[1])
        for glob in spec["args"]:
            if not any(glob_match(glob, word) for word in positional):
                return False
    return not spec["regex"] or all(_text_matches(entry, cmd) for entry in spec["regex"])


def _text_matches(entry: Any, cmd: Command) -> bool:
    """A rule's regex, found in the command as written or in the words bash runs: a
    value known on the line (``a=(-d @.env); curl "${a[@]}"``, ``set -- ...; curl "$@"``,
    what xargs reads) is in the words, not in the text."""
    if search(entry, cmd.text):
        return True
    text = cmd.text
    if "$" not in text and "`" not in text and "xargs" not in text:
        return False
    return search(entry, " ".join(cmd.argv))


def _writes(spec: dict[str, Any], cmd: Command) -> bool:
    """Whether a file the command writes matches (``/dev/./sda`` is ``/dev/sda``)."""
    for target in cmd.writes:
        names = [target]
        if target.startswith("/"):
            names.append(os.path.normpath(target).replace("//", "/"))
        if any(glob_match(g, name) for g in spec["writes"] for name in names):
            return True
    return False


def _writes_only(spec: dict[str, Any], cmd: Command) -> bool:
    if any(spec[k] for k in ("flags", "any_flags", "args", "regex")):
        return False
    return _writes(spec, cmd)


def _could_match(spec: dict[str, Any], cmd: Command) -> str | None:
    """Why a command with words known only when it runs could match (maybe.py)."""
    if not cmd.argv or not _program_matches(spec, cmd):
        return None
    from hookwise.policy.rules.maybe import could_match

    present, positional = _options(cmd)
    return could_match(
        spec,
        cmd,
        present=present,
        positional=positional,
        canonical=_canonical,
        glob_match=glob_match,
        search=search,
    )


def _pattern_args(spec: dict[str, Any], cmd: Command, ev: Event, index: int) -> str | None:
    """Why a command whose patterns bash expands could match the rule's ``args`` (the
    rest of the rule matching as written): maybe.pattern_args."""
    if not _command_matches({**spec, "args": []}, cmd):
        return None
    from hookwise.policy.rules.maybe import pattern_args

    deep = ev.script is not None and "globstar" in ev.script.globopts
    where = _glob_directory(ev, index)
    return pattern_args(spec, cmd, _options(cmd)[1], glob_match, where, deep=deep)


MAX_VARIANTS = 64  # commands a loop's "$f" words make, judged one by one (_choices_match)


def _choices_match(
    spec: dict[str, Any],
    cmd: Command,
    ev: Event,
    index: int,
    *,
    could: dict[int, str],
    maybe: list[str] | None,
) -> bool:
    """Whether a command whose ``"$f"`` words are a loop's names or patterns
    (``Command.choices``) matches: the loop runs it with each of them, so each value is
    a command of its own, judged as written (a pattern as bash expands it). Past
    MAX_VARIANTS, judged by the words' shapes as any unknown word."""
    from itertools import product

    slots = sorted(cmd.choices or {})
    options = [(cmd.choices or {})[at] for at in slots]
    count = 1
    for values in options:
        count *= len(values)
    if count > MAX_VARIANTS:
        options = []
    for picked in product(*options) if options else [None]:
        variant = cmd if picked is None else cmd.variant(dict(zip(slots, picked, strict=True)))
        if _command_matches(spec, variant):
            return True
        if maybe is None or index in could:
            continue
        why = None
        if variant.shapes is not None:
            why = _could_match(spec, variant)
        elif variant.globs and spec["args"]:
            why = _pattern_args(spec, variant, ev, index)
        if why is not None:
            could[index] = f"{' '.join(variant.argv)[:80]}: {why}"
    return False


# glob options after which a pattern still selects the names glob.glob finds (nullglob and
# failglob only change what happens with none; globstar's ** is globbed recursively)
_SAME_NAMES = frozenset(["globstar", "nullglob", "failglob"])


def _glob_directory(ev: Event, index: int) -> str | None:
    """Where bash will expand the patterns of the ``index``-th command as the disk is now,
    or None when the line can change what they match before they are expanded: something
    on it writes or copies files, runs beside the rest, comes before the command (other
    than ``cd``) or sets a glob option, or the directory is known only when it runs."""
    script = ev.script
    if script is None or script.written or script.copies or script.concurrent:
        return None
    if script.globopts - _SAME_NAMES:  # shopt -s nocaseglob, extglob...: bash reads otherwise
        return None
    commands = script.commands
    if any(c.argv[:1] not in (["cd"], ["pushd"]) for c in commands[:index]):
        return None
    home = ev.env.get("HOME") or ""
    return canonical.command_dirs(commands, ev.shell_cwd, home, None, ev.env.get("CDPATH"))[index]


def _m_command(
    specs: list[dict[str, Any]],
    ev: Event,
    trace: list[Any] | None,
    maybe: list[str] | None = None,
) -> set[int] | None:
    """The indices of the simple commands that match (None: no match). ``maybe``: where
    to say why commands could match once their unknown words are known; their indices
    are then returned (the caller knows the match is not certain)."""
    script = ev.script
    if script is None:
        _note(trace, "command", False, "not a shell command")
        return None
    line = ev.command or ""
    hits: set[int] = set()
    could: dict[int, str] = {}
    for spec in specs:
        if spec["line_regex"] and not all(search(entry, line) for entry in spec["line_regex"]):
            continue
        needs_segment = (
            spec["program"] is not None
            or bool(spec["flags"])
            or bool(spec["any_flags"])
            or bool(spec["args"])
            or bool(spec["regex"])
            or bool(spec["writes"])
            or spec.get("reads") is not None
        )
        if not needs_segment:
            hits.update(range(len(script.commands)) or [-1])
            continue
        for index, cmd in enumerate(script.commands):
            if cmd.choices is not None and _choices_match(
                spec, cmd, ev, index, could=could, maybe=maybe
            ):
                hits.add(index)
            elif cmd.choices is not None:
                continue  # (every value it can take was judged)
            elif _command_matches(spec, cmd):
                hits.add(index)
            elif cmd.shapes is not None and maybe is not None and index not in could:
                why = _could_match(spec, cmd)
                if why is not None:
                    could[index] = f"{' '.join(cmd.argv)[:80]}: {why}"
            elif cmd.globs and spec["args"] and maybe is not None and index not in could:
                why = _pattern_args(spec, cmd, ev, index)
                if why is not None:
                    could[index] = f"{' '.join(cmd.argv)[:80]}: {why}"
    if not hits:
        if could and maybe is not None:
            maybe += could.values()
            if trace is not None:
                _note(
                    trace, "command", False, "could match once known: " + "; ".join(could.values())
                )
            return set(could)
        if trace is not None:
            names = "; ".join(" ".join(c.argv) for c in script.commands) or "(nothing)"
            _note(trace, "command", False, f"no simple command matches: {names}")
        return None
    if trace is not None:
        texts = [script.commands[i].text for i in sorted(hits) if 0 <= i < len(script.commands)]
        _note(trace, "command", True, "matches " + " | ".join(texts))
    return hits


def _glob_path(entry: tuple[Any, bool, bool], ref: PathRef) -> bool:
    compiled, slashy, absolute = entry
    if absolute:
        return ref.absolute is not None and glob_match(compiled, ref.absolute)
    if slashy:
        return ref.relative is not None and glob_match(compiled, ref.relative)
    parts = _parts(ref.relative or ref.absolute or ref.raw)
    if type(compiled) is str:  # one literal name (the cache stores it as its text)
        return compiled in parts
    for part in parts:  # noqa: SIM110 - no generator on the engine's hottest path
        if glob_match(compiled, part):
            return True
    return False


_PARTS: dict[str, tuple[str, ...]] = {}


def _parts(path: str) -> tuple[str, ...]:
    """The names of ``path``: split once per path, not once per rule that globs them
    (bounded: processes that decide many events see many paths)."""
    parts = _PARTS.get(path)
    if parts is None:
        if len(_PARTS) > 4096:
            _PARTS.clear()
        parts = _PARTS[path] = tuple([part for part in path.split("/") if part])
    return parts


def _any_path(globs: list[tuple[Any, bool, bool]], ref: PathRef, reach: bool = True) -> bool:
    """Whether ``ref`` matches one of the globs; ``reach``: or a pattern or a tree it
    names can take in one of the paths they match (not for an exclusion: a pattern is
    excluded only as the path it is)."""
    for entry in globs:
        if _glob_path(entry, ref):
            return True
    if reach and (ref.pattern or ref.tree):
        from hookwise.policy.rules.maybe import reaches

        for entry in globs:  # ~/.ss*/id_*, grep -r x ~: what it reads takes these in
            if reaches(entry, ref, glob_match):
                return True
    return False


def _path_matches(spec: dict[str, Any], ref: PathRef) -> bool:
    if spec["exclude"] and _any_path(spec["exclude"], ref, False):
        return False
    if spec["globs"] or spec["extensions"]:
        hit = _any_path(spec["globs"], ref)
        if not hit and spec["extensions"]:
            name = (ref.absolute or ref.raw).rsplit("/", 1)[-1].lower()
            hit = any(name.endswith(ext.lower()) for ext in spec["extensions"])
        if not hit:
            return False
    outside = spec["outside"]
    if outside and ref.absolute is None and spec.get("known"):
        return False  # (known_paths_only: an unresolvable word is not taken as outside)
    return outside is None or ref.outside == outside


def _m_files(
    spec: dict[str, Any],
    ev: Event,
    segments: set[int] | None,
    trace: list[Any] | None,
    maybe: list[str] | None = None,
) -> bool | None:
    """True: a path matches; None: only a path known when it runs could (said in
    ``maybe``); False: no path can."""
    refs = ev.paths
    if segments is not None:
        refs = [r for r in refs if r.command < 0 or r.command in segments]
    if spec.get("operands"):  # (operands_only: rm -f x 2>/dev/null deletes x alone)
        refs = [r for r in refs if not r.redirect]
    if not refs:
        return _note(trace, "files", False, "the event names no path")
    for ref in refs:
        if _path_matches(spec, ref) and not _kept(spec, ref, trace):
            if trace is not None:
                trace.append(("files", True, f"{ref.relative or ref.absolute or ref.raw} matches"))
            return True
    for ref in refs:  # (both names: a link is judged as what it reaches too)
        real = canonical.resolved(ref, ev.cwd or "")
        if real is not None and _path_matches(spec, real) and not _kept(spec, ref, None):
            if trace is not None:
                shown = real.relative or real.absolute
                trace.append(("files", True, f"{ref.raw} (a link to {shown}) matches"))
            return True
    if maybe is not None and not spec.get("known"):
        for ref in refs:
            if ref.shape is not None and _could_be_path(spec, ref, ev):
                if ref.shape[0][0] == "K":  # canonical.swappable_link
                    maybe.append(
                        f"`{ref.raw}` goes through the link {ref.shape[0][1]}, which this "
                        "session can change before the file is opened: it could be one of "
                        "its files"
                    )
                    _note(trace, "files", False, f"`{ref.raw}` goes through a changeable link")
                    return None
                maybe.append(f"`{ref.raw}` could be one of its files")
                _note(trace, "files", False, f"`{ref.raw}` could be one of its files once known")
                return None
        for ref in refs:
            held = _tree_holds(spec, ref, ev) if ref.tree and ref.absolute else None
            if held is not None:  # grep -r x . where ./.env is (red team s28 F, G)
                from hookwise.policy.rules.trees import why

                maybe.append(why(ref.raw, held))
                _note(trace, "files", False, f"`{ref.raw}` holds {held}")
                return None
    if trace is not None:
        shown = ", ".join(r.relative or r.absolute or r.raw for r in refs[:8])
        trace.append(("files", False, f"no path matches: {shown}"))
    return False


def _kept(spec: dict[str, Any], ref: PathRef, trace: list[Any] | None) -> bool:
    """A copy's, move's or link's source whose every new name this rule guards as well
    (``mv .env .env.bak``): the content stays under the rule, so it is not read for it
    (rules/kept.py)."""
    if ref.kept is None or not all(_path_matches(spec, kept) for kept in ref.kept):
        return False
    if trace is not None:
        names = ", ".join(kept.relative or kept.raw for kept in ref.kept)
        _note(trace, "files", False, f"{ref.raw} stays under this rule's files as {names}")
    return True


def _tree_holds(spec: dict[str, Any], ref: PathRef, ev: Event) -> str | None:
    """A file of the rule under a tree the command reads recursively (rules/trees.py)."""
    from hookwise.policy.rules.trees import configured, held_file

    script = ev.script
    command = script.commands[ref.command] if script is not None and ref.command >= 0 else None
    where = (ev.shell_cwd or ev.cwd or "", ev.env.get("HOME") or "")
    cache = ev.trees
    # a file past the look could be the rule's where a glob names a file anywhere (.env);
    # an absolute one (~/.ssh/**) reaches into the tree or not: _any_path's own answer
    unseen = any(not absolute for _c, _s, absolute in spec["globs"]) or bool(spec["extensions"])
    options = configured(command, script, ev.env)  # (rg: RIPGREP_CONFIG_PATH)
    made = _links_made(script.commands[: ref.command], where) if script is not None else []
    return held_file(
        ref,
        command,
        where,
        lambda found: _path_matches(spec, found),
        cache,
        unseen=unseen,
        configured=options,
        made=made,
    )


def _links_made(commands: list[Any], where: tuple[str, str]) -> list[tuple[str, str]]:
    """The symbolic links ``ln -s SOURCE LINK`` commands make (absolute: link, what it
    reaches), for a tree read later on the line that follows links (rules/trees.py)."""
    made: list[tuple[str, str]] = []
    for command in commands:
        if command.program != "ln":
            continue
        options = [w for w in command.argv[1:] if w.startswith("-") and w != "-"]
        if not any(w == "--symbolic" or (w[1:2] != "-" and "s" in w) for w in options):
            continue
        operands = [w for w in command.argv[1:] if not w.startswith("-") or w == "-"]
        if len(operands) != 2:
            continue
        link = canonical.resolve_path(operands[1], where[0], where[1]).absolute
        if link is None:
            continue
        parent = link.rsplit("/", 1)[0] or "/"
        source = operands[0]
        if not source.startswith(("/", "~")):
            source = os.join(parent, source)
        reached = canonical.resolve_path(source, where[0], where[1]).absolute
        if reached is not None:
            made.append((link, reached))
    return made


def _could_be_path(spec: dict[str, Any], ref: PathRef, ev: Event) -> bool:
    from hookwise.policy.rules.maybe import could_be_file

    return could_be_file(spec, ref, ev, _any_path)


def _has_word(text: str, word: str) -> bool:
    start = 0
    while True:
        at = text.find(word, start)
        if at < 0:
            return False
        end = at + len(word)
        before = text[at - 1] if at > 0 else " "
        after = text[end] if end < len(text) else " "
        if not (before.isalnum() or before == "_") and not (after.isalnum() or after == "_"):
            return True
        start = at + 1


def _m_text(name: str, spec: dict[str, Any], text: str | None, trace: list[Any] | None) -> bool:
    if text is None:
        return _note(trace, name, False, f"the event has no {name}")
    subject = text if spec["cs"] else text.lower()
    results = [search(entry, text) for entry in spec["regex"]]
    results += [_has_word(subject, w) for w in spec["words"]]
    results += [c in subject for c in spec["contains"]]
    ok = all(results) if spec["all"] else any(results)
    return _note(trace, name, ok, f"{sum(results)} of {len(results)} patterns found")


def match_rule(
    rule: dict[str, Any],
    ev: Event,
    trace: list[Any] | None = None,
    maybe: list[str] | None = None,
) -> bool:
    """Whether every matcher of ``rule`` holds for ``ev``; ``trace`` collects the reasons,
    ``maybe`` why it could hold once words known only when it runs are known."""
    return _match(rule, ev, trace, maybe) is not None


_ALL: set[int] = {-2}  # "every command": the rule has no command matcher (by identity)


def _match(
    rule: dict[str, Any], ev: Event, trace: list[Any] | None, maybe: list[str] | None = None
) -> set[int] | None:
    """None when ``rule`` does not match; else the indices of the simple commands it
    matched (``_ALL`` when it has no command matcher). ``maybe``: where the reasons go
    when it matches only if unknown words are what it needs (then None is returned)."""
    if maybe is None:
        return _match_all(rule, ev, trace, None)
    found: list[str] = []
    segments = _match_all(rule, ev, trace, found)
    if found:
        if segments is not None and maybe is not None:
            maybe += found
        return None
    return segments


def _match_all(
    rule: dict[str, Any], ev: Event, trace: list[Any] | None, maybe: list[str] | None
) -> set[int] | None:
    m = rule["m"]
    if "host" in m and not _m_host(m["host"], ev, trace):
        return None
    if "tool" in m and not _m_tool(m["tool"], ev, trace):
        return None
    if "tool_regex" in m and not _m_tool_regex(m["tool_regex"], ev, trace):
        return None
    if "host_tool" in m and not _m_host_tool(m["host_tool"], ev, trace):
        return None
    if "mcp" in m and not _m_mcp(m["mcp"], ev, trace):
        return None
    segments: set[int] | None = None
    if "command" in m:
        segments = _m_command(m["command"], ev, trace, maybe)
        if segments is None:
            return None
    if "files" in m:
        held = _m_files(m["files"], ev, segments, trace, maybe)
        if held is False or (held is None and not maybe):
            return None
    if "prompt" in m and not _m_text("prompt", m["prompt"], ev.prompt, trace):
        return None
    if "response" in m and not _m_text("response", m["response"], ev.response, trace):
        return None
    if "fields" in m:
        ok = _condition(m, "fields", ev)
        if trace is not None:
            trace.append(("fields", ok, "field conditions hold" if ok else "a condition fails"))
        if not ok:
            return None
    if "when" in rule:
        ok = _condition(rule, "when", ev)
        if trace is not None:
            trace.append(("when", ok, f"{rule.get('when_src', '')} is {str(ok).lower()}"))
        if not ok:
            return None
    return _ALL if segments is None else segments


# ----------------------------------------------------------------------------- decision


class Decision:
    """What the matching rules decided, host-independent; adapters encode it."""

    __slots__ = (
        "allow_rule",
        "approval_withheld",
        "ask_fallback",
        "contexts",
        "decision",
        "errors",
        "messages",
        "notes",
        "reason",
        "records",
        "relay",
        "retry",
        "retry_rule",
        "rewrite_rules",
        "rule",
        "stop",
        "stop_rule",
        "unapproved_rewrite",
        "updated_input",
        "validator_s",
        "warnings",
    )

    def __init__(self) -> None:
        self.decision: str | None = None  # "deny" | "ask" | "allow" | None
        self.reason = ""
        self.rule: str | None = None  # the rule that decided
        self.allow_rule: str | None = None  # an explicit allow rule
        self.approval_withheld = False  # allow/rewrite rules did not cover the whole call
        self.ask_fallback: str | None = None
        self.relay = True  # an ask may go to settings.approvals (rule key ``relay``)
        self.updated_input: dict[str, Any] | None = None  # host keys
        # the decision is an ask only because the rewrite's rules do not approve the whole
        # call: a host that applies a rewrite without a decision gets it undecided
        self.unapproved_rewrite = False
        self.validator_s = 0.0  # seconds the validators have used (validator.TOTAL_BUDGET_S)
        self.rewrite_rules: list[str] = []
        self.contexts: list[str] = []
        self.messages: list[str] = []
        self.warnings: list[str] = []
        self.stop: str | None = None
        self.stop_rule: str | None = None
        self.retry: str | None = None
        self.retry_rule: str | None = None
        self.records: list[dict[str, Any]] = []  # one per matching rule
        self.notes: list[str] = []  # what a host could not deliver
        self.errors: list[str] = []

    def ask_for(self, rule: dict[str, Any], reason: str) -> None:
        """``rule`` asks, unless a deny or an ask decided first."""
        if self.decision in (None, "allow"):
            self.decision = "ask"
            self.reason = reason
            self.rule = rule["id"]
            self.ask_fallback = rule.get("ask_fallback")
            self.relay = rule.get("relay", True)

    def as_dict(self) -> dict[str, Any]:
        return {
            "decision": self.decision,
            "reason": self.reason,
            "rule": self.rule,
            "updated_input": self.updated_input,
            "contexts": list(self.contexts),
            "messages": list(self.messages),
            "warnings": list(self.warnings),
            "stop": self.stop,
            "retry": self.retry,
            "rules": list(self.records),
            "notes": list(self.notes),
            "errors": list(self.errors),
        }


def _counters(state: State) -> RetryState | None:
    """The retry counters ``state`` holds or makes."""
    return state() if callable(state) else state


def _reason(rule: dict[str, Any]) -> str:
    """What the agent and the person are told when ``rule`` blocks or asks."""
    text = rule.get("reason") or rule.get("description")
    return str(text) if text else f"blocked by policy rule {rule['id']!r}"


def candidates(bucket: dict[str, Any] | None, ev: Event) -> list[int]:
    """The positions of the rules that could match ``ev``, in evaluation order."""
    if bucket is None:
        return []
    found: list[int] = list(bucket["any"])
    if ev.tool is not None:
        tools = bucket["tool"]
        if tools:
            found += tools.get(ev.tool, ())
            if ev.host_tool and ev.host_tool != ev.tool:
                found += tools.get(ev.host_tool, ())
            also = ev.acts_as
            if also is not None:
                found += tools.get(also, ())
        if ev.tool == canonical.SHELL:
            found += bucket["shell"]
            programs = bucket["prog"]
            arguments = bucket["arg"]
            script = ev.script
            if (programs or arguments) and script is not None:
                if any(cmd.unknown_program for cmd in script.commands):
                    for positions in programs.values():
                        found += positions
                    for words in arguments.values():
                        for positions in words.values():
                            found += positions
                else:
                    for cmd in script.commands:
                        found += programs.get(cmd.program, ())
                        words = arguments.get(cmd.program)
                        if not words or not cmd.argv:
                            continue
                        if cmd.unknown_args or cmd.shapes:  # any word could be the rule's
                            for positions in words.values():
                                found += positions
                        else:
                            for word in _options(cmd)[1]:
                                found += words.get(word, ())
            literals = bucket["lit"]
            if literals:
                line = ev.command or ""
                lowered = line.lower() if line.isascii() else None
                for key, positions in literals.items():
                    if key[0] == "=":
                        if key[1:] in line:
                            found += positions
                    elif lowered is None or key[1:] in lowered:
                        found += positions
        if bucket["mcp"] and ev.mcp is not None:
            found += bucket["mcp"]
    if len(found) > 1:
        found = sorted(set(found))
    return found


def evaluate(
    policy: dict[str, Any],
    events: list[Event],
    state: State = None,
    run_validators: bool = True,
    guard: Any = None,
) -> Decision:
    """Evaluate every rule indexed for the events' canonical names; one decision.

    ``guard``: a :class:`hookwise.policy.trust.protect.Guard` for the events' env, cwd and this
    policy's files, kept by a caller that decides many events (the framework Gate), so
    the protected paths are worked out once rather than per event."""
    rules = policy["rules"]
    index = policy["index"]
    settings = policy["settings"]
    approving, blocking = _action_kinds(policy)
    timed = sys.modules.get("hookwise.policy.rules.timed_regex")
    if timed is not None:  # loaded by an earlier evaluation: a fresh budget for this one
        timed.reset_budget()
    decision = Decision()
    builtin_checks(policy, events, decision, guard)
    hits: list[tuple[int, Event]] = []
    covers: list[tuple[Event, set[int] | None, set[int] | None]] = []
    seen: set[int] = set()
    unsure: list[tuple[int, Event, list[str]]] = []
    guessed: dict[int, str] = {}
    for ev in events:
        qualified = f"{ev.host}:{ev.host_event}"
        script = ev.script if ev.tool == canonical.SHELL else None
        # a word known only when it runs (commands.shapes): a rule may then only maybe match
        unknown = (
            script is not None and any(c.shapes or c.globs for c in script.commands)
        ) or any(  # (patterns: pattern_args)
            r.shape is not None  # after a cd known only when it runs, or a swappable link
            or r.tree  # what a tree holds: found by looking (trees.py)
            for r in ev.paths
        )
        for position in candidates(index.get(ev.name), ev):
            if position in seen:
                continue
            rule = rules[position]
            allowed = rule["on"][ev.name]
            if allowed is not None and qualified not in allowed:
                continue
            # a blocking rule that words known only when the command runs could make
            # match: the command is unverifiable for it
            maybe: list[str] | None = (
                []
                if unknown and rule["action"] in _GUARDING and rule["mode"] == "enforce"
                else None
            )
            segments = _match(rule, ev, None, maybe)
            if segments is not None:
                seen.add(position)
                hits.append((position, ev))
                if script is not None and segments is not _ALL and segments:
                    word = _guessed_program(script.commands, segments)
                    if word is not None:  # $(echo cat) .env: it matched as what it could be
                        guessed[position] = word
                if rule["action"] in approving and rule["mode"] == "enforce":
                    covers.append(_cover(rule, ev, segments))
            elif maybe:
                unsure.append((position, ev, maybe))
        if ev.name in GATED and ev.tool is not None and ev.tool not in canonical.CANONICAL_TOOLS:
            unsure += _as_file_tool(rules, index, ev, seen, qualified)
        if ev.name in GATED and (
            (ev.host_tool or "").startswith("mcp_") or canonical.MCP_CALL in ev.payload
        ):
            unsure += _mcp_unsure(rules, ev, seen, qualified)
    hits.sort(key=lambda hit: hit[0])
    stop_events = [ev for ev in events if ev.name == canonical.AGENT_STOP]
    for position, ev in hits:
        _apply(rules[position], ev, decision, settings, state=state, blocking=blocking,
               run_validators=run_validators, guessed=guessed.get(position))  # fmt: skip
    if unsure and decision.decision != "deny":
        from hookwise.policy.rules.maybe import unverifiable_for

        unverifiable_for(
            rules, unsure, decision, settings, builtin=_builtin, rule_id=UNVERIFIABLE_ID
        )
    if decision.decision != "deny":
        for ev in events:
            if ev.mcp_args is not None and ev.name in GATED:
                _mcp_unaccounted(ev, decision, settings)
    if state is not None:
        session = events[0].session if events else ""
        if any(ev.name == canonical.PROMPT for ev in events) or (
            stop_events and decision.retry is None
        ):
            counters = _counters(state)
            if counters is not None:
                counters.reset(session)
    if decision.allow_rule is not None or decision.rewrite_rules:
        from hookwise.policy.rules.approval_cover import uncovered

        withheld = uncovered(covers)
        if withheld is not None:
            decision.notes.append(withheld)
            decision.allow_rule = None
            decision.approval_withheld = True
            if decision.decision is None:
                decision.reason = ""
    if decision.decision != "deny" and decision.rewrite_rules:
        from hookwise.policy.rules.rewrite import finish_rewrite

        finish_rewrite(policy, events, hits, decision, _blockers)
    if decision.decision is None and decision.allow_rule is not None:
        decision.decision = "allow"
    return decision


def _as_file_tool(
    rules: list[dict[str, Any]], index: dict[str, Any], ev: Event, seen: set[int], qualified: str
) -> list[tuple[int, Event, list[str]]]:
    """The guarding ``tool: read|write|edit`` rules that would hold for a tool the host
    tables do not map, were it that tool, on the files it names (rules/unmapped.py); a
    ``files`` rule on no tool holds for a name the event's paths leave out (a nested one:
    red team s29 F8) as well, unverifiable as in the proxy."""
    if not ev.raw_input:
        return []
    from hookwise.policy.rules import unmapped

    found: list[tuple[int, Event, list[str]]] = []
    taken: set[int] = set()
    for reading in unmapped.file_tool_readings(ev):
        for position in candidates(index.get(ev.name), reading):
            rule = rules[position]
            if position in seen or position in taken:
                continue
            if "tool" not in rule["m"] and "files" not in rule["m"]:
                continue
            if rule["action"] not in _GUARDING or rule["mode"] != "enforce":
                continue
            allowed = rule["on"][ev.name]
            if allowed is not None and qualified not in allowed:
                continue
            if _match(rule, reading, None) is not None:
                taken.add(position)
                found.append((position, ev, [unmapped.why(ev, reading)]))
    return found


def _mcp_unsure(
    rules: list[dict[str, Any]], ev: Event, seen: set[int], qualified: str
) -> list[tuple[int, Event, list[str]]]:
    """The guarding rules on an MCP server or tool that hold for another reading of a name
    that does not say its server (rules/mcp_unsure.py: Gemini CLI without mcp_context, a
    host's name it may have changed or that names no server)."""
    host_tool = ev.host_tool or ""
    call = ev.payload.get(canonical.MCP_CALL)
    if call is None and (host_tool.startswith("mcp__") or "mcp_context" in ev.payload):
        return []
    if isinstance(call, dict) and not (call.get("why") or call.get("keeps")):
        readings = call.get("readings") or []
        if len(readings) == 1 and all(readings[0]):  # the name tells both: nothing unsure
            return []
    from hookwise.policy.rules.mcp_unsure import mcp_unsure

    def guarding(rule: dict[str, Any]) -> bool:
        if rule["action"] not in _GUARDING or rule["mode"] != "enforce":
            return False
        if ev.name not in rule["on"]:
            return False
        allowed = rule["on"][ev.name]
        return allowed is None or qualified in allowed

    return mcp_unsure(
        rules, ev, seen, guarding, lambda rule, other: _match(rule, other, None) is not None
    )


def _mcp_unaccounted(ev: Event, decision: Decision, settings: dict[str, Any]) -> None:
    """An MCP tool whose arguments the rules cannot account for (``arg_roles.unaccounted``,
    the proxy's reading: two keys for one role, a path under a key no rule reads, a shell
    tool without its command; for a tool the tables do not map, a path-like value under a
    key no rule reads) is unverifiable, as the proxy decides it (``settings.unverifiable``:
    ask by default)."""
    from hookwise.policy.arg_roles import unaccounted

    tool = ev.tool or ""
    mapped = tool in canonical.CANONICAL_TOOLS
    args = ev.mcp_args or {}
    moves = mapped and tool in ("write", "edit") and canonical.moves_files(ev.host_tool or "")
    why = unaccounted(tool, args, mapped=mapped, moves=moves)
    if why is None and tool == canonical.SHELL and ev.command is None:
        shown = ", ".join(sorted(map(str, args))) or "none"
        why = (
            f"no command among its arguments ({shown}); expected 'command', 'cmd', "
            "'script' or a single string argument"
        )
    verdict = str(settings.get("unverifiable", "ask"))
    if why is None or verdict not in ("ask", "deny") or decision.decision == verdict:
        return
    kind = f"a {tool} tool" if mapped else "a tool the host tables do not map"
    reason = f"hookwise cannot verify this call of {ev.host_tool!r} ({kind}): {why}"
    _builtin(decision, ev, UNVERIFIABLE_ID, verdict, reason)


def _action_kinds(policy: dict[str, Any]) -> tuple[frozenset[str], frozenset[str]]:
    """(approving, blocking) action names, as the compiler wrote them from the action table
    (rules/actions.py), which the hook then never builds; a policy not made by the compiler
    reads the table."""
    kinds = policy.get("actions")
    if kinds is None:
        from hookwise.policy.rules import actions

        approving, blocking = actions.APPROVING, actions.BLOCKING
    else:
        approving, blocking = frozenset(kinds["approving"]), frozenset(kinds["blocking"])
    return approving, blocking - {"validate"}  # (a validator's verdict is deny or nothing)


_GUARDING = frozenset(["deny", "ask"])


def _guessed_program(commands: list[Command], segments: set[int]) -> str | None:
    """The program word known only when it runs, when every command a rule matched has
    one (the rule matched as what the word could be); None otherwise."""
    word = None
    for index in segments:
        if index >= len(commands) or not commands[index].unknown_program:
            return None
        word = commands[index].argv[0] if commands[index].argv else ""
    return word


def _cover(
    rule: dict[str, Any], ev: Event, segments: set[int]
) -> tuple[Event, set[int] | None, set[int] | None]:
    """What an approving rule covers of ``ev`` (approval_cover.py): the simple commands
    it matched and the paths its ``files`` matcher holds for (None: all of them)."""
    commands = None if segments is _ALL else segments
    if "files" not in rule["m"]:
        return ev, commands, None
    spec = rule["m"]["files"]
    paths: set[int] = set()
    for i, ref in enumerate(ev.paths):
        if commands is not None and ref.command >= 0 and ref.command not in commands:
            continue
        if _path_matches(spec, ref):
            paths.add(i)
    return ev, commands, paths


GATED = frozenset([canonical.TOOL_BEFORE, canonical.PERMISSION_REQUEST])


def builtin_checks(
    policy: dict[str, Any], events: list[Event], decision: Decision, kept: Any = None
) -> None:
    """What hookwise denies before any rule: changes to its own guardrails, and shell
    commands the parser could not finish (``settings.unparsable``). ``kept``: a Guard
    made for these events (see :func:`evaluate`), used when it fits the event."""
    settings = policy["settings"]
    for ev in events:
        if ev.name not in GATED:
            continue
        if settings.get("require_confinement", False):
            from hookwise.policy import confinement

            why = confinement.unconfined_reason(ev.env)
            if why is not None:
                _builtin(decision, ev, confinement.REQUIRE_ID, "deny", why)
                return
        if settings.get("self_protection", True):
            from hookwise.policy.trust import protect

            if kept is not None and kept.env is ev.env and kept.cwd == ev.cwd:
                guard = kept
            else:
                files = [path for _scope, path in policy.get("files", ())]
                guard = protect.Guard(ev.env, files, ev.cwd)
            found = protect.verdict(ev, guard)
            if found is not None and found[0] == "deny":
                _builtin(decision, ev, protect.RULE_ID, "deny", found[1])
                return
            if found is not None and settings.get("unverifiable", "ask") != "allow":
                # unverifiable for self-protection: the checks below may still deny
                _builtin(decision, ev, protect.RULE_ID, str(settings.get("unverifiable", "ask")),
                         found[1])  # fmt: skip
        script = ev.script
        if script is not None and not script.complete:
            verdict = settings.get("unparsable", "deny")
            problems = "; ".join(script.problems) or "it does not parse"
            why = (
                f"hookwise cannot verify this command ({problems}), so it cannot tell what "
                "would run; split it into simpler commands"
            )
            _builtin(decision, ev, UNPARSABLE_ID, str(verdict), why)
            return
        unknown = script.unverifiable if script is not None else []
        verdict = str(settings.get("unverifiable", "ask"))
        if unknown and verdict != "allow":
            why = (
                f"hookwise cannot verify this command: {unknown[0]}"
                + (f" (and {len(unknown) - 1} more)" if len(unknown) > 1 else "")
                + "; write the command out, or set settings.unverifiable"
            )
            _builtin(decision, ev, UNVERIFIABLE_ID, verdict, why)
            return


UNPARSABLE_ID = "hookwise:unparsable"
UNVERIFIABLE_ID = "hookwise:unverifiable"


def _builtin(decision: Decision, ev: Event, rule_id: str, verdict: str, reason: str) -> None:
    decision.decision = verdict
    decision.reason = reason
    decision.rule = rule_id
    decision.records.append(
        {
            "id": rule_id,
            "event": ev.name,
            "action": verdict,
            "mode": "enforce",
            "priority": None,
            "scope": "builtin",
            "outcome": verdict,
        }
    )


def _blockers(
    policy: dict[str, Any], ev: Event, again: Event
) -> Iterator[tuple[dict[str, Any], str]]:
    """The enforced deny and ask rules the rewritten call ``again`` (of ``ev``) matches,
    in evaluation order, with their reasons (rewrite.py); lazily, so a deny ends it."""
    rules = policy["rules"]
    qualified = f"{ev.host}:{ev.host_event}"
    for position in candidates(policy["index"].get(ev.name), again):
        rule = rules[position]
        if rule["mode"] != "enforce" or rule["action"] not in ("deny", "ask"):
            continue
        allowed = rule["on"][ev.name]
        if allowed is not None and qualified not in allowed:
            continue
        if match_rule(rule, again):
            yield rule, _reason(rule)


def _apply(
    rule: dict[str, Any],
    ev: Event,
    decision: Decision,
    settings: dict[str, Any],
    *,
    state: State,
    blocking: frozenset[str],
    run_validators: bool,
    guessed: str | None = None,
) -> None:
    action = rule["action"]
    mode = rule["mode"]
    record: dict[str, Any] = {
        "id": rule["id"],
        "event": ev.name,
        "action": action,
        "mode": mode,
        "priority": rule["priority"],
        "scope": rule["scope"],
    }
    decision.records.append(record)
    if mode == "audit":
        record["outcome"] = "audited"
        return
    effective: str | None = action
    reason = _reason(rule)
    if guessed is not None:  # the reason is the rule's only if the program is its
        reason = (
            f"hookwise cannot tell which program this runs ({guessed} is known only when "
            f"it runs), and it could be one rule {rule['id']!r} blocks: {reason}"
        )
    if action == "validate":
        if decision.decision == "deny":
            record["outcome"] = "skipped (already denied)"
            return
        if not run_validators:
            record["outcome"] = "not run"
            return
        from time import monotonic

        from hookwise.policy.rules.validator import run_validator

        started = monotonic()
        verdict, text = run_validator(rule, ev, settings, decision.validator_s)
        decision.validator_s += monotonic() - started
        record["validator"] = verdict
        if verdict == "pass":
            effective = None
            record["outcome"] = "passed"
        elif verdict == "fail":
            effective = "deny"
            reason = text or reason
        else:
            on_error = rule["validator"].get("on_error", "deny")
            decision.errors.append(f"rule {rule['id']!r}: validator {text}")
            effective = "deny" if on_error == "deny" else None
            reason = f"validator of rule {rule['id']!r} failed to run: {text}"
            record["outcome"] = f"validator error ({on_error})"
    elif action == "retry":
        budget = rule.get("max_retries", settings.get("retry_budget", 3))
        counters = _counters(state)
        used = counters.get(ev.session, rule["id"]) if counters is not None else 0
        if used >= budget:
            effective = None
            record["outcome"] = f"retry budget spent ({used}/{budget})"
            decision.warnings.append(
                f"hookwise: rule {rule['id']!r} sent the agent back {used} times; letting it stop"
            )
    if effective in blocking and mode == "warn":
        decision.warnings.append(f"hookwise: rule {rule['id']!r} would {effective}: {reason}")
        record["outcome"] = "warned"
        effective = None
    if effective == "deny":
        if decision.decision != "deny":
            decision.decision = "deny"
            decision.reason = reason
            decision.rule = rule["id"]
            record["outcome"] = "deny"
        else:
            record["outcome"] = "deny (a higher rule's reason wins)"
    elif effective == "ask":
        decision.ask_for(rule, reason)
        record["outcome"] = "ask"
    elif effective == "allow":
        if decision.allow_rule is None:
            decision.allow_rule = rule["id"]
            if decision.decision is None:
                decision.reason = rule.get("reason") or rule.get("description") or ""
        record["outcome"] = "allow"
    elif effective == "rewrite":
        decision.rewrite_rules.append(rule["id"])
        record["outcome"] = "rewrite"
    elif effective == "stop":
        if decision.stop is None:
            decision.stop = reason
            decision.stop_rule = rule["id"]
        record["outcome"] = "stop"
    elif effective == "retry":
        if decision.retry is None:
            decision.retry = reason
            decision.retry_rule = rule["id"]
            counters = _counters(state)
            if counters is not None:
                counters.bump(ev.session, rule["id"])
        record["outcome"] = "retry"
    elif effective in ("context", "message"):
        record["outcome"] = effective
    if "context" in rule:
        decision.contexts.append(rule["context"])
    if "message" in rule:
        decision.messages.append(rule["message"])
