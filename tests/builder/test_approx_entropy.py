"""The Wordle-player seed's step (metric ``approx_entropy``) against its pseudocode."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from guesswork.builder.alternatives import node_alternatives
from guesswork.builder.cli import run
from guesswork.builder.errors import SpecError
from guesswork.builder.greedy import (
    GreedyOptions,
    step_of,
)
from guesswork.builder.greedy_tree import build_greedy_tree
from guesswork.builder.live import GreedyLiveSolver
from guesswork.builder.matrices import letter_array
from guesswork.builder.partitions import position_entropies, retried_candidates, retry_count
from guesswork.builder.policies import PolicySpec, build_policy
from guesswork.builder.publish import StoredPolicy, publish_catalog
from guesswork.builder.wordlists import WordList, load_wordlist
from guesswork.client.catalog import open_catalog
from guesswork.client.games import Jotto, Wordle
from guesswork.client.rules import consistent_targets
from guesswork.client.strategy import GreedyStrategy

WORDLE = Wordle()
ANSWERS = load_wordlist("wordle-answers-2309", WORDLE)
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def seed_letter_entropies(remaining: list[str], length: int) -> dict[tuple[str, int], float]:
    """The seed's ``HY``: entropy of each letter's reply at each position, as its pseudocode."""
    table = {}
    for letter in ALPHABET:
        for i in range(length):
            outcomes = Counter(
                "g" if word[i] == letter else "y" if letter in word else "." for word in remaining
            )
            n = len(remaining)
            table[letter, i] = -sum(x / n * math.log2(x / n) for x in outcomes.values())
    return table


def seed_guess(words: list[str], remaining: list[str], percent: float) -> tuple[list[str], str]:
    """The seed's ``guess(W)``: its retried words ``D'`` (as a sorted list) and its choice."""
    table = seed_letter_entropies(remaining, len(words[0]))
    estimate = {w: sum(table[letter, i] for i, letter in enumerate(w)) for w in words}
    retried = sorted(words, key=lambda w: -estimate[w])[: math.ceil(len(words) * percent / 100)]

    def entropy(word: str) -> float:
        counts = Counter(WORDLE.reply(word, target) for target in remaining).values()
        return -sum(x / len(remaining) * math.log2(x / len(remaining)) for x in counts)

    return sorted(retried), max(retried, key=entropy)


def test_letter_entropies_follow_the_seed_pseudocode() -> None:
    words = list(ANSWERS.words[::7])
    letters = letter_array(words, 5)
    table = position_entropies(letters, np.arange(len(words), dtype=np.int64))
    expected = seed_letter_entropies(words, 5)
    for (letter, i), value in expected.items():
        assert table[i, ALPHABET.index(letter)] == pytest.approx(value, abs=1e-12)
    # A letter every word has at one place, or none has, tells nothing; A at
    # the third place is green for two words of three and grey for the third;
    # E there is yellow for all three.
    three = letter_array(["CRANE", "CRONE", "CRATE"], 5)
    table = position_entropies(three, np.arange(3, dtype=np.int64))
    assert table[0, ALPHABET.index("C")] == table[1, ALPHABET.index("Z")] == 0.0
    third = -(2 / 3 * math.log2(2 / 3) + 1 / 3 * math.log2(1 / 3))
    assert table[2, ALPHABET.index("A")] == pytest.approx(third, abs=1e-12)
    assert table[2, ALPHABET.index("E")] == 0.0


@pytest.mark.parametrize("percent", [3.0, 10.0, 0.5])
def test_first_guess_and_retried_words_match_the_seed(percent: float) -> None:
    words = list(ANSWERS.words)
    everything = np.arange(len(words), dtype=np.int64)
    retried = retried_candidates(letter_array(words, 5), everything, everything, percent)
    expected_retried, expected_guess = seed_guess(words, words, percent)
    assert sorted(words[i] for i in retried) == expected_retried
    assert len(retried) == retry_count(len(words), percent) == len(expected_retried)
    tree = build_greedy_tree(
        WORDLE, ANSWERS, ANSWERS, GreedyOptions(metric="approx_entropy", retry_percent=percent)
    )
    assert tree.first_guess == expected_guess


def test_a_later_node_matches_the_seed() -> None:
    """Inside the window every guess is a candidate; the estimate is over the targets left."""
    tree = build_greedy_tree(WORDLE, ANSWERS, ANSWERS, GreedyOptions(metric="approx_entropy"))
    checked = 0
    for code, child in tree.branches(0):
        size = int(tree.node_size[child])
        if not 4 <= size <= 125 or checked >= 3:
            continue
        remaining = consistent_targets(WORDLE, list(ANSWERS.words), tree.first_guess, code)
        assert tree.guess_word(child) == seed_guess(list(ANSWERS.words), remaining, 3.0)[1]
        checked += 1
    assert checked == 3


def test_retrying_every_guess_is_exact_neg_entropy() -> None:
    exact = build_greedy_tree(WORDLE, ANSWERS, ANSWERS, GreedyOptions(metric="neg_entropy"))
    everything = build_greedy_tree(
        WORDLE, ANSWERS, ANSWERS, GreedyOptions(metric="approx_entropy", retry_percent=100.0)
    )
    assert np.array_equal(exact.node_guess, everything.node_guess)
    assert np.array_equal(exact.target_scores, everything.target_scores)


def test_every_target_is_won_and_the_alternatives_are_the_retried_ranking() -> None:
    options = GreedyOptions(metric="approx_entropy")
    tree = build_greedy_tree(WORDLE, ANSWERS, ANSWERS, options)
    for target in ANSWERS.words:
        assert tree.replay(target)[-1] == target
    strategy = GreedyStrategy(metric="approx_entropy", retry_percent=3.0)
    step = step_of(strategy, len(ANSWERS), WORDLE)
    assert step.options == options
    stored = node_alternatives(tree, step, 50)
    offsets = stored["alt_offsets"]
    # The root retries 3% of 2309 (70) consistent targets; its alternatives are
    # the best 50 of them but the root guess, by exact entropy, best first.
    root = stored["alt_guess"][offsets[0] : offsets[1]]
    words = list(ANSWERS.words)
    expected_retried, _ = seed_guess(words, words, 3.0)
    assert len(root) == 50 and {words[i] for i in root} <= set(expected_retried)
    assert tree.first_guess not in {words[i] for i in root}
    values = stored["alt_value"][offsets[0] : offsets[1]]
    assert (np.diff(values) >= 0).all()


def test_live_answers_follow_the_stored_ranking(tmp_path: Path) -> None:
    built = build_policy(PolicySpec("wordle", metric="approx_entropy", retry_percent=5))
    assert built.data.name == "wordle-2309-normal-approx-entropy-r5"
    path = tmp_path / "approx.sqlite"
    tree = built.tree
    publish_catalog(
        str(path), [StoredPolicy.from_data(built.data, tree.targets.words, tree.guesses.words)], []
    )
    solver = GreedyLiveSolver()
    with open_catalog(path) as catalog:
        policy = catalog.policy(built.data.name)
        assert policy.data.strategy == GreedyStrategy(metric="approx_entropy", retry_percent=5.0)
        arrays = policy.data.numpy_arrays()
        checked = 0
        for node in range(0, policy.data.node_count, 37):
            size = int(arrays["node_size"][node])
            if size < 2:
                continue
            first = int(arrays["node_first"][node])
            remaining = np.sort(arrays["target_order"][first : first + size]).astype(np.int64)
            ranked = [policy.vocabulary[i] for i in solver.rank(policy, remaining, 11).indices]
            assert ranked == [policy.guess(node), *policy.alternatives(node)][: len(ranked)]
            checked += 1
        assert checked >= 5


def test_approx_entropy_is_refused_where_it_does_not_apply() -> None:
    with pytest.raises(ValueError, match="Wordle-like replies"):
        build_greedy_tree(Jotto(), ANSWERS, ANSWERS, GreedyOptions(metric="approx_entropy"))
    few = WordList.from_words("few", ANSWERS.words[:20])
    with pytest.raises(ValueError, match="not in"):
        build_greedy_tree(
            WORDLE, few, few, GreedyOptions(metric="approx_entropy", retry_percent=0.0)
        )
    with pytest.raises(SpecError, match="approx_entropy only"):
        PolicySpec("wordle", metric="max", retry_percent=10).check()
    with pytest.raises(SpecError, match="Wordle-like"):
        PolicySpec("jotto", mode="hard", metric="approx_entropy").check()


def test_cli_retry_percent(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        run(
            ["evaluate", "--metric", "approx_entropy", "--retry-percent", "10", "--quiet", "--json"]
        )
        == 0
    )
    report = capsys.readouterr().out
    assert '"retry_percent": 10.0' in report
    assert '"policy": "wordle-2309-normal-approx-entropy-r10"' in report
    for bad, message in [
        (["--retry-percent", "0"], "more than 0"),
        (["--retry-percent", "x"], "not a number"),
        (["--retry-percent", "3", "--metric", "max"], "approx_entropy only"),
    ]:
        args = ["evaluate", "--quiet", *bad]
        if "--metric" not in bad:
            args += ["--metric", "approx_entropy"]
        assert run(args) == 2
        assert message in capsys.readouterr().err
    assert run(["first-guesses", "--metric", "approx_entropy"]) == 2
    capsys.readouterr()
