"""The catalog on PostgreSQL, against a real server (tests/pg.py), never a mock.

The same catalog published to a database and to a file reads back the same;
every command that reads or publishes takes the URL; a publish is one
transaction that readers see whole or not at all; tampered rows are refused;
and guesswork-serve serves, and reloads, a database catalog.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
import sqlalchemy as sa
from grpc_health.v1 import health_pb2, health_pb2_grpc

from guesswork.__main__ import run as guesswork
from guesswork.builder.cli import run as build
from guesswork.builder.errors import CatalogWriteError
from guesswork.builder.policies import PolicySpec, build_policy
from guesswork.builder.publish import StoredBeeTable, StoredPolicy, kept_bee_tables, publish_catalog
from guesswork.client.catalog import (
    SHIPPED_CATALOG,
    Catalog,
    catalog_files,
    open_catalog,
    open_store,
    user_catalog,
)
from guesswork.client.catalog_location import SCHEMA_VERSION, describe_location
from guesswork.client.catalog_sql import (
    CONNECT_TIMEOUT,
    content_seal,
    server_signature,
)
from guesswork.client.errors import PolicyFormatError
from guesswork.protos.guesswork.v1 import guesswork_pb2 as pb
from guesswork.protos.guesswork.v1 import guesswork_pb2_grpc as pb_grpc
from guesswork.service.server import ServerOptions, start_server
from tests.pg import GUEST, GUEST_PASSWORD, ThrowawayServer

ROOT = Path(__file__).resolve().parents[1]
#: A schema version this Guesswork does not read.
NEWER = SCHEMA_VERSION + 1
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
FEW = "crane slate trace roast piano doubt might lousy bails fails mound sound round\n"
AILS = "bails fails hails nails pails rails sails tails wails\n"


@pytest.fixture(scope="module")
def lists(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("lists")
    (folder / "few.txt").write_text(FEW)
    (folder / "ails.txt").write_text(AILS)
    return folder


def _stored(spec: PolicySpec) -> StoredPolicy:
    built = build_policy(spec)
    return StoredPolicy.from_data(built.data, built.tree.targets.words, built.tree.guesses.words)


@pytest.fixture(scope="module")
def policies(lists: Path) -> list[StoredPolicy]:
    """Three small policies of three games and modes (one with a separate guess list)."""
    few, ails = str(lists / "few.txt"), str(lists / "ails.txt")
    return [
        _stored(PolicySpec(targets=few, mode="hard", metric="max")),
        _stored(PolicySpec(targets=ails, guesses=few, metric="max")),
        _stored(PolicySpec("jotto", targets=few, mode="hard", metric="expectation")),
    ]


@pytest.fixture(scope="module")
def extra(lists: Path) -> StoredPolicy:
    """One more policy, for republishing."""
    return _stored(PolicySpec(targets=str(lists / "ails.txt"), mode="hard", metric="max"))


@pytest.fixture(scope="module")
def bees() -> list[StoredBeeTable]:
    """One honeycomb table (with its 172k-word list), taken from the shipped catalog."""
    with open_catalog(SHIPPED_CATALOG) as shipped:
        return [b for b in kept_bee_tables(shipped) if b.table.key == "enable1/no-s"]


@pytest.fixture
def both(
    pg_url: str, tmp_path: Path, policies: list[StoredPolicy], bees: list[StoredBeeTable]
) -> tuple[str, Path]:
    """The same catalog published to a fresh database and to a file."""
    path = tmp_path / "catalog.sqlite"
    assert publish_catalog(str(path), policies, bees) == path
    assert publish_catalog(pg_url, policies, bees) == pg_url
    return pg_url, path


def answers_of(catalog: Catalog) -> dict[str, list[list[str]]]:
    """Every policy's guesses for every target: what a lookup could ever answer."""
    return {p.name: [p.play(t) for t in p.targets] for p in catalog}


def _names(location: str | Path) -> list[str]:
    with open_catalog(location) as catalog:
        return catalog.names()


def _execute(postgres: ThrowawayServer, url: str, statement: str, *values: object) -> None:
    """Run one SQL statement on the database of ``url`` as the superuser (tampering)."""
    with postgres.connect(sa.make_url(url).database or "") as connection:
        connection.execute(statement, values)


@contextlib.contextmanager
def on_statement(prefix: str, action: Callable[[], None]) -> Iterator[None]:
    """Call ``action`` just before any engine runs a statement starting with ``prefix``."""

    def hook(*args: Any) -> None:
        if args[2].lstrip().upper().startswith(prefix.upper()):
            action()

    sa.event.listen(sa.engine.Engine, "before_cursor_execute", hook)
    try:
        yield
    finally:
        sa.event.remove(sa.engine.Engine, "before_cursor_execute", hook)


def _one_line_error(capsys: pytest.CaptureFixture[str], *argv: str, status: int = 1) -> str:
    """Run guesswork-build; it must fail with ``status`` and one line; return the line."""
    assert build(list(argv)) == status
    err = capsys.readouterr().err
    assert err.startswith("guesswork-build: error: ") and err.count("\n") == 1, err
    return err


def test_a_database_and_a_file_catalog_read_back_the_same(both: tuple[str, Path]) -> None:
    url, path = both
    with open_catalog(url) as served, open_catalog(path) as filed:
        assert served.names() == filed.names() and len(served) == 3
        assert served.list() == filed.list()
        assert [p.content_hash for p in served] == [p.content_hash for p in filed]
        assert served.word_lists() == filed.word_lists()
        assert served.bee_tables() == filed.bee_tables()
        assert answers_of(served) == answers_of(filed)  # every target walked
        assert served.location == url
    signature = server_signature(url)
    assert signature is not None and signature[0] == "1" and len(signature[1]) == 64


def test_urls_plain_postgresql_and_passwords(
    postgres: ThrowawayServer, pg_url: str, policies: list[StoredPolicy]
) -> None:
    """postgresql:// means psycopg 3; a password works and never appears in messages."""
    database = sa.make_url(pg_url).database or ""
    guest = postgres.url(database, GUEST, GUEST_PASSWORD)
    shown = describe_location(guest)
    assert GUEST_PASSWORD not in shown and f"{GUEST}:***@" in shown
    assert publish_catalog(guest, policies[:1]) == shown
    plain = guest.replace("postgresql+psycopg://", "postgresql://")
    with open_catalog(plain) as catalog:
        assert catalog.names() == [policies[0].data.name]
        assert catalog.location == describe_location(plain)
    assert _names(guest.replace("postgresql+psycopg://", "postgres://")) == [policies[0].data.name]
    with pytest.raises(PolicyFormatError) as refused:
        open_catalog(postgres.url(database, GUEST, "wrong-password"))
    assert "password authentication failed" in str(refused.value)
    assert "wrong-password" not in str(refused.value)


def test_the_shipped_catalog_on_postgres(
    postgres: ThrowawayServer, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The whole shipped catalog copied into PostgreSQL; open times of both, for the record."""
    with open_catalog(SHIPPED_CATALOG) as shipped:
        started = time.perf_counter()
        publish_catalog(
            pg_url, [StoredPolicy.from_policy(p) for p in shipped], kept_bee_tables(shipped)
        )
        published = time.perf_counter() - started
        timings = {}
        for name, location in (("file", str(SHIPPED_CATALOG)), ("postgres", pg_url)):
            started = time.perf_counter()
            opened = open_catalog(location)
            timings[name] = time.perf_counter() - started
            assert [p.info for p in opened] == [p.info for p in shipped]
            assert [p.content_hash for p in opened] == [p.content_hash for p in shipped]
            assert opened.word_lists() == shipped.word_lists()
            assert opened.bee_tables() == shipped.bee_tables()
    with capsys.disabled():
        print(
            f"\n[PostgreSQL server started in {postgres.start_seconds:.2f} s; shipped "
            f"catalog: publish to it {published:.2f} s; open: file {timings['file']:.2f} s, "
            f"PostgreSQL {timings['postgres']:.2f} s]"
        )


def test_guesswork_build_commands_on_a_database(
    pg_url: str, lists: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    few = str(lists / "few.txt")
    assert (
        build(
            ["build", "--catalog", pg_url, "--targets", few, "--name", "mine", "--quiet", "--json"]
        )
        == 0
    )
    assert json.loads(capsys.readouterr().out)["catalog"] == pg_url
    assert (
        build(
            [
                "optimize",
                "--catalog",
                pg_url,
                "--targets",
                str(lists / "ails.txt"),
                "--store",
                "--name",
                "best",
                "--quiet",
            ]
        )
        == 0
    )
    assert "stored best in" in capsys.readouterr().out
    assert build(["list", "--catalog", pg_url, "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [row["name"] for row in listed] == ["best", "mine"]
    assert {row["catalog"] for row in listed} == {"user"}
    assert build(["verify", "--catalog", pg_url]) == 0
    assert "2 of 2 policies verified" in capsys.readouterr().out
    exported = tmp_path / "mine.gwp"
    assert build(["export", "mine", "--catalog", pg_url, "--output", str(exported)]) == 0
    assert build(["import", str(exported), "--catalog", pg_url, "--name", "copy"]) == 0
    assert build(["remove", "best", "--catalog", pg_url]) == 0
    capsys.readouterr()
    assert _names(pg_url) == ["copy", "mine"]
    # A name clash is refused as with a file.
    err = _one_line_error(
        capsys, "import", str(exported), "--catalog", pg_url, "--name", "copy", status=2
    )
    assert "already in" in err
    # The player's command line reads it too, the same as from the exported file.
    assert guesswork(["suggest", "--store", pg_url, "--policy", "mine", "--json"]) == 0
    from_database = json.loads(capsys.readouterr().out)
    assert guesswork(["suggest", "--store", str(exported), "--policy", "mine", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == from_database
    assert guesswork(["policies", "--store", pg_url, "--json"]) == 0
    assert [row["name"] for row in json.loads(capsys.readouterr().out)] == ["copy", "mine"]
    with open_store(pg_url) as store:  # a URL is never taken for a policy file
        assert len(store) == 2


def test_the_user_catalog_on_a_database(
    postgres: ThrowawayServer,
    pg_url: str,
    lists: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """$GUESSWORK_CATALOG=URL: builds go there, lookups layer it over the shipped catalog."""
    monkeypatch.setenv("GUESSWORK_CATALOG", pg_url)
    assert user_catalog() == pg_url
    assert catalog_files() == [SHIPPED_CATALOG, pg_url]
    with open_catalog(SHIPPED_CATALOG) as shipped, open_catalog() as layered:
        assert layered.names() == shipped.names()  # an empty database: no user catalog yet
    assert build(["build", "--targets", str(lists / "few.txt"), "--name", "mine", "--quiet"]) == 0
    with open_catalog() as layered:
        assert layered.origin("mine") == "user"
        assert layered.origin("wordle-2309-hard-max") == "shipped"
    assert _names(pg_url) == ["mine"]
    assert build(["remove", "mine"]) == 0
    assert _names(pg_url) == []
    # A user catalog that cannot be reached is reported, not taken for "none yet".
    monkeypatch.setenv("GUESSWORK_CATALOG", postgres.url("no_such_database"))
    with pytest.raises(PolicyFormatError, match='database "no_such_database" does not exist'):
        open_catalog()
    err = _one_line_error(capsys, "build", "--targets", str(lists / "few.txt"), "--quiet")
    assert "cannot connect" in err


def _silent_port() -> Iterator[int]:
    """Yield a port that accepts connections and never answers (a hung server)."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        yield listener.getsockname()[1]


def test_bad_locations_are_one_line_errors(
    postgres: ThrowawayServer,
    pg_url: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        closed = probe.getsockname()[1]
    cases = {
        f"postgresql+psycopg://postgres@127.0.0.1:{closed}/x": "cannot connect (connection failed",
        pg_url: "not a Guesswork catalog (the database has no Guesswork tables)",
        postgres.url("missing"): 'database "missing" does not exist',
        postgres.url("postgres", "nobody"): "cannot connect",
        postgres.url("postgres", GUEST, "bad-secret"): "password authentication failed",
        "mysql://user@localhost/catalog": "unsupported catalog URL",
        "postgresql://localhost:port/catalog": "not a catalog URL",
    }
    for location, said in cases.items():
        err = _one_line_error(capsys, "list", "--catalog", location)
        assert said in err, (location, err)
        assert "bad-secret" not in err
    # Reading starts nothing: the empty database stays empty.
    assert not _database_tables(postgres, pg_url)
    # A server that accepts and never answers: given up after the connect timeout.
    for port in _silent_port():
        started = time.monotonic()
        err = _one_line_error(
            capsys, "verify", "--catalog", f"postgresql://postgres@127.0.0.1:{port}/x"
        )
        assert "cannot connect" in err and "timeout" in err
        assert time.monotonic() - started < CONNECT_TIMEOUT + 10
    # Without psycopg: what to install.
    monkeypatch.setitem(sys.modules, "psycopg", None)
    err = _one_line_error(capsys, "list", "--catalog", pg_url)
    assert "pip install 'guesswork-solver[postgres]'" in err


def test_a_cli_subprocess_prints_one_line_not_a_traceback(pg_url: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "guesswork.builder", "list", "--catalog", pg_url],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1
    assert result.stderr == (
        f"guesswork-build: error: {pg_url}: not a Guesswork catalog "
        f"(the database has no Guesswork tables)\n"
    )


def _database_tables(postgres: ThrowawayServer, url: str) -> list[str]:
    with postgres.connect(sa.make_url(url).database or "") as connection:
        rows = connection.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1"
        ).fetchall()
    return [str(row[0]) for row in rows]


def _reseal(url: str) -> None:
    """Seal the database's rows again, as a forger (or a buggy writer) would."""
    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    try:
        with engine.begin() as connection:
            tables = {
                name: [row._mapping for row in connection.execute(sa.text(f"SELECT * FROM {name}"))]
                for name in ("meta", "wordlists", "policies", "honeycombs")
            }
            meta = {str(row["key"]): str(row["value"]) for row in tables["meta"]}
            seal = content_seal(meta, tables["wordlists"], tables["policies"], tables["honeycombs"])
            connection.execute(
                sa.text("UPDATE meta SET value = :seal WHERE key = 'seal'"), {"seal": seal}
            )
    finally:
        engine.dispose()


def test_tampered_rows_are_refused(
    both: tuple[str, Path], postgres: ThrowawayServer, capsys: pytest.CaptureFixture[str]
) -> None:
    url, _ = both
    name = "wordle-few-hard-max"
    assert build(["verify", "--catalog", url]) == 0
    capsys.readouterr()
    # One bit of one blob: the seal fails, verify and every reader refuse.
    flip = "UPDATE policies SET blob = set_byte(blob, 40, get_byte(blob, 40) # 1) WHERE name = %s"
    _execute(postgres, url, flip, name)
    err = _one_line_error(capsys, "verify", "--catalog", url)
    assert "catalog checksum mismatch" in err
    # Sealed again by a forger: the row's own content hash still catches it.
    _reseal(url)
    with (
        open_catalog(url) as catalog,  # the index is sound; the policy is checked when read
        pytest.raises(PolicyFormatError, match=f"policy '{name}': checksum mismatch"),
    ):
        catalog.policy(name)
    _execute(postgres, url, flip, name)  # flipped back
    _reseal(url)
    assert len(_names(url)) == 3
    tampering = [
        # What no manifest entry covers: only the seal sees it.
        ("UPDATE wordlists SET name = 'renamed' WHERE count = 13", "catalog checksum mismatch"),
        ("DELETE FROM policies WHERE name = 'wordle-few-hard-max'", "catalog checksum mismatch"),
        ("UPDATE honeycombs SET allow_s = 1", "catalog checksum mismatch"),
        (
            f"UPDATE meta SET value = '{NEWER}' WHERE key = 'schema_version'",
            f"catalog schema {NEWER} is newer",
        ),
        (
            "UPDATE meta SET value = '7' WHERE key = 'application_id'",
            "not a Guesswork catalog (meta application id 0x7, expected 0x47575043)",
        ),
        ("DROP TABLE honeycombs", 'not a readable Guesswork catalog (relation "honeycombs"'),
    ]
    for statement, said in tampering:
        _check_tampering(postgres, url, statement, said)


def _check_tampering(postgres: ThrowawayServer, url: str, statement: str, said: str) -> None:
    """Apply ``statement``, check the refusal, then restore the catalog (publish anew)."""
    with open_catalog(url) as before:
        kept = [StoredPolicy.from_policy(p) for p in before]
        bees = kept_bee_tables(before)
    _execute(postgres, url, statement)
    with pytest.raises(PolicyFormatError) as refused:
        open_catalog(url)
    assert said in str(refused.value), (statement, str(refused.value))
    if "application_id" in statement:
        # Not ours any more: a publish refuses to empty it.
        with pytest.raises(CatalogWriteError, match="refusing to replace tables"):
            publish_catalog(url, kept, bees)
        _execute(
            postgres,
            url,
            "UPDATE meta SET value = %s WHERE key = 'application_id'",
            str(0x47575043),
        )
    elif "schema_version" in statement:
        with pytest.raises(CatalogWriteError, match=f"holds a catalog of schema {NEWER}"):
            publish_catalog(url, kept, bees)
        restore = "UPDATE meta SET value = %s WHERE key = 'schema_version'"
        _execute(postgres, url, restore, str(SCHEMA_VERSION))
    publish_catalog(url, kept, bees)
    assert len(_names(url)) == len(kept)


def test_a_database_with_other_tables_is_never_emptied(
    postgres: ThrowawayServer,
    pg_url: str,
    policies: list[StoredPolicy],
    capsys: pytest.CaptureFixture[str],
    lists: Path,
) -> None:
    _execute(postgres, pg_url, "CREATE TABLE policies (id integer)")
    _execute(postgres, pg_url, "INSERT INTO policies VALUES (1)")
    with pytest.raises(CatalogWriteError, match=r"\(policies but no meta\)"):
        publish_catalog(pg_url, policies)
    err = _one_line_error(
        capsys, "build", "--catalog", pg_url, "--targets", str(lists / "few.txt"), "--quiet"
    )
    assert "refusing to replace tables that are not a Guesswork catalog" in err
    assert _database_tables(postgres, pg_url) == ["policies"]


def test_a_failed_publish_changes_nothing(
    both: tuple[str, Path], extra: StoredPolicy, policies: list[StoredPolicy]
) -> None:
    url, _ = both
    before = server_signature(url)

    def crash() -> None:
        raise RuntimeError("the publisher died mid-way")

    # Old rows deleted, new ones half inserted: then the crash.
    with on_statement("INSERT INTO policies", crash), pytest.raises(RuntimeError):
        publish_catalog(url, [*policies, extra])
    assert server_signature(url) == before
    with open_catalog(url) as catalog:
        assert catalog.names() == sorted(p.data.name for p in policies)
        assert len(catalog.bee_tables()) == 1


def test_a_publisher_killed_mid_transaction_changes_nothing(
    both: tuple[str, Path], extra: StoredPolicy, policies: list[StoredPolicy]
) -> None:
    """kill -9 while the new rows are half written: the server rolls back, the lock is freed."""
    url, _ = both
    before = server_signature(url)
    code = (
        "import sys, time\n"
        "import sqlalchemy as sa\n"
        "from guesswork.builder.publish import publish_catalog\n"
        "from guesswork.client.catalog import open_catalog\n"
        "from guesswork.builder.publish import StoredPolicy\n"
        "url = sys.argv[1]\n"
        "policies = [StoredPolicy.from_policy(p) for p in open_catalog(url)]\n"
        "def hang(*args):\n"
        "    if args[2].startswith('INSERT INTO policies'):\n"
        "        print('paused', flush=True); time.sleep(600)\n"
        "sa.event.listen(sa.engine.Engine, 'before_cursor_execute', hang)\n"
        "publish_catalog(url, policies[:1])\n"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", code, url], env=ENV, stdout=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None
        assert process.stdout.readline() == "paused\n"
        # Mid-publish, readers see the previous catalog whole.
        assert _names(url) == sorted(p.data.name for p in policies)
    finally:
        process.kill()
        process.wait()
    assert server_signature(url) == before
    publish_catalog(url, [*policies, extra])  # the lock went with the connection
    assert len(_names(url)) == 4


def test_readers_see_the_old_catalog_or_the_new_never_a_mix(
    both: tuple[str, Path], extra: StoredPolicy, policies: list[StoredPolicy]
) -> None:
    url, _ = both
    old = sorted(p.data.name for p in policies)
    new = sorted([*old, extra.data.name])
    # 1. A publish commits between a reader's first and last table: the reader keeps
    #    its snapshot (with one transaction per table it would mix, and fail its checks).
    published: list[Path | str] = []

    def publish_now() -> None:
        if not published:
            published.append(publish_catalog(url, [*policies, extra]))

    with on_statement("SELECT policies.", publish_now):
        assert _names(url) == old
    assert published and _names(url) == new
    # 2. A publisher held between deleting the old rows and inserting the new: readers
    #    (the service's poll included) still see the old catalog, then the new one.
    paused, release = threading.Event(), threading.Event()

    def hold() -> None:
        if threading.current_thread().name == "publisher":
            paused.set()
            assert release.wait(60)

    failures: list[BaseException] = []

    def publisher() -> None:
        try:
            publish_catalog(url, policies)
        except BaseException as error:  # reported by the test, not lost in the thread
            failures.append(error)

    signature = server_signature(url)
    with on_statement("INSERT INTO policies", hold):
        thread = threading.Thread(target=publisher, name="publisher")
        thread.start()
        try:
            assert paused.wait(60)
            assert _names(url) == new
            assert server_signature(url) == signature
        finally:
            release.set()
            thread.join(60)
    assert not failures
    assert _names(url) == old
    after = server_signature(url)
    assert after is not None and signature is not None and after[0] == str(int(signature[0]) + 1)


def _health(channel: grpc.Channel) -> int:
    stub = health_pb2_grpc.HealthStub(channel)
    return int(stub.Check(health_pb2.HealthCheckRequest(service="")).status)


def _wait_for(condition: Callable[[], bool], what: str, limit: float = 60.0) -> None:
    deadline = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.05)


def _listed(stub: pb_grpc.GuessworkStub) -> set[str]:
    return {p.name for p in stub.ListPolicies(pb.ListPoliciesRequest()).policies}


def _every_answer(stub: pb_grpc.GuessworkStub, catalog: Catalog) -> list[Any]:
    """SuggestGuess after every prefix of every target's game, of every policy."""
    answers = []
    for policy in catalog:
        game = policy.game
        for target in policy.targets:
            guesses = policy.play(target)
            history = [
                pb.Turn(guess=g, reply=game.format_reply(game.reply(g, target))) for g in guesses
            ]
            for depth in range(len(history) + 1):
                request = pb.SuggestGuessRequest(
                    policy=policy.name, history=history[:depth], max_alternatives=3
                )
                answers.append(stub.SuggestGuess(request))
    return answers


def test_guesswork_serve_on_a_database(
    both: tuple[str, Path],
    postgres: ThrowawayServer,
    extra: StoredPolicy,
    policies: list[StoredPolicy],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A real guesswork-serve on the database answers as one on the file; SIGHUP reloads."""
    url, path = both
    guest = postgres.url(sa.make_url(url).database or "", GUEST, GUEST_PASSWORD)
    # The service may read as a role that can only read (the tables are postgres's).
    _execute(postgres, url, f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {GUEST}")
    with pytest.raises(CatalogWriteError, match=r"cannot write the catalog \(permission denied"):
        publish_catalog(guest, policies)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        address = f"127.0.0.1:{probe.getsockname()[1]}"
    log = tmp_path / "serve.log"
    started = time.monotonic()
    with log.open("w") as stderr:
        # No polling: a publish can appear only through SIGHUP.
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "guesswork.service",
                "--address",
                address,
                "--catalog",
                guest,
                "--reload-interval",
                "0",
            ],
            env=ENV,
            stderr=stderr,
            text=True,
        )
    file_server, file_port = start_server(ServerOptions(address="127.0.0.1:0", catalog=str(path)))
    try:
        with (
            grpc.insecure_channel(address) as channel,
            grpc.insecure_channel(f"127.0.0.1:{file_port}") as file_channel,
        ):
            _wait_for(
                lambda: process.poll() is not None or "serving" in log.read_text(),
                "guesswork-serve starts or fails",
                limit=120,
            )
            assert process.poll() is None, log.read_text()
            grpc.channel_ready_future(channel).result(timeout=120)
            _wait_for(
                lambda: _health(channel) == health_pb2.HealthCheckResponse.SERVING,
                "the database server is serving",
            )
            start_seconds = time.monotonic() - started
            stub, file_stub = pb_grpc.GuessworkStub(channel), pb_grpc.GuessworkStub(file_channel)
            with open_catalog(path) as catalog:
                served = _every_answer(stub, catalog)
                assert served == _every_answer(file_stub, catalog)
            assert len(served) > 100
            assert _listed(stub) == {f"policies/{p.data.name}" for p in policies}
            publish_catalog(url, [*policies, extra])
            time.sleep(0.3)
            assert f"policies/{extra.data.name}" not in _listed(stub)
            process.send_signal(signal.SIGHUP)
            _wait_for(lambda: f"policies/{extra.data.name}" in _listed(stub), "reloaded")
            answer = stub.SuggestGuess(pb.SuggestGuessRequest(policy=extra.data.name))
            assert answer.guess in AILS.upper().split()
            process.send_signal(signal.SIGTERM)
            assert process.wait(timeout=60) == 0
    finally:
        file_server.stop(0, drain=0)
        if process.poll() is None:
            process.kill()
            process.wait()
    text = log.read_text()
    assert f"serving {describe_location(guest)} on {address}" in text
    assert GUEST_PASSWORD not in text
    with capsys.disabled():
        print(f"\n[guesswork-serve on PostgreSQL: serving after {start_seconds:.2f} s]")


def test_the_service_polls_a_database_catalog(
    both: tuple[str, Path], extra: StoredPolicy, policies: list[StoredPolicy]
) -> None:
    url, _ = both
    server, port = start_server(
        ServerOptions(address="127.0.0.1:0", catalog=url, reload_interval=0.1)
    )
    try:
        assert server.watcher is not None
        assert not server.watcher.check()  # nothing changed: one small query, no reload
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = pb_grpc.GuessworkStub(channel)
            publish_catalog(url, [*policies, extra])
            _wait_for(lambda: f"policies/{extra.data.name}" in _listed(stub), "polled")
            publish_catalog(url, policies)
            _wait_for(lambda: f"policies/{extra.data.name}" not in _listed(stub), "polled")
            assert server.watcher.reloads == 2
    finally:
        server.stop(0, drain=0)


def test_guesswork_serve_refuses_an_empty_database(pg_url: str) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "guesswork.service",
            "--address",
            "127.0.0.1:0",
            "--catalog",
            pg_url,
        ],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1
    assert result.stderr == (
        f"guesswork-serve: error: {pg_url}: not a Guesswork catalog "
        f"(the database has no Guesswork tables)\n"
    )
