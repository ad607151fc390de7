"""``guesswork-serve`` (also ``python -m service``): run the lookup service.

Every option has an environment variable; flags win. With no arguments it
serves the shipped catalog on 127.0.0.1:50051 until SIGTERM or Ctrl-C, then
reports NOT_SERVING, lets in-flight calls finish within the grace period, and
exits 0. A catalog that fails verification stops start-up with one line on
stderr and exit status 1.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
from collections.abc import Sequence
from types import FrameType

from guesswork.client.catalog import default_catalog
from guesswork.client.errors import GuessworkError
from guesswork.service.server import ServerOptions, create_server

PROG = "guesswork-serve"


def _env(name: str, default: str | None) -> str | None:
    return os.environ.get(f"GUESSWORK_{name}", default)


def build_parser() -> argparse.ArgumentParser:
    """Return the command-line parser (defaults come from the environment)."""
    defaults = ServerOptions()
    parser = argparse.ArgumentParser(prog=PROG, description="Serve Guesswork policies over gRPC.")
    parser.add_argument(
        "--address",
        default=_env("ADDRESS", defaults.address),
        help="HOST:PORT to bind ($GUESSWORK_ADDRESS; default 127.0.0.1:50051)",
    )
    parser.add_argument(
        "--catalog",
        default=_env("CATALOG", None),
        help="catalog file ($GUESSWORK_CATALOG; default: the shipped one)",
    )
    parser.add_argument(
        "--max-concurrent",
        type=int,
        default=int(_env("MAX_CONCURRENT", str(defaults.max_concurrent)) or 0),
        help="calls served at once; more are rejected ($GUESSWORK_MAX_CONCURRENT)",
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
    parser.add_argument("--tls-cert", default=_env("TLS_CERT", None), help="PEM certificate")
    parser.add_argument("--tls-key", default=_env("TLS_KEY", None), help="PEM private key")
    parser.add_argument("--log-level", default=_env("LOG_LEVEL", "INFO"), help="logging level")
    return parser  # fmt: skip


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
        or args.max_request_bytes < 1
        or args.grace < 0
        or args.cache_entries < 0
    ):
        print(f"{PROG}: error: limits must be positive", file=sys.stderr)
        return 2
    options = ServerOptions(
        address=args.address,
        catalog=args.catalog or default_catalog(),
        max_concurrent=args.max_concurrent,
        max_request_bytes=args.max_request_bytes,
        grace=args.grace,
        cache_entries=args.cache_entries,
        tls_cert=args.tls_cert,
        tls_key=args.tls_key,
    )
    try:
        server, port = create_server(options)
    except (GuessworkError, OSError, ValueError, RuntimeError) as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 1
    host = options.address.rsplit(":", 1)[0]
    logging.getLogger("guesswork.service").info("serving %s on %s:%d", options.catalog, host, port)
    print(f"{PROG}: serving {options.catalog} on {host}:{port}", file=sys.stderr, flush=True)

    def shut_down(signum: int, frame: FrameType | None) -> None:
        logging.getLogger("guesswork.service").info("signal %d: draining", signum)
        server.stop(options.grace)

    signal.signal(signal.SIGTERM, shut_down)
    signal.signal(signal.SIGINT, shut_down)
    server.wait()
    return 0


def main() -> None:
    """Console-script entry point."""
    sys.exit(run())
