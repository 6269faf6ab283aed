"""What :func:`hookwise.policy.cache.load_policy` returns: a compiled policy and where it
came from. Its own module: the hook reads the same facts as a tuple
(``cache.compiled_policy``), so its process never creates this class."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class Loaded:
    """A compiled policy and where it came from."""

    __slots__ = ("cache_file", "compiled_now", "files", "policy")

    def __init__(
        self, policy: dict[str, Any], files: list[tuple[str, str]], cache_file: str, now: bool
    ) -> None:
        self.policy = policy
        self.files = files
        self.cache_file = cache_file
        self.compiled_now = now
