"""A catalog is opened by its index: policies are read one by one, when asked for."""

from __future__ import annotations

import dataclasses
import sqlite3

import pytest

from guesswork.client.catalog import SHIPPED_CATALOG, open_catalog
from guesswork.client.catalog_file import _KEYS, FileRows
from guesswork.client.catalog_reader import StoredCatalog
from guesswork.client.catalog_sql import TABLES
from guesswork.client.errors import PolicyFormatError, PolicyNotFoundError
from guesswork.client.policy_info import PolicyInfo


def test_opening_and_listing_read_no_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    read: list[str] = []
    original = StoredCatalog.policy

    def counted(self: StoredCatalog, name: str) -> object:
        read.append(name)
        return original(self, name)

    monkeypatch.setattr(StoredCatalog, "policy", counted)
    with open_catalog(SHIPPED_CATALOG) as catalog:
        infos = catalog.list()
        assert len(infos) == len(catalog) > 50
        summary = catalog.info("wordle-2309-normal-neg-entropy")
        assert (summary.count, summary.worst, summary.catalog) == (2309, 6, "shipped")
        assert read == []
        policy = catalog.policy("wordle-2309-normal-neg-entropy")
        assert policy.next_guess([]) == "RAISE"
        assert catalog.policy("wordle-2309-normal-neg-entropy") is policy  # kept, read once
        assert read == ["wordle-2309-normal-neg-entropy"]
        # The summary listed is the one the policy's own data gives.
        assert policy.info == dataclasses.replace(summary, catalog="")
        # The manifest's summary is whole: what GetPolicy answers needs no policy read.
        assert sum(targets for _, targets in summary.histogram) == summary.count
        assert PolicyInfo.from_json(summary.to_json()) == summary
        with pytest.raises(PolicyNotFoundError, match="no policy 'nope'"):
            catalog.info("nope")


def test_the_reader_queries_the_tables_the_writer_defines() -> None:
    """client.catalog_file reads with plain SQL: its names are the schema's."""
    keys = {table.name: [c.name for c in table.primary_key.columns] for table in TABLES}
    for table, key in _KEYS.items():
        assert keys[table] == [key]
    rows = FileRows(str(SHIPPED_CATALOG), SHIPPED_CATALOG)
    try:
        row = rows.row("policies", "wordle-2309-normal-neg-entropy")
        assert row is not None
        policies = next(t for t in TABLES if t.name == "policies")
        assert list(row) == [column.name for column in policies.columns]
        assert rows.row("policies", "nope") is None
    finally:
        rows.close()
    with pytest.raises(PolicyFormatError, match="the catalog is closed"):
        rows.row("policies", "wordle-2309-normal-neg-entropy")


def test_a_damaged_policy_fails_alone_and_verify_sees_it(tmp_path: object) -> None:
    """One policy's blob damaged (the file re-sealed, so only the content checks see it):
    the catalog opens and lists, other policies answer, that one is refused."""
    from pathlib import Path

    from guesswork.client.catalog_file import SEAL_MAGIC, seal

    path = Path(str(tmp_path)) / "damaged.sqlite"
    data = SHIPPED_CATALOG.read_bytes()[: -(len(SEAL_MAGIC) + 32)]
    path.write_bytes(data)
    connection = sqlite3.connect(path)
    name = "wordle-2309-hard-max"
    connection.execute(
        "UPDATE policies SET blob = CAST(substr(blob, 1, 100) || X'00' || substr(blob, 102) AS BLOB) "
        "WHERE name = ?",
        (name,),
    )
    connection.commit()
    connection.close()
    path.write_bytes(path.read_bytes() + seal(path.read_bytes()))
    with open_catalog(path) as catalog:
        assert name in catalog.names()
        assert catalog.policy("wordle-2309-normal-neg-entropy").next_guess([]) == "RAISE"
        with pytest.raises(PolicyFormatError, match=f"policy '{name}': checksum mismatch"):
            catalog.policy(name)
        with pytest.raises(PolicyFormatError, match=f"policy '{name}': checksum mismatch"):
            catalog.check_all()


#: Run in a fresh interpreter: what a stored answer loads, by the modules it leaves out.
_STORED_ANSWER = """
import sys
from guesswork.__main__ import run
status = run(["suggest", "--policy", "wordle-2309-normal-neg-entropy", "--history", "raise:.Y...",
              "--json"])
heavy = sorted(m for m in ("numpy", "numba", "sqlalchemy", "grpc", "guesswork.builder")
               if m in sys.modules)
print(status, ",".join(heavy) or "none", file=sys.stderr)
"""


def test_a_stored_answer_loads_neither_numpy_nor_the_builder() -> None:
    """A stored answer walks array.array trees: numpy (about 0.1 s to import),
    the compiled kernels, SQLAlchemy and gRPC stay unloaded."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", _STORED_ANSWER], capture_output=True, text=True, check=True
    )
    assert '"guess": "' in done.stdout  # it answered
    assert done.stderr.split()[-2:] == ["0", "none"], done.stderr
    # An off-tree history needs the live solver, and loads it.
    off_tree = _STORED_ANSWER.replace("raise:.Y...", "crane:.Y...")
    done = subprocess.run(
        [sys.executable, "-c", off_tree], capture_output=True, text=True, check=True
    )
    assert "numpy" in done.stderr.split()[-1] and "guesswork.builder" in done.stderr.split()[-1]
