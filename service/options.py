"""How a server runs: :class:`ServerOptions`, each field a guesswork-serve flag.

Kept apart from service.server (and importing only the standard library and
service.cache's constant) so guesswork-serve can parse its options and check
its address before it loads gRPC, numpy and the catalog reader.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from .cache import DEFAULT_ENTRIES

#: Seconds between looks for a republished catalog, by default.
DEFAULT_RELOAD_INTERVAL = 2.0


#: The largest --max-request-bytes: the gRPC transport's message limit is four times
#: it (service.server.transport_limit) and must fit gRPC's C int.
MAX_REQUEST_BYTES = (2**31 - 1) // 4


@dataclass(frozen=True)
class ServerOptions:
    """How a server runs; every field has a flag and an environment variable."""

    address: str = "127.0.0.1:50051"
    #: A catalog (file or database URL) served alone; None: the shipped catalog under the user's.
    catalog: str | None = None
    #: Calls served at once; more are rejected with RESOURCE_EXHAUSTED.
    max_concurrent: int = 64
    #: Calls one client address may have served at once (all its connections
    #: together); None: half of max_concurrent, at least 1 (service.admission).
    max_per_peer: int | None = None
    #: Largest request accepted, in bytes (RESOURCE_EXHAUSTED beyond).
    max_request_bytes: int = 64 * 1024
    #: Seconds in-flight calls get to finish after SIGTERM.
    grace: float = 5.0
    tls_cert: str | None = None
    tls_key: str | None = None
    #: Finished responses kept (least recently used evicted; 0: no cache).
    cache_entries: int = DEFAULT_ENTRIES
    #: Share the port with other processes bound with it (SO_REUSEPORT); by
    #: default a port in use is refused.
    reuse_port: bool = False
    #: Seconds between looks for a republished catalog; 0: only when asked (SIGHUP).
    reload_interval: float = DEFAULT_RELOAD_INTERVAL
    #: Server processes behind the one port (guesswork-serve only; see service.processes).
    processes: int = 1
    #: HOST:PORT of the HTTP/JSON adapter and the page (service.web); None: off.
    http_address: str | None = None
    #: Live computations at once (service.live_gate); more wait, stored answers never.
    max_live: int = field(default_factory=lambda: os.cpu_count() or 2)

    @property
    def peer_share(self) -> int:
        """Return the places one client address may hold: ``max_per_peer``, or by
        default half of ``max_concurrent`` (at least 1); never above ``max_concurrent``."""
        share = self.max_per_peer if self.max_per_peer is not None else self.max_concurrent // 2
        return max(1, min(share, self.max_concurrent))
