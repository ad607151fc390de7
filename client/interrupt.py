"""Stopping live work whose caller has gone.

A live computation (an off-tree answer, an analysis, a honeycomb search) runs
in the thread of the call that asked for it. A server sets :data:`CALL_ACTIVE`
to the call's "is the client still waiting?" (gRPC's ``context.is_active``);
long computations call :func:`still_wanted` between bounded steps (a block of
candidate rows, one move of a game), so one whose client has gone (its
deadline passed, it cancelled, or the server is shutting down) stops within
one step instead of running to its end. Outside a served call (the command
line, embedded use, the builder) it is None and nothing is checked.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar

from .errors import ServiceUnavailableError

#: The current call's "is the client still waiting?" (None outside a served call).
CALL_ACTIVE: ContextVar[Callable[[], bool] | None] = ContextVar("CALL_ACTIVE", default=None)


class CallEndedError(ServiceUnavailableError):
    """The call a live computation was for has ended; the computation was stopped."""


def still_wanted() -> None:
    """Return if the current call is still wanted (or there is none).

    Raises:
        CallEndedError: the call's client has gone.
    """
    active = CALL_ACTIVE.get()
    if active is not None and not active():
        raise CallEndedError("the call ended during a live computation; it was stopped")
