"""The bound store (builder.optimal.bound_store): exact values and bounds of target sets kept
between runs, shared by worker processes, bounded, reported, and off unless asked for."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
import threading
from pathlib import Path

import numpy as np
import pytest

from guesswork.builder.any_spec import build_any
from guesswork.builder.cli import run
from guesswork.builder.errors import BoundStoreError
from guesswork.builder.optimal import (
    Optimized,
    Search,
    SearchOptions,
    SearchStats,
    make_problem,
    optimize,
)
from guesswork.builder.optimal.bound_store import (
    BOUND_STORE_VARIABLE,
    MAX_ROWS_VARIABLE,
    MIN_STORED,
    SCHEMA,
    BoundStore,
    identity,
)
from guesswork.builder.optimal.problem import NO_CAP
from guesswork.builder.policies import OptimalSpec, build_optimal_policy
from guesswork.builder.wordlists import WordList, load_wordlist
from guesswork.client.games import Wordle
from guesswork.client.policy_format import encode_core

WORDLE = Wordle()
ANSWERS = load_wordlist("wordle-answers-2309", WORDLE)
#: A Mastermind small enough for a test that still needs real search (343 codes).
MASTERMIND = OptimalSpec("mastermind", length=3, colours=7)
_TREE_ARRAYS = (
    "node_guess",
    "node_size",
    "node_depth",
    "node_first",
    "edge_offsets",
    "edge_reply",
    "edge_child",
    "target_scores",
    "target_order",
)


def _assert_same(one: Optimized, other: Optimized, *, roots: bool = True) -> None:
    """Assert equal trees and certificates; ``roots=False`` leaves out the refuted
    openers' bounds, which depend on the budgets each was searched with (workers)."""
    left, right = one.certificate.to_map(), other.certificate.to_map()
    if not roots:
        del left["roots"], right["roots"]
    assert left == right
    for name in _TREE_ARRAYS:
        assert np.array_equal(getattr(one.tree, name), getattr(other.tree, name)), name


def _rows(path: Path) -> list[tuple[int, int, int]]:
    """Return every row's (exact, value, guess), read with plain SQLite."""
    with sqlite3.connect(path) as db:
        return [tuple(row) for row in db.execute("SELECT exact, value, guess FROM entries")]


def _small_lists(tmp_path: Path) -> Path:
    path = tmp_path / "words.txt"
    path.write_text("\n".join(ANSWERS.words[:150]) + "\n")
    return path


# -- the same results, from far less work ------------------------------------------


def test_a_second_run_gives_the_same_tree_from_far_fewer_sets(tmp_path: Path) -> None:
    options = SearchOptions(hard=True, first_guess="SLATE")
    stored = dataclasses.replace(options, bound_store=str(tmp_path / "b.sqlite"))
    plain = optimize(WORDLE, ANSWERS, ANSWERS, options)
    first = optimize(WORDLE, ANSWERS, ANSWERS, stored)
    second = optimize(WORDLE, ANSWERS, ANSWERS, stored)
    _assert_same(plain, first)
    _assert_same(plain, second)
    before, after = first.outcome.stats, second.outcome.stats
    assert before.store_lookups > 0 and before.store_hits == 0
    assert after.store_hits > 0 and after.store_hits / after.store_lookups > 0.5
    assert after.expanded * 2 < before.expanded
    rows = _rows(tmp_path / "b.sqlite")
    assert any(exact and guess >= 0 for exact, _, guess in rows)  # guesses are kept


def test_mastermind_keeps_values_only_and_builds_the_same_tree(tmp_path: Path) -> None:
    path = str(tmp_path / "m.sqlite")
    plain, _ = build_optimal_policy(MASTERMIND)
    first, one = build_optimal_policy(MASTERMIND, bound_store=path)
    second, two = build_optimal_policy(MASTERMIND, bound_store=path)
    assert encode_core(plain.data) == encode_core(first.data) == encode_core(second.data)
    assert two.outcome.stats.store_hits > 0
    assert two.outcome.stats.expanded * 2 < one.outcome.stats.expanded
    rows = _rows(Path(path))
    assert rows and all(guess == -1 for _, _, guess in rows)  # the guess depends on the path


def test_worker_processes_share_one_store(tmp_path: Path) -> None:
    targets = WordList.from_words("t", ANSWERS.words[:400])
    path = str(tmp_path / "w.sqlite")
    options = SearchOptions(hard=True, bound_store=path)
    # Every branch is solved in a worker: the lookups and rows are theirs.
    shared = optimize(WORDLE, targets, targets, dataclasses.replace(options, workers=2))
    assert shared.outcome.stats.store_lookups > 0
    written = BoundStore(path).rows()
    assert written > 0
    alone = optimize(WORDLE, targets, targets, options)
    assert alone.outcome.stats.store_hits > 0
    _assert_same(shared, alone, roots=False)
    assert BoundStore(path).rows() == written


def test_processes_writing_at_once_wait_for_each_other(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    BoundStore(path).close()
    failures: list[BaseException] = []

    def writer(number: int) -> None:
        store = BoundStore(path)
        ident = store.identity_id("shared", "{}")
        try:
            for batch in range(40):
                keys = (bytes([number, batch, i]) for i in range(50))
                store.write(ident, {key: (0, batch, -1) for key in keys}, set())
        except BaseException as error:  # reported by the test below
            failures.append(error)
        finally:
            store.close()

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures
    assert BoundStore(path).rows() == 3 * 40 * 50


# -- identities ---------------------------------------------------------------------


def test_other_objectives_beams_modes_and_lists_never_share(tmp_path: Path) -> None:
    targets = WordList.from_words("t", ANSWERS.words[:200])
    base = SearchOptions(bound_store=str(tmp_path / "i.sqlite"))
    optimize(WORDLE, targets, targets, base)
    others = [
        (targets, dataclasses.replace(base, objective="minimax")),
        (targets, dataclasses.replace(base, beam=2)),
        (targets, dataclasses.replace(base, hard=True)),
        (WordList.from_words("u", ANSWERS.words[1:201]), base),
    ]
    for words, options in others:
        stats = optimize(WORDLE, words, words, options).outcome.stats
        assert stats.store_lookups > 0 and stats.store_hits == 0, options
    assert optimize(WORDLE, targets, targets, base).outcome.stats.store_hits > 0
    with sqlite3.connect(tmp_path / "i.sqlite") as db:
        assert db.execute("SELECT count(*) FROM identities").fetchone()[0] == 5


def test_identity_covers_what_values_depend_on_and_nothing_else() -> None:
    targets = WordList.from_words("t", ANSWERS.words[:30])
    problem, _ = make_problem(WORDLE, targets, targets)
    base = SearchOptions()
    same = [
        dataclasses.replace(base, workers=4, first_guess="CRANE", bound_store="elsewhere"),
    ]
    different = [
        dataclasses.replace(base, objective="minimax"),
        dataclasses.replace(base, hard=True),
        dataclasses.replace(base, nyt_hard=True),
        dataclasses.replace(base, max_guesses=5),
        dataclasses.replace(base, beam=3),
    ]
    digest = identity(problem, base, False)[0]
    assert all(identity(problem, options, False)[0] == digest for options in same)
    digests = {identity(problem, options, False)[0] for options in different}
    assert len(digests) == len(different) and digest not in digests
    assert identity(problem, base, True)[0] != digest
    other, _ = make_problem(WORDLE, WordList.from_words("u", ANSWERS.words[1:31]), targets)
    assert identity(other, base, False)[0] != digest


# -- bounds on disk -----------------------------------------------------------------


def test_the_row_bound_holds_and_recently_used_rows_stay(tmp_path: Path) -> None:
    store = BoundStore(tmp_path / "r.sqlite", max_rows=100)
    ident = store.identity_id("x", "{}")
    keys = [number.to_bytes(16, "big") for number in range(1000)]
    store.write(ident, {keys[0]: (1, 10, 3)}, set())
    for start in range(1, 1000, 30):
        batch = {key: (0, 5, -1) for key in keys[start : start + 30]}
        store.write(ident, batch, {keys[0]})  # keys[0] is used every time
        assert store.rows() <= 100
    assert store.get(ident, keys[0]) == (1, 10, 3)
    assert store.get(ident, keys[1]) is None  # the least recently used went first
    assert store.get(ident, keys[999]) == (0, 5, -1)


def test_bounds_merge_upwards_and_exact_values_win(tmp_path: Path) -> None:
    store = BoundStore(tmp_path / "m.sqlite")
    ident = store.identity_id("x", "{}")
    key = b"k" * 16
    for entry, expected in [
        ((0, 7, -1), (0, 7, -1)),
        ((0, 5, -1), (0, 7, -1)),  # a weaker bound does not lower it
        ((1, 9, 4), (1, 9, 4)),
        ((0, 12, -1), (1, 9, 4)),  # nor does a bound replace an exact value
    ]:
        store.write(ident, {key: entry}, set())
        assert store.get(ident, key) == expected
    assert store.get(store.identity_id("y", "{}"), key) is None


def test_the_row_limit_comes_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(MAX_ROWS_VARIABLE, "5_000")
    assert BoundStore(tmp_path / "e.sqlite").max_rows == 5000
    for bad in ("0", "lots", "-3"):
        monkeypatch.setenv(MAX_ROWS_VARIABLE, bad)
        with pytest.raises(BoundStoreError, match=MAX_ROWS_VARIABLE):
            BoundStore(tmp_path / "e.sqlite")


def test_small_sets_are_neither_looked_up_nor_kept(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    problem, _ = make_problem(WORDLE, ANSWERS, ANSWERS)
    search = Search(problem, SearchOptions(bound_store=str(path)))
    link = search.store
    assert link is not None
    small, large = np.arange(MIN_STORED - 1), np.arange(MIN_STORED)
    for targets in (small, large):
        link.keep(search.values.key(targets, NO_CAP), len(targets), 40, 7)
    search.flush()
    assert BoundStore(path).rows() == 1
    answer = link.recall(search, search.values.key(small, NO_CAP), len(small), 100, 0)
    assert answer == (None, 100, 0) and search.stats.store_lookups == 0
    answer = link.recall(search, search.values.key(large, NO_CAP), len(large), 100, 0)
    assert answer == (40, 100, 0) and search.exact[search.values.key(large, NO_CAP)] == (40, 7)
    assert (search.stats.store_lookups, search.stats.store_hits) == (1, 1)
    with sqlite3.connect(path) as db:
        assert [len(key) for (key,) in db.execute("SELECT key FROM entries")] == [16]


def test_a_bound_below_the_budget_or_a_bare_value_narrows_the_search(tmp_path: Path) -> None:
    problem, _ = make_problem(WORDLE, ANSWERS, ANSWERS)
    search = Search(problem, SearchOptions(bound_store=str(tmp_path / "n.sqlite")))
    link = search.store
    assert link is not None
    bound, bare = np.arange(10), np.arange(1, 11)
    link.keep(search.values.key(bound, NO_CAP), 10, 30, -1)  # a refutation: the set needs >= 30
    link.value_only = True
    link.keep(search.values.key(bare, NO_CAP), 10, 25, 3)  # exact 25, its guess not kept
    search.flush()
    assert link.recall(search, search.values.key(bound, NO_CAP), 10, 50, 20) == (None, 50, 30)
    assert link.recall(search, search.values.key(bound, NO_CAP), 10, 30, 0) == (30, 30, 30)
    assert link.recall(search, search.values.key(bare, NO_CAP), 10, 50, 0) == (None, 26, 25)
    assert link.recall(search, search.values.key(bare, NO_CAP), 10, 20, 0) == (25, 20, 25)


# -- errors, and off by default ----------------------------------------------------------


def _foreign_files(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    text = tmp_path / "notes.txt"
    text.write_text("not a database\n" * 100)
    catalog = tmp_path / "catalog.sqlite"
    with sqlite3.connect(catalog) as db:
        db.execute("CREATE TABLE policies (name TEXT)")
    newer = tmp_path / "newer.sqlite"
    BoundStore(newer).close()
    with sqlite3.connect(newer) as db:
        db.execute("UPDATE bound_store_meta SET value = ? WHERE name = 'schema'", (SCHEMA + 1,))
    return {
        "text": (text, "is not a bound store"),
        "other tables": (catalog, "other tables"),
        "schema": (newer, f"has schema {SCHEMA + 1}"),
        "directory": (tmp_path, "cannot open it"),
    }


def test_foreign_or_damaged_files_are_one_line_errors_and_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    words = _small_lists(tmp_path)
    argv = ["optimize", "--targets", str(words), "--workers", "1", "--quiet", "--bound-store"]
    for label, (path, message) in _foreign_files(tmp_path).items():
        before = path.read_bytes() if path.is_file() else None
        assert run([*argv, str(path)]) == 1, label
        err = capsys.readouterr().err
        assert message in err and len(err.strip().splitlines()) == 1, (label, err)
        assert "Traceback" not in err
        assert (path.read_bytes() if path.is_file() else None) == before, label
    empty = tmp_path / "empty.sqlite"
    empty.write_bytes(b"")
    assert run([*argv, str(empty)]) == 0  # an empty file becomes a store
    assert BoundStore(empty).rows() > 0


def test_a_store_damaged_inside_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    words = _small_lists(tmp_path)
    path = tmp_path / "damaged.sqlite"
    argv = ["optimize", "--targets", str(words), "--workers", "1", "--quiet", "--bound-store"]
    assert run([*argv, str(path)]) == 0
    store = BoundStore(path)
    ident = store.identity_id("filler", "{}")
    store.write(ident, {n.to_bytes(16, "big"): (0, n, -1) for n in range(5000)}, set())
    store.close()  # the last connection: the log is folded into the file
    data = bytearray(path.read_bytes())
    data[8192:] = bytes(range(256)) * ((len(data) - 8192) // 256) + bytes(len(data) % 256)
    path.write_bytes(bytes(data))
    assert run([*argv, str(path)]) == 1
    err = capsys.readouterr().err
    assert "bound store" in err and len(err.strip().splitlines()) == 1, err


def test_the_store_is_off_unless_asked_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    words = _small_lists(tmp_path)
    argv = ["optimize", "--targets", str(words), "--mode", "hard", "--workers", "1", "--quiet"]
    monkeypatch.delenv(BOUND_STORE_VARIABLE, raising=False)
    assert run([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["bound_store"], data["store_lookups"], data["store_rows"]) == (None, 0, None)
    assert data["store_hit_rate"] is None
    path = tmp_path / "env.sqlite"
    monkeypatch.setenv(BOUND_STORE_VARIABLE, str(path))
    # The library (and so build-all, which builds through build_any) never reads the variable.
    build_any(OptimalSpec("mastermind", length=3, colours=4))
    build_optimal_policy(OptimalSpec("mastermind", length=3, colours=4))
    assert not path.exists()
    for _ in range(2):
        assert run([*argv, "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
    assert data["bound_store"] == str(path) and data["store_hits"] > 0
    assert data["store_hit_rate"] == round(data["store_hits"] / data["store_lookups"], 4)
    assert data["store_rows"] == BoundStore(path).rows() > 0
    assert run(argv) == 0
    assert f"bound store {path}: " in capsys.readouterr().out


def test_stats_add_and_subtract_the_store_counts() -> None:
    total = SearchStats(expanded=5, store_lookups=10, store_hits=4)
    total.add(SearchStats(expanded=1, store_lookups=3, store_hits=2, beam_cut=True))
    assert (total.expanded, total.store_lookups, total.store_hits, total.beam_cut) == (
        6,
        13,
        6,
        True,
    )
    delta = total.since(SearchStats(expanded=2, store_lookups=1, store_hits=1))
    assert (delta.expanded, delta.store_lookups, delta.store_hits) == (4, 12, 5)
