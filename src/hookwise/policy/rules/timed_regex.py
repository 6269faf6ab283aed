"""Policy regexes: compiled on first use, cached, and matched under a time budget.

Cold: needed only when a rule with a regex is a candidate for the event and its required
literal is in the text (engine.search checks that first); most hook calls need neither
this nor :mod:`re`, which is imported here on the first compile. engine.evaluate resets
the budget when it starts, if this module is loaded (before that, it is full).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# All regex matching of one evaluate() shares this budget (seconds). A policy regex can
# backtrack for minutes ((a+)+$ on "aaa...!"), and a hook the host kills lets the tool run;
# past the budget the evaluation raises, and the hook answers as on any internal error
# (deny on tool events). Well under the 10 s the installed hook is given.
MATCH_BUDGET_S = 2.0
_budget = [MATCH_BUDGET_S]  # what is left of it in this evaluation


def reset_budget() -> None:
    """A new evaluation: the whole budget again."""
    _budget[0] = MATCH_BUDGET_S


class MatchTimeoutError(RuntimeError):
    """A policy regex ran past the matching budget."""


def _on_alarm(_signum: int, _frame: Any) -> None:
    raise MatchTimeoutError("timer")


class _Timed:
    """A compiled regex whose matching runs under the budget (SIGALRM interrupts the C
    matcher, which checks for signals); without a usable timer (not the main thread, no
    setitimer) it matches unguarded."""

    __slots__ = ("compiled",)

    def __init__(self, compiled: Any) -> None:
        self.compiled = compiled

    def search(self, text: str) -> Any:
        return self._timed(self.compiled.search, text)

    def sub(self, replacement: Any, text: str) -> Any:
        return self._timed(lambda t: self.compiled.sub(replacement, t), text)

    def _timed(self, run: Any, text: str) -> Any:
        import signal
        import time

        remaining = _budget[0]
        if remaining <= 0:
            raise MatchTimeoutError(self._why())
        if not hasattr(signal, "setitimer"):
            return run(text)
        try:
            previous = signal.signal(signal.SIGALRM, _on_alarm)
        except ValueError:  # not the main thread (the service runs rules in workers)
            return run(text)
        # a sooner timer that runs (the call's deadline, policy/call_deadline.py) stays the
        # sooner: re-armed with the budget, it rang up to 2 s late (red team s28 run, #6)
        old_delay = signal.getitimer(signal.ITIMER_REAL)[0]
        sooner = bool(old_delay) and old_delay < remaining
        signal.setitimer(signal.ITIMER_REAL, old_delay if sooner else remaining)
        start = time.perf_counter()
        try:
            return run(text)
        except MatchTimeoutError:
            if sooner and callable(previous):
                previous(signal.SIGALRM, None)  # its own error (the deadline's answer)
            _budget[0] = 0
            raise MatchTimeoutError(self._why()) from None
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            spent = time.perf_counter() - start
            _budget[0] = min(_budget[0], remaining - spent)
            signal.signal(signal.SIGALRM, previous)
            if old_delay:  # someone else's timer (a test runner's) keeps running
                signal.setitimer(signal.ITIMER_REAL, max(old_delay - spent, 0.001))

    def _why(self) -> str:
        return (
            f"matching the policy's regexes took more than {MATCH_BUDGET_S:g} s "
            f"(pattern {self.compiled.pattern!r}); a regex that backtracks this much cannot "
            "guard anything: rewrite it"
        )


_REGEX_CACHE: dict[tuple[str, int], Any] = {}


def regex(pattern: str, flags: int = 0) -> Any:
    """A compiled regex, cached, that matches under the budget; :mod:`re` is imported on
    first use."""
    key = (pattern, flags)
    compiled = _REGEX_CACHE.get(key)
    if compiled is None:
        import re

        compiled = _Timed(re.compile(pattern, flags))
        _REGEX_CACHE[key] = compiled
    return compiled
