"""From the guarded paths to the mounts that protect them, computed outside, before the start.

Three kinds of mount, made in this order inside the new mount namespace:

- **pins**: every directory and symlink on the way to a guarded path is bound onto itself,
  outermost first. A mount point cannot be renamed or removed (EBUSY), so no guarded file
  can be taken out from under its protection by moving a parent and putting a look-alike in
  its place; a symlink on the way is pinned the same way (bound onto itself through an
  ``O_PATH`` descriptor), and the path it points to is followed and pinned in turn.
- **read-only binds**: each guarded file or directory (where its symlinks lead) bound onto
  itself and made read-only, recursively for a directory.
- **hides**: an empty directory or file, read-only, bound over what must not be reachable
  (IPC sockets of unconfined processes; secrets with ``--protect-secrets``).

A guarded directory hookwise keeps state in may hold a symlink to a file elsewhere; its
target is guarded too.
"""

from __future__ import annotations

import os
import stat

from hookwise.run.guarded_paths import HOST, STATE, Guarded

MAX_LINKS = 40  # as the kernel: more symlinks on one path is a loop


class PlanError(OSError):
    """A guarded path that cannot be protected (a dangling symlink, a loop)."""


class Hide:
    """A path to cover with an empty directory or file."""

    __slots__ = ("directory", "path", "why")

    def __init__(self, path: str, directory: bool, why: str) -> None:
        self.path = path
        self.directory = directory
        self.why = why


class MountPlan:
    """What the child mounts, in order, and what the supervisor checks before it starts."""

    __slots__ = ("hides", "pins", "readonly")

    def __init__(
        self,
        pins: list[tuple[str, bool]],
        readonly: list[tuple[str, Guarded]],
        hides: list[Hide],
    ) -> None:
        self.pins = pins
        """(path, is a symlink), outermost first."""
        self.readonly = readonly
        """(real path, the entry it protects): each bound read-only."""
        self.hides = hides

    def protected(self, path: str) -> bool:
        """Whether ``path`` (a real path) is one of the read-only binds or inside one."""
        return any(
            path == target or path.startswith(target.rstrip("/") + "/")
            for target, _ in self.readonly
        )


def _resolve(
    path: str, pins: dict[str, bool], depth: int = 0, known: dict[str, str] | None = None
) -> str:
    """The real path of ``path``; every directory passed through and every symlink followed
    is added to ``pins`` (parents before children). ``known``: real paths of the names
    already walked in this plan (``candidate`` -> where it leads), so the hundred guarded
    paths under one home do not ``lstat`` the same parents again; only walks at depth 0
    fill it (a name reached through a link keeps the link count of its own walk)."""
    if depth > MAX_LINKS:
        raise PlanError(0, f"{path}: too many levels of symbolic links")
    current = "/"
    parts = [part for part in path.split("/") if part not in ("", ".")]
    for index, name in enumerate(parts):
        last = index == len(parts) - 1
        if name == "..":
            current = os.path.dirname(current)
            continue
        candidate = os.path.join(current, name)
        found = known.get(candidate) if known is not None else None
        if found is not None:  # (its pins were added when it was first walked)
            current = found
        elif os.path.islink(candidate):
            pins.setdefault(candidate, True)
            current = _resolve(os.path.join(current, os.readlink(candidate)), pins, depth + 1)
        else:
            current = candidate
        if known is not None and not last:
            known[candidate] = current
        if not last and current != "/":
            pins.setdefault(current, False)
    return current


def _linked_from(directory: str) -> list[str]:
    """Symlinks directly inside a guarded state directory (where their targets must be
    guarded too)."""
    try:
        return [entry.path for entry in os.scandir(directory) if entry.is_symlink()]
    except OSError:
        return []


def _inside(real: str, outers: set[str]) -> bool:
    """Whether a directory of ``outers`` holds ``real`` (each of its parents looked up:
    the plan's hundred targets compared with each other were most of its time)."""
    cut = len(real)
    while cut > 0:
        cut = real.rfind("/", 0, cut)
        if cut < 0:
            return False
        if (real[:cut] or "/") in outers:
            return True
    return False


def build(entries: list[Guarded], hides: list[Hide]) -> MountPlan:
    """The mounts for ``entries`` (those present: placeholders are made before) and ``hides``."""
    pins: dict[str, bool] = {}
    targets: dict[str, Guarded] = {}
    pending = sorted((e for e in entries if os.path.lexists(e.path)), key=lambda e: e.path)
    seen: set[str] = set()
    known: dict[str, str] = {}
    while pending:
        entry = pending.pop(0)
        if entry.path in seen:
            continue
        seen.add(entry.path)
        real = _resolve(entry.path, pins, known=known)
        try:
            info = os.stat(real)
        except OSError as exc:
            raise PlanError(
                exc.errno,
                f"{entry.path} ({entry.why}) leads to {real}, which cannot be reached: "
                f"{exc.strerror}",
            ) from None
        targets.setdefault(real, entry)
        if stat.S_ISDIR(info.st_mode) and entry.role in (STATE, HOST):
            pending += [Guarded(p, entry.role, f"{entry.why}, linked") for p in _linked_from(real)]
    kept: list[tuple[str, Guarded]] = []
    outers: set[str] = set()
    for real in sorted(targets):
        if not _inside(real, outers):
            kept.append((real, targets[real]))
            outers.add(real)
    return MountPlan(list(pins.items()), kept, [h for h in hides if os.path.lexists(h.path)])
