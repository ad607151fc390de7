"""docs/status.rst's figures about the shipped catalog and the README's claims are those
of the catalog that ships: computed here from it, so they cannot drift again."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from guesswork.client import open_catalog
from guesswork.client.catalog import SHIPPED_CATALOG, PolicyInfo

ROOT = Path(__file__).resolve().parent.parent
STATUS = " ".join((ROOT / "docs" / "status.rst").read_text(encoding="utf-8").split())
README = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())


@pytest.fixture(scope="module")
def shipped() -> list[PolicyInfo]:
    with open_catalog(SHIPPED_CATALOG) as catalog:
        return [row for row in catalog.list() if row.catalog == "shipped"]


def figure(text: str, pattern: str) -> str:
    """Return the first group of ``pattern`` in ``text`` (whitespace runs are one space)."""
    match = re.search(pattern, text)
    assert match is not None, f"no {pattern!r} in the text"
    return match[1]


def wordle_lengths(rows: list[PolicyInfo]) -> tuple[int, int]:
    lengths = [row.length for row in rows if row.game == "wordle"]
    return min(lengths), max(lengths)


def other_languages(rows: list[PolicyInfo]) -> set[str]:
    return {row.language for row in rows if row.language not in ("", "en")}


def test_status_counts_the_policies_and_the_size(shipped: list[PolicyInfo]) -> None:
    assert int(figure(STATUS, r"(\d+) policies \([\d.]+ MB\)")) == len(shipped)
    megabytes = SHIPPED_CATALOG.stat().st_size / 1e6
    assert figure(STATUS, r"\d+ policies \(([\d.]+) MB\)") == f"{megabytes:.1f}"


def test_status_describes_what_the_catalog_holds(shipped: list[PolicyInfo]) -> None:
    low, high = wordle_lengths(shipped)
    assert figure(STATUS, r"every length from (\d+ to \d+) letters") == f"{low} to {high}"
    assert int(figure(STATUS, r"over (\d+) other languages")) == len(other_languages(shipped))
    optimised = [
        row
        for row in shipped
        if row.game != "guess-my-word" and row.metric.startswith(("optimal", "lookahead"))
    ]
    assert int(figure(STATUS, r"(\d+) optimised trees")) == len(optimised)
    guess_my_word = [row for row in shipped if row.game == "guess-my-word"]
    assert int(figure(STATUS, r"(\d+) Guess My Word trees")) == len(guess_my_word)
    assert "no Mastermind tree ships" in STATUS
    assert not any(row.game == "mastermind" for row in shipped)


def test_the_readme_says_what_ships(shipped: list[PolicyInfo]) -> None:
    low, high = wordle_lengths(shipped)
    claim = figure(README, r"The catalog ships (\d+ policies: Wordle from \d+ to \d+ letters)")
    assert claim == f"{len(shipped)} policies: Wordle from {low} to {high} letters"
    assert int(figure(README, r"in English and (\d+) other languages")) == len(
        other_languages(shipped)
    )
    games = {row.game for row in shipped}
    for game, words in [("jotto", "Jotto"), ("antiwordle", "Antiwordle")]:
        assert (game in games) == (words in figure(README, r"The catalog ships ([^.]*)\."))
    assert ("mastermind" in games) == ("no Mastermind" not in README)
