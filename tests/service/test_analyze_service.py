"""AnalyzeGame over a real server: the same numbers as ``guesswork analyze``, errors with
their reasons and metadata, and cached like the other answers."""

from __future__ import annotations

import json

import grpc
import pytest

from guesswork.__main__ import run
from guesswork.client.catalog import Catalog
from guesswork.client.errors import ContradictoryHistoryError
from guesswork.client.messages import json_object
from guesswork.client.remote import RemoteClient
from guesswork.protos.guesswork.v1 import guesswork_pb2 as pb
from guesswork.protos.guesswork.v1 import guesswork_pb2_grpc as pb_grpc
from guesswork.service.server import GuessworkServer
from tests.service.test_contract import details

SALET = "wordle-2315-g12972-normal-optimal-first-salet"
NYT = "wordle-2315-g12972-nyt-hard-neg-entropy"


def turns(catalog: Catalog, policy: str, answer: str, guesses: list[str]) -> list[pb.Turn]:
    game = catalog.policy(policy).game
    return [pb.Turn(guess=w, reply=game.format_reply(game.reply(w, answer))) for w in guesses]


def as_json(response: pb.AnalyzeGameResponse) -> dict[str, object]:
    """Return the response as the CLI's --json object: its JSON mapping as HTTP answers
    it, with the policy's name as --policy takes it and the weights even when empty."""
    policy = response.policy.removeprefix("policies/")
    return {**json_object(response), "policy": policy, "weights": response.weights}


@pytest.mark.parametrize(
    ("policy", "answer", "guesses", "given"),
    [
        (SALET, "FOUND", ["CRANE", "PILOT", "FOUND"], ""),
        (NYT, "MANIA", ["SALET", "CAIRN"], "mania"),
        ("jotto-2309-normal-neg-entropy", "MOUNT", ["SOUTH", "DRAPE", "MOUNT"], ""),
    ],
)
def test_analyze_game_gives_the_cli_numbers(
    capsys: pytest.CaptureFixture[str],
    server: tuple[GuessworkServer, int],
    stub: pb_grpc.GuessworkStub,
    catalog: Catalog,
    policy: str,
    answer: str,
    guesses: list[str],
    given: str,
) -> None:
    history = turns(catalog, policy, answer, guesses)
    request = pb.AnalyzeGameRequest(policy=policy, history=history, answer=given)
    response = stub.AnalyzeGame(request, timeout=120)
    text = ",".join(f"{t.guess}:{t.reply}" for t in history)
    answers = []
    for where in ([], ["--server", f"127.0.0.1:{server[1]}"]):
        status = run(
            ["analyze", *where, "--policy", policy, "--history", text, "--answer", given, "--json"]
        )
        out, err = capsys.readouterr()
        assert (status, err) == (0, "")
        answers.append(json.loads(out))
    assert as_json(response) == answers[0] == answers[1]
    assert response.answer == answer and len(response.moves) == len(guesses)
    assert response.moves[0].HasField("best_remaining")


def test_the_remote_client_gets_the_same_analysis(
    server: tuple[GuessworkServer, int], catalog: Catalog
) -> None:
    history = [
        (t.guess, t.reply) for t in turns(catalog, SALET, "TACIT", ["SALET", "THING", "TACIT"])
    ]
    with RemoteClient(f"127.0.0.1:{server[1]}", timeout=120) as remote:
        first = remote.analyze(SALET, history)
        again = remote.analyze(f"policies/{SALET}", history)  # answered from the cache
        with pytest.raises(ContradictoryHistoryError) as caught:
            remote.analyze(SALET, history, "found")
    assert first == again and first.solved and first.answer == "TACIT"
    assert [m.skill for m in first.moves] == [100.0, 100.0, 100.0]
    assert caught.value.metadata["field"] == "answer"


@pytest.mark.parametrize(
    ("request_", "code", "reason", "metadata"),
    [
        (
            pb.AnalyzeGameRequest(policy="chess", history=[pb.Turn(guess="raise", reply=".....")]),
            grpc.StatusCode.NOT_FOUND,
            "POLICY_NOT_FOUND",
            {"policy": "chess"},
        ),
        (
            pb.AnalyzeGameRequest(policy=SALET),
            grpc.StatusCode.INVALID_ARGUMENT,
            "BAD_REQUEST",
            {"field": "history", "policy": SALET},
        ),
        (
            pb.AnalyzeGameRequest(
                policy="guess-my-word-common-words-optimal-live",
                history=[pb.Turn(guess="cat", reply="after")],
            ),
            grpc.StatusCode.INVALID_ARGUMENT,
            "BAD_REQUEST",
            {"field": "policy"},
        ),
        (
            pb.AnalyzeGameRequest(
                policy=SALET, history=[pb.Turn(guess="crane", reply=".....")], answer="tacit"
            ),
            grpc.StatusCode.FAILED_PRECONDITION,
            "CONTRADICTORY_HISTORY",
            {"field": "answer", "turn": "1", "policy": SALET},
        ),
        (
            pb.AnalyzeGameRequest(
                policy=SALET, history=[pb.Turn(guess="crane", reply=".....")], answer="x1"
            ),
            grpc.StatusCode.INVALID_ARGUMENT,
            "INVALID_WORD",
            {"field": "answer"},
        ),
        (
            pb.AnalyzeGameRequest(policy=SALET, history=[pb.Turn(guess="raise", reply="GGGGY")]),
            grpc.StatusCode.INVALID_ARGUMENT,
            "IMPOSSIBLE_REPLY",
            {"field": "history[0].reply", "turn": "1"},
        ),
    ],
)
def test_analyze_game_errors_carry_their_reason_and_metadata(
    stub: pb_grpc.GuessworkStub,
    request_: pb.AnalyzeGameRequest,
    code: grpc.StatusCode,
    reason: str,
    metadata: dict[str, str],
) -> None:
    got_code, got_reason, got_metadata, _ = details(lambda: stub.AnalyzeGame(request_, timeout=60))
    assert (got_code, got_reason) == (code, reason)
    assert metadata.items() <= got_metadata.items()
