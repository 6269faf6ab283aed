"""An approval holds only for what its rules cover.

Cold: needed only when an allow or rewrite rule matched (a policy's deny and ask rules,
which are most of them, never approve), so a hook call that only blocks or stays silent
does not load it. Which actions approve: actions.APPROVING. The engine works out what
each approving rule covers (its matchers); this module only decides whether that is the
whole call (it does not import the engine: no import cycle, not even for types).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from hookwise.policy.canonical import Event

    # (event, the simple commands covered or None for all, the paths covered or None for all)
    Cover = tuple[Event, set[int] | None, set[int] | None]


def uncovered(covers: list[Cover]) -> str | None:
    """Why the approval must be withdrawn, or None when it holds: it holds only for what
    its rules cover, every simple command of a shell line (substitutions and ``bash -c``
    scripts included) and every path of the call; otherwise the host decides (a rewrite
    then asks). ``covers``: one entry per matching enforced approving rule."""
    by_event: dict[int, tuple[Event, set[int] | None, set[int] | None]] = {}
    for ev, segments, covered in covers:
        entry = by_event.get(id(ev))
        cmds = entry[1] if entry else set()
        paths = entry[2] if entry else set()
        if cmds is not None:
            cmds = None if segments is None else cmds | segments
        if paths is not None:
            paths = None if covered is None else paths | covered
        by_event[id(ev)] = (ev, cmds, paths)
    for ev, cmds, paths in by_event.values():
        missing: list[str] = []
        script = ev.script
        if cmds is not None and script is not None:
            from hookwise.shell.programs import OPERANDS_ORIGIN

            # a command line read from an unknown program's operands is there for deny
            # and ask rules (shell/commands/operands.py): the program itself is covered
            missing += [
                c.text or " ".join(c.argv)
                for i, c in enumerate(script.commands)
                if i not in cmds and -1 not in cmds and not c.origin.startswith(OPERANDS_ORIGIN)
            ]
        if paths is not None:
            missing += [r.raw for i, r in enumerate(ev.paths) if i not in paths]
        if missing:
            shown = ", ".join(repr(m) for m in missing[:4])
            more = f" and {len(missing) - 4} more" if len(missing) > 4 else ""
            return (
                f"no approval: the allow and rewrite rules do not cover {shown}{more}; "
                "the host decides"
            )
    return None
