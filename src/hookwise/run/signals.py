"""The ``signal`` module without its import cost.

``signal.py`` wraps the C module ``_signal`` in enums, and importing :mod:`enum` costs
``hookwise run`` about 15 ms of the 50 it may add to an agent's start. The functions and
constants used here are the C module's own (plain ints where ``signal.py`` gives enums);
type checkers read ``signal``'s stubs.
"""

TYPE_CHECKING = False
if TYPE_CHECKING:
    import signal
else:
    import _signal as signal

__all__ = ["signal"]
