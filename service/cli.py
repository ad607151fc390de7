"""``guesswork-serve`` (also ``python -m service``): run the lookup service.

Every option has an environment variable; flags win. With no arguments it
serves the shipped catalog layered with the user's ($GUESSWORK_CATALOG, else
$XDG_DATA_HOME/guesswork/catalog.sqlite; the user's policy wins a name clash)
on 127.0.0.1:50051 until SIGTERM or Ctrl-C, then reports NOT_SERVING, lets
in-flight calls finish within the grace period, and exits 0. ``--catalog
PATH`` serves exactly that file (or ``--catalog postgresql+psycopg://...``, that
database; client.catalog_sql). A republished catalog is picked up without a
restart (SIGHUP, or within ``--reload-interval`` seconds). A catalog that
fails verification, an address that cannot be bound (a port in use included)
or a bad option stops start-up with one line on stderr and exit status 1.
``--processes N`` runs N such servers behind the one port (service.processes).
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import signal
import sys
import threading
from collections.abc import Sequence
from types import FrameType

# Only light modules here: the address is checked before gRPC, numpy and the
# catalog reader load (about a second), so a port in use fails at once.
from guesswork import __version__

from .address import address_problem
from .options import ServerOptions
from .processes import SUPERVISED, serve_processes, sharing_problem

PROG = "guesswork-serve"


def _env(name: str, default: str | None) -> str | None:
    return os.environ.get(f"GUESSWORK_{name}", default)


def build_parser() -> argparse.ArgumentParser:
    """Return the command-line parser (defaults come from the environment)."""
    defaults = ServerOptions()
    parser = argparse.ArgumentParser(prog=PROG, description="Serve Guesswork policies over gRPC.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument(
        "--address",
        default=_env("ADDRESS", defaults.address),
        help="HOST:PORT to bind ($GUESSWORK_ADDRESS; default 127.0.0.1:50051)",
    )
    parser.add_argument(
        "--catalog",
        default=None,
        help="serve exactly this catalog: a file, or a database URL "
        "postgresql+psycopg://USER@HOST:PORT/DATABASE (default: the shipped catalog under "
        "the user catalog, $GUESSWORK_CATALOG or $XDG_DATA_HOME/guesswork/catalog.sqlite)",
    )
    parser.add_argument(
        "--reuse-port",
        action="store_true",
        default=_env("REUSE_PORT", "") not in ("", "0", "false", "no"),
        help="share the port with other servers started with it, on purpose (SO_REUSEPORT); "
        "by default a port in use is refused ($GUESSWORK_REUSE_PORT)",
    )
    parser.add_argument(
        "--reload-interval",
        type=float,
        default=float(_env("RELOAD_INTERVAL", str(defaults.reload_interval)) or 0),
        help="seconds between looks for a republished catalog; 0: only on SIGHUP "
        "($GUESSWORK_RELOAD_INTERVAL; default 2)",
    )
    parser.add_argument(
        "--max-concurrent",
        type=int,
        default=int(_env("MAX_CONCURRENT", str(defaults.max_concurrent)) or 0),
        help="calls served at once; more are rejected ($GUESSWORK_MAX_CONCURRENT)",
    )
    parser.add_argument(
        "--max-live",
        type=int,
        default=int(_env("MAX_LIVE", str(defaults.max_live)) or 0),
        help="live computations (off-tree answers, analyses, honeycomb searches) at once; "
        "more wait, stored answers never do ($GUESSWORK_MAX_LIVE; default: the cores)",
    )
    parser.add_argument(
        "--max-request-bytes",
        type=int,
        default=int(_env("MAX_REQUEST_BYTES", str(defaults.max_request_bytes)) or 0),
        help="largest request accepted ($GUESSWORK_MAX_REQUEST_BYTES)",
    )
    parser.add_argument(
        "--grace",
        type=float,
        default=float(_env("GRACE", str(defaults.grace)) or 0),
        help="seconds in-flight calls get after SIGTERM ($GUESSWORK_GRACE)",
    )
    parser.add_argument(
        "--cache-entries",
        type=int,
        default=int(_env("CACHE_ENTRIES", str(defaults.cache_entries)) or 0),
        help="finished responses kept, least recently used evicted; 0: none "
        "($GUESSWORK_CACHE_ENTRIES)",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=int(_env("PROCESSES", str(defaults.processes)) or 0),
        help="server processes behind the one port, each with the catalog (SO_REUSEPORT); "
        "they stop together ($GUESSWORK_PROCESSES; default 1)",
    )
    parser.add_argument("--tls-cert", default=_env("TLS_CERT", None), help="PEM certificate")
    parser.add_argument("--tls-key", default=_env("TLS_KEY", None), help="PEM private key")
    parser.add_argument("--log-level", default=_env("LOG_LEVEL", "INFO"), help="logging level")
    return parser


def run(argv: Sequence[str] | None = None) -> int:
    """Serve until a signal; return the exit status."""
    try:
        args = build_parser().parse_args(argv)
    except ValueError as error:  # a malformed number in the environment
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=getattr(logging, str(args.log_level).upper(), logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if (
        args.max_concurrent < 1
        or args.max_live < 1
        or args.max_request_bytes < 1
        or args.grace < 0
        or args.cache_entries < 0
        or args.processes < 1
        or not 0 <= args.reload_interval < float("inf")
    ):
        print(f"{PROG}: error: limits must be positive", file=sys.stderr)
        return 2
    options = ServerOptions(
        address=args.address,
        catalog=args.catalog,
        max_concurrent=args.max_concurrent,
        max_live=args.max_live,
        max_request_bytes=args.max_request_bytes,
        grace=args.grace,
        cache_entries=args.cache_entries,
        tls_cert=args.tls_cert,
        tls_key=args.tls_key,
        reuse_port=args.reuse_port,
        reload_interval=args.reload_interval,
        processes=args.processes,
    )
    problem = address_problem(options.address, reuse_port=options.reuse_port) or (
        sharing_problem(options.address, options.processes)
    )
    if problem is not None:
        print(f"{PROG}: error: {problem}", file=sys.stderr)
        return 1
    if options.processes > 1:
        given = list(argv) if argv is not None else sys.argv[1:]
        return serve_processes(PROG, given, options.processes, options.grace)
    from ..client.errors import GuessworkError
    from .allocator import tune_allocator
    from .server import create_server

    tune_allocator()  # before the catalog and the kernels allocate (service.allocator)
    try:
        server = create_server(options)
        server.start()
    except (GuessworkError, OSError, ValueError, RuntimeError) as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 1
    port = server.port
    host = options.address.rsplit(":", 1)[0]
    served = _describe_catalog(options.catalog)
    logging.getLogger("guesswork.service").info("serving %s on %s:%d", served, host, port)
    print(f"{PROG}: serving {served} on {host}:{port}", file=sys.stderr, flush=True)

    def shut_down(signum: int, frame: FrameType | None) -> None:
        logging.getLogger("guesswork.service").info("signal %d: draining", signum)
        server.stop(options.grace)

    def reload(signum: int, frame: FrameType | None) -> None:
        logging.getLogger("guesswork.service").info("signal %d: reloading the catalog", signum)
        server.reload()

    signal.signal(signal.SIGTERM, shut_down)
    signal.signal(signal.SIGINT, shut_down)
    signal.signal(signal.SIGHUP, reload)
    if os.environ.get(SUPERVISED):
        _stop_with_parent()
    server.wait()
    return 0


def _stop_with_parent() -> None:
    """Stop this server (as SIGTERM does) when standard input closes: under
    ``--processes`` it is a pipe from the parent, closed when the parent ends in
    any way, so a child never outlives it."""

    def watch() -> None:
        with contextlib.suppress(OSError):
            while os.read(sys.stdin.fileno(), 4096):
                pass  # the parent writes nothing: only the end matters
        logging.getLogger("guesswork.service").warning("the parent process is gone: stopping")
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="guesswork-parent", daemon=True).start()


def _describe_catalog(location: str | None) -> str:
    """Return what is served, for the start-up line: a catalog (a URL without its
    password), or shipped + user."""
    from pathlib import Path

    from ..client.catalog import SHIPPED_CATALOG, catalog_files
    from ..client.catalog_location import describe_location

    if location is not None:
        return describe_location(location)
    files = catalog_files(None)
    user = files[1] if len(files) > 1 else None
    if user is None:
        return str(SHIPPED_CATALOG)
    # "none yet" is told of a file only: asking a database would take one more connection.
    absent = isinstance(user, Path) and not user.exists()
    return f"{SHIPPED_CATALOG} under the user catalog {describe_location(user)}" + (
        " (none yet)" if absent else ""
    )


def main() -> None:
    """Console-script entry point.

    Exits at once when the server has stopped (after ``--grace``): a call still
    computing then (a long live search) is abandoned rather than waited for,
    which an ordinary exit would do (Python joins the server's threads), so
    the process always ends within grace and a fraction of a second.
    """
    status = run()
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)
