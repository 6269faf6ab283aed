"""Command hooks a host starts and does not wait for (``async: true``: Codex, Claude Code).

Recorded on Codex 0.169 (tests/e2e/fixtures/codex-handlers): such a hook gets its input and
runs in the background; its exit code and answer reach neither the event nor the model, even
when it is done before the next model request; and it is ended when the session ends (a hook
still sleeping when ``codex exec`` finished never finished). ``DetachedHooks`` runs each
through the one process runner on a thread of its own (bounded by the hook's timeout, its
whole process group killed then) and ``end()`` kills the ones still running; so does the
interpreter's exit (``atexit``), as the host's exit does, for an application that never
ends its session.

Claude Code 2.1.330 (tests/e2e/fixtures/claude-async) is the same but for one thing: a
background hook that has finished hands its ``additionalContext`` to the next model request.
``start(..., keep=event)`` keeps such a hook's result for ``take_finished()``.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import threading
import weakref

from hookwise.host.process import ProcessResult, ProcessSpec, arun_process

NOTE = "started in the background: the host neither waits for it nor reads its answer"
_LIVE: weakref.WeakSet[DetachedHooks] = weakref.WeakSet()


@atexit.register
def _end_all() -> None:
    for hooks in list(_LIVE):
        hooks.end(wait_s=2.0)


class DetachedHooks:
    """The session's background hooks, until they end or the session does."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: dict[int, tuple[asyncio.AbstractEventLoop, asyncio.Task[object]]] = {}
        self._threads: list[threading.Thread] = []
        self._finished: list[tuple[str, ProcessResult]] = []
        self._ended = False
        _LIVE.add(self)

    def start(self, spec: ProcessSpec, keep: str | None = None) -> None:
        """Run ``spec`` in the background (nothing once the session has ended); ``keep``:
        the event whose result ``take_finished`` hands over once it is done."""
        with self._lock:
            if self._ended:
                return
            self._threads = [t for t in self._threads if t.is_alive()]
            thread = threading.Thread(
                target=self._run, args=(spec, keep), name="hookwise-async-hook", daemon=True
            )
            self._threads.append(thread)
            thread.start()

    def _run(self, spec: ProcessSpec, keep: str | None) -> None:
        async def main() -> None:
            task = asyncio.current_task()
            assert task is not None
            key = id(task)
            with self._lock:
                if self._ended:
                    return
                self._running[key] = (asyncio.get_running_loop(), task)
            try:
                result = await arun_process(spec)  # cancelling it kills its process group
            except asyncio.CancelledError:
                return  # ended with the session: nothing of it is read
            finally:
                with self._lock:
                    self._running.pop(key, None)
            if keep is not None:
                with self._lock:
                    if not self._ended:
                        self._finished.append((keep, result))

        asyncio.run(main())

    def take_finished(self) -> list[tuple[str, ProcessResult]]:
        """The kept hooks done since the last call (event, result), oldest first."""
        with self._lock:
            done, self._finished = self._finished, []
        return done

    def running(self) -> int:
        with self._lock:
            return len(self._running)

    def end(self, wait_s: float = 10.0) -> None:
        """The session ends: every background hook still running is killed."""
        with self._lock:
            self._ended = True
            running = list(self._running.values())
            threads = list(self._threads)
        for loop, task in running:
            with contextlib.suppress(RuntimeError):  # its loop closed: the hook has finished
                loop.call_soon_threadsafe(task.cancel)
        for thread in threads:
            thread.join(wait_s)
