"""Fair admission: each client address's share of the ``--max-concurrent`` places.

Besides the server-wide limit (``--max-concurrent``, a semaphore on the
servicer), every address may hold at most its share of the places at once,
all its connections together: ``--max-per-peer``, by default half of
``--max-concurrent`` (at least 1; ServerOptions.peer_share), so no single
client can take every place and another client always finds one
(service.calls.RpcMethod.admit). A call
over the share is refused at once with RESOURCE_EXHAUSTED, reason
TOO_MANY_CALLS, metadata ``scope`` "peer" (over the server-wide limit: "server").

Behind a proxy every client has the proxy's address; raise ``--max-per-peer``
to ``--max-concurrent`` there to turn the share off.
"""

from __future__ import annotations

import threading


class PeerShares:
    """How many places each peer holds, up to ``share`` each. Thread-safe."""

    def __init__(self, share: int) -> None:
        self.share = share
        self._lock = threading.Lock()
        #: peer -> places held now (a peer holding none is not kept).
        self._held: dict[str, int] = {}

    def take(self, peer: str) -> bool:
        """Take one of ``peer``'s places; return False (taking nothing) if it holds its share."""
        with self._lock:
            held = self._held.get(peer, 0)
            if held >= self.share:
                return False
            self._held[peer] = held + 1
            return True

    def give(self, peer: str) -> None:
        """Give back one place :meth:`take` gave ``peer``."""
        with self._lock:
            held = self._held.get(peer, 0) - 1
            if held > 0:
                self._held[peer] = held
            else:
                self._held.pop(peer, None)

    def held(self, peer: str) -> int:
        """Return how many places ``peer`` holds now."""
        with self._lock:
            return self._held.get(peer, 0)
