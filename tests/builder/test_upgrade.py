"""``guesswork-build upgrade``: an older catalog file rewritten in today's schema.

The shipped catalog, marked as an older schema, is upgraded back to exactly
the shipped bytes (publishing is deterministic and the upgrade carries every
row over unchanged); whatever cannot be upgraded is refused with one line and
leaves the file as it was, with no backup made.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from guesswork.builder.cli import run
from guesswork.client.catalog import SHIPPED_CATALOG, open_catalog
from guesswork.client.catalog_file import SEAL_MAGIC, seal
from guesswork.client.catalog_location import SCHEMA_VERSION, UPGRADABLE_SCHEMAS
from guesswork.client.errors import PolicyFormatError

SEAL_SIZE = len(SEAL_MAGIC) + 32


def _edited(source: Path, target: Path, *statements: str, reseal: bool = True) -> Path:
    """Copy ``source`` to ``target``, run SQL ``statements`` on it, and seal it again
    (as the older version that wrote it would have); return ``target``."""
    body = source.read_bytes()[:-SEAL_SIZE]
    target.write_bytes(body)
    connection = sqlite3.connect(target)
    for statement in statements:
        connection.execute(statement)
    connection.commit()
    connection.close()
    if reseal:
        target.write_bytes(target.read_bytes() + seal(target.read_bytes()))
    return target


@pytest.mark.parametrize("schema", UPGRADABLE_SCHEMAS)
def test_an_older_catalog_is_refused_then_upgraded_to_the_same_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], schema: int
) -> None:
    with open_catalog(SHIPPED_CATALOG) as shipped:
        policies, tables = len(shipped), len(shipped.bee_tables())
    old = _edited(SHIPPED_CATALOG, tmp_path / "mine.sqlite", f"PRAGMA user_version = {schema}")
    old_bytes = old.read_bytes()
    with pytest.raises(PolicyFormatError, match="convert it with `guesswork-build upgrade"):
        open_catalog(old)
    assert run(["upgrade", "--catalog", str(old)]) == 0
    backup = tmp_path / f"mine.sqlite.schema-{schema}"
    out = capsys.readouterr().out
    upgraded_line = f"from schema {schema}: {policies} policies, {tables} honeycomb tables"
    assert f"upgraded {old} {upgraded_line}" in out
    assert str(backup) in out
    # Every row carried over unchanged and published again: the shipped bytes exactly.
    assert old.read_bytes() == SHIPPED_CATALOG.read_bytes()
    assert backup.read_bytes() == old_bytes
    with open_catalog(old) as upgraded:
        upgraded.check_all()
        assert upgraded.policy("wordle-2309-normal-neg-entropy").next_guess([]) == "RAISE"
    assert run(["upgrade", "--catalog", str(old), "--json"]) == 0
    assert '"backup": null' in capsys.readouterr().out


def test_what_cannot_be_upgraded_is_refused_and_left_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    too_old = _edited(SHIPPED_CATALOG, tmp_path / "three.sqlite", "PRAGMA user_version = 3")
    newer = _edited(
        SHIPPED_CATALOG, tmp_path / "newer.sqlite", f"PRAGMA user_version = {SCHEMA_VERSION + 1}"
    )
    # A flipped blob under a good seal (content hash) and under a stale one (seal).
    forged = _edited(
        SHIPPED_CATALOG,
        tmp_path / "forged.sqlite",
        "PRAGMA user_version = 5",
        "UPDATE policies SET blob = CAST(blob || x'00' AS BLOB) WHERE name = 'jotto-2309-hard-max'",
    )
    # A blob made text (SQLite keeps any type): refused without echoing its bytes.
    retyped = _edited(
        SHIPPED_CATALOG,
        tmp_path / "retyped.sqlite",
        "PRAGMA user_version = 5",
        "UPDATE policies SET blob = blob || x'00' WHERE name = 'jotto-2309-hard-max'",
    )
    stale = _edited(SHIPPED_CATALOG, tmp_path / "stale.sqlite", "PRAGMA user_version = 5")
    stale.write_bytes(stale.read_bytes()[:-1] + b"\x00")
    blocked = _edited(SHIPPED_CATALOG, tmp_path / "blocked.sqlite", "PRAGMA user_version = 5")
    (tmp_path / "blocked.sqlite.schema-5").write_text("an older backup\n")
    foreign = tmp_path / "foreign.sqlite"
    connection = sqlite3.connect(foreign)
    connection.execute("CREATE TABLE t (x)")
    connection.commit()
    connection.close()
    cases = {
        too_old: "catalog schema 3 cannot be upgraded",
        newer: f"catalog schema {SCHEMA_VERSION + 1} cannot be upgraded",
        forged: "policy 'jotto-2309-hard-max': checksum mismatch",
        retyped: "a row cannot be read (Could not decode to UTF-8 column 'blob'",
        stale: "catalog checksum mismatch",
        blocked: "blocked.sqlite.schema-5: already exists; move it away",
        foreign: "not a Guesswork catalog",
    }
    for path, message in cases.items():
        before = path.read_bytes()
        assert run(["upgrade", "--catalog", str(path)]) == 1, path
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1 and len(err) < 300, err
        assert path.read_bytes() == before
        backups = {p.name for p in tmp_path.glob(f"{path.name}.schema-*")}
        assert backups == ({"blocked.sqlite.schema-5"} if path == blocked else set())
    assert run(["upgrade", "--catalog", str(tmp_path / "none.sqlite")]) == 1
    assert "no such catalog file" in capsys.readouterr().err
    assert run(["upgrade", "--catalog", "postgresql+psycopg://localhost/x"]) == 1
    assert "not a catalog file" in capsys.readouterr().err
