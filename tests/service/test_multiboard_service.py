"""SuggestBoards over a real server: the same answers as in process, the errors named."""

from __future__ import annotations

import grpc
import pytest

from guesswork.client.catalog import Catalog
from guesswork.client.games import Wordle
from guesswork.client.messages import boards_suggestion
from guesswork.client.remote import RemoteClient
from guesswork.protos.guesswork.v1 import guesswork_pb2 as pb
from guesswork.protos.guesswork.v1 import guesswork_pb2_grpc as pb_grpc
from guesswork.service.local import LocalGuesswork
from guesswork.service.server import GuessworkServer

from .test_contract import details, turns

POLICY = "wordle-2309-normal-neg-entropy"
WORDLE = Wordle()
#: Two boards after RAISE and COUNT, their secrets CLIMB and ROBIN.
BOARDS = [
    [
        (guess, WORDLE.format_reply(WORDLE.reply(guess.upper(), secret)))
        for guess in ("raise", "count")
    ]
    for secret in ("CLIMB", "ROBIN")
]


def request(boards: list[list[tuple[str, str]]], **fields: object) -> pb.SuggestBoardsRequest:
    histories = [pb.BoardHistory(history=turns(*board)) for board in boards]
    return pb.SuggestBoardsRequest(policy=POLICY, boards=histories, **fields)  # type: ignore[arg-type]


def test_the_service_answers_as_in_process(
    stub: pb_grpc.GuessworkStub, catalog: Catalog, server: tuple[GuessworkServer, int]
) -> None:
    local = LocalGuesswork(catalog).suggest_boards(POLICY, BOARDS, 4)
    answer = boards_suggestion(stub.SuggestBoards(request(BOARDS, max_alternatives=4)))
    assert answer == local
    assert len(answer.alternatives) == 4 and answer.guess_limit == 7
    with RemoteClient(f"127.0.0.1:{server[1]}") as remote:
        assert remote.suggest_boards(POLICY, BOARDS, 4) == local


@pytest.mark.parametrize(
    ("boards", "reason", "field"),
    [
        ([[("raise", ".....")], [("raise", "xx")]], "INVALID_REPLY", "boards[1].history[0].reply"),
        ([[("raise", ".....")], [("slate", ".....")]], "BAD_REQUEST", "boards[1]"),
        ([[("raise", ".....")], []], "BAD_REQUEST", "boards[1]"),
        ([[]] * 33, "BAD_REQUEST", "boards"),
        ([[("raise", "GGGG.")], [("raise", ".....")]], "CONTRADICTORY_HISTORY", "boards[0]"),
    ],
)
def test_errors_name_the_board(
    stub: pb_grpc.GuessworkStub, boards: list[list[tuple[str, str]]], reason: str, field: str
) -> None:
    code, got, metadata, message = details(lambda: stub.SuggestBoards(request(boards)))
    assert got == reason and metadata["field"] == field
    assert code in (grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.FAILED_PRECONDITION)
    assert len(message) < 300
