"""Retry counters: how many times a retry rule sent the agent back, per session and rule
(the loop guard for agent.stop rules), in memory (:class:`RetryState`) or kept in one small
file per session (:class:`FileRetryState`, the hook's, between its processes).

Cold: the hook makes its counters only for an event that uses them (a prompt, a stop, a
retry rule), so a tool call's process never creates these classes (each costs a cold hook
call about 0.07 M instructions).
"""

from __future__ import annotations

from hookwise.policy import fastjson
from hookwise.policy import os_lite as os  # os without its import cost
from hookwise.policy.safe_files import read_regular, replace_with


class RetryState:
    """Consecutive retries per session and rule (the loop guard for agent.stop rules)."""

    def __init__(self, counts: dict[str, dict[str, int]] | None = None) -> None:
        self.counts: dict[str, dict[str, int]] = counts if counts is not None else {}
        self.dirty = False

    def get(self, session: str, rule_id: str) -> int:
        return self.counts.get(session, {}).get(rule_id, 0)

    def bump(self, session: str, rule_id: str) -> None:
        self.counts.setdefault(session, {})[rule_id] = self.get(session, rule_id) + 1
        self.dirty = True

    def reset(self, session: str) -> None:
        if self.counts.pop(session, None) is not None:
            self.dirty = True


class FileRetryState(RetryState):
    """Retry counters kept in one small file per session under the cache directory."""

    def __init__(self, directory: str) -> None:
        super().__init__()
        self.directory = directory
        self.loaded: set[str] = set()

    def _file(self, session: str) -> str:
        from hookwise.policy.cache import name_hash

        return os.path.join(self.directory, f"retry-{name_hash(session)}.json")

    def _load(self, session: str) -> None:
        if session in self.loaded:
            return
        self.loaded.add(session)
        try:
            data = fastjson.loads(read_regular(self._file(session), 65536).decode("utf-8"))
            if isinstance(data, dict):
                counts = {str(k): int(v) for k, v in data.items() if isinstance(v, int)}
                self.counts[session] = counts
        except (OSError, ValueError):
            pass

    def get(self, session: str, rule_id: str) -> int:
        self._load(session)
        return super().get(session, rule_id)

    def bump(self, session: str, rule_id: str) -> None:
        self._load(session)
        super().bump(session, rule_id)

    def reset(self, session: str) -> None:
        self._load(session)
        super().reset(session)

    def save(self) -> None:
        if not self.dirty:
            return
        for session in self.loaded:
            path = self._file(session)
            counts = self.counts.get(session)
            try:
                if counts:
                    os.makedirs(self.directory, 0o700, exist_ok=True)
                    found = os.lstat(self.directory)
                    if not os.S_ISDIR(found.st_mode) or found.st_uid != os.getuid():
                        return  # (a shared temp directory: another user's, or a link)
                    replace_with(path, fastjson.dumps(counts).encode("utf-8"))
                elif os.path.exists(path):
                    os.unlink(path)
            except OSError:
                pass
