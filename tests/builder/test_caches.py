"""``guesswork-build cache``: every cache the project keeps (reply matrices, proof record)
is shown by ``info`` and cleared by ``clean``, one folder for both."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from guesswork.builder import matrix_cache
from guesswork.builder.cli import run
from guesswork.client import trust

HASHES = [f"{digit}" * 64 for digit in "abc"]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache folder of this test's own."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("GUESSWORK_CACHE", str(folder))
    monkeypatch.delenv(matrix_cache.LIMIT_VARIABLE, raising=False)
    return folder


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    status = run(["cache", *args])
    return status, capsys.readouterr().out


def fill(cache: Path) -> dict[str, Path]:
    """Two proof records (one 3 days old), one of an older proof version, a matrix file,
    and files of someone else's in both folders."""
    for content_hash in HASHES[:2]:
        assert trust.remember(content_hash)
    when = time.time() - 3 * 86400
    os.utime(trust.proof_folder() / HASHES[0], (when, when))
    older = cache / "proven" / "v0" / HASHES[2]
    older.parent.mkdir(parents=True)
    older.write_bytes(b"")
    matrix = cache / f"{'d' * 32}-00000000.npy"
    matrix.write_bytes(b"\0" * 100)
    foreign = trust.proof_folder() / "README"
    foreign.write_text("not ours")
    (cache / "notes.txt").write_text("not ours either")
    return {"older": older, "matrix": matrix, "foreign": foreign}


def test_info_shows_both_caches(cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fill(cache)
    status, out = cli(capsys, "info", "--json")
    data = json.loads(out)
    assert status == 0
    assert (data["directory"], data["files"], data["bytes"]) == (str(cache), 1, 100)
    assert data["limit_bytes"] == 4 << 30
    assert data["proofs"] == {
        "directory": str(cache / "proven" / f"v{trust.PROOF_VERSION}"),
        "version": trust.PROOF_VERSION,
        "files": 2,
        "older_version_files": 1,
    }
    status, out = cli(capsys, "info")
    assert status == 0
    assert (
        f"proofs     2 policies recorded as proven (one empty file each, in "
        f"{trust.proof_folder()}; 1 of an older proof version)"
    ) in out.splitlines()


def test_info_on_no_cache_at_all(cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out = cli(capsys, "info", "--json")
    assert status == 0
    assert json.loads(out)["proofs"]["files"] == 0
    assert not cache.exists()  # looking creates nothing


def test_clean_clears_every_cache_by_default(
    cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    made = fill(cache)
    status, out = cli(capsys, "clean", "--json")
    data = json.loads(out)
    assert status == 0
    assert data["cleared"] == ["matrices", "proofs"]
    assert (data["removed_files"], data["freed_bytes"]) == (1, 100)
    assert data["proofs"] == {"directory": str(cache / "proven"), "removed_files": 3}
    assert not any(trust.is_proven(content_hash) for content_hash in HASHES)
    assert not made["matrix"].exists() and not made["older"].exists()
    # Only the caches' own files go.
    assert made["foreign"].exists() and (cache / "notes.txt").exists()


def test_clean_one_cache(cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    made = fill(cache)
    status, out = cli(capsys, "clean", "--proofs")
    assert status == 0
    assert out == (
        f"removed 3 proof records from {cache / 'proven'} "
        "(those policies are proven again on their next use)\n"
    )
    assert made["matrix"].exists()

    assert trust.remember(HASHES[0])
    status, out = cli(capsys, "clean", "--matrices", "--json")
    data = json.loads(out)
    assert (status, data["cleared"], data["removed_files"]) == (0, ["matrices"], 1)
    assert data["proofs"]["removed_files"] == 0
    assert trust.is_proven(HASHES[0]) and not made["matrix"].exists()


def test_clean_older_than_keeps_recent_proofs(
    cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fill(cache)
    status, out = cli(capsys, "clean", "--proofs", "--older-than", "1", "--json")
    assert status == 0
    assert json.loads(out)["proofs"]["removed_files"] == 1
    assert not trust.is_proven(HASHES[0]) and trust.is_proven(HASHES[1])


def test_one_folder_for_every_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both caches follow $GUESSWORK_CACHE, else $XDG_CACHE_HOME (ignored when relative,
    as the XDG rule says), else ~/.cache."""
    monkeypatch.delenv("GUESSWORK_CACHE")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for xdg, root in [
        (str(tmp_path / "xdg"), tmp_path / "xdg" / "guesswork"),
        ("relative/cache", tmp_path / "home" / ".cache" / "guesswork"),
        ("", tmp_path / "home" / ".cache" / "guesswork"),
    ]:
        monkeypatch.setenv("XDG_CACHE_HOME", xdg)
        assert matrix_cache.cache_dir() == root
        assert trust.proof_folder() == root / "proven" / f"v{trust.PROOF_VERSION}"


def test_a_build_fills_both_caches_and_clean_empties_them(tmp_path: Path) -> None:
    """The commands in their own processes, as a user runs them: a build caches its
    matrix and records its policy as proven; ``cache clean`` removes both."""
    words = tmp_path / "words.txt"
    words.write_text("crane\nslate\ntrace\ncrate\ngrace\nplace\n")
    env = {
        **os.environ,
        "GUESSWORK_CACHE": str(tmp_path / "cache"),
        "GUESSWORK_CATALOG": str(tmp_path / "catalog.sqlite"),
    }

    def build_cli(*args: str) -> dict[str, object]:
        done = subprocess.run(
            [sys.executable, "-m", "guesswork.builder", *args],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        return json.loads(done.stdout) if "--json" in args else {}

    build_cli("build", "--targets", str(words), "--name", "cache-test", "--quiet")
    info = build_cli("cache", "info", "--json")
    assert info["files"] == 1
    assert info["proofs"] == {
        "directory": str(tmp_path / "cache" / "proven" / f"v{trust.PROOF_VERSION}"),
        "version": trust.PROOF_VERSION,
        "files": 1,
        "older_version_files": 0,
    }
    cleaned = build_cli("cache", "clean", "--json")
    assert cleaned["removed_files"] == 1
    assert cleaned["proofs"] == {
        "directory": str(tmp_path / "cache" / "proven"),
        "removed_files": 1,
    }
    after = build_cli("cache", "info", "--json")
    assert (after["files"], after["proofs"]["files"]) == (0, 0)  # type: ignore[index]
