"""Binding the server's address: checked by us first, so a mistake is one accurate line.

gRPC accepts ``127.0.0.1:99999`` by binding a random port, and reports any
other bind failure by logging its own ``E... add_port.cc`` line on standard
error before raising a generic "Failed to bind". :func:`address_problem`
therefore parses, resolves and test-binds the address before gRPC sees it,
and :func:`add_port` keeps gRPC's C-core log of the bind call to itself,
replaying it only when the bind succeeded.

By default a port already in use is refused: gRPC sets SO_REUSEPORT on its
listeners, so without ``grpc.so_reuseport`` = 0 a second server would share
the port with the first and clients would get answers from either at random.
``reuse_port`` allows sharing on purpose (several processes behind one port).

Only the standard library is imported, so guesswork-serve can refuse a bad
address or a port in use before it loads gRPC, numpy and the catalog reader.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import socket
import sys
import tempfile
from collections.abc import Iterator
from typing import TYPE_CHECKING

from guesswork.cli_args import host_port_problem

if TYPE_CHECKING:
    import grpc

#: The schemes gRPC binds without a host and port (checked by gRPC itself).
_UNIX_SCHEMES = ("unix:", "unix-abstract:")


def address_problem(
    address: str, *, reuse_port: bool = False, option: str = "--address"
) -> str | None:
    """Return why ``address`` cannot be bound now, in one line; None if it can.

    Checks that it is HOST:PORT with a port from 0 to 65535, that the host
    resolves, and (port 0 aside: any free port) test-binds every address it
    resolves to as gRPC would. With ``reuse_port`` the test bind sets
    SO_REUSEPORT too, so it fails only where gRPC would: the port is held
    by a process that does not share it. Messages name the address as
    ``option`` (--http for the HTTP/JSON address).
    """
    if address.startswith(_UNIX_SCHEMES):
        return None
    malformed = host_port_problem(address, option, any_port=True)
    if malformed is not None:
        return malformed
    host, _, port_text = address.rpartition(":")
    port = int(port_text)
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    try:
        resolved = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        return f"{option} {address!r}: cannot resolve {host!r} ({reason})"
    if port == 0:
        return None
    failures: list[OSError] = []
    for family, kind, protocol, _, sockaddr in resolved:
        try:
            _test_bind(family, kind, protocol, sockaddr, reuse_port)
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                sharing = (
                    "by a server that does not share it"
                    if reuse_port
                    else "(is another guesswork-serve running? --reuse-port shares a port on "
                    "purpose)"
                )
                return f"cannot bind {address}: the port is in use {sharing}"
            failures.append(error)
    # gRPC binds every address a name resolves to and needs one to succeed
    # (localhost may resolve to ::1 on a machine without IPv6).
    if failures and len(failures) == len(resolved):
        return f"cannot bind {address}: {failures[0].strerror or failures[0]}"
    return None


def _test_bind(
    family: int, kind: int, protocol: int, sockaddr: tuple[object, ...], reuse_port: bool
) -> None:
    """Bind (and release) a socket as gRPC's listener would; raise OSError if it fails."""
    with socket.socket(family, kind, protocol) as probe:
        # As gRPC's listeners: a port left in TIME_WAIT by an earlier server is free.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if reuse_port and hasattr(socket, "SO_REUSEPORT"):
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        probe.bind(sockaddr)


def server_options(reuse_port: bool) -> list[tuple[str, int]]:
    """Return the gRPC server options that make binding exclusive unless ``reuse_port``."""
    return [("grpc.so_reuseport", 1 if reuse_port else 0)]


def add_port(
    server: grpc.Server, address: str, credentials: grpc.ServerCredentials | None
) -> tuple[int, str | None]:
    """Bind ``address`` on ``server``; return (the port bound, None) or (0, why not).

    gRPC's own log line about a failed bind is not printed: its reason is
    returned instead, to be reported in one line.
    """
    with _stderr_kept() as kept:
        try:
            if credentials is None:
                port = int(server.add_insecure_port(address))
            else:
                port = int(server.add_secure_port(address, credentials))
        except RuntimeError:
            port = 0
    if port == 0:
        found = re.search(rb"Failed to add port to server: (.*)", kept.data)
        reason = found.group(1).decode(errors="replace").strip() if found else "gRPC refused it"
        return 0, f"cannot bind {address}: {reason}"
    kept.replay()
    return port, None


class _Kept:
    """What was written to file descriptor 2 while it was redirected."""

    def __init__(self) -> None:
        self.data = b""

    def replay(self) -> None:
        """Write the kept bytes to the real standard error after all."""
        if self.data:
            os.write(2, self.data)


@contextlib.contextmanager
def _stderr_kept() -> Iterator[_Kept]:
    """Redirect file descriptor 2 (where gRPC's C core logs) into a buffer for the block.

    Only start-up runs this, before any thread of ours writes to stderr.
    """
    kept = _Kept()
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as sink:
        os.dup2(sink.fileno(), 2)
        try:
            yield kept
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            sink.seek(0)
            kept.data = sink.read()
