"""A real, throwaway PostgreSQL server for the tests (no mocks), from the pgserver wheel.

pgserver ships PostgreSQL 16's binaries as a pip package (a ``dev`` extra), so
the suite needs no system PostgreSQL. :class:`ThrowawayServer` runs ``initdb``
in a fresh folder under /tmp and ``postgres`` on a free loopback port, and is
stopped (fast shutdown, then killed) and its folder removed when the session
ends, whatever the tests did; if the test process itself is killed, Linux
stops the server (PR_SET_PDEATHSIG). PostgreSQL refuses to run as root, and tests run
as root in CI, so there it runs as the system user ``pgserver`` (created if
missing, as pgserver itself does) and the folder is given to that user.

Authentication: ``postgres`` is trusted from the loopback address; every other
role needs its password (SCRAM), so a wrong password can be tested for real.

The session fixture is ``postgres``; ``pg_url`` gives each test a new, empty
database. tests/conftest.py loads this module as a plugin.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import importlib.util
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

#: PostgreSQL's programs in the pgserver wheel, found without importing the
#: package (its import sets up a server manager and warns without $XDG_RUNTIME_DIR).
_SPEC = importlib.util.find_spec("pgserver")
assert _SPEC is not None and _SPEC.submodule_search_locations, "pip install 'guesswork-solver[dev]'"
POSTGRES_BIN_PATH = Path(_SPEC.submodule_search_locations[0]) / "pginstall" / "bin"

#: The system user PostgreSQL runs as when the tests run as root (pgserver's choice).
SYSTEM_USER = "pgserver"
#: A role that must give its password (the others are trusted), for credential tests.
GUEST, GUEST_PASSWORD = "guest", "right-password"
#: How long the server may take to start or stop before the fixture fails.
START_LIMIT, STOP_LIMIT = 60.0, 30.0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


#: prctl(2), looked up here rather than in the forked child (no loader work there).
_PRCTL = ctypes.CDLL(None, use_errno=True).prctl if sys.platform == "linux" else None


def _die_with_parent() -> None:
    """In the server's process before it starts: have Linux send it SIGINT (fast shutdown)
    if the test process dies without its teardown (SIGKILL, os._exit)."""
    if _PRCTL is not None:
        _PRCTL(1, signal.SIGINT)  # 1: PR_SET_PDEATHSIG


class ThrowawayServer:
    """One PostgreSQL cluster in a temporary folder, serving on 127.0.0.1."""

    def __init__(self) -> None:
        """Create the cluster and start the server; raise RuntimeError if it cannot start."""
        # Not pytest's tmp_path: its parents are 0700 root, closed to the server's user.
        self.folder = Path(tempfile.mkdtemp(prefix="guesswork-pg-", dir="/tmp"))
        self.data = self.folder / "data"
        self.log = self.folder / "postgres.log"
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None
        self.user: str | None = None
        self.start_seconds = 0.0
        atexit.register(self.stop)  # even if the session dies before its teardown
        try:
            self._start()
        except BaseException:
            self.stop()
            raise

    def _start(self) -> None:
        started = time.monotonic()
        if os.geteuid() == 0:
            try:
                entry = pwd.getpwnam(SYSTEM_USER)
            except KeyError:  # as pgserver.utils.ensure_user_exists does
                subprocess.run(
                    ["useradd", "-s", "/bin/bash", SYSTEM_USER],
                    check=True,
                    capture_output=True,
                    timeout=60,
                )
                entry = pwd.getpwnam(SYSTEM_USER)
            self.user = SYSTEM_USER
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
        subprocess.run(
            [
                str(POSTGRES_BIN_PATH / "initdb"),
                "-D",
                str(self.data),
                "--auth=trust",
                "-U",
                "postgres",
                "--encoding=UTF8",
                "--no-sync",
            ],
            user=self.user,
            check=True,
            capture_output=True,
            timeout=START_LIMIT,
        )
        (self.data / "pg_hba.conf").write_text(
            "local all all trust\n"
            "host all postgres 127.0.0.1/32 trust\n"
            "host all all 127.0.0.1/32 scram-sha-256\n"
        )
        for _attempt in range(3):  # a port taken between the probe and the bind: another
            self.port = _free_port()
            with self.log.open("ab") as log:
                self.process = subprocess.Popen(
                    [
                        str(POSTGRES_BIN_PATH / "postgres"),
                        "-D",
                        str(self.data),
                        "-h",
                        "127.0.0.1",
                        "-p",
                        str(self.port),
                        "-k",
                        str(self.folder),
                        "-c",
                        "fsync=off",
                    ],
                    user=self.user,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,  # Ctrl-C in the terminal is for pytest, not it
                    # After the switch to self.user, which would clear it.
                    preexec_fn=_die_with_parent,
                )
            if self._wait_ready():
                break
        else:
            raise RuntimeError(f"PostgreSQL did not start:\n{self.log.read_text()[-3000:]}")
        with self.connect() as connection:
            connection.execute(f"CREATE ROLE {GUEST} LOGIN PASSWORD '{GUEST_PASSWORD}'")
        self.start_seconds = time.monotonic() - started

    def _wait_ready(self) -> bool:
        """Return True once the server accepts connections, False if it exited."""
        deadline = time.monotonic() + START_LIMIT
        assert self.process is not None
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False
            try:
                psycopg.connect(self.dsn("postgres"), connect_timeout=2).close()
                return True
            except psycopg.OperationalError:
                time.sleep(0.05)
        raise RuntimeError(f"PostgreSQL not ready in {START_LIMIT:.0f} s:\n{self.log.read_text()}")

    def dsn(self, database: str) -> str:
        """Return a libpq connection string for ``database`` as ``postgres``."""
        return f"host=127.0.0.1 port={self.port} user=postgres dbname={database}"

    def connect(self, database: str = "postgres") -> psycopg.Connection[tuple[object, ...]]:
        """Return an autocommit connection as the superuser (for set-up and tampering)."""
        return psycopg.connect(self.dsn(database), autocommit=True, connect_timeout=5)

    def url(self, database: str, user: str = "postgres", password: str | None = None) -> str:
        """Return the SQLAlchemy URL of ``database`` (the form users give Guesswork)."""
        secret = f":{password}" if password is not None else ""
        return f"postgresql+psycopg://{user}{secret}@127.0.0.1:{self.port}/{database}"

    def create_database(self) -> str:
        """Create a new empty database; return its name."""
        name = f"gw_{uuid.uuid4().hex[:12]}"
        with self.connect() as connection:
            connection.execute(f"CREATE DATABASE {name}")
            connection.execute(f"GRANT ALL ON DATABASE {name} TO {GUEST}")
            connection.execute(f"ALTER DATABASE {name} OWNER TO {GUEST}")
        return name

    def stop(self) -> None:
        """Stop the server (fast shutdown: clients are cut off) and delete its folder."""
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            # SIGINT is PostgreSQL's fast shutdown; SIGTERM's smart one would wait
            # for every client to leave, and a leaked connection would hang here.
            process.send_signal(signal.SIGINT)
            try:
                process.wait(STOP_LIMIT)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres() -> Iterator[ThrowawayServer]:
    """A PostgreSQL server for the whole session (started on first use, always stopped)."""
    server = ThrowawayServer()
    try:
        yield server
    finally:
        server.stop()
        with contextlib.suppress(ValueError):
            atexit.unregister(server.stop)


@pytest.fixture
def pg_url(postgres: ThrowawayServer) -> str:
    """The URL of a new, empty database of the session's server."""
    return postgres.url(postgres.create_database())
