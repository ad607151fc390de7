"""Progress on standard error for long work, of both command lines (stdout carries
only data): the builder's (``guesswork-build``) and the player's (``guesswork``).

A report appears only when a build has run for ``delay`` seconds, so quick
builds and scripted use stay quiet; ``--quiet`` turns it off entirely. On a
terminal it is a tqdm bar (tqdm handles widths, rates and the time left);
when standard error is not a terminal (a log file, CI), carriage-return
redraws would pile up, so plain lines are written instead, at most one per
``interval`` seconds and one at the end of each phase, each with the count,
the status, the time so far and (for units of like size) an estimate of the
time left. A total that may still grow is reported "so far".

A long search reports in phases (:meth:`Progress.phase`): e.g. the first
opener's branches, then the first pass over every opener, then the openers
that survived it, each phase with its own known total.

What a command is doing is said at once, before any bar (:func:`say`: "reading
the word lists...", "building the tree..."), so no command sits silent for
seconds; that line is for a person watching, so it is written only when
standard error is a terminal. ``GUESSWORK_PROGRESS`` (:data:`ENVIRONMENT`)
overrides both: ``0`` writes nothing (as ``--quiet``, e.g. for transcripts
compared with documentation), ``1`` writes the status lines to a log or pipe
as well (reports appear there anyway, as plain lines, after ``delay``).

The lookup core (client.lookup) names its slow work, a next guess computed
live, with :func:`tell`: a status line only while a command line has asked
for them (:func:`telling`, on its own thread), so a server answering the same
calls writes none to its log.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, TextIO

from .text import plural_of

if TYPE_CHECKING:
    from tqdm import tqdm


#: The environment variable that turns progress off (``0``) or status lines on
#: where standard error is not a terminal (``1``).
ENVIRONMENT = "GUESSWORK_PROGRESS"


def progress_on(quiet: bool = False) -> bool:
    """Return whether progress is reported at all: not under ``--quiet`` (``quiet``)
    nor with ``GUESSWORK_PROGRESS=0``."""
    return not quiet and os.environ.get(ENVIRONMENT, "").strip() != "0"


def say(message: str, *, quiet: bool = False, stream: TextIO | None = None) -> None:
    """Write ``message`` and "..." on its own line of standard error (or ``stream``) at
    once, before the work it names, if progress is on (:func:`progress_on`) and
    the stream is a terminal or ``GUESSWORK_PROGRESS=1``; return nothing."""
    if not progress_on(quiet):
        return
    out = stream if stream is not None else sys.stderr
    isatty = getattr(out, "isatty", None)
    forced = os.environ.get(ENVIRONMENT, "").strip() == "1"
    if forced or (callable(isatty) and isatty()):
        print(f"{message}...", file=out, flush=True)


#: Whether the work on this thread is a command line's, whose user reads its status
#: lines (:func:`telling`); a thread a server starts never has it set.
_TELLING: ContextVar[bool] = ContextVar("guesswork_telling", default=False)


@contextmanager
def telling() -> Iterator[None]:
    """Within the block, on this thread, :func:`tell` says its messages (:func:`say`);
    yield nothing."""
    token = _TELLING.set(True)
    try:
        yield
    finally:
        _TELLING.reset(token)


def tell(message: str) -> None:
    """:func:`say` ``message`` if a command line asked for status lines (:func:`telling`),
    else nothing; return nothing."""
    if _TELLING.get():
        say(message)


def _clock() -> float:
    return time.monotonic()


def duration(seconds: float) -> str:
    """Return ``seconds`` as ``1h02m``, ``3m05s`` or ``12s``."""
    whole = max(0, round(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}h{minutes:02d}m"
    return f"{minutes}m{secs:02d}s" if minutes else f"{secs}s"


class Progress:
    """Reports "done of total" (and a status) for one named task on standard error."""

    def __init__(
        self,
        label: str,
        *,
        enabled: bool = True,
        delay: float = 2.0,
        unit: str = "target",
        open_ended: bool = False,
        estimate: bool = True,
        stream: TextIO | None = None,
        interval: float = 10.0,
        clock: Callable[[], float] = _clock,
    ) -> None:
        self._label = label
        self._unit = unit
        #: The total may still grow (a search finding more work): close only on close(),
        #: and the total is reported as "so far".
        self._open_ended = open_ended
        #: Whether the time left is estimated: not for units of very unequal work
        #: (a search's root branches, largest first), where done/total misleads.
        self._estimate = estimate
        self._enabled = enabled and progress_on()
        self._delay = delay
        self._stream = stream
        self._interval = interval
        self._clock = clock
        self._bar: tqdm | None = None
        self._status = ""
        self._last_line: float | None = None
        self._phase_started = clock()
        self._shown = False
        self._last: tuple[int, int] = (0, 0)
        self._written: tuple[int, int] | None = None

    def say(self, message: str) -> None:
        """Say at once what the task is doing (:func:`say`), prefixed with its label,
        unless this report is off."""
        if self._enabled:
            say(f"{self._label}: {message}", stream=self._stream)

    def elapsed(self) -> float:
        """Return the seconds since this report (its current phase) began."""
        return self._clock() - self._phase_started

    @property
    def stream(self) -> TextIO:
        """Return where reports go (standard error unless another stream was given)."""
        return self._stream if self._stream is not None else sys.stderr

    def _plain(self) -> bool:
        isatty = getattr(self.stream, "isatty", None)
        return not (callable(isatty) and isatty())

    @property
    def label(self) -> str:
        """Return the name reports are prefixed with (the current phase's)."""
        return self._label

    def phase(self, label: str, unit: str, total: int, *, estimate: bool | None = None) -> None:
        """Start a new phase: finish the current report, then count ``total`` ``unit``s
        (estimating the time left if ``estimate``; None: as the report did so far)."""
        self.close()
        self._label, self._unit, self._status = label, unit, ""
        if estimate is not None:
            self._estimate = estimate
        self._phase_started = self._clock()
        self._last = (0, total)
        self._written = (0, total)  # nothing to report until it moves
        self._open_ended = False

    def update(self, done: int, total: int, elapsed: float, status: str = "") -> None:
        """Record that ``done`` of ``total`` units are finished after ``elapsed`` s, with
        an optional ``status`` (e.g. the best value so far)."""
        if not self._enabled:
            return
        self._last = (done, total)
        if status:
            self._status = status
        if elapsed < self._delay and not self._shown:
            return
        self._shown = True
        if self._plain():
            now = self._clock()
            finished = done >= total and not self._open_ended
            if finished or self._last_line is None or now - self._last_line >= self._interval:
                self._write_line(done, total, now)
            if finished:
                self.close()
            return
        if self._bar is None:
            from tqdm import tqdm  # only a bar on a terminal needs it (4 MB: not for --quiet)

            # Without an estimate, the bar shows the count and the time so far only.
            shape = None
            if not self._estimate:
                units = plural_of(self._unit)
                shape = "{desc}: {n_fmt}/{total_fmt} " + units + " [{elapsed}{postfix}]"
            self._bar = tqdm(
                total=total, desc=self._label, file=self.stream, unit=self._unit, bar_format=shape
            )
        self._bar.total = total  # a search learns of more units as it goes
        self._bar.n = done
        if self._status:
            self._bar.set_postfix_str(self._status, refresh=False)
        self._bar.refresh()
        if done >= total and not self._open_ended:
            self.close()

    def _write_line(self, done: int, total: int, now: float) -> None:
        took = now - self._phase_started
        left = ""
        if self._estimate and 0 < done < total:
            left = f", about {duration(took / done * (total - done))} left"
        status = f"; {self._status}" if self._status else ""
        so_far = " so far" if self._open_ended and done < total else ""
        units = plural_of(self._unit)
        print(
            f"{self._label}: {done:,} of {total:,} {units}{so_far}{status}; {duration(took)}{left}",
            file=self.stream,
            flush=True,
        )
        self._last_line = now
        self._written = (done, total)

    def close(self) -> None:
        """Finish the report: close the bar, or write the last plain line if one is due."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None
        elif self._shown and self._plain() and self._written != self._last:
            self._write_line(*self._last, self._clock())
        self._last_line = None
        self._written = self._last  # reported: a second close writes nothing
