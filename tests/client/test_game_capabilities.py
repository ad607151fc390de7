"""Games are values that carry their capabilities (issue #45).

Code outside the games' own modules asks a game what it can do, never which
class it is: this checks the rule the structure report counts by, the answers
each game gives, that a game defined elsewhere works through the same
questions, and that the stored answer still needs no numpy.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import numpy as np
import pytest

from guesswork.client.games import (
    GAMES,
    Antiwordle,
    Game,
    GuessMyWord,
    Jotto,
    Mastermind,
    Wordle,
    make_game,
)
from guesswork.client.rules import nyt_hard_problem

ROOT = Path(__file__).resolve().parents[2]


def _structure_report() -> object:
    spec = importlib.util.spec_from_file_location(
        "structure_report", ROOT / "scripts/structure_report.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["structure_report"] = module
    spec.loader.exec_module(module)
    return module


def test_no_isinstance_switch_on_game_classes_outside_the_games_modules() -> None:
    report = _structure_report()
    sources = {
        path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8")
        for path in report.modules()  # type: ignore[attr-defined]
    }
    assert report.game_switches(sources) == []  # type: ignore[attr-defined]


def test_the_rule_finds_a_planted_switch() -> None:
    report = _structure_report()
    assert report.GAME_SWITCH.search("if isinstance(game, Wordle) or x:")  # type: ignore[attr-defined]
    assert report.GAME_MODULES.match("client/games/wordle.py")  # type: ignore[attr-defined]
    assert not report.GAME_MODULES.match("client/lookup.py")  # type: ignore[attr-defined]
    planted = {
        "client/games/wordle.py": "if isinstance(game, Wordle):",
        "client/lookup.py": "x = 1\nif isinstance(game, Jotto | Wordle):",
    }
    assert report.game_switches(planted) == ["client/lookup.py:2"]  # type: ignore[attr-defined]


# One row per game: the questions code asks, and each game's answers.
CAPABILITIES = (
    "coloured_replies",
    "minimises_guesses",
    "analysable",
    "multi_board",
    "absurdle",
    "target_weights",
    "weighted_list",
    "any_script",
    "fixed_words",
    "one_word_list",
    "letter_set_lists",
    "alphabetical_replies",
    "consistent_only",
    "suggestions_only",
)
ANSWERS = {
    "wordle": {
        "coloured_replies",
        "minimises_guesses",
        "analysable",
        "multi_board",
        "absurdle",
        "target_weights",
        "any_script",
    },
    "antiwordle": {"coloured_replies", "any_script", "consistent_only"},
    "jotto": {
        "minimises_guesses",
        "analysable",
        "target_weights",
        "any_script",
        "letter_set_lists",
    },
    "mastermind": {"minimises_guesses", "analysable", "fixed_words"},
    "guess-my-word": {
        "minimises_guesses",
        "target_weights",
        "weighted_list",
        "one_word_list",
        "alphabetical_replies",
        "suggestions_only",
    },
}


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_each_game_answers_the_questions(game_id: str) -> None:
    game = make_game(game_id)
    assert {name for name in CAPABILITIES if getattr(game, name)} == ANSWERS[game_id]


def test_the_answers_that_are_values() -> None:
    assert [make_game(g).reply_kernel for g in sorted(GAMES)] == [
        "wordle",
        None,
        None,
        "mastermind",
        "wordle",
    ]
    assert Mastermind(5, 8).interchangeable_colours == 8
    assert {make_game(g).interchangeable_colours for g in GAMES if g != "mastermind"} == {None}
    assert Mastermind(3, 2).all_words_name == "mastermind-2x3"
    assert Mastermind(2, 2).all_words() == ("AA", "AB", "BA", "BB")
    with pytest.raises(TypeError):
        Wordle().all_words()
    assert Jotto().reply_caption(3) == "3 in common"
    assert Wordle().reply_caption(2) == "....G"
    assert Mastermind().stored() == {"id": "mastermind", "length": 4, "colours": 6}
    assert GuessMyWord().stored() == {"id": "guess-my-word", "length": 0, "variant": "deduce"}
    assert Antiwordle(6).stored() == {"id": "antiwordle", "length": 6}


def test_antiwordle_shares_wordles_rules_without_being_a_wordle() -> None:
    anti, wordle = Antiwordle(), Wordle()
    assert not isinstance(anti, Wordle)
    assert anti != wordle
    for guess, target in (("NINNY", "ANNEX"), ("CRANE", "CRANE"), ("ABBEY", "BABES")):
        assert anti.reply(guess, target) == wordle.reply(guess, target)
    turns = [("CRANE", wordle.parse_reply("..G.Y"))]
    assert anti.nyt_hard_problem(turns, "SLATE") == wordle.nyt_hard_problem(turns, "SLATE")
    assert nyt_hard_problem(anti, turns, "ABOUT") == "3rd letter must be A"


def test_the_nyt_hard_rule_is_refused_by_games_without_colours() -> None:
    with pytest.raises(TypeError, match="applies to Wordle, not jotto"):
        nyt_hard_problem(Jotto(), [], "ABCDE")


@dataclass(frozen=True)
class Matches(Game):
    """A game defined outside client.games: the reply counts the letters in place."""

    id: ClassVar[str] = "matches"

    @property
    def reply_space(self) -> int:
        return self.length + 1

    @property
    def win_reply(self) -> int:
        return self.length

    def reply(self, guess: str, target: str) -> int:
        return sum(g == t for g, t in zip(guess, target, strict=True))

    def format_reply(self, code: int, style: str = "letters") -> str:
        return str(code)


def test_a_new_game_works_through_the_same_questions() -> None:
    game = Matches.from_options(4)
    assert game == Matches(4) and game.name == "matches-4" and game.analysable
    words = ("ABCD", "ABDC", "DCBA", "AXCD")
    guess = np.array([0, 1, 2, 3, 0], dtype=np.int64)
    target = np.array([3, 3, 0, 1, 0], dtype=np.int64)
    assert game.pair_replies(words, words)(guess, target).tolist() == [3, 1, 0, 1, 4]
    assert game.reply_codes("ABCD", words).tolist() == [4, 2, 0, 3]
    assert game.first_word_problem(("ABCD", "abcd")) == ("abcd", "not in the game's case")
    assert game.stored() == {"id": "matches", "length": 4}
    with pytest.raises(TypeError, match="no reply matrix"):
        game.letter_replies(np.zeros((1, 4), np.uint8), np.zeros((1, 4), np.uint8))


IMPORTTIME = (sys.executable, "-X", "importtime", "-m", "guesswork")


@pytest.mark.parametrize(
    ("history", "guess"),
    [("", "RAISE"), ("raise\nWordle 1,234 1/6\n\n\u2b1b\U0001f7e8\u2b1b\u2b1b\u2b1b", "CLOUT")],
    ids=["empty", "share-text"],
)
def test_the_stored_answer_imports_no_numpy_protobuf_or_builder(history: str, guess: str) -> None:
    """A stored answer is a tree walk (issue #43: its start-up is the figure): numpy,
    the builder (the live engine), protobuf/gRPC (--json, --server), the Spelling
    Bee and the interactive helpers stay unloaded, a pasted share text's history
    included (client.replies reads it)."""
    result = subprocess.run(
        [
            *IMPORTTIME,
            "suggest",
            "--policy",
            "wordle-2309-normal-neg-entropy",
            "--history",
            history,
        ],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert result.stdout.startswith(guess)
    imported = [line.rsplit("|", 1)[-1].strip() for line in result.stderr.splitlines()]
    assert "guesswork.client.games" in imported
    heavy = ("numpy", "google", "grpc", "guesswork.builder", "sqlalchemy")
    heavy += ("guesswork.client.spelling_bee", "guesswork.service.bee")
    # The interactive helpers (issue #45): only `guesswork play` loads them; the
    # installation's metadata: only a proof reads it (client.trust).
    heavy += ("guesswork.client.play", "importlib.metadata")
    assert [name for name in imported if name.startswith(heavy)] == []
