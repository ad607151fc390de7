"""Ctrl-C around a local Dask cluster (:mod:`.dask_engine`): who receives SIGINT,
and what is printed when it lands.

A terminal sends SIGINT to its whole foreground process group. Without care,
that group holds a local cluster's worker processes too, and each prints the
traceback of its own ``KeyboardInterrupt`` (Dask's nanny child does not catch
it quietly); and Dask's code in this process, interrupted part way, logs its
own errors as the cluster goes (a call cut short logs a ``NameError`` from
its cancel callback, the scheduler its closed connections). The user asked
to stop: one line (the CLI's "interrupted") and a non-zero exit is all they
should see.

* :func:`sigint_blocked` blocks SIGINT in the calling thread. A local cluster
  started inside it has SIGINT blocked in its event-loop thread and in every
  thread and process that thread starts (a blocked signal stays blocked in a
  new thread and across fork and exec), its worker processes included:
  restarted ones too, since the nanny restarts them from the same thread.
  Only this process handles the signal (in its main thread, as Python does),
  and it closes the cluster.
* :class:`QuietInterrupt` is SIGINT's handler while a cluster is open: it
  turns logging off, then raises ``KeyboardInterrupt`` as Python's own handler
  does, so nothing Dask logs while it unwinds and closes reaches the terminal;
  :meth:`QuietInterrupt.restore` turns logging back on once the cluster is
  closed. Python raises ``KeyboardInterrupt`` wherever the main thread is,
  and two places break: in a finalizer (Dask's ``Future.__del__`` and its
  garbage-collector callback run often in this thread) it is printed and
  dropped, and the search goes on as if Ctrl-C had not been pressed; in
  :mod:`logging`'s own code it can leave the module's lock held, and Dask's
  event-loop thread waits for it forever (the cluster then never closes).
  The handler does not raise there (:func:`unsafe_to_raise`), and until the
  search acknowledges the interrupt (:meth:`QuietInterrupt.acknowledge`: it
  is stopping) SIGINT is sent to the main thread again every
  :data:`RESEND_SECONDS`.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import signal
import threading
import weakref
from collections.abc import Iterator
from types import FrameType

#: How often an interrupt the search has not acknowledged is sent again (seconds).
RESEND_SECONDS = 0.2


@contextlib.contextmanager
def sigint_blocked() -> Iterator[None]:
    """Block SIGINT in this thread, and so in the threads and processes started
    from it, while inside.

    A SIGINT that arrives meanwhile is held, then handled (its handler raises
    ``KeyboardInterrupt``) on leaving, when the mask is restored. Does nothing
    where signal masks do not exist (Windows).
    """
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


class QuietInterrupt:
    """SIGINT's handler while a cluster is open: logging off, then KeyboardInterrupt,
    sent again until acknowledged.

    Installed only from the main thread (the only one that may set a handler)
    and only over Python's default handler (a program that set its own keeps
    it). Turning logging off in the handler, before anything unwinds, leaves no
    window in which Dask's threads log what the interrupt broke.

    Attributes:
        interrupted: a SIGINT arrived while installed.
        acknowledged: the search is stopping (:meth:`acknowledge`).
    """

    def __init__(self) -> None:
        self.interrupted = False
        self.acknowledged = False
        self._installed = False
        #: logging's disable level before :meth:`silence` (None: not silenced).
        self._disabled: int | None = None
        self._resend: threading.Timer | None = None
        #: The next SIGINT is one :meth:`_send_again` sent.
        self._resent = False

    def install(self) -> None:
        """Become SIGINT's handler, if this is the main thread and the handler is
        Python's default."""
        if threading.current_thread() is not threading.main_thread():
            return
        if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
            return
        signal.signal(signal.SIGINT, self._handle)
        self._installed = True

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        """Silence logging, then raise KeyboardInterrupt (as the default handler),
        except where that breaks things (:func:`unsafe_to_raise`); send SIGINT
        again later until acknowledged."""
        resent, self._resent = self._resent, False
        if resent and self.acknowledged:
            return  # sent again just before the search took the interrupt in
        self.interrupted = True
        self.silence()
        if not self.acknowledged and (self._resend is None or not self._resend.is_alive()):
            self._resend = threading.Timer(RESEND_SECONDS, self._send_again)
            self._resend.daemon = True
            self._resend.start()
        if not unsafe_to_raise(frame):
            raise KeyboardInterrupt

    def _send_again(self) -> None:
        """Send SIGINT to the main thread (its handler raises it there), unless
        acknowledged or restored since."""
        if self._installed and not self.acknowledged:
            self._resent = True
            thread = threading.main_thread().ident
            if hasattr(signal, "pthread_kill") and thread is not None:
                signal.pthread_kill(thread, signal.SIGINT)
            else:
                signal.raise_signal(signal.SIGINT)

    def acknowledge(self) -> None:
        """Stop sending SIGINT again: the search is stopping."""
        self.acknowledged = True

    def silence(self) -> None:
        """Turn every logger off (until :meth:`restore`)."""
        if self._disabled is None:
            self._disabled = logging.root.manager.disable
            logging.disable(logging.CRITICAL)

    def restore(self) -> None:
        """Give SIGINT back to Python's default handler and turn logging back on."""
        self.acknowledge()
        if self._resend is not None:  # none may send SIGINT once the handler is gone
            self._resend.cancel()
            self._resend.join()
        if self._installed and threading.current_thread() is threading.main_thread():
            if signal.getsignal(signal.SIGINT) == self._handle:  # not replaced since
                signal.signal(signal.SIGINT, signal.default_int_handler)
            self._installed = False
        if self._disabled is not None:
            logging.disable(self._disabled)
            self._disabled = None


def unsafe_to_raise(frame: FrameType | None) -> bool:
    """Return True if ``frame`` runs inside a finalizer (a ``__del__`` method, a
    :class:`weakref.finalize` callback or a :data:`gc.callbacks` one: Python
    prints and drops what they raise) or inside :mod:`logging` (which may hold
    its module lock there)."""
    finalizers = {weakref.finalize.__call__.__code__}
    for callback in gc.callbacks:  # bound methods (Dask's) carry their function's code
        code = getattr(getattr(callback, "__func__", callback), "__code__", None)
        if code is not None:
            finalizers.add(code)
    while frame is not None:
        code = frame.f_code
        if code.co_name == "__del__" or code in finalizers or code.co_filename == logging.__file__:
            return True
        frame = frame.f_back
    return False
