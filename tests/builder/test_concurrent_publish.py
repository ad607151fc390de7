"""Concurrent publishers lose nothing: two imports (or builds) into one catalog at once
both land, on a file and on PostgreSQL (builder.publish_lock).

Each pair starts together (a barrier) in forked processes that run the real
``guesswork-build import`` command; before the publisher lock, the second to
land dropped the first's policy while both exited 0.
"""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
from multiprocessing.synchronize import Barrier
from pathlib import Path

import pytest

from guesswork.builder.cli import run
from guesswork.builder.policies import PolicySpec, build_policy
from guesswork.builder.publish import StoredPolicy, export_bytes
from guesswork.client.catalog import open_catalog

pytestmark = pytest.mark.reliability

ROOT = Path(__file__).resolve().parents[2]
PAIRS = 50


@pytest.fixture(scope="module")
def policy_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small Wordle policy as a standalone file, to import under many names."""
    folder = tmp_path_factory.mktemp("concurrent")
    answers = (ROOT / "builder/data/wordlists/wordle-answers-2309.txt").read_text().split()
    (folder / "few.txt").write_text("\n".join(answers[::100]) + "\n")
    built = build_policy(PolicySpec(targets=str(folder / "few.txt"), mode="hard", metric="max"))
    stored = StoredPolicy.from_data(built.data, built.tree.targets.words, built.tree.guesses.words)
    path = folder / "few.gwp"
    path.write_bytes(export_bytes(stored))
    return path


def _import_child(location: str, policy_file: str, name: str, barrier: Barrier) -> None:
    """Import ``policy_file`` as ``name`` into ``location`` once both children are ready;
    exit with the command's status (os._exit: a forked child runs no parent clean-up)."""
    barrier.wait()
    status = run(["import", policy_file, "--catalog", location, "--name", name])
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


@pytest.mark.parametrize("kind", ["file", "postgresql"])
def test_pairs_of_concurrent_imports_both_land(
    kind: str, request: pytest.FixtureRequest, tmp_path: Path, policy_file: Path
) -> None:
    location = (
        str(tmp_path / "catalog.sqlite") if kind == "file" else request.getfixturevalue("pg_url")
    )
    forked = multiprocessing.get_context("fork")
    statuses = []
    for pair in range(PAIRS):
        barrier = forked.Barrier(2)
        children = [
            forked.Process(
                target=_import_child, args=(location, str(policy_file), f"p{pair}-{side}", barrier)
            )
            for side in "ab"
        ]
        for child in children:
            child.start()
        for child in children:
            child.join(120)
        statuses.append([child.exitcode for child in children])
    assert statuses == [[0, 0]] * PAIRS
    with open_catalog(location) as catalog:
        landed = set(catalog.names())
    expected = {f"p{pair}-{side}" for pair in range(PAIRS) for side in "ab"}
    assert expected - landed == set(), f"{len(expected - landed)} policies lost"


def test_a_build_and_an_import_at_once_from_the_command_line(
    tmp_path: Path, policy_file: Path
) -> None:
    """The issue's own case, as separate commands: a build and an import started together."""
    catalog = tmp_path / "user.sqlite"
    words = tmp_path / "mine.txt"
    words.write_text("bails fails hails nails pails rails sails tails wails\n")
    build = [sys.executable, "-m", "guesswork.builder", "build", "--targets", str(words)]
    imported = [sys.executable, "-m", "guesswork.builder", "import", str(policy_file)]
    for round_ in range(3):
        commands = [
            [*build, "--name", f"built-{round_}", "--catalog", str(catalog), "--quiet"],
            [*imported, "--name", f"imported-{round_}", "--catalog", str(catalog)],
        ]
        running = [subprocess.Popen(c, stdout=subprocess.DEVNULL) for c in commands]
        assert [process.wait(120) for process in running] == [0, 0]
    with open_catalog(catalog) as opened:
        assert set(opened.names()) == {
            f"{kind}-{round_}" for kind in ("built", "imported") for round_ in range(3)
        }
