"""Game analysis (builder.analysis): optimal play scores 100 with the tree's own values,
a move that splits nothing scores 0, a one-in-many reply is lucky, every mode and
Jotto are analysed, and bad input is refused as SuggestGuess refuses it."""

from __future__ import annotations

import numpy as np
import pytest

from guesswork.builder.analysis import GameAnalyzer
from guesswork.builder.game_values import Budget
from guesswork.builder.live import GreedyLiveSolver
from guesswork.client.analysis import EXACT, GREEDY_ESTIMATE, TREE, GameAnalysis
from guesswork.client.catalog import Catalog, open_catalog
from guesswork.client.catalog_lookup import CatalogLookup
from guesswork.client.errors import (
    BadRequestError,
    ContradictoryHistoryError,
    GameOverError,
    ImpossibleReplyError,
    PolicyNotFoundError,
    UnknownWordError,
)
from guesswork.client.probe import SOLVED, Policy

SALET = "wordle-2315-g12972-normal-optimal-first-salet"
SLATE = "wordle-2315-hard-optimal-first-slate"
NYT_CAP6 = "wordle-2315-g12972-nyt-hard-optimal-cap6-first-salet"
GREEDY = "wordle-2309-normal-neg-entropy"
NYT_GREEDY = "wordle-2315-g12972-nyt-hard-neg-entropy"
JOTTO = "jotto-2309-hard-lookahead4-first-debar"


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return open_catalog()


@pytest.fixture(scope="module")
def lookups(catalog: Catalog) -> CatalogLookup:
    return CatalogLookup(catalog, GreedyLiveSolver())


@pytest.fixture(scope="module")
def analyzer() -> GameAnalyzer:
    return GameAnalyzer()


def played(policy: Policy, answer: str) -> list[tuple[str, str]]:
    """Return the history of ``policy`` playing against ``answer``."""
    game = policy.game
    return [(w, game.format_reply(game.reply(w, answer))) for w in policy.play(answer)]


def replies(policy: Policy, answer: str, guesses: list[str]) -> list[tuple[str, str]]:
    """Return the history of ``guesses`` played against ``answer``."""
    game = policy.game
    return [(w, game.format_reply(game.reply(w, answer))) for w in guesses]


def analyse(
    analyzer: GameAnalyzer,
    lookups: CatalogLookup,
    name: str,
    history: list[tuple[str, str]],
    answer: str = "",
) -> GameAnalysis:
    return analyzer.analyze(lookups.policy(name), history, answer)


@pytest.mark.parametrize("name", [SALET, SLATE, NYT_CAP6])
def test_a_game_along_an_optimal_policy_scores_100_with_the_trees_own_values(
    analyzer: GameAnalyzer, lookups: CatalogLookup, catalog: Catalog, name: str
) -> None:
    policy = catalog.policy(name)
    certificate = policy.data.certificate
    assert certificate is not None
    values = np.frombuffer(certificate["node_values"], "<i4")
    sizes = policy.data.numpy_arrays()["node_size"]
    rng = np.random.default_rng(14)
    for index in rng.choice(len(policy.targets), 4, replace=False).tolist():
        answer = policy.targets[index]
        history = played(policy, answer)
        analysis = analyse(analyzer, lookups, name, history)
        node = policy.root
        for move, (guess, reply) in zip(analysis.moves, history, strict=True):
            assert (move.guess, move.best_guess) == (guess, guess)
            assert move.skill == 100.0
            # The expected guesses are the subtree's own mean: its value over its size.
            assert move.best_expected == move.expected == values[node] / sizes[node]
            assert move.remaining_before == sizes[node]
            node = policy.step(node, reply)
        assert node == SOLVED and analysis.solved and analysis.answer == answer
        assert analysis.lost_to_choices == 0.0 and analysis.skill == 100.0
        assert analysis.expected_start == values[0] / sizes[0]


def test_a_guess_that_splits_nothing_scores_0_and_loses_a_whole_guess(
    analyzer: GameAnalyzer, lookups: CatalogLookup
) -> None:
    # After SALET ..... no target holds S, A, L, E or T: SLATE gets ..... from all of them.
    history = [("salet", "....."), ("slate", "....."), ("crony", ".Y..Y")]
    analysis = analyse(analyzer, lookups, SALET, history)
    first, wasted, _ = analysis.moves
    assert (first.skill, first.remaining_after) == (100.0, 221)
    assert wasted.remaining_before == wasted.remaining_after == 221
    assert wasted.expected == pytest.approx(wasted.best_expected + 1)
    assert wasted.skill == pytest.approx(0.0, abs=1e-9)
    assert wasted.best_guess != "SLATE" and wasted.luck == 50.0  # no other reply could come
    assert analysis.lost_to_choices == pytest.approx(
        1.0 + analysis.moves[2].expected - analysis.moves[2].best_expected
    )


def test_a_one_in_many_reply_is_lucky_and_the_commonest_unlucky(
    analyzer: GameAnalyzer, lookups: CatalogLookup, catalog: Catalog
) -> None:
    policy = catalog.policy(SALET)
    game = policy.game
    by_reply: dict[int, list[str]] = {}
    for target in policy.targets:
        by_reply.setdefault(game.reply("SALET", target), []).append(target)
    alone = next(code for code, targets in by_reply.items() if len(targets) == 1)
    lucky = analyse(analyzer, lookups, SALET, [("salet", game.format_reply(alone))])
    assert lucky.moves[0].remaining_after == 1 and lucky.moves[0].luck > 95
    commonest = max(by_reply, key=lambda code: len(by_reply[code]))
    unlucky = analyse(analyzer, lookups, SALET, [("salet", game.format_reply(commonest))])
    assert unlucky.moves[0].luck == 0.0
    assert lucky.gained_by_luck > 0 > unlucky.gained_by_luck


def test_the_totals_add_up(
    analyzer: GameAnalyzer, lookups: CatalogLookup, catalog: Catalog
) -> None:
    history = replies(catalog.policy(SALET), "FOUND", ["CRANE", "PILOT", "HUMID"])
    analysis = analyse(analyzer, lookups, SALET, history)
    assert not analysis.solved and analysis.answer == ""
    assert analysis.expected_left > 0
    assert len(analysis.moves) + analysis.expected_left == pytest.approx(
        analysis.expected_start + analysis.lost_to_choices - analysis.gained_by_luck
    )
    for move in analysis.moves:
        assert 0 <= move.skill <= 100 and 0 <= move.luck <= 100
        assert move.expected >= move.best_expected
        assert {move.source, move.best_source} <= {EXACT, TREE, GREEDY_ESTIMATE}
    assert analysis.moves[0].best_guess == "SALET" and analysis.moves[0].best_source == TREE


def test_an_answer_given_says_what_the_best_guess_would_have_left(
    analyzer: GameAnalyzer, lookups: CatalogLookup, catalog: Catalog
) -> None:
    policy = catalog.policy(SALET)
    history = replies(policy, "SPLIT", ["CRANE", "PILOT"])
    analysis = analyse(analyzer, lookups, SALET, history, "split")
    assert analysis.answer == "SPLIT" and not analysis.solved
    first = analysis.moves[0]
    game = policy.game
    same = [t for t in policy.targets if game.reply("SALET", t) == game.reply("SALET", "SPLIT")]
    assert first.best_guess == "SALET" and first.best_remaining == len(same)
    unknown = analyse(analyzer, lookups, SALET, history)
    assert all(move.best_remaining is None for move in unknown.moves)


def test_consistent_hard_mode_marks_a_guess_that_breaks_the_rule(
    analyzer: GameAnalyzer, lookups: CatalogLookup, catalog: Catalog
) -> None:
    policy = catalog.policy(SLATE)
    analysis = analyse(
        analyzer, lookups, SLATE, replies(policy, "PROVE", ["SLATE", "CRONE", "PROVE"])
    )
    assert [m.legal for m in analysis.moves] == [True, True, True]
    assert analysis.solved and analysis.moves[-1].remaining_after == 0
    broken = analyse(analyzer, lookups, SLATE, replies(policy, "PROVE", ["SLATE", "CRONY"]))
    assert broken.moves[1].legal is False  # CRONY lacks the E the first reply revealed


def test_nyt_hard_mode_is_analysed_in_its_states(
    analyzer: GameAnalyzer, lookups: CatalogLookup, catalog: Catalog
) -> None:
    policy = catalog.policy(NYT_GREEDY)
    history = replies(policy, "MANIA", ["SALET", "CAIRN", "MANIA"])
    analysis = analyse(analyzer, lookups, NYT_GREEDY, history)
    assert [m.legal for m in analysis.moves] == [True, True, True]
    assert analysis.solved and analysis.moves[2].best_source == EXACT
    broken = analyse(analyzer, lookups, NYT_GREEDY, replies(policy, "MANIA", ["SALET", "ROUND"]))
    assert broken.moves[1].legal is False  # the A SALET revealed must be used again


def test_a_greedy_policy_is_analysed_and_its_own_moves_may_score_below_100(
    analyzer: GameAnalyzer, lookups: CatalogLookup, catalog: Catalog
) -> None:
    policy = catalog.policy(GREEDY)
    analysis = analyse(analyzer, lookups, GREEDY, played(policy, "FOUND"))
    assert analysis.solved and all(0 <= m.skill <= 100 for m in analysis.moves)
    assert min(m.skill for m in analysis.moves) < 100  # the exact search finds better


def test_jotto_is_analysed(
    analyzer: GameAnalyzer, lookups: CatalogLookup, catalog: Catalog
) -> None:
    policy = catalog.policy(JOTTO)
    history = played(policy, "MOUNT")
    analysis = analyse(analyzer, lookups, JOTTO, history)
    assert analysis.solved and analysis.moves[0].best_guess == "DEBAR"
    assert analysis.moves[0].skill == 100.0 and analysis.moves[0].best_source == TREE
    assert analysis.moves[0].remaining_before == 1391
    off = analyse(analyzer, lookups, JOTTO, replies(policy, "MOUNT", ["SOUTH", "DRAPE"]))
    assert off.moves[0].best_guess == "DEBAR" and off.moves[0].skill < 100


def test_the_same_game_gets_the_same_numbers(
    analyzer: GameAnalyzer, lookups: CatalogLookup
) -> None:
    history = [("crane", ".Y..."), ("lousy", ".Y.Y.")]
    first = analyse(analyzer, lookups, SALET, history)
    again = GameAnalyzer().analyze(lookups.policy(SALET), history)
    assert first == again


def test_a_small_budget_falls_back_to_estimates(lookups: CatalogLookup) -> None:
    tight = GameAnalyzer(Budget(exact_limit=2, greedy_cells=0))
    analysis = tight.analyze(lookups.policy(GREEDY), [("crane", "....."), ("pilot", ".Y.Y.")])
    assert analysis.moves[0].source == GREEDY_ESTIMATE
    assert analysis.moves[0].best_source == TREE  # the tree's own guess and children


@pytest.mark.parametrize(
    ("name", "history", "answer", "error", "metadata"),
    [
        ("chess", [("raise", ".....")], "", PolicyNotFoundError, {"policy": "chess"}),
        (SALET, [], "", BadRequestError, {"field": "history"}),
        (
            "guess-my-word-common-words-optimal-live",
            [("cat", "after")],
            "",
            BadRequestError,
            {"field": "policy"},
        ),
        (
            "antiwordle-2309-hard-entropy",
            [("raise", ".....")],
            "",
            BadRequestError,
            {"field": "policy"},
        ),
        (
            SALET,
            [("raise", "....."), ("arise", "GG...")],
            "",
            ContradictoryHistoryError,
            {"turn": "2"},
        ),
        (SALET, [("raise", "GGGGY")], "", ImpossibleReplyError, {"field": "history[0].reply"}),
        (SALET, [("raise", "GGGGG"), ("slate", ".....")], "", GameOverError, {"turn": "1"}),
        (
            SALET,
            [("crane", ".....")],
            "tacit",
            ContradictoryHistoryError,
            {"field": "answer", "turn": "1"},
        ),
        (SALET, [("crane", ".....")], "zzzzz", UnknownWordError, {"field": "answer"}),
        (SALET, [("zzzzz", ".....")], "", UnknownWordError, {"field": "history[0].guess"}),
    ],
)
def test_bad_input_is_refused_as_elsewhere(
    analyzer: GameAnalyzer,
    lookups: CatalogLookup,
    name: str,
    history: list[tuple[str, str]],
    answer: str,
    error: type[Exception],
    metadata: dict[str, str],
) -> None:
    with pytest.raises(error) as caught:
        analyzer.analyze(lookups.policy(name), history, answer)
    assert metadata.items() <= getattr(caught.value, "metadata", {}).items()
