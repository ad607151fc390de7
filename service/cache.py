"""The service's one response cache: finished responses of repeatable calls.

Every answer the service gives is a pure function of the request and the
loaded catalog, and players and bots repeat the same openings, so finished
response messages are kept, keyed by the method and the request's
deterministic bytes, and evicted least recently used beyond a fixed number
of entries (so memory stays flat however varied the traffic). It is the only
cache of answers: the lookup core below it keeps none, and a new catalog
gets a new cache.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

#: Responses kept by default: a few kilobytes each at most (50 alternatives).
DEFAULT_ENTRIES = 20_000


class ResponseCache:
    """A thread-safe LRU map from (method, request bytes) to a response message."""

    def __init__(self, max_entries: int = DEFAULT_ENTRIES) -> None:
        """Keep at most ``max_entries`` responses (0 turns caching off)."""
        self.max_entries = max_entries
        self._entries: OrderedDict[tuple[str, bytes], Any] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, method: str, request: Any) -> tuple[tuple[str, bytes], Any]:
        """Return the key of ``request`` and its cached response (None if absent)."""
        key = (method, request.SerializeToString(deterministic=True))
        with self._lock:
            response = self._entries.get(key)
            if response is not None:
                self._entries.move_to_end(key)
        return key, response

    def put(self, key: tuple[str, bytes], response: Any) -> None:
        """Keep ``response`` under ``key``, evicting the least recently used beyond the limit."""
        if self.max_entries <= 0:
            return
        with self._lock:
            self._entries[key] = response
            self._entries.move_to_end(key)
            while len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)
