"""The reply-matrix disk cache: bounded, least recently used out first, checked, shareable."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import subprocess
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from guesswork.builder import matrices, matrix_cache
from guesswork.builder.cli import run
from guesswork.builder.errors import CacheConfigError
from guesswork.builder.matrices import compute_reply_matrix, reply_matrix
from guesswork.builder.wordlists import WordList, load_wordlist
from guesswork.client.games import Wordle

GAME = Wordle()
ANSWERS = load_wordlist("wordle-answers-2309", GAME).words


def lists(index: int) -> tuple[WordList, WordList]:
    """Return the index-th pair of small, distinct lists: a 50 x 40 matrix (2,000 bytes)."""
    start = index * 90
    return (
        WordList.from_words(f"g{index}", ANSWERS[start : start + 50]),
        WordList.from_words(f"t{index}", ANSWERS[start + 50 : start + 90]),
    )


#: The size of one cached 50 x 40 uint8 matrix file: 2,000 bytes plus the .npy header.
FILE_BYTES = 2000 + 128


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache folder, a fresh process's memory cache, and the default limit."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("GUESSWORK_CACHE", str(folder))
    monkeypatch.delenv(matrix_cache.LIMIT_VARIABLE, raising=False)
    monkeypatch.setattr(matrices, "_memory_cache", OrderedDict())
    return folder


def fresh_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forget the in-memory matrices, as a new process would."""
    monkeypatch.setattr(matrices, "_memory_cache", OrderedDict())


def cached(index: int) -> np.ndarray:
    """Return matrix ``index`` through the cache."""
    return reply_matrix(GAME, *lists(index))


def files(folder: Path) -> dict[str, Path]:
    """Return the cached files by the key part of their name."""
    return {path.name.split("-")[0]: path for path in folder.glob("*.npy")}


def key(index: int) -> str:
    return matrices._cache_key(GAME, *lists(index), False)


def age(path: Path, seconds: float) -> None:
    """Mark ``path`` as last used ``seconds`` ago."""
    when = time.time() - seconds
    os.utime(path, (when, when))


def refuse_to_compute(*args: object) -> np.ndarray:
    raise AssertionError("the cached matrix should have been used")


def test_one_file_has_the_size_the_tests_assume(cache: Path) -> None:
    cached(0)
    (path,) = cache.glob("*.npy")
    assert path.stat().st_size == FILE_BYTES


def test_the_least_recently_used_file_goes_first(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(matrix_cache.LIMIT_VARIABLE, str(3 * FILE_BYTES))
    for index in range(3):
        cached(index)
    for index, seconds in enumerate((300, 100, 200)):
        age(files(cache)[key(index)], seconds)

    cached(3)  # four files do not fit: the oldest (0) goes
    assert set(files(cache)) == {key(1), key(2), key(3)}
    cached(4)  # then 2, used 200 s ago, before 1 (100 s)
    assert set(files(cache)) == {key(1), key(3), key(4)}
    assert sum(path.stat().st_size for path in cache.iterdir()) <= 3 * FILE_BYTES


def test_a_hit_makes_a_file_recently_used(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(matrix_cache.LIMIT_VARIABLE, str(2 * FILE_BYTES))
    expected = compute_reply_matrix(GAME, *lists(0))
    cached(0)
    cached(1)
    age(files(cache)[key(0)], 300)
    age(files(cache)[key(1)], 100)

    fresh_process(monkeypatch)
    monkeypatch.setattr(matrices, "compute_reply_matrix", refuse_to_compute)
    assert (cached(0) == expected).all()  # a hit: 0 is now the latest used
    assert time.time() - files(cache)[key(0)].stat().st_mtime < 60

    monkeypatch.setattr(matrices, "compute_reply_matrix", compute_reply_matrix)
    cached(2)
    assert set(files(cache)) == {key(0), key(2)}


def test_the_file_just_written_is_never_evicted(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(matrix_cache.LIMIT_VARIABLE, str(FILE_BYTES))
    cached(0)
    age(files(cache)[key(0)], -3600)  # even when the other file looks newer (clock skew)
    cached(1)
    assert set(files(cache)) == {key(1)}


@pytest.mark.parametrize("limit", [1000, 2000, FILE_BYTES - 1])
def test_a_matrix_larger_than_the_limit_is_computed_not_cached(
    cache: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, limit: int
) -> None:
    # 2000 and FILE_BYTES - 1: the matrix fits, but not with its file header.
    monkeypatch.setenv(matrix_cache.LIMIT_VARIABLE, str(limit))
    cache.mkdir()
    (cache / f"{'0' * 32}-00000000.npy").write_bytes(b"x" * 10)  # older, small: untouched
    with caplog.at_level(logging.WARNING, logger="guesswork.builder.matrix_cache"):
        matrix = cached(0)
    assert (matrix == compute_reply_matrix(GAME, *lists(0))).all()
    assert sorted(path.name for path in cache.iterdir()) == [f"{'0' * 32}-00000000.npy"]
    (record,) = caplog.records
    assert "50 x 40 reply matrix" in record.getMessage()
    assert "larger than the whole cache limit" in record.getMessage()


def test_limit_zero_turns_the_disk_cache_off(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(matrix_cache.LIMIT_VARIABLE, "0")
    cached(0)
    assert not cache.exists()


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("4294967296", 4 << 30),
        ("4G", 4 << 30),
        ("4GiB", 4 << 30),
        ("4 gb", 4 << 30),
        ("500M", 500 << 20),
        ("12k", 12 << 10),
        ("0", 0),
        ("7B", 7),
    ],
)
def test_sizes_parse(text: str, size: int) -> None:
    assert matrix_cache.parse_size(text) == size


@pytest.mark.parametrize("text", ["", "-1", "4.5G", "4X", "lots", "G"])
def test_bad_sizes_are_refused(text: str) -> None:
    with pytest.raises(CacheConfigError, match="GUESSWORK_CACHE_MAX_BYTES"):
        matrix_cache.parse_size(text)


def test_default_limit_is_4_gib(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(matrix_cache.LIMIT_VARIABLE, raising=False)
    assert matrix_cache.cache_limit() == 4 << 30


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[: len(data) // 2],  # truncated mid-matrix
        lambda data: data[:60],  # truncated in the header
        lambda data: b"",  # empty
        lambda data: data[:-1] + bytes([data[-1] ^ 0x10]),  # one bit flipped
        lambda data: data.replace(b"(50, 40)", b"(40, 50)"),  # header lies about the shape
    ],
    ids=["truncated", "header-cut", "empty", "bit-flip", "wrong-shape"],
)
def test_a_damaged_file_is_recomputed_and_replaced(
    cache: Path, monkeypatch: pytest.MonkeyPatch, damage: Callable[[bytes], bytes]
) -> None:
    expected = compute_reply_matrix(GAME, *lists(0))
    cached(0)
    (path,) = cache.glob("*.npy")
    intact = path.read_bytes()
    path.write_bytes(damage(intact))
    assert path.read_bytes() != intact

    fresh_process(monkeypatch)
    assert (cached(0) == expected).all()
    assert path.read_bytes() == intact  # written afresh

    fresh_process(monkeypatch)
    monkeypatch.setattr(matrices, "compute_reply_matrix", refuse_to_compute)
    assert (cached(0) == expected).all()


def test_concurrent_writers_and_readers_share_one_folder(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Threads stand in for processes: the races are on the folder, not in memory."""
    monkeypatch.setenv(matrix_cache.LIMIT_VARIABLE, str(3 * FILE_BYTES))
    rng = np.random.default_rng(0)
    matrices_by_key = {
        hashlib.sha256(str(n).encode()).hexdigest()[:32]: rng.integers(0, 243, (50, 40), np.uint8)
        for n in range(8)
    }
    keys = sorted(matrices_by_key)
    failures: list[str] = []

    def worker(seed: int) -> None:
        order = np.random.default_rng(seed)
        try:
            for _ in range(40):
                chosen = keys[int(order.integers(len(keys)))]
                found = matrix_cache.load(chosen, (50, 40), np.uint8)
                if found is not None and not (found == matrices_by_key[chosen]).all():
                    failures.append(f"wrong matrix for {chosen}")
                if found is None:
                    matrix_cache.store(chosen, matrices_by_key[chosen])
        except Exception as error:  # reported below, with the thread's seed
            failures.append(f"worker {seed}: {error!r}")

    threads = [threading.Thread(target=worker, args=(seed,)) for seed in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    names = [path.name for path in cache.iterdir()]
    assert not [name for name in names if name.endswith(".tmp")]
    assert len(names) <= 3
    assert sum(path.stat().st_size for path in cache.iterdir()) <= 3 * FILE_BYTES


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = run(["cache", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def populate(cache: Path) -> tuple[Path, Path, Path, Path]:
    """Two matrices (one unused for 3 days), a killed writer's temp file, and a user's file."""
    cached(0)
    cached(1)
    old = files(cache)[key(0)]
    age(old, 3 * 86400)
    stale = cache / f".{key(5)}-abc123_x.tmp"
    stale.write_bytes(b"\0" * 500)
    age(stale, 2 * 86400)
    foreign = cache / "notes.txt"
    foreign.write_text("not ours")
    return old, files(cache)[key(1)], stale, foreign


def test_cache_info_reports_the_folder(
    cache: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(matrix_cache.LIMIT_VARIABLE, "1G")
    old, recent, _, _ = populate(cache)
    status, out, err = cli(capsys, "info", "--json")
    assert (status, err) == (0, "")
    data = json.loads(out)
    assert data["directory"] == str(cache)
    assert data["files"] == 2
    assert data["bytes"] == 2 * FILE_BYTES
    assert data["limit_bytes"] == 1 << 30
    assert (data["temporary_files"], data["temporary_bytes"]) == (1, 500)
    assert [row["file"] for row in data["entries"]] == [recent.name, old.name]
    assert data["entries"][0]["shape"] == [50, 40]
    assert data["entries"][0]["dtype"] == "uint8"
    assert data["entries"][0]["bytes"] == FILE_BYTES

    status, out, _ = cli(capsys, "info")
    assert status == 0
    assert f"directory  {cache}" in out
    assert "files      2 (4.2 KiB)" in out
    assert "limit      1.0 GiB ($GUESSWORK_CACHE_MAX_BYTES)" in out
    assert "temporary  1 (500 B;" in out
    assert f"50 x 40 uint8  {recent.name}" in out


def test_cache_info_on_a_missing_folder(cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = cli(capsys, "info", "--json")
    data = json.loads(out)
    assert (status, data["files"], data["bytes"], data["entries"]) == (0, 0, 0, [])
    assert data["limit_bytes"] == 4 << 30


def test_cache_clean_removes_only_cache_files(
    cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, recent, stale, foreign = populate(cache)
    status, out, _ = cli(capsys, "clean", "--older-than", "1")
    assert status == 0
    # The first line is the matrices'; the proof record's follows (tests/builder/test_caches.py).
    first = out.splitlines()[0]
    assert first == f"removed 2 files ({matrix_cache.format_bytes(FILE_BYTES + 500)}) from {cache}"
    assert not old.exists() and not stale.exists() and recent.exists()

    status, out, _ = cli(capsys, "clean", "--json")
    assert status == 0
    data = json.loads(out)
    assert {key: data[key] for key in ("directory", "removed_files", "freed_bytes")} == {
        "directory": str(cache),
        "removed_files": 1,
        "freed_bytes": FILE_BYTES,
    }
    assert data["older_than_days"] is None
    assert [path.name for path in cache.iterdir()] == [foreign.name]

    status, out, _ = cli(capsys, "clean", "--matrices")
    assert (status, out) == (0, f"removed 0 files (0 B) from {cache}\n")


@pytest.mark.parametrize("days", ["-1", "soon", "inf", "nan"])
def test_clean_refuses_a_bad_age(
    cache: Path, capsys: pytest.CaptureFixture[str], days: str
) -> None:
    status, out, err = cli(capsys, "clean", "--older-than", days)
    assert (status, out) == (2, "")
    assert err.startswith("guesswork-build: error: --older-than") and err.count("\n") == 1


def test_a_bad_limit_is_one_line_from_the_command(cache: Path) -> None:
    """The command line in its own process, as a user runs it."""
    env = {**os.environ, "GUESSWORK_CACHE": str(cache), matrix_cache.LIMIT_VARIABLE: "lots"}
    done = subprocess.run(
        [sys.executable, "-m", "guesswork.builder", "cache", "info"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.startswith("guesswork-build: error: $GUESSWORK_CACHE_MAX_BYTES='lots'")
    assert done.stderr.count("\n") == 1


def test_a_cached_matrix_is_mapped_read_only_and_outlives_its_file(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hit is memory-mapped, not copied (builder.matrix_cache._read_checked): the
    file's pages are the matrix. Removing the file (eviction, ``cache clean``) does
    not change a matrix already read."""
    expected = compute_reply_matrix(GAME, *lists(0))
    cached(0)
    fresh_process(monkeypatch)
    monkeypatch.setattr(matrices, "compute_reply_matrix", refuse_to_compute)
    hit = cached(0)
    assert isinstance(hit, np.memmap) and not hit.flags.writeable
    assert [entry.path.name for entry in matrix_cache.clean(cache)] != []
    assert not list(cache.glob("*.npy"))
    assert (hit == expected).all()
