"""Built-in rule packs: versioned rule files a policy enables with ``extends:``.

A pack is ``<name>.v<N>.yaml`` in this directory: ordinary policy rules (deny and ask only,
so an untrusted project file may extend it) plus ``pack`` and ``version`` keys. A policy
names ``hookwise/<name>`` (the newest version) or ``hookwise/<name>@<N>`` (that version,
so a stricter release does not change a pinned policy). The loader reads packs when it
compiles a policy; the hook reads only the compiled cache, never these files.
"""

from __future__ import annotations

import os
import re
from typing import Final

PREFIX: Final = "hookwise/"
DIRECTORY: Final = os.path.dirname(os.path.abspath(__file__))
_FILE_RE: Final = re.compile(r"^([a-z][a-z0-9-]*)\.v([0-9]+)\.yaml$")
REFERENCE_RE: Final = re.compile(r"^hookwise/([a-z][a-z0-9-]*)(?:@([0-9]+))?$")


class PackError(ValueError):
    """A reference that names no shipped pack or version."""


def pack_files() -> list[str]:
    """The pack files shipped (names only), for the cache stamp and listings."""
    try:
        return sorted(name for name in os.listdir(DIRECTORY) if _FILE_RE.match(name))
    except OSError:
        return []


def available() -> dict[str, list[int]]:
    """Pack name -> its shipped versions, oldest first."""
    out: dict[str, list[int]] = {}
    for name in pack_files():
        found = _FILE_RE.match(name)
        assert found is not None
        out.setdefault(found.group(1), []).append(int(found.group(2)))
    return {name: sorted(versions) for name, versions in sorted(out.items())}


def resolve(reference: str) -> tuple[str, int, str]:
    """``hookwise/git[@1]`` -> (name, version, file path); PackError says what exists."""
    packs = available()
    listing = ", ".join(f"{PREFIX}{name}" for name in packs)
    found = REFERENCE_RE.match(reference)
    if found is None:
        raise PackError(
            f"{reference!r} is not a pack reference (hookwise/NAME or hookwise/NAME@VERSION; "
            f"packs: {listing})"
        )
    name, pinned = found.group(1), found.group(2)
    if name not in packs:
        raise PackError(f"unknown pack {PREFIX}{name} (packs: {listing})")
    versions = packs[name]
    version = versions[-1] if pinned is None else int(pinned)
    if version not in versions:
        shipped = ", ".join(f"@{v}" for v in versions)
        raise PackError(f"{PREFIX}{name} has no version @{version} (this hookwise has {shipped})")
    return name, version, os.path.join(DIRECTORY, f"{name}.v{version}.yaml")


def rule_id(pack: str, local_id: str) -> str:
    """The id a pack rule has in a policy: ``hookwise/git:no-force-push``."""
    return f"{PREFIX}{pack}:{local_id}"
