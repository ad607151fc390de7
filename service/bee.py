"""Spelling Bee answers for the service: stored top tables, any honeycomb's score.

Top-honeycomb requests are answered from the catalog's stored tables when they
hold enough rows, and otherwise searched live (the builder's branch and bound)
over the catalog's word list: once per list and S rule, for MAX_COUNT rows,
every count then answered from that table; the search passes the live gate's
expensive lane (service.live_gate.LiveGate.run). Scores of arbitrary honeycombs are computed
from the list's valid words. Finished answers are cached once, at the
service's edge (service.cache).
"""

from __future__ import annotations

import dataclasses
import threading

from ..client.catalog import Catalog
from ..client.core import DEFAULT_WORD_LIST
from ..client.errors import BadRequestError
from ..client.spelling_bee import (
    BeeTable,
    HoneycombScore,
    make_honeycomb,
    score_honeycomb,
    valid_words,
)
from .builder_import import BUILDER_IMPORT
from .live_gate import UNLIMITED, LiveGate

#: Most honeycombs a top table ranks on request, its cost limit: the one live search
#: per list ranks this many (about 0.4 s of one core over enable1,
#: builder.spelling_bee.top_table), whatever count asked for it.
MAX_COUNT = 1000


class BeeAnswers:
    """Spelling Bee answers over one catalog's word lists. Thread-safe."""

    def __init__(self, catalog: Catalog, gate: LiveGate = UNLIMITED) -> None:
        self.catalog = catalog
        self.gate = gate
        self._lock = threading.Lock()
        # A list's valid words: data prepared once per (list, S allowed), bounded
        # by the catalog's lists. Finished answers are cached at the service's edge.
        self._valid: dict[tuple[str, bool], list[str]] = {}
        # The table searched live per (list, S allowed), MAX_COUNT rows: any count is
        # its first rows (a search's top n is the top n of a longer one), so requests
        # differing only in count share one search, and a search runs once at a time.
        self._searched: dict[tuple[str, bool], BeeTable] = {}
        self._search_lock = threading.Lock()
        #: Live searches run so far (one per list and S rule at most).
        self.searches = 0

    def _valid_words(self, name: str, allow_s: bool) -> list[str]:
        key = (name, allow_s)
        with self._lock:
            if key not in self._valid:
                self._valid[key] = valid_words(self.catalog.words(name), allow_s)
            return self._valid[key]

    def top(self, name: str, allow_s: bool, count: int) -> BeeTable:
        """Return the ``count`` best honeycombs of list ``name``, best first.

        Raises:
            BadRequestError: count outside 1..MAX_COUNT.
            WordListNotFoundError: no such list in the catalog.
        """
        name = name or DEFAULT_WORD_LIST
        if not 1 <= count <= MAX_COUNT:
            raise BadRequestError(
                f"count must be between 1 and {MAX_COUNT}, not {count}",
                metadata={"field": "count", "limit": MAX_COUNT, "value": count},
            )
        stored = self.catalog.bee_table(name, allow_s)
        if stored is not None and len(stored.top) >= count:
            return dataclasses.replace(stored, top=stored.top[:count])
        key = (name, allow_s)
        with self._lock:
            searched = self._searched.get(key)
        if searched is None:
            searched = self.gate.run(lambda: self._search(name, allow_s), expensive=True)
        return dataclasses.replace(searched, top=searched.top[:count])

    def _search(self, name: str, allow_s: bool) -> BeeTable:
        """Return the searched table of ``name`` (MAX_COUNT rows), searching it unless a
        call that waited beside this one already did (one search per list)."""
        key = (name, allow_s)
        with self._search_lock:
            searched = self._searched.get(key)
            if searched is None:  # not searched while this call waited
                valid = self._valid_words(name, allow_s)
                # MAX_COUNT rows whatever the count: every later count is answered
                # from them (searching only as many as asked searched again for
                # each larger count).
                # The builder's search (numpy) is loaded by the first search only:
                # a process that never searches a honeycomb never loads it.
                with BUILDER_IMPORT:
                    from ..builder.spelling_bee import top_table

                searched = top_table(name, "", valid, MAX_COUNT, allow_s)
                with self._lock:
                    self._searched[key] = searched
                    self.searches += 1
        return searched

    def score(self, letters: str, center: str, name: str, allow_s: bool) -> HoneycombScore:
        """Return the score of a honeycomb over list ``name``.

        Raises:
            InvalidHoneycombError: bad letters or centre.
            WordListNotFoundError: no such list in the catalog.
        """
        honeycomb = make_honeycomb(letters, center, allow_s)
        return score_honeycomb(honeycomb, self._valid_words(name or DEFAULT_WORD_LIST, allow_s))
