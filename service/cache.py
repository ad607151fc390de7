"""The service's one response cache: finished responses of repeatable calls.

Every answer the service gives is a pure function of the request and the
loaded catalog, and players and bots repeat the same openings, so finished
responses are kept, serialized (a message object holds about ten times the
memory of its bytes: 1.1 KB for a five-alternative suggestion of 45 bytes),
keyed by the method and the request's deterministic bytes, and evicted least
recently used beyond a fixed number of entries (so memory stays flat however
varied the traffic). It is the only
cache of answers: the lookup core below it keeps none, and a catalog reloaded
while serving empties it (:meth:`ResponseCache.clear`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

#: Responses kept by default: tens of bytes to a few KB each (a 50-alternative
#: suggestion, an analysis), 30 KB for a 1,000-row honeycomb table.
DEFAULT_ENTRIES = 20_000


class ResponseCache:
    """A thread-safe LRU map from (method, request bytes) to a serialized response."""

    def __init__(self, max_entries: int = DEFAULT_ENTRIES) -> None:
        """Keep at most ``max_entries`` responses (0 turns caching off)."""
        self.max_entries = max_entries
        self._entries: OrderedDict[tuple[str, bytes], bytes] = OrderedDict()
        self._lock = threading.Lock()
        #: Bumped by clear(): a response computed before it is never stored after it.
        self._generation = 0

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, method: str, request: Any) -> tuple[tuple[int, str, bytes], bytes | None]:
        """Return the key of ``request`` and its cached response (None if absent).

        The key carries the cache's generation, so :meth:`put` can drop an
        answer that was being computed when the cache was cleared.
        """
        body = request.SerializeToString(deterministic=True)
        with self._lock:
            key = (self._generation, method, body)
            response = self._entries.get(key[1:])
            if response is not None:
                self._entries.move_to_end(key[1:])
        return key, response

    def put(self, key: tuple[int, str, bytes], response: bytes) -> None:
        """Keep ``response`` under ``key``, evicting the least recently used beyond the limit.

        A key from before the last :meth:`clear` is ignored: its answer may be
        the previous catalog's.
        """
        if self.max_entries <= 0:
            return
        with self._lock:
            if key[0] != self._generation:
                return
            self._entries[key[1:]] = response
            self._entries.move_to_end(key[1:])
            while len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        """Forget every response (the catalog changed), and any being computed now.

        The server swaps the catalog first and clears second: a call whose
        :meth:`get` came after this clear reads the new catalog.
        """
        with self._lock:
            self._entries.clear()
            self._generation += 1
