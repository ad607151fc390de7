"""Progress on standard error for long builds (stdout carries only data).

A bar appears only when a build has run for ``delay`` seconds, so quick
builds and scripted use stay quiet; ``--quiet`` turns it off entirely.
tqdm is used because it already handles terminals, pipes and rate estimates.
"""

from __future__ import annotations

import sys

from tqdm import tqdm


class Progress:
    """Reports "done of total" for one named task on standard error."""

    def __init__(
        self,
        label: str,
        *,
        enabled: bool = True,
        delay: float = 2.0,
        unit: str = "target",
        open_ended: bool = False,
    ) -> None:
        self._label = label
        self._unit = unit
        #: The total may still grow (a search finding more work): close only on close().
        self._open_ended = open_ended
        self._enabled = enabled
        self._delay = delay
        self._bar: tqdm | None = None

    def update(self, done: int, total: int, elapsed: float) -> None:
        """Record that ``done`` of ``total`` units are finished after ``elapsed`` s."""
        if not self._enabled:
            return
        if self._bar is None:
            if elapsed < self._delay:
                return
            self._bar = tqdm(total=total, desc=self._label, file=sys.stderr, unit=self._unit)
        self._bar.total = total  # a search learns of more units as it goes
        self._bar.n = done
        self._bar.refresh()
        if done >= total and not self._open_ended:
            self.close()

    def close(self) -> None:
        """Finish the bar, if one was shown."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None
