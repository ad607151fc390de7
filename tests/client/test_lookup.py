"""The lookup core (client.lookup): stored answers from the policy data alone."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from guesswork.client.catalog import open_catalog
from guesswork.client.catalog_lookup import CatalogLookup
from guesswork.client.core import MAX_ALTERNATIVES, RULE_NYT
from guesswork.client.errors import (
    BadRequestError,
    ContradictoryHistoryError,
    GameOverError,
    LiveAnswerUnavailableError,
    UnknownWordError,
)
from guesswork.client.games import Wordle
from guesswork.client.rules import evil_reply, nyt_hard_problem

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def lookup() -> CatalogLookup:
    return CatalogLookup(open_catalog())


def test_stored_answer_comes_with_stored_alternatives(lookup: CatalogLookup) -> None:
    policy = lookup.policy("wordle-2309-normal-neg-entropy")
    answer = policy.suggest([], MAX_ALTERNATIVES)
    assert (answer.guess, answer.remaining, answer.source) == ("RAISE", 2309, "stored")
    assert len(answer.alternatives) == MAX_ALTERNATIVES
    assert "RAISE" not in answer.alternatives
    # The stored ranking is the builder's: SLATE and CRATE follow RAISE (REFERENCE.md).
    assert answer.alternatives[:2] == ("SLATE", "CRATE")
    assert policy.suggest([], 0).alternatives == ()


def test_every_node_ranks_its_own_guess_out(lookup: CatalogLookup) -> None:
    for policy_lookup in lookup:
        policy = policy_lookup.policy
        for node in range(0, policy.data.node_count, 97):
            assert policy.guess(node) not in policy.alternatives(node)


def test_off_tree_without_a_live_solver_is_a_typed_error(lookup: CatalogLookup) -> None:
    policy = lookup.policy("wordle-2309-normal-neg-entropy")
    with pytest.raises(LiveAnswerUnavailableError, match="leaves the stored tree"):
        policy.suggest([("crane", ".....")])
    with pytest.raises(KeyError):  # one except clause catches it with OffTreeError
        policy.suggest([("crane", ".....")])
    # A won history off the tree needs no solver.
    answer = policy.suggest([("crane", "GGGGG")])
    assert answer.solved and answer.source == "live"


def test_errors(lookup: CatalogLookup) -> None:
    policy = lookup.policy("wordle-2309-normal-neg-entropy")
    with pytest.raises(BadRequestError):
        policy.suggest([], MAX_ALTERNATIVES + 1)
    with pytest.raises(ContradictoryHistoryError, match="turn 2"):
        policy.suggest([("raise", "....."), ("raise", "G....")])
    with pytest.raises(GameOverError):
        policy.check([("raise", "GGGGG")], "crane")


def test_hard_mode_rules_live_with_the_game(lookup: CatalogLookup) -> None:
    wordle = Wordle()
    turns = [("CRANE", wordle.parse_reply("G.Y..", "CRANE"))]
    assert nyt_hard_problem(wordle, turns, "CLAMP") is None
    assert nyt_hard_problem(wordle, turns, "BLAST") == "1st letter must be C"
    assert nyt_hard_problem(wordle, turns, "COMFY") == "guess must contain A"
    policy = lookup.policy("wordle-2309-hard-max")
    check = policy.check([("crane", "G.Y..")], "blast", RULE_NYT)
    assert (check.legal, check.reason) == (False, "1st letter must be C") and check.remaining > 0


def test_one_evil_replier() -> None:
    wordle = Wordle()
    # The branch keeping most targets wins; the winning reply keeps none.
    code, kept = evil_reply(wordle, "ARISE", ["ARISE", "BLOND", "BLUNT", "CLOUD"])
    assert (wordle.format_reply(code), kept) == (".....", 3)
    assert evil_reply(wordle, "ARISE", ["ARISE"]) == (wordle.win_reply, 1)


def test_stored_lookup_needs_no_builder(tmp_path: Path) -> None:
    """With guesswork.builder and guesswork.service made unimportable, stored answers work."""
    code = """
import importlib.abc, sys
class Refuse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[:2] in (['guesswork', 'builder'], ['guesswork', 'service']) \\
                or name.split('.')[0] in ('builder', 'service', 'numba'):
            raise ImportError('refused: ' + name)
        return None
sys.meta_path.insert(0, Refuse())
from guesswork.client.catalog import open_catalog
from guesswork.client.errors import LiveAnswerUnavailableError
from guesswork.client.catalog_lookup import CatalogLookup
lookup = CatalogLookup(open_catalog())
policy = lookup.policy('wordle-2309-normal-neg-entropy')
answer = policy.suggest([('raise', '.Y...'), ('clout', 'G....')], 5)
print(answer.guess, answer.remaining, answer.source, ' '.join(answer.alternatives))
print(policy.check([('raise', '.Y...')], 'could', 'nyt').legal)
print(policy.evil_reply([], 'arise').reply)
try:
    policy.suggest([('crane', '.....')])
except LiveAnswerUnavailableError:
    print('live refused')
try:
    import guesswork.builder
except ImportError:
    print('builder refused')
"""
    result = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "CHAFF 2 stored CHAMP"
    assert lines[1:] == ["False", ".....", "live refused", "builder refused"]


def test_histories_off_the_answer_list_go_on_over_the_guess_list(lookup: CatalogLookup) -> None:
    """The 2,309-answer trees widen to the catalog's widest guess list (the 14,855
    words the NYT allows today, which hold the 12,972 of 2022); trees that already
    guess from it, and Jotto's, have nothing wider."""
    policy = lookup.policy("wordle-2309-normal-neg-entropy")
    assert policy.wider is not None and policy.wider.name == "wordle-guesses-14855"
    assert lookup.policy("wordle-2309-hard-max").wider == policy.wider
    assert lookup.policy("wordle-2309-g12972-normal-neg-entropy").wider == policy.wider
    assert lookup.policy("wordle-3158-g14855-normal-neg-entropy").wider is None
    assert lookup.policy("jotto-2309-hard-max").wider is None
    assert len(policy.open_words) == 14855
    assert policy.open_words[: len(policy.policy.vocabulary)] == policy.policy.vocabulary
    word, index = policy.word_index("salet")
    assert (word, policy.open_words[index]) == ("SALET", "SALET")
    assert index >= len(policy.policy.vocabulary)
    with pytest.raises(UnknownWordError, match="not in the targets"):
        policy.word_index("salet", targets_only=True)
    with pytest.raises(UnknownWordError, match="nor in wordle-guesses-14855"):
        policy.word_index("zzzzz")
    history = [("raise", ".G.Y."), ("tonal", "GY.Y.")]  # TACOS's replies
    turns = policy.turns(history)
    with pytest.raises(ContradictoryHistoryError):
        policy.consistent(turns)
    possible = [policy.open_words[i] for i in policy.possible_words(turns)]
    assert sorted(possible) == ["TABOS", "TACOS", "TASTO"]
    # Without a live solver a won game needs none; an open one is refused.
    won = policy.suggest([*history, ("tacos", "GGGGG")])
    assert (won.solved, won.guess, won.source) == (True, "TACOS", "live-guess-list")
    wordle = Wordle()
    open_game = [
        (w, wordle.format_reply(wordle.reply(w, "TACOS"))) for w in ("ARISE", "SLANT", "HASTY")
    ]
    assert len(policy.possible_words(policy.turns(open_game))) > 1
    with pytest.raises(LiveAnswerUnavailableError):
        policy.suggest(open_game)
    with pytest.raises(ContradictoryHistoryError, match=r"turn 2 \(TACOS GGGGG\) contradicts"):
        policy.suggest([("tacos", "....."), ("tacos", "GGGGG")])
