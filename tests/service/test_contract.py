"""The proto's contract, checked over a real channel: every error path's details
(reason and the metadata keys the proto promises), the same fault giving the same
reason from every RPC, unknown enum values, presence-aware fields, undecodable
and oversized requests, reflection v1 and v1alpha, and the vendored protos."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

import grpc
import pytest
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.rpc import error_details_pb2
from grpc_reflection.v1alpha import reflection_pb2
from grpc_status import rpc_status

from guesswork.client.errors import ContradictoryHistoryError
from guesswork.client.messages import suggestion as messages_suggestion
from guesswork.client.remote import RemoteClient
from guesswork.protos.guesswork.v1 import guesswork_pb2 as pb
from guesswork.protos.guesswork.v1 import guesswork_pb2_grpc as pb_grpc
from guesswork.service.server import (
    SERVICE_NAME,
    GuessworkServer,
    ServerOptions,
    create_server,
    transport_limit,
)
from tests.service.test_error_table import PROTO, _proto_rows, promised_keys

W = "wordle-2309-normal-neg-entropy"
JOTTO = "jotto-2309-hard-max"
GMW = "guess-my-word-common-words-optimal-live"
#: Reasons no call of the running service can produce, and why; each is still
#: mapped (tests/service/test_error_table.py checks every row of the table).
UNREACHABLE = {
    "UNKNOWN_GAME": "no RPC takes a game id it must find (ListPolicies filters by one)",
    "BAD_POLICY_DATA": "a damaged catalog is refused at start-up and on reload",
    "LIVE_ANSWER_UNAVAILABLE": "the service always has the builder's live solver",
    "INTERNAL": "a bug by definition; test_error_table injects one",
}


def details(call: Callable[[], Any]) -> tuple[grpc.StatusCode, str, dict[str, str], str]:
    """Return (code, reason, metadata, message) of a call that must fail, decoded from
    its grpc-status-details-bin trailer."""
    with pytest.raises(grpc.RpcError) as caught:
        call()
    status = rpc_status.from_call(caught.value)
    assert status is not None, "no grpc-status-details-bin"
    info = error_details_pb2.ErrorInfo()
    assert len(status.details) == 1 and status.details[0].Unpack(info)
    assert info.domain == "guesswork.v1" and status.code == caught.value.code().value[0]
    return caught.value.code(), info.reason, dict(info.metadata), caught.value.details()


def turns(*history: tuple[str, str]) -> list[pb.Turn]:
    return [pb.Turn(guess=g, reply=r) for g, r in history]


def raw_call(channel: grpc.Channel, method: str, data: bytes) -> Callable[[], Any]:
    """Return a call of ``method`` sending ``data`` as the request bytes, unchecked."""
    stub = channel.unary_unary(f"/{SERVICE_NAME}/{method}")
    return lambda: stub(data, timeout=10)


CONTRADICTION = turns(("raise", "....."), ("arise", "GG..."))
WON_THEN_MORE = turns(("raise", "GGGGG"), ("slate", "....."))


def _cases(
    stub: pb_grpc.GuessworkStub, channel: grpc.Channel
) -> list[tuple[str, Any, str, dict[str, str]]]:
    """Return (case, call, reason, metadata expected to be among the details)."""
    suggest, check, evil = stub.SuggestGuess, stub.CheckGuess, stub.EvilReply
    big = pb.SuggestGuessRequest(policy=W, history=turns(("raise", "." * 70_000)))
    return [
        (
            "unknown policy",
            lambda: suggest(pb.SuggestGuessRequest(policy="policies/chess")),
            "POLICY_NOT_FOUND",
            {"policy": "chess"},
        ),
        (
            "unknown policy, get",
            lambda: stub.GetPolicy(pb.GetPolicyRequest(name="chess")),
            "POLICY_NOT_FOUND",
            {"policy": "chess"},
        ),
        (
            "unknown word list",
            lambda: stub.TopHoneycombs(pb.TopHoneycombsRequest(word_list="nope")),
            "WORD_LIST_NOT_FOUND",
            {"word_list": "nope"},
        ),
        (
            "invalid word in history",
            lambda: suggest(
                pb.SuggestGuessRequest(
                    policy=W, history=turns(("raise", "....."), ("ra1se", "....."))
                )
            ),
            "INVALID_WORD",
            {"turn": "2", "field": "history[1].guess", "policy": W},
        ),
        (
            "invalid word to score",
            lambda: stub.ScoreGuess(pb.ScoreGuessRequest(policy=W, guess="raise", target="x")),
            "INVALID_WORD",
            {"field": "target"},
        ),
        (
            "unknown word",
            lambda: suggest(pb.SuggestGuessRequest(policy=W, history=turns(("zzzzz", ".....")))),
            "UNKNOWN_WORD",
            {"turn": "1", "field": "history[0].guess", "word": "ZZZZZ"},
        ),
        (
            "unknown word to check",
            lambda: check(pb.CheckGuessRequest(policy=W, guess="zzzzz")),
            "UNKNOWN_WORD",
            {"field": "guess", "word": "ZZZZZ"},
        ),
        (
            "malformed reply",
            lambda: suggest(pb.SuggestGuessRequest(policy=W, history=turns(("raise", "GYQ..")))),
            "INVALID_REPLY",
            {"turn": "1", "field": "history[0].reply"},
        ),
        (
            "impossible reply",
            lambda: evil(
                pb.EvilReplyRequest(
                    policy=W, guess="slate", history=turns(("raise", "....."), ("clout", "GGGGY"))
                )
            ),
            "IMPOSSIBLE_REPLY",
            {"turn": "2", "field": "history[1].reply"},
        ),
        (
            "too long",
            lambda: suggest(
                pb.SuggestGuessRequest(policy=W, history=turns(*[("raise", ".....")] * 65))
            ),
            "HISTORY_TOO_LONG",
            {"field": "history", "limit": "64", "value": "65"},
        ),
        (
            "honeycomb letters",
            lambda: stub.ScoreHoneycomb(pb.ScoreHoneycombRequest(letters="abc", center="a")),
            "INVALID_HONEYCOMB",
            {"field": "letters"},
        ),
        (
            "honeycomb centre",
            lambda: stub.ScoreHoneycomb(pb.ScoreHoneycombRequest(letters="gilnopt", center="z")),
            "INVALID_HONEYCOMB",
            {"field": "center"},
        ),
        (
            "alternatives out of range",
            lambda: suggest(pb.SuggestGuessRequest(policy=W, max_alternatives=51)),
            "BAD_REQUEST",
            {"field": "max_alternatives", "limit": "50", "value": "51"},
        ),
        (
            "candidates out of range",
            lambda: suggest(pb.SuggestGuessRequest(policy=W, max_candidates=501)),
            "BAD_REQUEST",
            {"field": "max_candidates", "limit": "500", "value": "501"},
        ),
        (
            "negative candidates",
            lambda: suggest(pb.SuggestGuessRequest(policy=W, max_candidates=-1)),
            "BAD_REQUEST",
            {"field": "max_candidates", "limit": "500", "value": "-1"},
        ),
        (
            "a fresh 8-letter board costs over the limit",
            lambda: stub.SuggestBoards(
                pb.SuggestBoardsRequest(
                    policy="wordle-8-enable1-normal-neg-entropy", boards=[pb.BoardHistory()]
                )
            ),
            "COST_LIMIT",
            {"unit": "reply_cells"},
        ),
        (
            "count out of range",
            lambda: stub.TopHoneycombs(pb.TopHoneycombsRequest(count=1001)),
            "BAD_REQUEST",
            {"field": "count", "limit": "1000", "value": "1001"},
        ),
        (
            "unknown enum value",
            lambda: check(pb.CheckGuessRequest(policy=W, guess="slate", rule=99)),
            "BAD_REQUEST",
            {"field": "rule", "policy": W},
        ),
        (
            "NYT rule in Jotto",
            lambda: check(pb.CheckGuessRequest(policy=JOTTO, guess="drape", rule=pb.HARD_RULE_NYT)),
            "BAD_REQUEST",
            {"field": "rule", "policy": JOTTO},
        ),
        (
            "score in Guess My Word",
            lambda: stub.ScoreGuess(pb.ScoreGuessRequest(policy=GMW, guess="cat", target="dog")),
            "BAD_REQUEST",
            {"field": "policy", "policy": GMW},
        ),
        (
            "undecodable bytes",
            raw_call(channel, "SuggestGuess", b"\xff\xff\xff"),
            "MALFORMED_REQUEST",
            {"method": f"/{SERVICE_NAME}/SuggestGuess"},
        ),
        (
            "invalid UTF-8 in a string",
            raw_call(channel, "CheckGuess", b"\x0a\x02\xff\xfe"),
            "MALFORMED_REQUEST",
            {"method": f"/{SERVICE_NAME}/CheckGuess"},
        ),
        (
            "contradiction, suggest",
            lambda: suggest(pb.SuggestGuessRequest(policy=W, history=CONTRADICTION)),
            "CONTRADICTORY_HISTORY",
            {"turn": "2", "policy": W},
        ),
        (
            "contradiction, check",
            lambda: check(pb.CheckGuessRequest(policy=W, history=CONTRADICTION, guess="slate")),
            "CONTRADICTORY_HISTORY",
            {"turn": "2", "policy": W},
        ),
        (
            "contradiction, evil",
            lambda: evil(pb.EvilReplyRequest(policy=W, history=CONTRADICTION, guess="slate")),
            "CONTRADICTORY_HISTORY",
            {"turn": "2", "policy": W},
        ),
        (
            "contradiction ending in a win, check",
            lambda: check(
                pb.CheckGuessRequest(
                    policy=W, history=turns(("raise", "....."), ("arise", "GGGGG")), guess="slate"
                )
            ),
            "CONTRADICTORY_HISTORY",
            {"turn": "2"},
        ),
        (
            "turn after a win, suggest",
            lambda: suggest(pb.SuggestGuessRequest(policy=W, history=WON_THEN_MORE)),
            "GAME_OVER",
            {"turn": "1", "field": "history[1]"},
        ),
        (
            "turn after a win, check",
            lambda: check(pb.CheckGuessRequest(policy=W, history=WON_THEN_MORE, guess="slate")),
            "GAME_OVER",
            {"turn": "1", "field": "history[1]"},
        ),
        (
            "turn after a win, evil",
            lambda: evil(pb.EvilReplyRequest(policy=W, history=WON_THEN_MORE, guess="slate")),
            "GAME_OVER",
            {"turn": "1", "field": "history[1]"},
        ),
        (
            "won, check",
            lambda: check(
                pb.CheckGuessRequest(policy=W, history=turns(("raise", "GGGGG")), guess="slate")
            ),
            "GAME_OVER",
            {"turn": "1", "field": "history[0].reply"},
        ),
        (
            "oversized",
            lambda: suggest(big),
            "REQUEST_TOO_LARGE",
            {"limit": "65536", "value": str(big.ByteSize())},
        ),
        (
            "oversized bytes",
            raw_call(channel, "Ping", b"\x00" * 1_000_000),
            "REQUEST_TOO_LARGE",
            {"limit": "65536", "value": "1000000"},
        ),
    ]


def test_every_error_path_carries_its_reason_and_the_promised_metadata(
    stub: pb_grpc.GuessworkStub, channel: grpc.Channel
) -> None:
    rows = _proto_rows()
    covered = set()
    for case, call, reason, expected in _cases(stub, channel):
        code, got_reason, metadata, _ = details(call)
        assert (got_reason, code.name) == (reason, rows[reason][0]), case
        assert promised_keys(reason) <= set(metadata), (case, metadata)
        assert expected.items() <= metadata.items(), (case, metadata)
        covered.add(reason)
    # TOO_MANY_CALLS and UNAVAILABLE have their own tests below.
    assert set(rows) == covered | set(UNREACHABLE) | {"TOO_MANY_CALLS", "UNAVAILABLE"}


def test_the_remote_client_keeps_the_metadata(server: tuple[GuessworkServer, int]) -> None:
    with (
        RemoteClient(f"127.0.0.1:{server[1]}") as remote,
        pytest.raises(ContradictoryHistoryError) as caught,
    ):
        remote.check(W, [("raise", "....."), ("arise", "GG...")], "slate")
    assert caught.value.metadata == {"turn": "2", "policy": W}


def test_max_alternatives_is_presence_aware(stub: pb_grpc.GuessworkStub) -> None:
    absent = stub.SuggestGuess(pb.SuggestGuessRequest(policy=W))
    none = stub.SuggestGuess(pb.SuggestGuessRequest(policy=W, max_alternatives=0))
    two = stub.SuggestGuess(pb.SuggestGuessRequest(policy=W, max_alternatives=2))
    assert (len(absent.alternatives), len(none.alternatives), len(two.alternatives)) == (5, 0, 2)
    assert absent.guess == none.guess == two.guess


#: A policy whose targets a prior weights.
WEIGHTED = "wordle-14855-weighted-wordfreq-normal-neg-entropy"


def test_max_candidates_lists_the_words_left(stub: pb_grpc.GuessworkStub, catalog: Any) -> None:
    """Absent, none are listed; asked, the targets still possible: alphabetical, or most
    likely first with their probabilities where a prior weights them; off the tree, the
    live answer's targets; once solved, the secret."""
    history = turns(("raise", "....Y"))
    absent = stub.SuggestGuess(pb.SuggestGuessRequest(policy=W, history=history))
    assert not absent.candidates and not absent.candidate_weights
    asked = stub.SuggestGuess(pb.SuggestGuessRequest(policy=W, history=history, max_candidates=500))
    policy = catalog.policy(W)
    left = policy.remaining_targets(policy.walk([("raise", "....Y")]).node)
    assert list(asked.candidates) == sorted(left) and asked.remaining == len(left) < 500
    assert not asked.candidate_weights and asked.guess == absent.guess
    few = stub.SuggestGuess(pb.SuggestGuessRequest(policy=W, history=history, max_candidates=3))
    assert list(few.candidates) == sorted(left)[:3]
    # Weighted: the most likely first, each a probability among all the words left.
    first = stub.SuggestGuess(pb.SuggestGuessRequest(policy=WEIGHTED, max_candidates=500))
    assert len(first.candidates) == 500 and len(first.candidate_weights) == 500
    assert list(first.candidate_weights) == sorted(first.candidate_weights, reverse=True)
    assert 0 < sum(first.candidate_weights) < 1
    opened = turns((first.guess, "....Y"))
    after = stub.SuggestGuess(
        pb.SuggestGuessRequest(policy=WEIGHTED, history=opened, max_candidates=500)
    )
    if after.remaining <= 500:
        assert sum(after.candidate_weights) == pytest.approx(1.0)
    # Off the tree (SLATE is not the tree's opener): the live answer's targets.
    live = stub.SuggestGuess(
        pb.SuggestGuessRequest(policy=W, history=turns(("slate", "....Y")), max_candidates=500)
    )
    assert live.source == pb.SOURCE_LIVE and len(live.candidates) == min(live.remaining, 500)
    assert list(live.candidates) == sorted(live.candidates)
    solved = stub.SuggestGuess(
        pb.SuggestGuessRequest(policy=W, history=turns(("raise", "GGGGG")), max_candidates=5)
    )
    assert solved.solved and list(solved.candidates) == ["RAISE"]


def test_guaranteed_within_is_the_trees_worst_case_from_the_position(
    stub: pb_grpc.GuessworkStub, catalog: Any
) -> None:
    """The policy's worst before any turn; after one, the turns played plus the most
    guesses any target still possible takes (each target played through the tree);
    absent when answered live; the turns played once solved."""
    policy = catalog.policy(W)
    root = stub.SuggestGuess(pb.SuggestGuessRequest(policy=W))
    assert root.HasField("guaranteed_within")
    assert root.guaranteed_within == catalog.info(W).worst
    played = [("raise", "....Y")]
    answer = stub.SuggestGuess(pb.SuggestGuessRequest(policy=W, history=turns(*played)))
    left = policy.remaining_targets(policy.walk(played).node)
    assert answer.guaranteed_within == max(len(policy.play(target)) for target in left)
    live = stub.SuggestGuess(pb.SuggestGuessRequest(policy=W, history=turns(("slate", "....."))))
    assert live.source == pb.SOURCE_LIVE and not live.HasField("guaranteed_within")
    won = stub.SuggestGuess(pb.SuggestGuessRequest(policy=W, history=turns(("raise", "GGGGG"))))
    assert won.guaranteed_within == 1
    # The remote client carries both, absent as None.
    assert messages_suggestion(live).guaranteed_within is None
    assert messages_suggestion(answer).guaranteed_within == answer.guaranteed_within


def test_expected_guesses_is_the_trees_mean_from_the_position(
    stub: pb_grpc.GuessworkStub, catalog: Any
) -> None:
    """The policy's mean before any turn (weighted where a prior weighs the targets);
    after one, the turn played plus the mean of the guesses each target still possible
    takes, played through the tree; absent when answered live; the turns played once
    solved. The remote client carries it, absent as None."""
    policy = catalog.policy(W)
    root = stub.SuggestGuess(pb.SuggestGuessRequest(policy=W))
    assert root.HasField("expected_guesses") and root.expected_guesses == catalog.info(W).mean
    weighted = stub.SuggestGuess(pb.SuggestGuessRequest(policy=WEIGHTED))
    assert weighted.expected_guesses == catalog.info(WEIGHTED).mean
    assert weighted.expected_guesses != catalog.info(WEIGHTED).uniform_mean
    played = [("raise", "....Y")]
    answer = stub.SuggestGuess(pb.SuggestGuessRequest(policy=W, history=turns(*played)))
    left = policy.remaining_targets(policy.walk(played).node)
    assert answer.expected_guesses == sum(len(policy.play(t)) for t in left) / len(left)
    live = stub.SuggestGuess(pb.SuggestGuessRequest(policy=W, history=turns(("slate", "....."))))
    assert live.source == pb.SOURCE_LIVE and not live.HasField("expected_guesses")
    won = stub.SuggestGuess(pb.SuggestGuessRequest(policy=W, history=turns(("raise", "GGGGG"))))
    assert won.HasField("expected_guesses") and won.expected_guesses == 1.0
    assert messages_suggestion(live).expected_guesses is None
    assert messages_suggestion(answer).expected_guesses == answer.expected_guesses


def test_requests_over_the_transport_limit_are_refused_by_grpc_as_documented(
    stub: pb_grpc.GuessworkStub,
) -> None:
    """The one documented exception: over 4 MiB gRPC refuses the message itself."""
    limit = transport_limit(ServerOptions())
    request = pb.SuggestGuessRequest(policy="x" * (limit + 10))
    with pytest.raises(grpc.RpcError) as caught:
        stub.SuggestGuess(request)
    assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert rpc_status.from_call(caught.value) is None
    assert "larger than max" in caught.value.details()
    assert f"{limit:,} bytes" in PROTO.read_text(), "the proto states the transport limit"


def test_undecodable_requests_are_logged_a_few_lines_without_tracebacks(
    server: tuple[GuessworkServer, int], channel: grpc.Channel, caplog: pytest.LogCaptureFixture
) -> None:
    assert server[0].log_limiter is not None
    server[0].log_limiter.reset()
    call = raw_call(channel, "EvilReply", b"\x0a\xff")
    started = time.monotonic()
    with caplog.at_level(logging.INFO, logger="guesswork.service"):
        for _ in range(300):
            assert details(call)[1] == "MALFORMED_REQUEST"
        elapsed = time.monotonic() - started
        time.sleep(1.1)
        details(call)
    logged = [r for r in caplog.records if "MALFORMED_REQUEST" in r.getMessage()]
    assert all(not r.exc_info and r.levelno == logging.INFO for r in logged)
    assert len(logged) <= server[0].log_limiter.burst + elapsed + 2
    assert "similar lines held back" in logged[-1].getMessage()


@pytest.fixture()
def unloaded() -> Iterator[grpc.Channel]:
    """A real server created and its transport started, but not itself started: no
    catalog loaded yet (as during start-up)."""
    server = create_server(ServerOptions(address="127.0.0.1:0"))
    server.grpc_server.start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
            yield channel
    finally:
        server.grpc_server.stop(0)


def test_calls_before_the_catalog_is_loaded_are_unavailable(unloaded: grpc.Channel) -> None:
    stub = pb_grpc.GuessworkStub(unloaded)
    code, reason, metadata, _ = details(lambda: stub.SuggestGuess(pb.SuggestGuessRequest(policy=W)))
    assert (code, reason) == (grpc.StatusCode.UNAVAILABLE, "UNAVAILABLE")
    assert promised_keys("UNAVAILABLE") <= set(metadata)


def _reflect(channel: grpc.Channel, version: str, request: dict[str, str]) -> Any:
    """Send one reflection request with ``version``'s own message classes."""
    pool = descriptor_pool.Default()
    package = f"grpc.reflection.{version}"
    request_class = message_factory.GetMessageClass(
        pool.FindMessageTypeByName(f"{package}.ServerReflectionRequest")
    )
    response_class = message_factory.GetMessageClass(
        pool.FindMessageTypeByName(f"{package}.ServerReflectionResponse")
    )
    call = channel.stream_stream(
        f"/{package}.ServerReflection/ServerReflectionInfo",
        request_serializer=request_class.SerializeToString,
        response_deserializer=response_class.FromString,
    )
    return next(call(iter([request_class(**request)]), timeout=10))


@pytest.mark.parametrize("version", ["v1", "v1alpha"])
def test_reflection_lists_services_and_serves_the_proto_by_its_package_path(
    channel: grpc.Channel, version: str
) -> None:
    assert reflection_pb2  # registers v1alpha; the server module registered v1
    listed = _reflect(channel, version, {"list_services": ""})
    names = {service.name for service in listed.list_services_response.service}
    assert {
        "guesswork.v1.Guesswork",
        "grpc.health.v1.Health",
        "grpc.reflection.v1.ServerReflection",
        "grpc.reflection.v1alpha.ServerReflection",
    } <= names
    by_name = _reflect(channel, version, {"file_by_filename": "guesswork/v1/guesswork.proto"})
    by_symbol = _reflect(channel, version, {"file_containing_symbol": "guesswork.v1.Guesswork"})
    for response in (by_name, by_symbol):
        (data,) = response.file_descriptor_response.file_descriptor_proto
        file = descriptor_pb2.FileDescriptorProto.FromString(data)
        assert (file.name, file.package) == ("guesswork/v1/guesswork.proto", "guesswork.v1")
        assert [m.name for m in file.service[0].method][:3] == [
            "ListPolicies",
            "GetPolicy",
            "SuggestGuess",
        ]
    itself = _reflect(
        channel, version, {"file_containing_symbol": f"grpc.reflection.{version}.ServerReflection"}
    )
    assert itself.WhichOneof("message_response") == "file_descriptor_response"


def test_the_discovery_example_lists_describes_and_calls(
    server: tuple[GuessworkServer, int],
) -> None:
    """examples/discover.py, the README's grpcurl stand-in, learns everything by reflection."""
    script = [
        sys.executable,
        str(PROTO.parents[3] / "examples/discover.py"),
        f"127.0.0.1:{server[1]}",
    ]

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*script, *args], capture_output=True, text=True, timeout=60)

    assert "guesswork.v1.Guesswork" in run("list").stdout.split()
    described = run("describe", "guesswork.v1.Guesswork").stdout
    assert "rpc SuggestGuess(guesswork.v1.SuggestGuessRequest)" in described
    request = {"policy": W, "history": [{"guess": "raise", "reply": ".Y..."}]}
    answer = run("call", "guesswork.v1.Guesswork/SuggestGuess", json.dumps(request))
    assert answer.returncode == 0 and json.loads(answer.stdout)["guess"] == "CLOUT"
    request["history"][0]["reply"] = "GGGGY"
    refused = run("call", "guesswork.v1.Guesswork/SuggestGuess", json.dumps(request))
    assert refused.returncode == 1
    error = json.loads(refused.stdout)
    assert (error["reason"], error["metadata"]["field"]) == ("IMPOSSIBLE_REPLY", "history[0].reply")


def test_a_history_off_the_answer_list_is_the_same_position_in_every_rpc(
    stub: pb_grpc.GuessworkStub,
) -> None:
    """TACOS (allowed, not an answer): SuggestGuess answers over the guess list, and
    CheckGuess and EvilReply see the same one possible secret instead of a contradiction
    (TABOS, TACOS and TASTO fit the first two turns; TABOS's reply leaves TACOS)."""
    history = turns(("raise", ".G.Y."), ("tonal", "GY.Y."), ("tabos", "GG.GG"))
    suggested = stub.SuggestGuess(pb.SuggestGuessRequest(policy=W, history=history))
    checked = stub.CheckGuess(pb.CheckGuessRequest(policy=W, history=history, guess="tacos"))
    evil = stub.EvilReply(pb.EvilReplyRequest(policy=W, history=history, guess="tacos"))
    assert (suggested.guess, suggested.remaining) == ("TACOS", 1)
    assert (checked.legal, checked.remaining) == (True, 1)
    assert (evil.reply, evil.remaining, evil.solved) == ("GGGGG", 1, True)
