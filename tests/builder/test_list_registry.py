"""Keeping lists current (`guesswork-build lists update`), and the catalog listing's
keys for today's lists and weighted policies (`list --json`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from guesswork.builder.cli import run
from guesswork.builder.wordlists import (
    SHIPPED,
    content_sha256,
    load_wordlist,
    registered_lists,
    registered_words,
    shipped_words,
)
from guesswork.client.games import Wordle

WORDLE = Wordle()


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("GUESSWORK_LISTS", raising=False)
    monkeypatch.delenv("GUESSWORK_CATALOG", raising=False)
    return tmp_path


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> object:
    assert run([*argv, "--json"]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def test_a_newer_list_is_registered_and_used_by_name(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    words = shipped_words("wordle-answers-3158")[::7]
    source = home / "answers-2026.txt"
    source.write_text("\n".join(w.lower() for w in words) + "\n")
    (row,) = _json(
        capsys, "lists", "update", str(source), "--kind", "answers", "--as-of", "2026-11-01"
    )  # type: ignore[misc]
    name = f"wordle-answers-{len(words)}"
    assert (row["name"], row["count"], row["new"]) == (name, len(words), True)
    assert row["sha256"] == content_sha256(words) and row["as_of"] == "2026-11-01"
    assert registered_words(name) == words
    assert load_wordlist(name, WORDLE).words == words
    listed = _json(capsys, "lists")
    assert {"name": name, "source": "registered", "as_of": "2026-11-01"}.items() <= next(
        r
        for r in listed
        if r["name"] == name  # type: ignore[union-attr]
    ).items()
    shipped = next(r for r in listed if r["name"] == "wordle-answers-3158")  # type: ignore[union-attr]
    assert (shipped["source"], shipped["as_of"]) == ("shipped", "2023-07-01")
    # Registering the same words again changes nothing; a build takes the name.
    again = _json(
        capsys, "lists", "update", str(source), "--kind", "answers", "--as-of", "2026-11-01"
    )
    assert again[0]["new"] is False  # type: ignore[index]
    built = _json(
        capsys,
        "build",
        "--targets",
        name,
        "--guesses",
        "wordle-guesses-14855",
        "--catalog",
        str(home / "mine.sqlite"),
    )
    assert built["name"] == f"wordle-{len(words)}-g14855-normal-neg-entropy"  # type: ignore[index]


def test_a_changed_registered_file_is_refused(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = home / "few.txt"
    source.write_text("crane\nslate\ntrace\n")
    assert run(["lists", "update", str(source), "--kind", "guesses", "--as-of", "2026-01-02"]) == 0
    capsys.readouterr()
    (entry,) = registered_lists().values()
    stored = home / "data" / "guesswork" / "lists" / entry.file
    stored.write_text(stored.read_text().replace("SLATE", "STALE"))
    assert run(["evaluate", "--targets", "wordle-guesses-3"]) == 1
    assert "no longer matches its registered SHA-256" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "status", "message"),
    [
        (["lists", "update", "--kind", "answers", "--as-of", "2026-01-01"], 2, "needs FILE"),
        (["lists", "update", "{file}", "--as-of", "2026-01-01"], 2, "--kind"),
        (["lists", "update", "{file}", "--kind", "answers"], 2, "--as-of DATE"),
        (["lists", "update", "{file}", "--kind", "answers", "--as-of", "soon"], 1, "not a date"),
        (
            ["lists", "update", "{bad}", "--kind", "answers", "--as-of", "2026-01-01"],
            1,
            "'cranes' has 6 letters",
        ),
        (["lists", "show", "{file}"], 2, "takes no FILE"),
        (
            [
                "lists",
                "update",
                "{file}",
                "--kind",
                "answers",
                "--as-of",
                "2026-01-01",
                "--name",
                "wordle-answers-2309",
            ],
            1,
            "shipped list with other words",
        ),
    ],
)
def test_bad_updates_are_refused_in_one_line(
    home: Path, capsys: pytest.CaptureFixture[str], argv: list[str], status: int, message: str
) -> None:
    good, bad = home / "good.txt", home / "bad.txt"
    good.write_text("crane\nslate\n")
    bad.write_text("crane\ncranes\n")
    filled = [a.replace("{file}", str(good)).replace("{bad}", str(bad)) for a in argv]
    assert run(filled) == status
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert registered_lists() == {}


def test_list_json_says_lists_mode_and_weights(capsys: pytest.CaptureFixture[str]) -> None:
    """Each policy has targets, guesses, mode and weights (its prior's name, or null)."""
    rows = {row["name"]: row for row in _json(capsys, "list")}  # type: ignore[union-attr]
    today = rows["wordle-3158-g14855-normal-neg-entropy"]
    assert (today["targets"], today["guesses"], today["mode"], today["weights"]) == (
        "wordle-answers-3158",
        "wordle-guesses-14855",
        "normal",
        None,
    )
    weighted = rows["wordle-3158-g14855-weighted-wordfreq-normal-neg-entropy"]
    assert weighted["weights"] == "wordfreq" and weighted["targets"] == "wordle-answers-3158"
    every = rows["wordle-14855-weighted-wordfreq-nyt-hard-neg-entropy"]
    assert (every["targets"], every["mode"], every["weights"]) == (
        "wordle-guesses-14855",
        "nyt-hard",
        "wordfreq",
    )
    assert all(set(row) >= {"targets", "guesses", "mode", "weights"} for row in rows.values())
    assert "wordle-3158-g14855-normal-neg-entropy" in rows and set(SHIPPED) >= {
        "wordle-answers-3158",
        "wordle-guesses-14855",
    }
