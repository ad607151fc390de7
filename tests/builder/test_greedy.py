"""Greedy trees: the seeds' known answers, tie-breaking arithmetic and errors."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from guesswork.builder.errors import IndistinguishableTargetsError
from guesswork.builder.greedy import GreedyOptions
from guesswork.builder.greedy_tree import build_greedy_tree
from guesswork.builder.matrices import reply_matrix
from guesswork.builder.metrics import ARITHMETIC, METRICS
from guesswork.builder.partitions import metric_values, partition_counts
from guesswork.builder.tree import GuessTree
from guesswork.builder.wordlists import WordList, load_wordlist
from guesswork.client.games import Game, Jotto, Wordle
from guesswork.client.rules import consistent_targets

WORDLE = Wordle()
ANSWERS = load_wordlist("wordle-answers-2309", WORDLE)
AILS = WordList.from_words(
    "ails", ["BAILS", "FAILS", "HAILS", "NAILS", "PAILS", "RAILS", "SAILS", "TAILS", "WAILS"]
)
FEW = WordList.from_words("few", ANSWERS.words[::100])

Nested = str | tuple[str, int, dict[str, "Nested"]]


def nested(tree: GuessTree, node: int = 0) -> Nested:
    """The tree in the seeds' shape: a leaf word, or (guess, size, {reply: subtree})."""
    guess, size = tree.guess_word(node), int(tree.node_size[node])
    branches = tree.branches(node)
    if not branches:
        return guess
    shown = {tree.game.format_reply(code): nested(tree, child) for code, child in branches}
    if size - sum(int(tree.node_size[child]) for _, child in branches) == 1:
        shown[tree.game.format_reply(tree.game.win_reply)] = guess
    return (guess, size, shown)


def scores(tree: GuessTree) -> list[int]:
    return tree.target_scores.tolist()


def test_consistent_targets_known_answer() -> None:
    words = list(ANSWERS.words)
    after_ninny = consistent_targets(WORDLE, words, "NINNY", WORDLE.parse_reply("Y.G.."))
    assert after_ninny == ["ANNEX", "ANNUL", "CANON"]
    assert consistent_targets(WORDLE, after_ninny, "ENNUI", WORDLE.parse_reply("YGG..")) == [
        "ANNEX"
    ]


def test_partition_counts_of_every_hundredth_word() -> None:
    assert len(FEW) == 24
    matrix = reply_matrix(WORDLE, ANSWERS, FEW)
    index = ANSWERS.index()
    every = np.arange(len(FEW))
    assert partition_counts(matrix, index["ROAST"], every) == [1] * 12 + [2] * 6
    assert partition_counts(matrix, index["NINJA"], every) == [1, 1, 1, 1, 1, 1, 3, 4, 11]


def test_minimizing_max_tree_of_the_few_words_is_the_seeds() -> None:
    tree = build_greedy_tree(WORDLE, FEW, FEW, GreedyOptions(metric="max", hard=True))
    assert nested(tree) == (
        "ROAST",
        24,
        {
            "..G..": ("ABACK", 2, {"GGGGG": "ABACK", "..GGG": "QUACK"}),
            "Y...Y": ("BIRTH", 2, {"GGGGG": "BIRTH", "..YY.": "TREND"}),
            ".....": ("BULLY", 2, {"GGGGG": "BULLY", ".G...": "CUMIN"}),
            "..GG.": ("CLASP", 2, {"GGGGG": "CLASP", "..GGY": "PHASE"}),
            "YY...": ("DROOL", 2, {"GGGGG": "DROOL", ".Y.G.": "HUMOR"}),
            "..Y..": ("FANCY", 2, {"GGGGG": "FANCY", ".YG..": "NINJA"}),
            "YYY..": "ARBOR",
            "Y.G..": "FRANK",
            "Y.G.Y": "GRATE",
            "Y.Y.Y": "LATER",
            ".YYY.": "MASON",
            "GGGGG": "ROAST",
            "..GY.": "SHALE",
            "...Y.": "SMELL",
            "..GYY": "STAMP",
            "..Y.Y": "TAKEN",
            "Y.Y..": "VIRAL",
            "..Y.G": "YACHT",
        },
    )
    # Branches come in the seed's dict order: by the first target giving each reply.
    assert [WORDLE.format_reply(code) for code, _ in tree.branches(0)][:3] == [
        "..G..",
        "YYY..",
        "Y...Y",
    ]


def test_ails_trees_hard_and_normal() -> None:
    hard = build_greedy_tree(WORDLE, AILS, ANSWERS, GreedyOptions(metric="max", hard=True))
    assert hard.first_guess == "BAILS"
    assert np.mean(scores(hard)) == pytest.approx(5.0)
    assert max(scores(hard)) == 9
    normal = build_greedy_tree(WORDLE, AILS, ANSWERS, GreedyOptions(metric="max"))
    assert nested(normal) == (
        "BERTH",
        9,
        {
            ".....": (
                "SPAWN",
                5,
                {
                    "G.Y..": "SAILS",
                    "Y.Y..": "FAILS",
                    "Y.Y.Y": "NAILS",
                    "Y.YY.": "WAILS",
                    "YYY..": "PAILS",
                },
            ),
            "....Y": "HAILS",
            "...Y.": "TAILS",
            "..Y..": "RAILS",
            "G....": "BAILS",
        },
    )
    assert round(float(np.mean(scores(normal))), 2) == 2.56
    assert (min(scores(normal)), max(scores(normal))) == (2, 3)


def test_scores_agree_with_an_independent_replay() -> None:
    for options in (GreedyOptions(metric="max", hard=True), GreedyOptions(metric="neg_entropy")):
        tree = build_greedy_tree(WORDLE, ANSWERS, ANSWERS, options)
        for target, score in zip(ANSWERS.words, scores(tree), strict=False):
            played = tree.replay(target)
            assert played[-1] == target
            assert len(played) == score


def test_hard_mode_guesses_are_always_consistent() -> None:
    tree = build_greedy_tree(
        WORDLE, ANSWERS, ANSWERS, GreedyOptions(metric="expectation", hard=True)
    )
    for target in ANSWERS.words[::7]:
        remaining = list(ANSWERS.words)
        for guess in tree.replay(target):
            assert guess in remaining
            remaining = consistent_targets(WORDLE, remaining, guess, WORDLE.reply(guess, target))


def _seed_metric(name: str, arithmetic: str, counts: list[int]) -> float:
    """The seeds' metric code, verbatim in arithmetic (2022 sorted, 2020 Counter order)."""
    if name == "max":
        return max(counts)
    if arithmetic == "2022":
        n = sum(counts)
        ordered = sorted(counts)
        if name == "expectation":
            return sum((x / n) * x for x in ordered)
        value = sum((x / n) * math.log2(x / n) for x in ordered)
        return -value if name == "entropy" else value
    scale = 1 / sum(counts)
    if name == "expectation":
        return sum(scale * x * x for x in counts)
    return sum(scale * x * math.log(scale * x, 2) for x in counts)


@pytest.mark.parametrize(
    ("metric", "arithmetic"),
    [(metric, "2022") for metric in ("max", "expectation", "neg_entropy", "entropy")]
    + [(metric, "2020") for metric in ("max", "expectation", "neg_entropy")],
)
def test_compiled_metrics_reproduce_the_seeds_floats_bit_for_bit(
    metric: str, arithmetic: str
) -> None:
    matrix = reply_matrix(WORDLE, ANSWERS, ANSWERS)
    targets = np.arange(0, len(ANSWERS), 3)
    candidates = np.arange(0, len(ANSWERS), 11)
    values = metric_values(
        matrix, candidates, targets, METRICS[metric], ARITHMETIC[arithmetic], WORDLE.reply_space
    )
    for guess, value in zip(candidates, values, strict=False):
        replies = [int(matrix[guess, t]) for t in targets]
        counts = list(Counter(replies).values())  # first-appearance order, like a Counter
        assert value == _seed_metric(metric, arithmetic, counts)


def test_random_guesser_is_seeded_and_consistent() -> None:
    first = build_greedy_tree(WORDLE, ANSWERS, ANSWERS, GreedyOptions(metric="random", seed=7))
    again = build_greedy_tree(WORDLE, ANSWERS, ANSWERS, GreedyOptions(metric="random", seed=7))
    other = build_greedy_tree(WORDLE, ANSWERS, ANSWERS, GreedyOptions(metric="random", seed=8))
    assert (first.node_guess == again.node_guess).all()
    assert not np.array_equal(first.node_guess, other.node_guess)
    for target in ANSWERS.words[::50]:
        remaining = list(ANSWERS.words)
        for guess in first.replay(target):
            assert guess in remaining
            remaining = consistent_targets(WORDLE, remaining, guess, WORDLE.reply(guess, target))


def test_indistinguishable_targets_are_refused() -> None:
    anagrams = WordList.from_words("anagrams", ["PARSE", "SPARE", "CRANE"])
    with pytest.raises(IndistinguishableTargetsError, match="same reply to every guess"):
        build_greedy_tree(Jotto(), anagrams, anagrams, GreedyOptions(metric="max", hard=True))


def test_targets_missing_from_the_guess_list_are_still_named() -> None:
    guesses = WordList.from_words("g", ["CRANE", "SLATE"])
    targets = WordList.from_words("t", ["CRANE", "TRACE", "SLATE", "LEAST"])
    tree = build_greedy_tree(WORDLE, targets, guesses, GreedyOptions(metric="max"))
    assert tree.vocabulary == ("CRANE", "SLATE", "TRACE", "LEAST")
    for target in targets.words:
        assert tree.replay(target)[-1] == target


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (GreedyOptions(metric="median"), "unknown metric 'median'"),
        (GreedyOptions(window=(0, 5)), "invalid window 0:5"),
        (GreedyOptions(window=(9, 5)), "invalid window 9:5"),
    ],
)
def test_bad_options_are_refused(options: GreedyOptions, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        build_greedy_tree(WORDLE, FEW, FEW, options)


def test_single_target_and_other_lengths() -> None:
    one = WordList.from_words("one", ["CRANE"])
    tree = build_greedy_tree(WORDLE, one, one, GreedyOptions())
    assert (tree.first_guess, scores(tree), tree.node_count) == ("CRANE", [1], 1)
    game: Game = Wordle(6)
    six = load_wordlist("enable1", game)
    sample = WordList.from_words("six", six.words[::40])
    tree = build_greedy_tree(game, sample, sample, GreedyOptions(metric="neg_entropy"))
    assert sorted(scores(tree)) == sorted(len(tree.replay(word)) for word in sample.words)
