"""Guess My Word: weighted lists, the four strategies, exact and sampled expectations,
and each tree played as the catalog stores it (a flat policy walked by the probe)."""

from __future__ import annotations

import doctest
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guesswork.builder import guess_my_word, word_trees
from guesswork.builder import weighted_lists as weighted_lists_module
from guesswork.builder.errors import WeightedListError, WordListError
from guesswork.builder.guess_my_word import (
    adjacent_merge,
    binary_search,
    confidence_interval_95,
    entropy,
    exhaustive_expected_guesses,
    expected_guesses,
    guess_counts,
    optimal_alphabetic,
    optimal_bst,
    sample_guesses,
    target_at,
)
from guesswork.builder.weighted_lists import (
    WeightedList,
    load_weighted_list,
    parse_weighted_list,
    shipped_weighted_list,
)
from guesswork.builder.word_trees import Variant, WordTree, play, policy_data
from guesswork.client import games as client_games
from guesswork.client.errors import (
    ContradictoryHistoryError,
    GameOverError,
    GuessMyWordError,
    ImpossibleReplyError,
    InvalidReplyError,
    OffTreeError,
    UnknownWordError,
)
from guesswork.client.games import GuessMyWord
from guesswork.client.lookup import PolicyLookup
from guesswork.client.policy_format import content_hash, encode_core
from guesswork.client.probe import Policy

TOLERANCE = 1e-9

#: The seed's worked example: its first ten sorted words and their counts.
SEED_PREFIX = {
    "abstain": 2,
    "accept": 24,
    "across": 111,
    "action": 122,
    "active": 23,
    "adhere": 1,
    "afraid": 116,
    "against": 221,
    "alive": 16,
    "allegory": 1,
}

Strategy = Callable[[WeightedList], WordTree]
STRATEGIES: dict[str, Strategy] = {
    "binary-deduce": binary_search,
    "binary-live": lambda weights: binary_search(weights, "live"),
    "adjacent-merge": adjacent_merge,
    "optimal-alphabetic": optimal_alphabetic,
    "optimal-bst": optimal_bst,
}


# ------------------------------------------------------------------ oracles


def seed_binary_search_game(sorted_words: list[str], secret: str) -> tuple[str, int]:
    """The seed's ``binary_search_game``, transcribed: (deduced word, guesses)."""

    def guess_function(guess: str) -> bool:
        return guess < secret

    min_, max_ = 0, len(sorted_words) - 1
    guesses = 0
    while max_ - min_ >= 1:
        guesses += 1
        guess = (max_ - min_) // 2 + min_
        if guess_function(sorted_words[guess]):
            min_ = guess + 1
        else:
            max_ = guess
    if not guess_function(sorted_words[min_]):
        return sorted_words[min_], guesses
    return sorted_words[min_ + 1], guesses


class HuffmanNode:
    """The seed's ``HuffmanNode``."""

    def __init__(self, count: int, word: str | None = None) -> None:
        self.count = count
        self.word = word
        self.rightmost_word = word
        self.left_subtree: HuffmanNode | None = None
        self.right_subtree: HuffmanNode | None = None


def seed_huffman_depths(word_count: dict[str, int]) -> dict[str, int]:
    """The seed's ``build_huffman_tree`` and ``huffman_game``, transcribed: guesses per word."""
    nodes = [HuffmanNode(word_count[w], w) for w in sorted(word_count)]
    for _ in range(len(word_count) - 1):
        min_node_idx, min_count = 0, -1
        for j in range(len(nodes) - 1):
            count = nodes[j].count + nodes[j + 1].count
            if min_count < 0 or count < min_count:
                min_node_idx, min_count = j, count
        new_node = HuffmanNode(min_count)
        new_node.left_subtree = nodes[min_node_idx]
        new_node.right_subtree = nodes[min_node_idx + 1]
        new_node.rightmost_word = nodes[min_node_idx + 1].rightmost_word
        nodes[min_node_idx] = new_node
        nodes.pop(min_node_idx + 1)
    depths = {}
    for secret in word_count:
        tree, guesses = nodes[0], 0
        while not tree.word:
            guesses += 1
            left, right = tree.left_subtree, tree.right_subtree
            assert left is not None and right is not None
            tree = right if str(left.rightmost_word) < secret else left
        assert tree.word == secret
        depths[secret] = guesses
    return depths


def reply(guess: str, target: str, variant: Variant) -> str:
    """Return the game's reply text (client.games.GuessMyWord)."""
    game = GuessMyWord(variant=variant)
    return game.format_reply(game.reply(guess, target))


def policy_of(tree: WordTree, weights: WeightedList, variant: Variant) -> Policy:
    """Return ``tree`` played in ``variant`` as the catalog stores it: a flat policy."""
    data = policy_data(tree, weights, "test", variant, "test-words")
    core = encode_core(data)
    return Policy(data, weights.words, weights.words, core, content_hash(core))


def walk(lookup: PolicyLookup, target: str, variant: Variant) -> list[tuple[str, str]]:
    """Play ``target`` through the stored policy's suggestions and the reply rule alone;
    return the history."""
    history: list[tuple[str, str]] = []
    while True:
        answer = lookup.suggest(history, 0)
        if answer.solved:  # after 'correct', or (deduce) the target is known: no guess for it
            assert answer.guess == target and answer.source == "stored"
            return history
        assert answer.source == "stored"
        history.append((answer.guess, reply(answer.guess, target, variant)))
        assert len(history) <= len(lookup.policy.targets), "the walk does not end"


def word(index: int) -> str:
    """Return a three-letter word; words sort as their indices."""
    return "".join(chr(ord("a") + index // 26**p % 26) for p in (2, 1, 0))


counts_lists = st.one_of(
    st.lists(st.integers(1, 5), min_size=1, max_size=60),  # many ties
    st.lists(st.integers(1, 10**6), min_size=1, max_size=60),
    st.lists(st.integers(0, 30).map(lambda e: 2**e), min_size=1, max_size=40),  # skewed, deep trees
)
weighted_lists = counts_lists.map(
    lambda counts: WeightedList(tuple(word(i) for i in range(len(counts))), tuple(counts))
)


# ------------------------------------------------------------------ the shipped list


@pytest.fixture(scope="module")
def shipped() -> WeightedList:
    return shipped_weighted_list()


@pytest.fixture(scope="module")
def shipped_trees(shipped: WeightedList) -> dict[str, WordTree]:
    return {name: strategy(shipped) for name, strategy in STRATEGIES.items()}


def test_shipped_list_is_sorted_and_registered(shipped: WeightedList) -> None:
    assert len(shipped) == weighted_lists_module.SHIPPED_LIST[1] == 4788
    assert list(shipped.words) == sorted(set(shipped.words))
    assert all(len(w) >= 3 and w.isalpha() for w in shipped.words)
    assert shipped.counts[shipped.words.index("the")] == max(shipped.counts)


def test_shipped_figures_keep_their_order(
    shipped: WeightedList, shipped_trees: dict[str, WordTree]
) -> None:
    h = entropy(shipped)
    value = {name: expected_guesses(tree, shipped) for name, tree in shipped_trees.items()}
    assert h <= value["optimal-alphabetic"] + TOLERANCE
    assert value["optimal-alphabetic"] <= value["adjacent-merge"] + TOLERANCE
    assert value["adjacent-merge"] <= value["binary-deduce"] + TOLERANCE
    assert value["optimal-bst"] <= value["binary-live"] + TOLERANCE
    # Split trees played live can only gain from early hits, never beat the optimal BST.
    for name in ("binary-deduce", "adjacent-merge", "optimal-alphabetic"):
        live = expected_guesses(shipped_trees[name], shipped, "live")
        assert value["optimal-bst"] - TOLERANCE <= live <= value[name] + 1 + TOLERANCE
    # The figures reported for this list (wordfreq 3.1.1, top 5000).
    assert value["optimal-alphabetic"] == pytest.approx(9.914033, abs=1e-6)
    assert value["optimal-bst"] == pytest.approx(7.898201, abs=1e-6)


def test_garsia_wachs_matches_the_knuth_dp_on_the_shipped_list(
    shipped: WeightedList, shipped_trees: dict[str, WordTree]
) -> None:
    knuth = optimal_alphabetic(shipped, method="knuth")
    assert expected_guesses(knuth, shipped) == pytest.approx(
        expected_guesses(shipped_trees["optimal-alphabetic"], shipped), abs=TOLERANCE
    )


@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_every_shipped_word_is_reached(
    name: str, shipped: WeightedList, shipped_trees: dict[str, WordTree]
) -> None:
    tree = shipped_trees[name]
    variants: list[Variant] = ["live"] if tree.variant == "live" else ["deduce", "live"]
    for variant in variants:
        counts = guess_counts(tree, variant)
        policy = policy_of(tree, shipped, variant)
        lookup = PolicyLookup(policy)
        for i in range(0, len(shipped), 7):  # a spread sample keeps the walk fast
            target = shipped.words[i]
            history = walk(lookup, target, variant)
            assert len(history) == counts[i]
            assert history == play(tree, target, variant)
        # play() on every word: each ends at its word with the counted guesses.
        for i, target in enumerate(shipped.words):
            turns = play(tree, target, variant)
            assert len(turns) == counts[i]
            assert [guess for guess, _ in turns] == policy.play(target)
            if variant == "live":
                assert turns[-1] == (target, "correct")
            else:
                assert policy.next_guess(turns) == target


@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_sampled_interval_contains_the_exact_expectation(
    name: str, shipped: WeightedList, shipped_trees: dict[str, WordTree]
) -> None:
    # One fixed seed for all five trees (they share the draws). A 95% interval
    # misses 1 time in 20, so seeds 0 and 1 each miss for one tree; the
    # calibration test below shows the misses are as rare as they should be.
    tree = shipped_trees[name]
    exact = expected_guesses(tree, shipped)
    mean, low, high = confidence_interval_95(sample_guesses(tree, shipped, None, 20_000, seed=2))
    assert low <= exact <= high
    assert low < mean < high


def test_sampled_intervals_cover_the_expectation_95_percent_of_the_time() -> None:
    weights = WeightedList.from_counts(SEED_PREFIX)
    tree = adjacent_merge(weights)
    exact = expected_guesses(tree, weights)
    runs = 400
    covered = 0
    for seed in range(runs):
        _, low, high = confidence_interval_95(sample_guesses(tree, weights, None, 500, seed))
        covered += low <= exact <= high
    assert 0.90 <= covered / runs <= 0.99


# ------------------------------------------------------------------ random lists


@settings(max_examples=150, deadline=None)
@given(weighted_lists)
def test_bounds_hold_and_optimal_trees_match_exhaustive_search(weights: WeightedList) -> None:
    h = entropy(weights)
    binary = expected_guesses(binary_search(weights), weights)
    merged = expected_guesses(adjacent_merge(weights), weights)
    best = expected_guesses(optimal_alphabetic(weights), weights)
    assert h <= best + TOLERANCE
    assert best <= merged + TOLERANCE
    # Not merged <= binary: the adjacent merge is a heuristic (see the counterexample test).
    assert best <= binary + TOLERANCE
    assert best == pytest.approx(exhaustive_expected_guesses(weights, "deduce"), abs=TOLERANCE)
    knuth = expected_guesses(optimal_alphabetic(weights, method="knuth"), weights)
    assert knuth == pytest.approx(best, abs=TOLERANCE)
    bst = expected_guesses(optimal_bst(weights), weights)
    assert bst <= expected_guesses(binary_search(weights, "live"), weights) + TOLERANCE
    assert bst == pytest.approx(exhaustive_expected_guesses(weights, "live"), abs=TOLERANCE)


@pytest.mark.parametrize("seed", range(4))
def test_optimal_trees_match_exhaustive_search_on_60_words(seed: int) -> None:
    rng = np.random.default_rng(seed)
    # Few distinct counts: many ties, where tie-breaking bugs would show.
    counts = rng.integers(1, [4, 50, 1000, 10**6][seed], size=60).tolist()
    weights = WeightedList(tuple(word(i) for i in range(60)), tuple(counts))
    cases: list[tuple[Variant, WordTree]] = [
        ("deduce", optimal_alphabetic(weights)),
        ("live", optimal_bst(weights)),
    ]
    for variant, tree in cases:
        exhaustive = exhaustive_expected_guesses(weights, variant)
        assert expected_guesses(tree, weights) == pytest.approx(exhaustive, abs=TOLERANCE)


SHAPES: dict[str, Callable[[int], int]] = {
    "increasing": lambda i: i + 1,
    "decreasing": lambda i: 400 - i,
    "valley": lambda i: abs(i - 200) + 1,
    "peak": lambda i: 201 - abs(i - 200),
    "sawtooth": lambda i: i % 7 + 1,
    "equal": lambda i: 3,
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_garsia_wachs_matches_the_knuth_dp_on_shaped_lists(shape: str) -> None:
    # Monotone and unimodal counts drive Garsia-Wachs into long cascades of combinations.
    weights = WeightedList(
        tuple(word(i) for i in range(400)), tuple(SHAPES[shape](i) for i in range(400))
    )
    garsia_wachs = expected_guesses(optimal_alphabetic(weights), weights)
    knuth = expected_guesses(optimal_alphabetic(weights, method="knuth"), weights)
    assert garsia_wachs == pytest.approx(knuth, abs=TOLERANCE)
    small = WeightedList(weights.words[:60], weights.counts[:60])
    assert expected_guesses(optimal_alphabetic(small), small) == pytest.approx(
        exhaustive_expected_guesses(small, "deduce"), abs=TOLERANCE
    )


@settings(max_examples=60, deadline=None)
@given(weighted_lists)
def test_every_word_is_reached_on_random_lists(weights: WeightedList) -> None:
    for strategy in STRATEGIES.values():
        tree = strategy(weights)
        variants: list[Variant] = ["live"] if tree.variant == "live" else ["deduce", "live"]
        for variant in variants:
            counts = guess_counts(tree, variant)
            lookup = PolicyLookup(policy_of(tree, weights, variant))
            for i, target in enumerate(weights.words):
                assert len(walk(lookup, target, variant)) == counts[i]


@settings(max_examples=60, deadline=None)
@given(weighted_lists)
def test_seed_strategies_count_as_the_seed_does(weights: WeightedList) -> None:
    words = list(weights.words)
    binary = guess_counts(binary_search(weights))
    for i, target in enumerate(words):
        assert seed_binary_search_game(words, target) == (target, binary[i])
    merged = guess_counts(adjacent_merge(weights))
    depths = seed_huffman_depths(dict(zip(words, weights.counts, strict=True)))
    assert [depths[w] for w in words] == merged.tolist()


# ------------------------------------------------------------------ the seed's example


def test_seed_worked_example() -> None:
    weights = WeightedList.from_counts(SEED_PREFIX)
    assert weights.words[:3] == ("abstain", "accept", "across")
    assert np.cumsum(weights.count_array()).tolist() == [
        2,
        26,
        137,
        259,
        282,
        283,
        399,
        620,
        636,
        637,
    ]
    assert target_at(weights, 126) == "across"  # binary_search_word_generation(126)
    assert [target_at(weights, i) for i in (0, 1, 2, 136, 137, 636)] == [
        "abstain",
        "abstain",
        "accept",
        "across",
        "action",
        "allegory",
    ]
    # The seed's strategies on its ten words, worked by hand. Binary search
    # splits 5|5, then 3|2, then 2|1. Adjacent merge joins alive+allegory (17),
    # active+adhere (24), abstain+accept (26), abstain..+across (137), active..+afraid
    # (140), against+alive.. (238), abstain..+action (259), then 378 and 637.
    assert guess_counts(binary_search(weights)).tolist() == [4, 4, 3, 3, 3, 4, 4, 3, 3, 3]
    merged = adjacent_merge(weights)
    assert merged.first_guess == "active"
    assert guess_counts(merged).tolist() == [4, 4, 3, 2, 4, 4, 3, 3, 4, 4]
    assert guess_counts(merged).tolist() == [
        seed_huffman_depths(SEED_PREFIX)[w] for w in weights.words
    ]
    assert entropy(weights) <= expected_guesses(optimal_alphabetic(weights), weights)


def test_adjacent_merge_can_lose_to_binary_search() -> None:
    # The seed's adjacent merge is a heuristic: on near-uniform counts its
    # leftmost-pair rule builds a lopsided tree. (It beats binary search on
    # the shipped list, 10.08 against 12.28, and is never better than optimal.)
    weights = WeightedList.from_counts(
        dict(zip(["a", "b", "c", "d", "e", "f"], [1, 1, 1, 1, 1, 2], strict=True))
    )
    assert guess_counts(adjacent_merge(weights)).tolist() == [3, 3, 4, 4, 3, 1]
    assert guess_counts(binary_search(weights)).tolist() == [3, 3, 2, 3, 3, 2]
    assert expected_guesses(adjacent_merge(weights), weights) == 19 / 7
    assert expected_guesses(binary_search(weights), weights) == 18 / 7
    assert expected_guesses(optimal_alphabetic(weights), weights) == 18 / 7


def test_module_examples() -> None:
    assert doctest.testmod(guess_my_word).failed == 0
    assert doctest.testmod(word_trees).failed == 0
    assert doctest.testmod(client_games).failed == 0
    assert doctest.testmod(weighted_lists_module).failed == 0


def test_a_tiny_tree_by_hand() -> None:
    weights = WeightedList.from_counts({"cat": 1, "dog": 2, "eel": 5})
    tree = optimal_alphabetic(weights)
    assert guess_counts(tree).tolist() == [2, 2, 1]
    assert expected_guesses(tree, weights) == 11 / 8
    # Live: eel is hit with the first guess; dog with the second; cat is named third.
    assert guess_counts(tree, "live").tolist() == [3, 2, 1]
    assert play(tree, "cat") == [("eel", "before"), ("dog", "before")]
    assert play(tree, "dog", "live") == [("eel", "before"), ("dog", "correct")]
    bst = optimal_bst(weights)
    assert bst.first_guess == "eel"
    assert expected_guesses(bst, weights) == (5 * 1 + 2 * 2 + 1 * 3) / 8
    one = WeightedList(("solo",), (3,))
    assert expected_guesses(optimal_alphabetic(one), one) == 0.0
    assert expected_guesses(optimal_bst(one), one) == 1.0


# ------------------------------------------------------------------ bad inputs


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("apple 3\nbanana 0\n", r"<lines> line 2: count '0' of 'banana' is not a positive integer"),
        ("apple -3\n", r"line 1: count '-3' of 'apple' is not a positive integer"),
        ("apple 3.5\n", r"line 1: count '3.5' of 'apple' is not a positive integer"),
        ("apple three\n", r"line 1: count 'three' of 'apple' is not a positive integer"),
        ("apple\n", r"line 1: expected 'word count', got 'apple'"),
        ("apple 1 2\n", r"line 1: expected 'word count'"),
        (
            "# header\ncan't 4\n",
            r"line 2: word \"can't\" is not made only of lower-case letters a-z",
        ),
        ("naïve 4\n", r"line 1: word 'naïve' is not made only"),
        ("pear 1\napple 2\n\nPear 5\n", r"line 4: 'pear' repeats line 1"),
        ("# only a comment\n\n", r"<lines>: no 'word count' lines"),
        ("", r"no 'word count' lines"),
    ],
)
def test_bad_lists_are_refused_naming_the_line(text: str, message: str) -> None:
    with pytest.raises(WeightedListError, match=message) as caught:
        parse_weighted_list(text.splitlines())
    assert isinstance(caught.value, WordListError)
    assert isinstance(caught.value, ValueError)


def test_lists_load_from_files(tmp_path: Path) -> None:
    path = tmp_path / "mine.txt"
    path.write_text("# my list\nzebra 2  # rare\nApple 7\n")
    weights = load_weighted_list(path)
    assert weights.words == ("apple", "zebra")
    assert weights.counts == (7, 2)
    path.write_text("apple 7\napple 2\n")
    with pytest.raises(WeightedListError, match=r"mine.txt line 2: 'apple' repeats line 1"):
        load_weighted_list(path)
    with pytest.raises(WeightedListError, match="does not exist"):
        load_weighted_list(tmp_path / "missing.txt")
    path.write_bytes(b"\xff\xfe 1\n")
    with pytest.raises(WeightedListError, match="not UTF-8"):
        load_weighted_list(path)


@pytest.mark.parametrize(
    ("words", "counts", "message"),
    [
        ((), (), "at least one word"),
        (("b", "a"), (1, 1), r"word 1 'a' comes before word 0 'b'"),
        (("a", "a"), (1, 1), r"word 1 'a' repeats word 0 'a'"),
        (("a", "b"), (1,), "2 words but 1 count;"),
        (("a",), (0,), r"count of 'a' must be a positive integer, not 0"),
        (("a",), (True,), r"not True"),
        (("a",), (1.0,), r"not 1.0"),
        (("A",), (1,), "lower-case letters"),
        (("a",), (2**53,), "2\\*\\*53"),
    ],
)
def test_bad_weighted_lists_are_refused(
    words: tuple[str, ...], counts: tuple[int, ...], message: str
) -> None:
    with pytest.raises(WeightedListError, match=message):
        WeightedList(words, counts)


def test_a_damaged_shipped_list_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    name, count, _ = weighted_lists_module.SHIPPED_LIST
    monkeypatch.setattr(weighted_lists_module, "SHIPPED_LIST", (name, count, "0" * 64))
    with pytest.raises(WeightedListError, match="does not match its registered SHA-256"):
        shipped_weighted_list()


def test_bad_histories_are_refused() -> None:
    weights = WeightedList.from_counts({"cat": 1, "dog": 2, "eel": 5})
    split_tree, key_tree = optimal_alphabetic(weights), optimal_bst(weights)
    split, key = policy_of(split_tree, weights, "deduce"), policy_of(key_tree, weights, "live")
    split_lookup, key_lookup = PolicyLookup(split), PolicyLookup(key)
    split_live = PolicyLookup(policy_of(split_tree, weights, "live"))
    with pytest.raises(
        InvalidReplyError, match=r"reply 'later' is not one of before, after, correct"
    ):
        split_lookup.suggest([("eel", "later")])
    with pytest.raises(OffTreeError, match=r"at turn 2: it guesses dog, not cat") as off:
        split.next_guess([("eel", "before"), ("cat", "before")])
    assert isinstance(off.value, KeyError)
    with pytest.raises(ImpossibleReplyError, match="never answers 'correct'"):
        split_lookup.suggest([("eel", "correct")])
    for known in (split.next_guess, split_lookup.suggest):
        with pytest.raises(GameOverError, match="already known to be 'eel'"):
            known([("eel", "after"), ("eel", "after")])
    with pytest.raises(GameOverError, match="solved"):
        key.next_guess([("eel", "correct")])
    assert key_lookup.suggest([("eel", "correct")]).solved
    with pytest.raises(GameOverError, match="solved on turn 1"):
        key.next_guess([("eel", "correct"), ("dog", "before")])
    with pytest.raises(GameOverError, match=r"turn 1 \(eel\) already won: the game is over"):
        key_lookup.suggest([("eel", "correct"), ("dog", "before")])
    with pytest.raises(ContradictoryHistoryError, match=r"turn 1 \(eel after\)"):
        key_lookup.suggest([("eel", "after")])
    with pytest.raises(ContradictoryHistoryError, match="turn 3"):  # cat, named live, was not it
        split_live.suggest([("eel", "before"), ("dog", "before"), ("cat", "after")])
    assert key.next_guess([("EEL", "before")]) == "dog"  # guesses are matched case-blind
    assert key_lookup.suggest([("EEL", "BEFORE")]).guess == "dog"


def test_mismatched_trees_lists_and_variants_are_refused() -> None:
    weights = WeightedList.from_counts({"cat": 1, "dog": 2, "eel": 5})
    other = WeightedList.from_counts({"cat": 1, "dog": 2})
    key = optimal_bst(weights)
    with pytest.raises(GuessMyWordError, match="cannot be played in the deduce variant"):
        expected_guesses(key, weights, "deduce")
    with pytest.raises(GuessMyWordError, match="unknown variant 'hard'"):
        expected_guesses(key, weights, "hard")  # type: ignore[arg-type]
    with pytest.raises(GuessMyWordError, match="unknown variant 'hard'"):
        binary_search(weights, "hard")  # type: ignore[arg-type]
    with pytest.raises(GuessMyWordError, match="weights' 2 words are not the tree's 3 words"):
        expected_guesses(key, other)
    with pytest.raises(GuessMyWordError, match="samples must be at least 1"):
        sample_guesses(key, weights, samples=0)
    with pytest.raises(GuessMyWordError, match="at least one sample"):
        confidence_interval_95([])
    with pytest.raises(GuessMyWordError, match="unknown method 'hu-tucker'"):
        optimal_alphabetic(weights, method="hu-tucker")  # type: ignore[arg-type]
    with pytest.raises(GuessMyWordError, match=r"index 8 is outside \[0, 8\)"):
        target_at(weights, 8)
    with pytest.raises(UnknownWordError, match="'fox' is not in the tree's word list"):
        play(key, "fox")
    with pytest.raises(UnknownWordError, match="'bat' is not in the tree's word list"):
        play(optimal_alphabetic(weights), "bat")


def test_the_shipped_list_regenerates_byte_for_byte(tmp_path: Path) -> None:
    from guesswork.builder.gmw_list import DEFAULT_OUTPUT, write_list

    output = tmp_path / "common-words.txt"
    count, _ = write_list(output=output)
    assert output.read_bytes() == DEFAULT_OUTPUT.read_bytes()
    assert count == 4788
