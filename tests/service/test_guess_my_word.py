"""Guess My Word through the same SuggestGuess call: stored trees, live answers, errors."""

from __future__ import annotations

import json

import grpc
import numpy as np
import pytest

from guesswork.__main__ import run
from guesswork.builder.guess_my_word import build_tree
from guesswork.builder.weighted_lists import WeightedList
from guesswork.builder.word_trees import Variant, WordTree, play
from guesswork.client.catalog import Catalog
from guesswork.client.games import GuessMyWord
from guesswork.client.probe import Policy
from guesswork.client.strategy import WordTreeStrategy
from guesswork.protos.guesswork.v1 import guesswork_pb2 as pb
from guesswork.protos.guesswork.v1 import guesswork_pb2_grpc as pb_grpc
from guesswork.service.server import GuessworkServer
from tests.service.test_server import failure

TREES = [
    "guess-my-word-common-words-optimal-deduce",
    "guess-my-word-common-words-optimal-live",
    "guess-my-word-common-words-adjacent-merge-live",
]


def rebuilt(policy: Policy) -> tuple[WordTree, WeightedList, Variant]:
    """Return the tree a stored Guess My Word policy was built from, rebuilt from its own
    words and weights, with its weighted list and variant."""
    assert isinstance(policy.game, GuessMyWord) and policy.data.weights is not None
    assert isinstance(policy.data.strategy, WordTreeStrategy)
    weights = WeightedList(policy.targets, tuple(policy.data.weights.tolist()))
    variant: Variant = "live" if policy.game.variant == "live" else "deduce"
    return build_tree(weights, policy.data.strategy.tree, variant), weights, variant


def reply(guess: str, target: str, variant: str) -> str:
    game = GuessMyWord(variant=variant)
    return game.format_reply(game.reply(guess, target))


def suggest(
    stub: pb_grpc.GuessworkStub, name: str, history: list[tuple[str, str]]
) -> pb.SuggestGuessResponse:
    turns = [pb.Turn(guess=g, reply=r) for g, r in history]
    return stub.SuggestGuess(pb.SuggestGuessRequest(policy=name, history=turns))


@pytest.mark.parametrize("name", TREES)
def test_every_word_is_played_as_the_tree_plays_it(
    stub: pb_grpc.GuessworkStub, catalog: Catalog, name: str
) -> None:
    tree, _, variant = rebuilt(catalog.policy(name))
    rng = np.random.default_rng(5)
    for target in tree.words:
        turns = play(tree, target, variant)
        if variant == "deduce":  # the known word is named at no cost
            done = suggest(stub, name, turns)
            assert (done.solved, done.guess, done.source) == (True, target, pb.SOURCE_STORED)
        else:
            assert turns[-1] == (target, "correct")
            done = suggest(stub, name, turns)
            assert (done.solved, done.guess) == (True, target)
        depth = int(rng.integers(len(turns))) if turns else 0
        answer = suggest(stub, name, turns[:depth])
        expected = turns[depth][0] if depth < len(turns) else target
        assert (answer.guess, answer.source) == (expected, pb.SOURCE_STORED)
        assert answer.remaining >= 1


def test_live_answers_use_the_same_strategy_over_the_words_left(
    stub: pb_grpc.GuessworkStub, catalog: Catalog
) -> None:
    name = "guess-my-word-common-words-optimal-live"
    _, weights, _ = rebuilt(catalog.policy(name))
    words, counts = weights.words, weights.counts
    for history in ([("house", "after")], [("money", "before"), ("cat", "after")]):
        answer = suggest(stub, name, history)
        left = [i for i, w in enumerate(words) if all(reply(g, w, "live") == r for g, r in history)]
        expected = build_tree(
            WeightedList(tuple(words[i] for i in left), tuple(counts[i] for i in left)),
            "optimal",
            "live",
        ).first_guess
        assert (answer.guess, answer.remaining, answer.source) == (
            expected,
            len(left),
            pb.SOURCE_LIVE,
        )


@pytest.mark.parametrize(
    ("name", "history", "code", "reason", "message"),
    [
        (
            TREES[1],
            [("house", "sideways")],
            grpc.StatusCode.INVALID_ARGUMENT,
            "INVALID_REPLY",
            "not one of before, after, correct",
        ),
        (
            TREES[0],
            [("house", "correct")],
            grpc.StatusCode.INVALID_ARGUMENT,
            "IMPOSSIBLE_REPLY",
            "never answers 'correct'",
        ),
        (
            TREES[1],
            [("ho1se", "after")],
            grpc.StatusCode.INVALID_ARGUMENT,
            "INVALID_WORD",
            "letters a-z",
        ),
        (
            TREES[1],
            [("zzzzz", "after")],
            grpc.StatusCode.INVALID_ARGUMENT,
            "UNKNOWN_WORD",
            "'zzzzz' is not in the word list",
        ),
        (
            TREES[1],
            [("house", "after"), ("ability", "before")],
            grpc.StatusCode.FAILED_PRECONDITION,
            "CONTRADICTORY_HISTORY",
            "turn 2 (ability before)",
        ),
        (
            TREES[1],
            [("house", "correct"), ("mouse", "after")],
            grpc.StatusCode.FAILED_PRECONDITION,
            "GAME_OVER",
            "game is over",
        ),
    ],
)
def test_bad_histories(
    stub: pb_grpc.GuessworkStub,
    name: str,
    history: list[tuple[str, str]],
    code: grpc.StatusCode,
    reason: str,
    message: str,
) -> None:
    got_code, got_reason, got_message = failure(lambda: suggest(stub, name, history))
    assert (got_code, got_reason) == (code, reason)
    assert message in got_message


def test_listed_and_refused_for_word_list_calls(stub: pb_grpc.GuessworkStub) -> None:
    listed = stub.ListPolicies(pb.ListPoliciesRequest(game="guess-my-word")).policies
    assert len(listed) == 6 and {p.mode for p in listed} == {"deduce", "live"}
    best = stub.GetPolicy(pb.GetPolicyRequest(name=TREES[1])).policy
    assert round(best.mean, 3) == 7.898 and best.target_count == 4788
    code, reason, _ = failure(
        lambda: stub.ScoreGuess(pb.ScoreGuessRequest(policy=TREES[1], guess="a", target="b"))
    )
    assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "BAD_REQUEST")


def test_cli_suggest_is_the_same_from_server_and_store(
    capsys: pytest.CaptureFixture[str], server: tuple[GuessworkServer, int]
) -> None:
    outputs = []
    for where in (["--server", f"127.0.0.1:{server[1]}"], []):
        for history in ("", "not:after", "house:after"):
            assert (
                run(["suggest", *where, "--policy", TREES[1], "--history", history, "--json"]) == 0
            )
            outputs.append(json.loads(capsys.readouterr().out))
    assert outputs[:3] == outputs[3:]
    assert outputs[0]["guess"] == "not" and outputs[2]["source"] == "SOURCE_LIVE"
