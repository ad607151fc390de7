"""builder.catalog_build: a catalog built from its contents (data), by a library function
that prints nothing (issue #45). The shipped catalog's own rebuild, byte for byte, is
tests/builder/test_publish.py::test_build_all_reproduces_the_shipped_catalog_byte_for_byte."""

from __future__ import annotations

from pathlib import Path

import pytest

from guesswork.builder.catalog_build import (
    CatalogEntry,
    CatalogStep,
    HoneycombTablesDone,
    PolicyDone,
    WordTreesDone,
    build_catalog,
    default_word_tree,
)
from guesswork.builder.catalog_specs import CatalogContents
from guesswork.builder.policies import PolicySpec, build_policy
from guesswork.builder.publish import StoredPolicy, publish_catalog
from guesswork.client.catalog import open_catalog
from guesswork.client.progress import ENVIRONMENT

ROOT = Path(__file__).resolve().parents[2]


def _stored(spec: PolicySpec) -> StoredPolicy:
    built = build_policy(spec)
    return StoredPolicy.from_data(built.data, built.tree.targets.words, built.tree.guesses.words)


@pytest.fixture(scope="module")
def contents(tmp_path_factory: pytest.TempPathFactory) -> CatalogContents:
    """Two small policies (the first one reusable) and one Guess My Word tree."""
    folder = tmp_path_factory.mktemp("lists")
    answers = (ROOT / "builder/data/wordlists/wordle-answers-2309.txt").read_text().split()
    few = folder / "few.txt"
    few.write_text("\n".join(answers[::100]) + "\n")
    return CatalogContents(
        policies=(
            PolicySpec(targets=str(few), mode="hard", metric="max"),
            PolicySpec("jotto", targets=str(few), mode="hard", metric="expectation"),
        ),
        reusable=(PolicySpec(targets=str(few), mode="hard", metric="max"),),
        board_openings=(),
        honeycomb_tables=(),
        word_trees=(("binary", "deduce"),),
    )


def test_a_catalog_is_built_from_its_contents_as_they_are_built_one_by_one(
    contents: CatalogContents,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The reusable policy is taken from the --reuse catalog, the other built; the
    catalog is byte for byte what publishing the same policies gives; each step is
    handed to on_step in order; status lines go through client.progress and nothing
    else is printed."""
    reusable, other = contents.policies
    taken = _stored(reusable)
    source = tmp_path / "source.sqlite"
    publish_catalog(str(source), [taken], [])
    expected = tmp_path / "expected.sqlite"
    publish_catalog(str(expected), [taken, _stored(other), default_word_tree("binary", "deduce")])
    capsys.readouterr()

    monkeypatch.setenv(ENVIRONMENT, "1")  # status lines on, though stderr is no terminal
    steps: list[CatalogStep] = []
    built = tmp_path / "built.sqlite"
    with open_catalog(source) as catalog:
        done = build_catalog(str(built), contents, reuse=[catalog], on_step=steps.append)

    assert built.read_bytes() == expected.read_bytes()
    assert done.path == built and (done.honeycomb_tables, done.word_trees) == (0, 1)
    names = [reusable.name(), other.name(), "guess-my-word-common-words-binary-deduce"]
    assert [entry.name for entry in done.entries] == names
    assert [entry.how for entry in done.entries] == ["reused", "built", None]
    first, second, bees, trees = steps
    assert isinstance(first, PolicyDone) and isinstance(second, PolicyDone)
    assert (first.number, first.total, first.entry, first.built) == (1, 2, done.entries[0], None)
    assert (second.number, second.entry) == (2, done.entries[1])
    assert second.built is not None and second.built.data.name == other.name()
    assert (bees, trees) == (HoneycombTablesDone(()), WordTreesDone(1))
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [
        f"build-all: [1/2] {reusable.name()}...",
        f"build-all: [2/2] {other.name()}...",
        "build-all: the honeycomb tables...",
        "build-all: the Guess My Word trees...",
        f"build-all: publishing {built}...",
    ]

    # Quiet: not a line.
    build_catalog(str(tmp_path / "quiet.sqlite"), contents, quiet=True)
    assert capsys.readouterr() == ("", "")


def test_without_a_reuse_catalog_every_policy_is_built(
    contents: CatalogContents, tmp_path: Path
) -> None:
    done = build_catalog(str(tmp_path / "all.sqlite"), contents, quiet=True)
    assert [entry.how for entry in done.entries] == ["built", "built", None]


def test_entries_are_listed_as_build_all_json_lists_them() -> None:
    assert CatalogEntry("p", 1.234567, "built").to_json() == {
        "name": "p",
        "seconds": 1.2346,
        "how": "built",
    }
    assert CatalogEntry("t", 0.5).to_json() == {"name": "t", "seconds": 0.5}
