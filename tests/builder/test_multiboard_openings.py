"""Multi-board openings stored with a policy (client.board_openings): the joint step's
rankings at every opening position, looked up instead of computed, checked by verify,
and refused when malformed."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest

from guesswork.builder.live import GreedyLiveSolver
from guesswork.builder.multiboard_openings import (
    board_openings,
    openings_faults,
    with_board_openings,
)
from guesswork.builder.publish import StoredPolicy
from guesswork.builder.verify import verify_policy
from guesswork.client.board_lookup import suggest_boards
from guesswork.client.board_openings import BoardOpenings, Ranked, decode_openings
from guesswork.client.catalog import open_catalog
from guesswork.client.errors import LiveAnswerUnavailableError, MalformedPolicyError
from guesswork.client.games import Wordle
from guesswork.client.lookup import PolicyLookup
from guesswork.client.policy_format import decode_core
from guesswork.client.probe import Policy
from guesswork.service.local import LocalGuesswork

from .stored import small_wordle_policy, stored_policy

WORDLE = Wordle()
TODAY = "wordle-3158-g14855-normal-optimal"


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Policy:
    """A greedy policy over 72 answers (every 32nd) and 90 more guesses, with openings."""
    built = small_wordle_policy(tmp_path_factory.mktemp("lists"), 32)
    plain = StoredPolicy.from_data(built.data, built.tree.targets.words, built.tree.guesses.words)
    stored = with_board_openings(plain)
    return stored_policy(stored.data, built.tree.targets.words, built.tree.guesses.words)


def reply_classes(policy: Policy, first: int) -> dict[int, np.ndarray]:
    codes = GreedyLiveSolver().target_replies(policy, first)
    every = np.arange(len(policy.targets))
    return {int(code): every[codes == code] for code in np.unique(codes)}


def test_every_stored_position_is_the_live_ranking(small: Policy) -> None:
    openings = small.data.openings
    assert openings is not None and sorted(openings.first) == [2, 4, 8]
    live = GreedyLiveSolver()
    every = np.arange(len(small.targets))
    for boards, ranked in openings.first.items():
        found = live.rank_boards(small, [every] * boards, len(ranked.guesses))
        assert (found.indices, found.values) == (ranked.guesses, ranked.values)
    first = openings.first[2].guesses[0]
    assert openings.second_after == first
    classes = reply_classes(small, first)
    win = WORDLE.win_reply
    positions = 0
    for reply_1, set_1 in classes.items():
        for reply_2, set_2 in classes.items():
            stored = openings.second(first, reply_1, reply_2)
            if reply_1 == reply_2 == win:
                assert stored is None  # one secret on both boards: no game
                continue
            assert stored is not None
            sets = [s for s, r in ((set_1, reply_1), (set_2, reply_2)) if r != win]
            found = live.rank_boards(small, sets, len(stored.guesses))
            assert (found.indices, found.values) == (stored.guesses, stored.values)
            positions += 1
    # Every pair of replies, less two wins (one secret on both boards) if the guess can win.
    assert positions == len(classes) ** 2 - (win in classes) == len(openings.second_keys)


def test_the_application_core_looks_the_opening_up(small: Policy) -> None:
    lookup = PolicyLookup(small)  # no live solver: only what is stored can be answered
    first = suggest_boards(lookup, [[], []], 3)
    assert (first.source, first.turn, first.guess_limit) == ("stored", 0, 7)
    stored = small.data.openings
    assert stored is not None
    words = [small.vocabulary[g] for g in stored.first[2].guesses]
    assert [first.guess, *first.alternatives] == words[:4]
    assert first.alternative_values == stored.first[2].values[1:4]
    secrets = (small.targets[3], small.targets[40])
    replies = [WORDLE.format_reply(WORDLE.reply(first.guess, s)) for s in secrets]
    second = suggest_boards(lookup, [[(first.guess, r)] for r in replies], 0)
    assert second.source == "stored" and second.alternatives == ()
    ranked = stored.second(stored.second_after, *(WORDLE.parse_reply(r) for r in replies))
    assert ranked is not None and second.guess == small.vocabulary[ranked.guesses[0]]
    # Past the opening (or after another first guess) the answer is live: none here.
    with pytest.raises(LiveAnswerUnavailableError):
        suggest_boards(lookup, [[(second.guess, ".....")], [(second.guess, ".....")]], 0)


def test_the_shipped_default_stores_its_openings_and_they_verify() -> None:
    catalog = open_catalog()
    policy = catalog.policy(TODAY)
    openings = policy.data.openings
    assert openings is not None and sorted(openings.first) == [2, 4, 8]
    assert openings_faults(policy) == []
    answer = LocalGuesswork.open(None).suggest_boards(TODAY, [[], [], [], []])
    assert answer.source == "stored"
    assert answer.guess == policy.vocabulary[openings.first[4].guesses[0]]
    # The first guess is an answer: board 1 solved by it, board 2 left to the class of
    # its reply, ranked as the live step ranks that one board.
    first = openings.first[2].guesses[0]
    classes = reply_classes(policy, first)
    win = WORDLE.win_reply
    assert win in classes
    for reply in sorted(classes)[:3]:
        stored = openings.second(first, win, reply)
        assert stored is not None
        found = GreedyLiveSolver().rank_boards(policy, [classes[reply]], len(stored.guesses))
        assert (found.indices, found.values) == (stored.guesses, stored.values)


@pytest.mark.parametrize(
    ("change", "fault"),
    [
        (
            lambda o: dataclasses.replace(
                o, first={**o.first, 4: Ranked(o.first[4].guesses[::-1], o.first[4].values[::-1])}
            ),
            "first guesses of 4 boards",
        ),
        (
            lambda o: dataclasses.replace(
                o, second_guesses=type(o.second_guesses)("i", [*o.second_guesses][::-1])
            ),
            "second guess is not the joint step's",
        ),
        (lambda o: dataclasses.replace(o, second_after=o.second_after + 1), "do not cover"),
    ],
)
def test_changed_openings_fail_verify(small: Policy, change: Any, fault: str) -> None:
    assert small.data.openings is not None
    data = dataclasses.replace(small.data, openings=change(small.data.openings))
    changed = stored_policy(data, small.targets, small.guesses)
    faults = verify_policy(changed)
    assert any(fault in text for text in faults), faults


def openings_map(small: Policy) -> dict[str, Any]:
    assert small.data.openings is not None
    return small.data.openings.to_map()


@pytest.mark.parametrize(
    ("damage", "problem"),
    [
        (lambda m: {**m, "metric": "entropy"}, "metric"),
        (lambda m: {**m, "first": [{**m["first"][0], "boards": 99}]}, "board count"),
        (lambda m: {**m, "first": [m["first"][0], m["first"][0]]}, "once each"),
        (lambda m: {**m, "first": [{**m["first"][0], "guesses": b"\xff\xff\xff\x7f"}]}, "1 to"),
        (
            lambda m: {**m, "second": {**m["second"], "replies": m["second"]["replies"][::-1]}},
            "reply code",
        ),
        (
            lambda m: {**m, "second": {**m["second"], "offsets": m["second"]["offsets"][:-4]}},
            "do not line up",
        ),
        (
            lambda m: {**m, "second": {**m["second"], "values": b"\x00" * 7}},
            "float64 bytes",
        ),
    ],
)
def test_malformed_openings_are_refused(small: Policy, damage: Any, problem: str) -> None:
    with pytest.raises(MalformedPolicyError, match=problem):
        decode_openings(damage(openings_map(small)), len(small.vocabulary), 243, "test")


def test_openings_survive_the_core_round_trip(small: Policy) -> None:
    decoded = decode_core(small.core, "test").openings
    assert isinstance(decoded, BoardOpenings)
    assert decoded.to_map() == openings_map(small)
    assert decoded.first == board_openings(small).first
