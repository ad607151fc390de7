"""The service over a real channel: answers match the probe; every error path."""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable
from typing import Any

import grpc
import numpy as np
import pytest
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from grpc_status import rpc_status

from guesswork.builder.greedy import GreedyOptions
from guesswork.builder.greedy_tree import build_greedy_tree
from guesswork.builder.metrics import ARITHMETIC
from guesswork.builder.wordlists import WordList
from guesswork.client.catalog import Catalog
from guesswork.client.errors import (
    ContradictoryHistoryError,
    PolicyNotFoundError,
    ServiceUnavailableError,
)
from guesswork.client.probe import Policy
from guesswork.client.remote import RemoteClient
from guesswork.protos.guesswork.v1 import guesswork_pb2 as pb
from guesswork.protos.guesswork.v1 import guesswork_pb2_grpc as pb_grpc
from guesswork.service.server import GuessworkServer, ServerOptions, start_server

CHECKED_POLICIES = ["wordle-2309-normal-max", "jotto-2309-hard-max", "antiwordle-2309-hard-entropy"]


def turns(history: list[tuple[str, str]]) -> list[pb.Turn]:
    return [pb.Turn(guess=g, reply=r) for g, r in history]


def failure(call: Callable[[], Any]) -> tuple[grpc.StatusCode, str, str]:
    """Return (code, reason, message) of a call that must fail."""
    with pytest.raises(grpc.RpcError) as caught:
        call()
    error = caught.value
    status = rpc_status.from_call(error)
    info = error_details_pb2.ErrorInfo()
    assert status is not None and status.details[0].Unpack(info)
    assert info.domain == "guesswork.v1"
    return error.code(), info.reason, error.details()


def test_health_and_reflection(channel: grpc.Channel) -> None:
    health = health_pb2_grpc.HealthStub(channel)
    for service in ("", "guesswork.v1.Guesswork"):
        status = health.Check(health_pb2.HealthCheckRequest(service=service)).status
        assert status == health_pb2.HealthCheckResponse.SERVING
    reflection = reflection_pb2_grpc.ServerReflectionStub(channel)
    request = reflection_pb2.ServerReflectionRequest(list_services="")
    response = next(reflection.ServerReflectionInfo(iter([request])))
    names = {service.name for service in response.list_services_response.service}
    assert {"guesswork.v1.Guesswork", "grpc.health.v1.Health"} <= names


def test_list_and_get_policies(stub: pb_grpc.GuessworkStub, catalog: Catalog) -> None:
    listed = stub.ListPolicies(pb.ListPoliciesRequest()).policies
    assert [p.name for p in listed] == [f"policies/{n}" for n in catalog.names()]
    jotto = stub.ListPolicies(pb.ListPoliciesRequest(game="jotto")).policies
    assert jotto and all(p.game == "jotto" for p in jotto)
    policy = stub.GetPolicy(pb.GetPolicyRequest(name="policies/wordle-2309-hard-max")).policy
    stored = catalog.policy("wordle-2309-hard-max")
    assert (policy.worst, policy.target_count, policy.content_hash) == (
        8,
        2309,
        stored.content_hash,
    )
    assert dict(policy.histogram) == {int(s): int(c) for s, c in stored.stats["histogram"]}
    assert stub.GetPolicy(pb.GetPolicyRequest(name="wordle-2309-hard-max")).policy == policy


@pytest.mark.parametrize("name", CHECKED_POLICIES)
def test_suggestions_match_the_probe_for_every_target(
    stub: pb_grpc.GuessworkStub, catalog: Catalog, name: str
) -> None:
    """Every target's game: the suggestion after a prefix of it (every prefix for the
    Wordle policy, one seeded prefix for the others), the solved state, and the score."""
    policy = catalog.policy(name)
    game = policy.game
    rng = np.random.default_rng(4)
    for target in policy.targets:
        guesses = policy.play(target)
        history = [(g, game.format_reply(game.reply(g, target))) for g in guesses]
        depths = range(len(guesses)) if name.startswith("wordle") else [rng.integers(len(guesses))]
        for depth in depths:
            node = policy.walk(history[:depth]).node
            answer = stub.SuggestGuess(
                pb.SuggestGuessRequest(
                    policy=name, history=turns(history[:depth]), max_alternatives=2
                )
            )
            assert (answer.guess, answer.remaining, answer.solved, answer.source) == (
                guesses[depth],
                policy.remaining_count(node),
                False,
                pb.SOURCE_STORED,
            )
            if policy.data.mode == "hard":  # a hard policy's guesses are always legal
                check = stub.CheckGuess(
                    pb.CheckGuessRequest(
                        policy=name, history=turns(history[:depth]), guess=guesses[depth]
                    )
                )
                assert (check.legal, check.remaining) == (True, policy.remaining_count(node))
        done = stub.SuggestGuess(pb.SuggestGuessRequest(policy=name, history=turns(history)))
        assert (done.solved, done.guess, done.turn) == (True, target, len(history))
        score = stub.ScoreGuess(pb.ScoreGuessRequest(policy=name, guess=guesses[0], target=target))
        assert (score.reply, score.solved) == (history[0][1], len(guesses) == 1)


def test_live_answer_is_the_builders_greedy_choice(
    stub: pb_grpc.GuessworkStub, catalog: Catalog
) -> None:
    name = "wordle-2309-normal-neg-entropy"
    policy = catalog.policy(name)
    game = policy.game
    answers = WordList.from_words("answers", policy.targets)
    for opening, target in [("CRANE", "TIGER"), ("SLATE", "FUZZY"), ("TOUCH", "ROBOT")]:
        reply = game.format_reply(game.reply(opening, target))
        answer = stub.SuggestGuess(
            pb.SuggestGuessRequest(policy=name, history=[pb.Turn(guess=opening, reply=reply)])
        )
        remaining = [
            t for t in policy.targets if game.reply(opening, t) == game.reply(opening, target)
        ]
        tree = build_greedy_tree(
            game,
            WordList.from_words("left", remaining),
            answers,
            GreedyOptions(metric="neg_entropy", arithmetic=ARITHMETIC["2022"]),
        )
        assert answer.source == pb.SOURCE_LIVE
        assert (answer.guess, answer.remaining) == (tree.first_guess, len(remaining))
        assert len(answer.alternatives) == 5 and answer.guess not in answer.alternatives


def test_alternatives_rank_after_the_stored_guess(stub: pb_grpc.GuessworkStub) -> None:
    first = stub.SuggestGuess(
        pb.SuggestGuessRequest(policy="wordle-2309-normal-neg-entropy", max_alternatives=3)
    )
    assert (first.guess, list(first.alternatives)) == ("RAISE", ["SLATE", "CRATE", "IRATE"])


def test_evil_replier_plays_the_seed_game(stub: pb_grpc.GuessworkStub) -> None:
    name, history = "wordle-2309-normal-max", []
    for expected in (".....", ".....", ".YYY.", ".GGGG", "GGGGG"):
        guess = stub.SuggestGuess(pb.SuggestGuessRequest(policy=name, history=turns(history))).guess
        reply = stub.EvilReply(
            pb.EvilReplyRequest(policy=name, history=turns(history), guess=guess)
        )
        assert reply.reply == expected
        history.append((guess, reply.reply))
    assert [g for g, _ in history] == ["ARISE", "BLOND", "DUMPY", "CHUMP", "THUMP"]
    assert reply.solved


def test_check_guess_rules(stub: pb_grpc.GuessworkStub) -> None:
    name, history = "wordle-2309-normal-neg-entropy", turns([("raise", ".Y..G")])

    def check(guess: str, rule: int) -> pb.CheckGuessResponse:
        return stub.CheckGuess(
            pb.CheckGuessRequest(policy=name, history=history, guess=guess, rule=rule)
        )

    assert check("abate", pb.HARD_RULE_CONSISTENT).legal
    refused = check("crane", pb.HARD_RULE_CONSISTENT)
    assert not refused.legal and "RAISE would get YY..G" in refused.reason
    assert check("crane", pb.HARD_RULE_NYT).legal  # A reused, E kept in place
    assert check("cloth", pb.HARD_RULE_NYT).reason == "5th letter must be E"
    assert check("clove", pb.HARD_RULE_NYT).reason == "guess must contain A"


def _error_cases() -> list[
    tuple[str, Callable[[pb_grpc.GuessworkStub], Any], grpc.StatusCode, str, str]
]:
    w = "wordle-2309-normal-neg-entropy"

    def suggest(
        history: list[tuple[str, str]], policy: str = w, **extra: Any
    ) -> Callable[[pb_grpc.GuessworkStub], Any]:
        request = pb.SuggestGuessRequest(policy=policy, history=turns(history), **extra)
        return lambda stub: stub.SuggestGuess(request)

    invalid, failed = grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.FAILED_PRECONDITION
    return [
        (
            "unknown policy",
            suggest([], "chess"),
            grpc.StatusCode.NOT_FOUND,
            "POLICY_NOT_FOUND",
            "no policy 'chess'",
        ),
        (
            "malformed reply",
            suggest([("raise", "GYQ..")]),
            invalid,
            "INVALID_REPLY",
            "'Q' at position 3",
        ),
        (
            "impossible reply",
            suggest([("raise", "GGGGY")]),
            invalid,
            "IMPOSSIBLE_REPLY",
            "impossible reply",
        ),
        (
            "unknown word",
            suggest([("zzzzz", ".....")]),
            invalid,
            "UNKNOWN_WORD",
            "ZZZZZ is not in the guess list",
        ),
        (
            "invalid word",
            suggest([("ra1se", ".....")]),
            invalid,
            "INVALID_WORD",
            "not made only of letters",
        ),
        (
            "too-long history",
            suggest([("raise", ".....")] * 65),
            invalid,
            "HISTORY_TOO_LONG",
            "65 turns",
        ),
        (
            "contradiction",
            suggest([("raise", "....."), ("arise", "GGGGG")]),
            failed,
            "CONTRADICTORY_HISTORY",
            "turn 2 (ARISE GGGGG) contradicts",
        ),
        (
            "game over",
            suggest([("raise", "GGGGG"), ("slate", ".....")]),
            failed,
            "GAME_OVER",
            "already won",
        ),
        (
            "too many alternatives",
            suggest([], max_alternatives=99),
            invalid,
            "BAD_REQUEST",
            "between 0 and 50",
        ),
        (
            "oversized request",
            suggest([("raise", "." * 100_000)]),
            grpc.StatusCode.RESOURCE_EXHAUSTED,
            "REQUEST_TOO_LARGE",
            "exceeds",
        ),
        (
            "unknown target",
            lambda stub: stub.ScoreGuess(
                pb.ScoreGuessRequest(policy=w, guess="raise", target="aahed")
            ),
            invalid,
            "UNKNOWN_WORD",
            "not in the targets",
        ),
        (
            "nyt rule in jotto",
            lambda stub: stub.CheckGuess(
                pb.CheckGuessRequest(
                    policy="jotto-2309-hard-max", guess="drape", rule=pb.HARD_RULE_NYT
                )
            ),
            invalid,
            "BAD_REQUEST",
            "applies to Wordle",
        ),
    ]


@pytest.mark.parametrize("case", _error_cases(), ids=lambda case: case[0])
def test_error_paths_have_their_status_and_reason(stub: pb_grpc.GuessworkStub, case: tuple) -> None:
    _, call, code, reason, message = case
    got_code, got_reason, got_message = failure(lambda: call(stub))
    assert (got_code, got_reason) == (code, reason)
    assert message in got_message


def test_remote_client_raises_the_same_error_classes(server: tuple[GuessworkServer, int]) -> None:
    with RemoteClient(f"127.0.0.1:{server[1]}") as remote:
        assert remote.suggest("wordle-2309-hard-max").guess == "ARISE"
        with pytest.raises(PolicyNotFoundError, match="no policy 'chess'"):
            remote.suggest("chess")
        with pytest.raises(ContradictoryHistoryError):
            remote.suggest("wordle-2309-hard-max", [("arise", "....."), ("arise", "GGGGG")])
        assert remote.evil_reply("wordle-2309-normal-max", [], "arise").reply == "....."
        assert remote.score("wordle-2309-hard-max", "ninny", "annex").reply == "Y.G.."
        check = remote.check("wordle-2309-hard-max", [("arise", ".....")], "could")
        assert (check.legal, check.reason, check.remaining) == (True, "", 167)


def test_too_many_concurrent_calls_are_rejected_at_once(catalog: Catalog) -> None:
    server, port = start_server(ServerOptions(address="127.0.0.1:0", max_concurrent=1), catalog)
    name = "wordle-2315-g12972-normal-neg-entropy"
    policy = catalog.policy(name)
    game = policy.game
    openings = [w for w in policy.guesses[::97]][:64]
    outcomes: list[str] = []
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = pb_grpc.GuessworkStub(channel)

            def call(opening: str) -> None:
                reply = game.format_reply(game.reply(opening, "TIGER"))
                request = pb.SuggestGuessRequest(
                    policy=name, history=[pb.Turn(guess=opening, reply=reply)]
                )
                try:
                    stub.SuggestGuess(request)
                    outcomes.append("ok")
                except grpc.RpcError as error:
                    info = error_details_pb2.ErrorInfo()
                    status = rpc_status.from_call(error)
                    if status is not None and status.details:
                        status.details[0].Unpack(info)
                    outcomes.append(f"{error.code().name}/{info.reason or 'NO_REASON'}")

            threads = [threading.Thread(target=call, args=(w,)) for w in openings]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
    finally:
        server.stop(0, drain=0)
    assert len(outcomes) == len(openings)
    assert set(outcomes) <= {"ok", "RESOURCE_EXHAUSTED/TOO_MANY_CALLS"}
    assert "ok" in outcomes and "RESOURCE_EXHAUSTED/TOO_MANY_CALLS" in outcomes


def test_a_catalog_that_fails_verification_stops_start_up(tmp_path: Any) -> None:
    broken = tmp_path / "broken.sqlite"
    broken.write_bytes(b"not a catalog")
    from guesswork.client.errors import PolicyFormatError

    with pytest.raises(PolicyFormatError):
        start_server(ServerOptions(address="127.0.0.1:0", catalog=str(broken)))


def test_policy_numbers_are_consistent(catalog: Catalog) -> None:
    policy: Policy = catalog.policy("jotto-2309-hard-max")
    assert int(np.sum(policy.data.numpy_arrays()["node_size"] == 1)) > 0


def test_a_history_off_the_answer_list_is_answered_over_the_guess_list(
    stub: pb_grpc.GuessworkStub, server: tuple[GuessworkServer, int]
) -> None:
    """Secret TACOS (allowed, but none of the 2,309 answers): SOURCE_LIVE_GUESS_LIST,
    the count being the guess list's words that fit (TABOS, TACOS, TASTO: the likely
    TACOS first, by the prior); SALET (outside the policy's guess list, inside the
    14,855) is answered live, never refused."""
    name = "wordle-2309-normal-neg-entropy"
    history = [("raise", ".G.Y."), ("tonal", "GY.Y.")]  # TACOS's replies
    answer = stub.SuggestGuess(pb.SuggestGuessRequest(policy=name, history=turns(history)))
    assert (answer.guess, answer.remaining) == ("TACOS", 3)
    assert answer.source == pb.SOURCE_LIVE_GUESS_LIST
    won = stub.SuggestGuess(
        pb.SuggestGuessRequest(policy=name, history=turns([*history, ("tacos", "GGGGG")]))
    )
    assert (won.solved, won.guess, won.source) == (True, "TACOS", pb.SOURCE_LIVE_GUESS_LIST)
    salet = stub.SuggestGuess(
        pb.SuggestGuessRequest(policy=name, history=turns([("salet", "....Y")]))
    )
    assert salet.source == pb.SOURCE_LIVE and salet.remaining > 1
    with RemoteClient(f"127.0.0.1:{server[1]}") as remote:
        assert remote.suggest(name, history).source == "live-guess-list"
    code, reason, message = failure(
        lambda: stub.SuggestGuess(
            pb.SuggestGuessRequest(policy=name, history=turns([*history, ("tacos", "GGGG.")]))
        )
    )
    assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "CONTRADICTORY_HISTORY")
    assert "no word of its guess list and wordle-guesses-14855" in message


def test_a_passed_deadline_says_so_and_how_to_raise_it(
    server: tuple[GuessworkServer, int],
) -> None:
    """A call whose deadline passes is no 'service unavailable': the error names the
    deadline and the option that raises it. The peer here accepts the connection
    and never answers (a server busy past the deadline looks the same)."""
    silent = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []
    accepting = threading.Thread(target=lambda: held.append(silent.accept()[0]), daemon=True)
    accepting.start()
    try:
        address = f"127.0.0.1:{silent.getsockname()[1]}"
        with (
            RemoteClient(address, timeout=0.5) as remote,
            pytest.raises(ServiceUnavailableError) as caught,
        ):
            remote.suggest("wordle-2309-normal-neg-entropy", [])
    finally:
        for connection in held:
            connection.close()
        silent.close()
    message = str(caught.value)
    assert message.startswith("deadline exceeded after 0.5 s")
    assert "--timeout SECONDS" in message and "RemoteClient(timeout=...)" in message
    with RemoteClient(f"127.0.0.1:{server[1]}") as remote:
        assert remote.suggest("wordle-2309-normal-neg-entropy", []).guess == "RAISE"
