"""The catalog and policy files: reproduction, round trips, publishing, faults."""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import time
from dataclasses import asdict
from pathlib import Path

import pytest

from guesswork.builder.catalog_build import (
    CatalogStep,
    PolicyDone,
    build_catalog,
)
from guesswork.builder.catalog_specs import (
    CATALOG_SPECS,
    SHIPPED_CONTENTS,
    SLOW_SPECS,
)
from guesswork.builder.cli import run
from guesswork.builder.guess_my_word import DEFAULT_WORD_TREES
from guesswork.builder.policies import PolicySpec, build_policy
from guesswork.builder.publish import StoredPolicy, export_bytes, publish_catalog
from guesswork.client.catalog import (
    SHIPPED_CATALOG,
    Catalog,
    open_catalog,
    open_policy_file,
)
from guesswork.client.catalog_file import SEAL_MAGIC, FileRows, seal
from guesswork.client.catalog_location import SCHEMA_VERSION
from guesswork.client.errors import PolicyFormatError

ROOT = Path(__file__).resolve().parents[2]
SEAL_SIZE = len(SEAL_MAGIC) + 32


def _stored(spec: PolicySpec) -> StoredPolicy:
    built = build_policy(spec)
    return StoredPolicy.from_data(built.data, built.tree.targets.words, built.tree.guesses.words)


@pytest.fixture(scope="module")
def small_catalog(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A catalog of three small policies (one has targets outside its guess list)."""
    folder = tmp_path_factory.mktemp("small")
    answers = (ROOT / "builder/data/wordlists/wordle-answers-2309.txt").read_text().split()
    (folder / "few.txt").write_text("\n".join(answers[::100]) + "\n")
    (folder / "ails.txt").write_text("bails fails hails nails pails rails sails tails wails\n")
    specs = [
        PolicySpec(targets=str(folder / "few.txt"), mode="hard", metric="max"),
        PolicySpec(targets=str(folder / "ails.txt"), guesses=str(folder / "few.txt"), metric="max"),
        PolicySpec("jotto", targets=str(folder / "few.txt"), mode="hard", metric="expectation"),
    ]
    path = folder / "catalog.sqlite"
    publish_catalog(str(path), [_stored(spec) for spec in specs])
    return path


def answers_of(catalog: Catalog) -> dict[str, list[list[str]]]:
    """Every policy's guesses for every target: what a lookup could ever answer."""
    return {p.name: [p.play(t) for t in p.targets] for p in catalog}


def test_build_all_reproduces_the_shipped_catalog_byte_for_byte(tmp_path: Path) -> None:
    """CI's reproducibility check, and the three-way round trip on every rebuilt policy.

    The catalog is built as `build-all --reuse policies/catalog.sqlite` builds it
    (builder.catalog_build.build_catalog over the shipped contents): every policy
    is rebuilt but the slow ones (SLOW_SPECS: enable1's long words, the global
    Wordle optima, minutes each), which are taken from the shipped file (reuse_policy:
    lists and strategy as their specs name, every target replayed, certificates
    checked).
    """
    steps: list[CatalogStep] = []
    rebuilt = tmp_path / "catalog.sqlite"
    with open_catalog(SHIPPED_CATALOG) as shipped:
        done = build_catalog(str(rebuilt), SHIPPED_CONTENTS, reuse=[shipped], on_step=steps.append)
    assert rebuilt.read_bytes() == SHIPPED_CATALOG.read_bytes(), (
        "policies/catalog.sqlite is stale: run `make catalog` and commit it"
    )
    policies = [step for step in steps if isinstance(step, PolicyDone)]
    assert [step.entry.name for step in policies] == [spec.name() for spec in CATALOG_SPECS]
    assert {step.entry.name for step in policies if step.entry.how == "reused"} == {
        spec.name() for spec in SLOW_SPECS
    }
    built = {step.entry.name: step.built for step in policies if step.built is not None}
    assert len(built) == len(CATALOG_SPECS) - len(SLOW_SPECS)
    with open_catalog(SHIPPED_CATALOG) as shipped:
        assert sorted(entry.name for entry in done.entries) == shipped.names()
        for name, build in built.items():
            stored = shipped.policy(name)
            exported = tmp_path / f"{name}.gwp"
            exported.write_bytes(export_bytes(stored))
            with open_policy_file(exported) as single:
                from_file = single.policy(name)
            assert from_file.content_hash == stored.content_hash
            for target in build.tree.targets.words:
                expected = build.tree.replay(target)
                assert stored.play(target) == expected == from_file.play(target), (name, target)


def test_cli_build_list_verify_export_import(
    small_catalog: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    catalog = tmp_path / "cat.sqlite"
    shutil.copy(small_catalog, catalog)
    assert (
        run(
            [
                "build",
                "--catalog",
                str(catalog),
                "--game",
                "jotto",
                "--mode",
                "hard",
                "--metric",
                "max",
                "--quiet",
                "--json",
            ]
        )
        == 0
    )
    assert json.loads(capsys.readouterr().out)["name"] == "jotto-2309-hard-max"
    assert run(["list", "--catalog", str(catalog), "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert len(listed) == 4
    for row in listed:
        for key in (
            "name",
            "game",
            "mode",
            "metric",
            "targets",
            "guesses",
            "targetCount",
            "mean",
            "worst",
            "contentHash",
        ):
            assert key in row
    jotto = next(row for row in listed if row["name"] == "jotto-2309-hard-max")
    assert (jotto["targets"], jotto["targetCount"], jotto["worst"]) == (
        "jotto(wordle-answers-2309,sorted)",
        1391,
        16,
    )
    assert run(["verify", "--catalog", str(catalog)]) == 0
    assert "4 of 4 policies verified" in capsys.readouterr().out
    exported = tmp_path / "jotto.gwp"
    assert (
        run(["export", "jotto-2309-hard-max", "--catalog", str(catalog), "--output", str(exported)])
        == 0
    )
    fresh = tmp_path / "fresh.sqlite"
    assert run(["import", str(exported), "--catalog", str(fresh)]) == 0
    capsys.readouterr()
    with open_catalog(fresh) as imported, open_catalog(catalog) as original:
        assert imported.names() == ["jotto-2309-hard-max"]
        assert answers_of(imported) == {
            "jotto-2309-hard-max": answers_of(original)["jotto-2309-hard-max"]
        }


@pytest.mark.reliability
def test_publishing_through_a_symbolic_link_writes_the_linked_catalog(
    small_catalog: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue #42, 5: --catalog link.sqlite (a link to the real catalog) replaced the
    link with a new file, and the real catalog never got the policy."""
    real = tmp_path / "real" / "catalog.sqlite"
    real.parent.mkdir()
    shutil.copy(small_catalog, real)
    link = tmp_path / "link.sqlite"
    link.symlink_to(real)
    argv = ["build", "--game", "jotto", "--mode", "hard", "--metric", "max", "--quiet"]
    assert run([*argv, "--catalog", str(link), "--json"]) == 0
    name = json.loads(capsys.readouterr().out)["name"]
    assert link.is_symlink() and link.resolve() == real.resolve()
    with open_catalog(real) as catalog:
        assert name in catalog.names()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".link")]


def test_verify_names_the_policy_and_the_fault(
    small_catalog: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A policy whose stored statistics lie (but whose checksums are right) fails verify."""
    with open_catalog(small_catalog) as catalog:
        policies = [StoredPolicy.from_policy(p) for p in catalog]
    liar = policies[0]
    data = liar.data
    stats = {**data.stats, "mean": data.stats["mean"] - 0.5}
    from dataclasses import replace

    from guesswork.client.policy_format import encode_core

    forged = replace(data, stats=stats)
    policies[0] = StoredPolicy(encode_core(forged), forged, liar.words)
    bad = tmp_path / "bad.sqlite"
    publish_catalog(str(bad), policies)
    assert run(["verify", "--catalog", str(bad)]) == 1
    out = capsys.readouterr().out
    assert f"FAULT {data.name}: stored mean" in out.replace("FAULT ", "FAULT ", 1)


def test_missing_catalog_and_policy_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], small_catalog: Path
) -> None:
    assert run(["list", "--catalog", str(tmp_path / "none.sqlite")]) == 1
    assert "no such catalog file" in capsys.readouterr().err
    assert run(["export", "nope", "--catalog", str(small_catalog)]) == 1
    err = capsys.readouterr().err
    assert "no policy 'nope'" in err and err.count("\n") == 1
    assert run(["import", str(tmp_path / "none.gwp"), "--catalog", str(small_catalog)]) == 1
    assert "no such policy file" in capsys.readouterr().err


def _corrupted_outcome(path: Path, original: dict[str, list[list[str]]]) -> str:
    """Return 'detected' or 'harmless'; fail if a corrupt file gives another answer."""
    try:
        with open_catalog(path) as catalog:
            answers = answers_of(catalog)
    except PolicyFormatError:
        return "detected"
    assert answers == original, "a corrupted catalog gave a different answer"
    return "harmless"


def _check_whole(path: Path) -> None:
    """Open the catalog and check all of it, as guesswork-build verify does."""
    with open_catalog(path) as catalog:
        catalog.check_all()


def test_every_flip_and_truncation_of_a_catalog_is_detected(
    small_catalog: Path, tmp_path: Path
) -> None:
    """verify notices every flip (its seal covers every byte); a lookup, which reads
    only what it needs, notices it or answers exactly as the pristine catalog."""
    pristine = small_catalog.read_bytes()
    with open_catalog(small_catalog) as catalog:
        original = answers_of(catalog)
    broken = tmp_path / "broken.sqlite"
    outcomes = set()
    for offset in range(0, len(pristine), 3):  # a third of all bytes, every bit position
        data = bytearray(pristine)
        data[offset] ^= 1 << (offset % 8)
        broken.write_bytes(bytes(data))
        with pytest.raises(PolicyFormatError):
            _check_whole(broken)
        if offset % 9 == 0:
            outcomes.add(_corrupted_outcome(broken, original))
    assert outcomes == {"detected", "harmless"}
    for cut in range(0, len(pristine), 97):
        broken.write_bytes(pristine[:cut])
        with pytest.raises(PolicyFormatError):
            _check_whole(broken)


def test_content_checks_catch_flips_even_under_a_forged_seal(
    small_catalog: Path, tmp_path: Path
) -> None:
    """Defence in depth: a flip re-sealed (a buggy writer) is caught or changes nothing."""
    pristine = small_catalog.read_bytes()[:-SEAL_SIZE]
    with open_catalog(small_catalog) as catalog:
        original = answers_of(catalog)
    rng = random.Random(2026)
    broken = tmp_path / "broken.sqlite"
    outcomes = []
    for offset in sorted({*range(100), *rng.sample(range(len(pristine)), 400)}):
        data = bytearray(pristine)
        data[offset] ^= 1 << rng.randrange(8)
        broken.write_bytes(bytes(data) + seal(bytes(data)))
        outcomes.append(_corrupted_outcome(broken, original))
    assert "detected" in outcomes and "harmless" in outcomes  # both kinds of byte were hit


def test_policy_file_flips_and_truncations_are_all_detected(small_catalog: Path) -> None:
    with open_catalog(small_catalog) as catalog:
        policy = catalog.policy("wordle-ails-gfew-normal-max")
        data = export_bytes(policy)
    from guesswork.client.catalog import load_policy_bytes

    assert load_policy_bytes(data, "ok").content_hash == policy.content_hash
    for offset in range(len(data)):
        flipped = bytearray(data)
        flipped[offset] ^= 0x10
        with pytest.raises(PolicyFormatError):
            load_policy_bytes(bytes(flipped), "flipped")
    for cut in range(0, len(data), 7):
        with pytest.raises(PolicyFormatError):
            load_policy_bytes(data[:cut], "truncated")


def _sql_and_reseal(path: Path, statement: str, sealed: bool = True) -> None:
    """Change a catalog with plain SQL, then seal it again (as a forger would)."""
    if sealed:
        path.write_bytes(path.read_bytes()[:-SEAL_SIZE])
    connection = sqlite3.connect(path)
    connection.execute(statement)
    connection.commit()
    connection.close()
    path.write_bytes(path.read_bytes() + seal(path.read_bytes()))


def test_newer_schema_and_foreign_files_are_refused(small_catalog: Path, tmp_path: Path) -> None:
    newer = tmp_path / "newer.sqlite"
    shutil.copy(small_catalog, newer)
    _sql_and_reseal(newer, f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(
        PolicyFormatError,
        match=f"catalog schema {SCHEMA_VERSION + 1} is newer than this Guesswork reads",
    ):
        open_catalog(newer)
    edited = tmp_path / "edited.sqlite"
    shutil.copy(small_catalog, edited)
    _sql_and_reseal(edited, "UPDATE policies SET mean = 1.0")
    with open_catalog(edited) as catalog:  # the index is sound: it opens and lists
        assert len(catalog.list()) == 3
        with pytest.raises(PolicyFormatError, match="summary columns disagree"):
            catalog.policy("wordle-few-hard-max")  # the policy is checked when read
    foreign = tmp_path / "foreign.sqlite"
    _sql_and_reseal(foreign, "CREATE TABLE t (x)", sealed=False)
    with pytest.raises(
        PolicyFormatError, match=r"not a Guesswork catalog \(SQLite application id 0x0,"
    ):
        open_catalog(foreign)
    unsealed = tmp_path / "unsealed.sqlite"
    shutil.copy(small_catalog, unsealed)
    unsealed.write_bytes(unsealed.read_bytes()[:-SEAL_SIZE])
    with pytest.raises(PolicyFormatError, match="not a sealed Guesswork catalog"):
        _check_whole(unsealed)
    text = tmp_path / "text.sqlite"
    text.write_bytes(b"hello" * 20)
    text.write_bytes(text.read_bytes() + seal(text.read_bytes()))
    with pytest.raises(PolicyFormatError, match="not a readable Guesswork catalog"):
        open_catalog(text)
    with pytest.raises(PolicyFormatError, match="unsupported catalog URL"):
        open_catalog("mysql://localhost/guesswork")  # PostgreSQL: tests/test_postgres_catalog.py


def test_read_only_catalog_serves_lookups(small_catalog: Path, tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    path = folder / "catalog.sqlite"
    shutil.copy(small_catalog, path)
    path.chmod(0o444)
    folder.chmod(0o555)
    try:
        with open_catalog(path) as catalog:
            assert catalog.policy("wordle-few-hard-max").next_guess() == "ROAST"
        # The reader's connection is read-only whatever the file permissions.
        rows = FileRows(str(path), path)
        assert rows._connection is not None
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            rows._connection.execute("DELETE FROM policies")
        rows.close()
        assert not list(folder.glob("*-journal"))
    finally:
        folder.chmod(0o755)
        path.chmod(0o644)


@pytest.mark.slow
def test_kill_9_while_publishing_leaves_the_previous_catalog(
    small_catalog: Path, tmp_path: Path
) -> None:
    """Kill `guesswork-build import` at many points; the catalog is old or new, never broken."""
    catalog = tmp_path / "catalog.sqlite"
    shutil.copy(SHIPPED_CATALOG, catalog)
    with open_catalog(small_catalog) as small:
        policy_file = tmp_path / "new.gwp"
        policy_file.write_bytes(export_bytes(small.policy("wordle-few-hard-max")))
    with open_catalog(catalog, prove=False) as before:
        old_hashes = {p.name: p.content_hash for p in before}
    command = [
        sys.executable,
        "-m",
        "guesswork.builder",
        "import",
        str(policy_file),
        "--catalog",
        str(catalog),
    ]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}

    def start() -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )

    # Measure when the temporary file appears and when the run ends.
    process, started, appeared = start(), time.monotonic(), None
    while process.poll() is None:
        if appeared is None and list(tmp_path.glob(".catalog.sqlite.*.tmp")):
            appeared = time.monotonic() - started
        time.sleep(0.002)
    total = time.monotonic() - started
    assert process.returncode == 0
    appeared = appeared if appeared is not None else total * 0.8
    shutil.copy(SHIPPED_CATALOG, catalog)

    rng = random.Random(9)
    publishing = max(total - appeared, 0.01)
    # Kill at random moments of the whole run, then at random moments of the
    # publish itself (after the temporary file appears).
    plan = [(False, rng.uniform(0, total)) for _ in range(8)]
    plan += [(True, rng.uniform(0, publishing)) for _ in range(16)]
    mid_publish = 0
    for wait_for_temporary, delay in plan:
        process = start()
        if wait_for_temporary:
            while process.poll() is None and not list(tmp_path.glob(".catalog.sqlite.*.tmp")):
                time.sleep(0.001)
        time.sleep(delay)
        process.kill()
        process.wait()
        mid_publish += bool(list(tmp_path.glob(".catalog.sqlite.*.tmp")))
        with open_catalog(catalog, prove=False) as after:  # never raises: old or new, whole
            hashes = {p.name: p.content_hash for p in after}
        assert hashes == old_hashes or (
            set(hashes) == {*old_hashes, "wordle-few-hard-max"}
            and all(hashes[name] == old for name, old in old_hashes.items())
        )
        shutil.copy(SHIPPED_CATALOG, catalog)
    assert mid_publish > 0, "no kill landed while the new catalog was being written"
    # The next publish clears what killed ones left behind, SQLite journals included.
    assert subprocess.run(command, env=env, capture_output=True).returncode == 0
    assert not list(tmp_path.glob(".catalog.sqlite.*.tmp*"))


def test_honeycomb_tables_are_stored_and_checked(tmp_path: Path) -> None:
    with open_catalog(SHIPPED_CATALOG) as catalog:
        table = catalog.bee_table("enable1", allow_s=False)
        with_s = catalog.bee_table("enable1", allow_s=True)
        assert table is not None and with_s is not None
        assert asdict(table.top[0]) == {
            "letters": "AEGINRT",
            "center": "R",
            "score": 3898,
            "words": 537,
            "pangrams": 50,
        }
        assert asdict(with_s.top[0]) == {
            "letters": "AEINRST",
            "center": "E",
            "score": 8681,
            "words": 1179,
            "pangrams": 86,
        }
        assert (table.counts["valid_words"], table.counts["pangram_lettersets"]) == (44_585, 7_986)
        assert len(table.top) == 50 and len(catalog.words("enable1")) == 172_820
    edited = tmp_path / "edited.sqlite"
    shutil.copy(SHIPPED_CATALOG, edited)
    _sql_and_reseal(edited, "UPDATE honeycombs SET payload = replace(payload, '3898', '3899')")
    with (
        open_catalog(edited) as catalog,
        pytest.raises(PolicyFormatError, match="honeycomb table 'enable1/no-s' fails its checksum"),
    ):
        catalog.bee_table("enable1", allow_s=False)


def test_guess_my_word_trees_are_listed_exported_and_imported_as_policies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Guess My Word trees are ordinary policies: listed, exported, imported, verified."""
    assert run(["list", "--catalog", str(SHIPPED_CATALOG), "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert len(listed) == len(CATALOG_SPECS) + len(DEFAULT_WORD_TREES)
    trees = [row for row in listed if row["game"] == "guess-my-word"]
    assert {row["name"] for row in trees} == {
        f"guess-my-word-common-words-{strategy}-{variant}"
        for strategy, variant in DEFAULT_WORD_TREES
    }
    # Their length, 0 (words of any length), is the JSON mapping's default: left out.
    assert {(row["mode"], row.get("length", 0), row["targetCount"]) for row in trees} == {
        ("deduce", 0, 4788),
        ("live", 0, 4788),
    }
    name = "guess-my-word-common-words-optimal-deduce"
    exported = tmp_path / "gmw.gwp"
    assert run(["export", name, "--catalog", str(SHIPPED_CATALOG), "--output", str(exported)]) == 0
    catalog = tmp_path / "fresh.sqlite"
    assert run(["import", str(exported), "--catalog", str(catalog)]) == 0
    capsys.readouterr()
    with open_catalog(SHIPPED_CATALOG) as shipped, open_catalog(catalog) as imported:
        original, copy = shipped.policy(name), imported.policy(name)
        assert copy.content_hash == original.content_hash
        assert copy.core == original.core and copy.data.weights is not None
        assert copy.next_guess([("mutual", "before")]) == original.next_guess(
            [("mutual", "before")]
        )
    assert run(["verify", "--catalog", str(catalog)]) == 0
    assert "1 of 1 policies verified" in capsys.readouterr().out
