"""Bounded memo tables: a search's exact values, bounds and static bounds in a byte budget.

A :class:`~.search.Search` keeps three tables keyed by target set (see
:meth:`SetValues.key <.set_values.SetValues.key>`): exact values with their guess,
proven lower bounds, and static bounds. Each is a :class:`Memo`, a dict that
reports what it holds to the search's :class:`MemoAccount`; when their
estimated size passes the limit, the oldest-written entries of the largest
table go until a tenth of the limit is free.

Why eviction never changes a result: a set's recorded guess depends only on
the set (the search's determinism, see :mod:`.search`), so a forgotten exact
value is found again, with the same guess, when it is next needed; a
forgotten bound only prunes less; a forgotten static bound is recomputed by
the certificate. The cost is time only, and the run's report says how many
entries went (:attr:`SearchStats.memo_evictions`). The entry just written is
never the one evicted, so a read right after a write always finds it.

Sizes are estimates (a key's bytes plus :data:`ENTRY_BYTES` for the dict
slot, the key object and the value), close enough to bound a process's
memory; :attr:`SearchStats.memo_peak_bytes` reports the same estimate.
"""

from __future__ import annotations

import itertools
from typing import Any, TypeVar

from .stats import SearchStats

#: The default limit of one search process's memo (estimated bytes): 1 GiB. The
#: global 2315-answer proof peaks near a third of it in one process.
DEFAULT_MEMO_LIMIT = 1 << 30
#: Estimated bytes of one entry besides its key's: the dict slot (about 50),
#: the key object's header (33) and the value (an int or a pair of ints).
ENTRY_BYTES = 120
#: Share of the limit left filled after an eviction (a tenth is freed at once,
#: so evictions come in batches rather than one entry per write).
_REFILL = 0.9

V = TypeVar("V")


class MemoAccount:
    """The memo tables of one search and their shared limit.

    Attributes:
        limit: estimated bytes the tables may hold together; None: no limit.
        bytes: estimated bytes they hold now.
        entries: entries they hold now.
    """

    def __init__(self, limit: int | None, stats: SearchStats) -> None:
        """Account against ``limit`` (None: unbounded), reporting peaks and
        evictions in ``stats``.

        Raises:
            ValueError: ``limit`` is below 1.
        """
        if limit is not None and limit < 1:
            raise ValueError(f"a memo limit is at least 1 byte, not {limit}")
        self.limit = limit
        self.stats = stats
        self.bytes = 0
        self.entries = 0
        self.tables: list[Memo[Any]] = []

    def added(self, size: int, newest: Memo[Any]) -> None:
        """Count an entry of ``size`` bytes just written to ``newest``; evict if over."""
        self.bytes += size
        self.entries += 1
        stats = self.stats
        if self.bytes > stats.memo_peak_bytes:
            stats.memo_peak_bytes = self.bytes
        if self.entries > stats.memo_peak_entries:
            stats.memo_peak_entries = self.entries
        if self.limit is not None and self.bytes > self.limit:
            self._evict(newest)

    def _evict(self, newest: Memo[Any]) -> None:
        """Drop the oldest-written entries of the largest tables until the tables
        fill at most :data:`_REFILL` of the limit, sparing ``newest``'s last entry."""
        assert self.limit is not None
        target = int(self.limit * _REFILL)
        while self.bytes > target:
            tables = [t for t in self.tables if len(t) > (1 if t is newest else 0)]
            if not tables:
                break  # only the entry just written is left: keep it, over the limit
            table = max(tables, key=lambda t: t.bytes)
            spare = 1 if table is newest else 0
            # One pass over the oldest keys (deleting from a dict's front one key
            # at a time would rescan the emptied slots for each).
            excess = self.bytes - target
            victims: list[bytes] = []
            freed = 0
            for key in itertools.islice(iter(table), len(table) - spare):
                victims.append(key)
                freed += len(key) + ENTRY_BYTES
                if freed >= excess:
                    break
            for key in victims:
                table.forget(key)


class Memo(dict[bytes, V]):
    """A memo table (a dict) whose size counts against a :class:`MemoAccount`.

    Writing a key moves it to the end (newest); reads do not, so eviction is
    by last write. Only item assignment and :meth:`forget` are accounted: the
    search uses no other way to change a table.
    """

    def __init__(self, account: MemoAccount) -> None:
        super().__init__()
        self.account = account
        self.bytes = 0
        account.tables.append(self)

    def __setitem__(self, key: bytes, value: V) -> None:
        if key in self:
            super().__delitem__(key)  # rewritten: now the newest
            super().__setitem__(key, value)
            return
        super().__setitem__(key, value)
        size = len(key) + ENTRY_BYTES
        self.bytes += size
        self.account.added(size, self)

    def forget(self, key: bytes) -> None:
        """Evict ``key`` (it must be present), counting the eviction."""
        super().__delitem__(key)
        size = len(key) + ENTRY_BYTES
        self.bytes -= size
        account = self.account
        account.bytes -= size
        account.entries -= 1
        account.stats.memo_evictions += 1
