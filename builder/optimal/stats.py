"""What a search reports and what a node's scan hands back: :class:`SearchStats`
(counters, added across worker processes) and :class:`NodeScan`."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

_COUNTERS = (
    "expanded",
    "scanned",
    "memo_hits",
    "widened",
    "store_lookups",
    "store_hits",
    "memo_evictions",
    "trap_cuts",
)
#: Per-process peaks: across processes the largest counts (see :meth:`SearchStats.add`).
_PEAKS = ("memo_peak_bytes", "memo_peak_entries")


@dataclass
class SearchStats:
    """Counters of one search (for reports; not stored in policies)."""

    expanded: int = 0
    scanned: int = 0
    memo_hits: int = 0
    beam_cut: bool = False
    #: Nodes a beam left with no tree within the cap, searched again over every guess.
    widened: int = 0
    #: Sets looked up in the bound store, and those it held (see :mod:`.bound_store`).
    store_lookups: int = 0
    store_hits: int = 0
    #: Memo entries evicted to stay within the memo limit (see :mod:`.memo`).
    memo_evictions: int = 0
    #: Sets a trap family showed cannot finish within the cap (see :mod:`.traps`).
    trap_cuts: int = 0
    #: The most (estimated) bytes and entries one process's memo held.
    memo_peak_bytes: int = 0
    memo_peak_entries: int = 0

    def since(self, before: SearchStats) -> SearchStats:
        """Return the counts added since ``before`` (``beam_cut`` and the peaks as they are now).

        Returns:
            A new SearchStats holding the differences.
        """
        counts = {name: getattr(self, name) - getattr(before, name) for name in _COUNTERS}
        peaks = {name: getattr(self, name) for name in _PEAKS}
        return SearchStats(**counts, **peaks, beam_cut=self.beam_cut)

    def add(self, other: SearchStats) -> None:
        """Add ``other``'s counts to these (``beam_cut`` if either was cut; peaks: the larger)."""
        for name in _COUNTERS:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for name in _PEAKS:
            setattr(self, name, max(getattr(self, name), getattr(other, name)))
        self.beam_cut = self.beam_cut or other.beam_cut


@dataclass(frozen=True)
class NodeScan:
    """The guesses a node will try, in search order, as :meth:`~.search.Search.scan`
    returns them."""

    guesses: np.ndarray
    bounds: np.ndarray
    #: 1 where the guess is closed: its bound is its exact value.
    closed: np.ndarray
    #: The least bound among eligible guesses left out for reaching the budget.
    excluded: int
    #: The least bound among guesses the beam left out (INFEASIBLE if none).
    beam_left_out: int
    #: Each guess's distinct-reply count on the node's targets (by vocabulary
    #: row; see bounds.ScanKernel.distinct_replies): caps on its counts in every
    #: class below. None when the search does not count replies.
    caps: np.ndarray | None = None
