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
or a bad option stops start-up with one line on stderr and exit status 1;
so does a ``--catalog`` that fails its seal (any byte not as published). With
no ``--catalog``, a user catalog that fails is left out with a WARNING line
naming it and why, the shipped catalog is served, and the start-up line says
so. SIGTERM drains at any time after start-up begins, during warm-up too.
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
from collections.abc import Callable, Sequence
from pathlib import Path
from types import FrameType

# Only light modules here: the address is checked before gRPC, numpy and the
# catalog reader load (about a second), so a port in use fails at once.
from guesswork import __version__
from guesswork.cli_args import (
    EXIT_USAGE,
    EnvironmentOption,
    OptionError,
    Parser,
    add_environment_option,
    as_given,
    seconds,
    settle_environment,
    whole,
)

from ..client.catalog import SHIPPED_CATALOG, catalog_files
from ..client.catalog_location import describe_location
from ..client.errors import GuessworkError
from .address import address_problem
from .allocator import tune_allocator
from .options import MAX_REQUEST_BYTES, ServerOptions
from .processes import SUPERVISED, become_child, serve_processes, sharing_problem
from .tls import tls_problem

PROG = "guesswork-serve"


#: The logging levels --log-level accepts.
LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def _flag_word(text: str) -> bool:
    """Parse a yes/no environment value ($GUESSWORK_REUSE_PORT)."""
    word = text.strip().lower()
    if word in ("1", "true", "yes", "on"):
        return True
    if word in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"must be 1/true/yes or 0/false/no, not {text!r}")


def _text(text: str) -> str:
    return text


def _level(text: str) -> str:
    level = text.strip().upper()
    if level not in LEVELS:
        raise argparse.ArgumentTypeError(f"must be one of {', '.join(LEVELS)}, not {text!r}")
    return level


def build_parser() -> tuple[argparse.ArgumentParser, list[EnvironmentOption]]:
    """Return the command-line parser and its options an environment variable sets.

    Each such option's flag is None when left out; :func:`parse_options`
    fills it from $GUESSWORK_... or the default.
    """
    defaults = ServerOptions()
    table: list[EnvironmentOption] = []
    parser = Parser(prog=PROG, description="Serve Guesswork policies over gRPC.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")

    def option(
        flag: str, parse: Callable[[str], object], default: object, text: str, shown: str = ""
    ) -> None:
        variable = "GUESSWORK_" + flag.removeprefix("--").replace("-", "_").upper()
        add_environment_option(parser, table, flag, variable, parse, default, text, shown or None)

    option("--address", _text, defaults.address, "HOST:PORT to bind; port 0: any free port")
    parser.add_argument(
        "--catalog",
        default=None,
        help="serve exactly this catalog: a file, or a database URL "
        "postgresql+psycopg://USER@HOST:PORT/DATABASE (default: the shipped catalog under "
        "the user catalog, $GUESSWORK_CATALOG or $XDG_DATA_HOME/guesswork/catalog.sqlite)",
    )
    parser.add_argument(
        "--reuse-port",
        action="store_const",
        const=True,
        default=None,
        help="share the port with other servers started with it, on purpose (SO_REUSEPORT); "
        "by default a port in use is refused ($GUESSWORK_REUSE_PORT=1)",
    )
    table.append(
        EnvironmentOption("--reuse-port", "reuse_port", "GUESSWORK_REUSE_PORT", _flag_word, False)
    )
    option(
        "--reload-interval",
        seconds(zero=True),
        defaults.reload_interval,
        "seconds between looks for a republished catalog; 0: only on SIGHUP",
    )
    option(
        "--max-concurrent",
        whole(1),
        defaults.max_concurrent,
        "calls served at once; more are rejected with RESOURCE_EXHAUSTED",
    )
    option(
        "--max-per-peer",
        whole(1),
        None,
        "calls one client address may have served at once, all its connections "
        "together; more are rejected with RESOURCE_EXHAUSTED (behind a proxy, set it "
        "to --max-concurrent)",
        "half of --max-concurrent, at least 1",
    )
    option(
        "--max-live",
        whole(1),
        defaults.max_live,
        "live computations (off-tree answers, analyses, honeycomb searches) at once; "
        "more wait, stored answers never do",
        f"the cores, {defaults.max_live} here",
    )
    option(
        "--max-request-bytes",
        whole(1, MAX_REQUEST_BYTES),
        defaults.max_request_bytes,
        "largest request accepted, in bytes",
    )
    option(
        "--grace",
        seconds(zero=True),
        defaults.grace,
        "seconds in-flight calls get to finish after SIGTERM or Ctrl-C",
    )
    option(
        "--cache-entries",
        whole(0),
        defaults.cache_entries,
        "finished responses kept, least recently used evicted; 0: none",
    )
    option(
        "--processes",
        whole(1),
        defaults.processes,
        "server processes behind the one port, each with the catalog (SO_REUSEPORT); "
        "they stop together",
    )
    option(
        "--http",
        _text,
        None,
        "HOST:PORT to serve the same API as HTTP/JSON (Connect's unary protocol: "
        "POST /guesswork.v1.Guesswork/METHOD) and the page at /; off unless given",
    )
    option("--tls-cert", _text, None, "PEM certificate (chain) file; with --tls-key: TLS")
    option("--tls-key", _text, None, "PEM private key file of --tls-cert")
    option("--log-level", _level, "INFO", f"logging level: {', '.join(LEVELS)}")
    return parser, table


def parse_options(argv: Sequence[str] | None) -> argparse.Namespace:
    """Return the options of ``argv`` (None: the process's), the environment filling the rest.

    Raises:
        OptionError: an option or an environment variable is malformed, or
            the TLS files cannot be used; the message names which.
    """
    parser, table = build_parser()
    args = parser.parse_args(argv)
    args.from_environment = settle_environment(args, table)
    problem = tls_problem(args.tls_cert, args.tls_key)
    if problem is not None:
        raise OptionError(as_given(problem, args.from_environment))
    return args


def run(argv: Sequence[str] | None = None) -> int:
    """Serve until a signal; return the exit status."""
    try:
        args = parse_options(argv)
    except OptionError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    logging.basicConfig(
        level=getattr(logging, args.log_level),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    options = ServerOptions(
        address=args.address,
        catalog=args.catalog,
        max_concurrent=args.max_concurrent,
        max_per_peer=args.max_per_peer,
        max_live=args.max_live,
        max_request_bytes=args.max_request_bytes,
        grace=args.grace,
        cache_entries=args.cache_entries,
        tls_cert=args.tls_cert,
        tls_key=args.tls_key,
        reuse_port=args.reuse_port,
        reload_interval=args.reload_interval,
        processes=args.processes,
        http_address=args.http,
    )
    problem = (
        address_problem(options.address, reuse_port=options.reuse_port)
        or sharing_problem(options.address, options.processes)
        or _http_problem(options)
    )
    if problem is not None:
        print(f"{PROG}: error: {as_given(problem, args.from_environment)}", file=sys.stderr)
        return 1
    if options.processes > 1:
        given = list(argv) if argv is not None else sys.argv[1:]
        return serve_processes(PROG, given, options.processes, options.grace)
    # The gRPC server (grpc) is loaded here, by the process that serves: the parent
    # of --processes N only supervises its children.
    from .server import create_server

    tune_allocator()  # before the catalog and the kernels allocate (service.allocator)
    try:
        server = create_server(options)
    except (GuessworkError, OSError, ValueError, RuntimeError) as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 1

    def shut_down(signum: int, frame: FrameType | None) -> None:
        logging.getLogger("guesswork.service").info("signal %d: draining", signum)
        server.stop(options.grace)

    def reload(signum: int, frame: FrameType | None) -> None:
        logging.getLogger("guesswork.service").info("signal %d: reloading the catalog", signum)
        server.reload()

    # Before start: stored answers are served while live ones warm up, and a SIGTERM
    # then drains those calls as it would later (start returns, wait sees the stop).
    signal.signal(signal.SIGTERM, shut_down)
    signal.signal(signal.SIGINT, shut_down)
    signal.signal(signal.SIGHUP, reload)
    if os.environ.get(SUPERVISED):
        _stop_with_parent()
    try:
        server.start()
    except (GuessworkError, OSError, ValueError, RuntimeError) as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 1
    if not server.stopping:
        port = server.port
        host = options.address.rsplit(":", 1)[0]
        served = _describe_catalog(options.catalog, server.left_out)
        # One line, on stderr: the logging configured above writes there too, so
        # logging it as well would print it twice.
        http = ""
        if server.http_port is not None and options.http_address is not None:
            http_host = options.http_address.rsplit(":", 1)[0]
            http = f"; HTTP/JSON and the page on http://{http_host}:{server.http_port}/"
        print(f"{PROG}: serving {served} on {host}:{port}{http}", file=sys.stderr, flush=True)
    server.wait()
    return 0


def _http_problem(options: ServerOptions) -> str | None:
    """Return why the --http address cannot be served, in one line; None if it can
    (or if there is none)."""
    if options.http_address is None:
        return None
    if options.http_address == options.address:
        return f"--http {options.http_address!r} is the gRPC --address too: give each its own port"
    return address_problem(
        options.http_address, reuse_port=options.reuse_port, option="--http"
    ) or sharing_problem(options.http_address, options.processes, option="--http")


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


def _describe_catalog(location: str | None, left_out: str | None = None) -> str:
    """Return what is served, for the start-up line: a catalog (a URL without its
    password), or shipped + user, or the shipped one alone where the user catalog
    was ``left_out`` (damaged: the reason was logged above)."""
    if location is not None:
        return describe_location(location)
    files = catalog_files(None)
    user = files[1] if len(files) > 1 else None
    if user is None:
        return str(SHIPPED_CATALOG)
    if left_out is not None:
        return (
            f"{SHIPPED_CATALOG} only: the user catalog {describe_location(user)} is "
            "damaged and left out (see the warning above)"
        )
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


def child_main() -> None:
    """Entry point of a child of ``--processes N`` (service.processes): :func:`main`,
    with the parent's probes answered and the process gone soon after the parent.
    Never returns."""
    become_child()
    try:
        main()
    finally:
        os._exit(1)  # main ends with os._exit; this is for an exception on its way out
