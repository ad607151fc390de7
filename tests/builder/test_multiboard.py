"""The joint step (builder.multiboard) and the multi-board evaluation, against brute force."""

from __future__ import annotations

import json
import math
from collections import Counter

import numpy as np
import pytest

from guesswork.builder.live import GreedyLiveSolver
from guesswork.builder.multiboard import SOLVE_BONUS
from guesswork.builder.multiboard_eval import JOINT, ONE_AT_A_TIME, BoardsEvaluator
from guesswork.client.games import Wordle
from guesswork.client.probe import Policy

from .stored import small_wordle_policy, stored_policy

WORDLE = Wordle()


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Policy:
    """A greedy policy over 36 answers (every 64th) and 90 more guesses."""
    built = small_wordle_policy(tmp_path_factory.mktemp("lists"), 64)
    return stored_policy(built.data, built.tree.targets.words, built.tree.guesses.words)


def brute_value(guess: str, boards: list[list[str]]) -> float:
    """The joint value computed from its definition: minus the bits, less the bonus."""
    value = 0.0
    for words in boards:
        sizes = Counter(WORDLE.reply(guess, secret) for secret in words)
        value += sum(n / len(words) * math.log2(n / len(words)) for n in sizes.values())
        value -= SOLVE_BONUS * (guess in words) / len(words)
    return value


def test_joint_values_are_the_definition(small: Policy) -> None:
    """Every guess's joint value (the live step's) equals the brute-force one, and the
    ranking is by value, ties to the earlier word; a board of one word ranks first."""
    targets = np.arange(len(small.targets))
    boards = [targets[::2], targets[1::3]]
    ranking = GreedyLiveSolver().rank_boards(small, boards, len(small.vocabulary))
    words = [[small.targets[i] for i in board] for board in boards]
    # Both boards lie inside the window (4..125 targets): every guess is a candidate.
    assert sorted(ranking.indices) == list(range(len(small.guesses)))
    for index, value in zip(ranking.indices, ranking.values, strict=True):
        assert value == pytest.approx(brute_value(small.vocabulary[index], words), abs=1e-12)
    assert list(ranking.values) == sorted(ranking.values)
    lone = [targets[::2], targets[7:8]]
    first = GreedyLiveSolver().rank_boards(small, lone, 3)
    assert small.vocabulary[first.indices[0]] == small.targets[7]


@pytest.mark.parametrize("strategy", [JOINT, ONE_AT_A_TIME])
def test_every_pair_counts_every_game(small: Policy, strategy: str) -> None:
    """The exact count over products of sets equals playing each ordered pair of
    distinct secrets one by one."""
    evaluator = BoardsEvaluator(small, 2)
    played = Counter(
        len(evaluator.play(strategy, [a, b]))
        for a in range(len(small.targets))
        for b in range(len(small.targets))
        if a != b
    )
    score = evaluator.every_pair(strategy)
    assert score.histogram == dict(sorted(played.items()))
    assert score.games == len(small.targets) * (len(small.targets) - 1)
    assert score.mean == pytest.approx(sum(g * n for g, n in played.items()) / score.games)
    assert score.within_limit == sum(n for g, n in played.items() if g <= 7) / score.games


def test_one_at_a_time_plays_the_tree_first(small: Policy) -> None:
    """The baseline plays board 1 as the single-board policy does: its stored game."""
    evaluator = BoardsEvaluator(small, 3)
    for a, b, c in [(0, 1, 2), (5, 30, 17), (35, 0, 9)]:
        game = [small.vocabulary[i] for i in evaluator.play(ONE_AT_A_TIME, [a, b, c])]
        alone = small.play(small.targets[a])
        assert game[: len(alone)] == alone
        assert {small.targets[a], small.targets[b], small.targets[c]} <= set(game)


def test_sample_is_fixed_and_distinct(small: Policy) -> None:
    evaluator = BoardsEvaluator(small, 4)
    first = list(evaluator.sample_secrets(50, seed=3))
    assert first == list(evaluator.sample_secrets(50, seed=3))
    assert all(len(set(secrets)) == 4 for secrets in first)
    score = evaluator.sample(JOINT, 50, seed=3)
    assert score.games == 50 and score.worst >= 4


def test_bad_arguments(small: Policy) -> None:
    with pytest.raises(ValueError, match="1 to 32 boards, not 0"):
        BoardsEvaluator(small, 0)
    with pytest.raises(ValueError, match="a limit of at least 4 guesses, not 3"):
        BoardsEvaluator(small, 4, limit=3)
    with pytest.raises(ValueError, match="two-board"):
        BoardsEvaluator(small, 3).every_pair(JOINT)
    with pytest.raises(ValueError, match="2 secrets for 3 boards"):
        BoardsEvaluator(small, 3).play(JOINT, [0, 1])
    with pytest.raises(ValueError, match="strategy must be"):
        BoardsEvaluator(small, 2).play("random", [0, 1])


def test_boards_command(capsys: pytest.CaptureFixture[str]) -> None:
    """`guesswork-build boards`: both strategies on the same games, and bad options."""
    from guesswork.builder.cli import run

    name = "wordle-2309-normal-max"
    options = ["--games", "30", "--seed", "2", "--quiet", "--json"]
    assert run(["boards", "--policy", name, "--boards", "quordle", *options]) == 0
    report = json.loads(capsys.readouterr().out)
    joint, baseline = report["strategies"]
    assert (joint["strategy"], baseline["strategy"]) == (JOINT, ONE_AT_A_TIME)
    assert joint["games"] == baseline["games"] == 30 and report["guess_limit"] == 9
    assert report["mean_ratio"] == pytest.approx(joint["mean"] / baseline["mean"])
    for bad, status in [
        (["--policy", "no-such-policy", "--boards", "2"], 1),
        (["--policy", name, "--boards", "3", "--every-pair"], 2),
        (["--policy", "jotto-2309-normal-max", "--boards", "2"], 2),
        (["--policy", name, "--boards", "40"], 2),
        (["--policy", name, "--boards", "2", "--limit", "1"], 2),
    ]:
        assert run(["boards", *bad]) == status
        assert capsys.readouterr().err.count("\n") == 1
