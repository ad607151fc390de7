"""Errors never echo unbounded input (issue #26, points 3 and 4).

Each error path is sent a 60,000-character value and a value of 20,000 "é"
through a Python client: the documented status and reason must arrive (a
trailer over a client's metadata limit arrives as RESOURCE_EXHAUSTED with no
reason), the message repeats at most client.text.SHOWN_CHARACTERS of the
value, stating its length, and nothing answers INTERNAL (a Jotto count of
thousands of digits once did: Python's limit on integer parsing).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from guesswork.client.errors import (
    GuessworkError,
    ImpossibleReplyError,
    InvalidHoneycombError,
    InvalidReplyError,
    InvalidWordError,
    PolicyNotFoundError,
    WordListNotFoundError,
)
from guesswork.client.text import SHOWN_CHARACTERS
from guesswork.protos.guesswork.v1 import guesswork_pb2 as pb
from guesswork.protos.guesswork.v1 import guesswork_pb2_grpc as pb_grpc
from guesswork.service.errors import MESSAGE_CHARACTERS, METADATA_CHARACTERS

pytestmark = pytest.mark.reliability

WORDLE = "wordle-2309-normal-neg-entropy"
JOTTO = "jotto-2309-normal-max"
VALUES = {"60,000 x": "x" * 60_000, "20,000 é": "é" * 20_000}
INVALID, NOT_FOUND = grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.NOT_FOUND

Call = Callable[[pb_grpc.GuessworkStub, str], Any]

#: name -> (the call with the long value put in one field, the status, the error class).
PATHS: dict[str, tuple[Call, grpc.StatusCode, type[GuessworkError]]] = {
    "GetPolicy name": (
        lambda s, v: s.GetPolicy(pb.GetPolicyRequest(name=v)),
        NOT_FOUND,
        PolicyNotFoundError,
    ),
    "SuggestGuess policy": (
        lambda s, v: s.SuggestGuess(pb.SuggestGuessRequest(policy=v)),
        NOT_FOUND,
        PolicyNotFoundError,
    ),
    "SuggestGuess guess": (
        lambda s, v: s.SuggestGuess(
            pb.SuggestGuessRequest(policy=WORDLE, history=[pb.Turn(guess=v, reply=".....")])
        ),
        INVALID,
        InvalidWordError,
    ),
    "SuggestGuess reply": (
        lambda s, v: s.SuggestGuess(
            pb.SuggestGuessRequest(policy=WORDLE, history=[pb.Turn(guess="crane", reply=v)])
        ),
        INVALID,
        InvalidReplyError,
    ),
    "ScoreGuess guess": (
        lambda s, v: s.ScoreGuess(pb.ScoreGuessRequest(policy=WORDLE, guess=v, target="crane")),
        INVALID,
        InvalidWordError,
    ),
    "ScoreGuess target": (
        lambda s, v: s.ScoreGuess(pb.ScoreGuessRequest(policy=WORDLE, guess="crane", target=v)),
        INVALID,
        InvalidWordError,
    ),
    "CheckGuess guess": (
        lambda s, v: s.CheckGuess(pb.CheckGuessRequest(policy=WORDLE, guess=v)),
        INVALID,
        InvalidWordError,
    ),
    "EvilReply guess": (
        lambda s, v: s.EvilReply(pb.EvilReplyRequest(policy=WORDLE, guess=v)),
        INVALID,
        InvalidWordError,
    ),
    "AnalyzeGame answer": (
        lambda s, v: s.AnalyzeGame(
            pb.AnalyzeGameRequest(
                policy=WORDLE, history=[pb.Turn(guess="crane", reply="GGGGG")], answer=v
            )
        ),
        INVALID,
        InvalidWordError,
    ),
    "TopHoneycombs word_list": (
        lambda s, v: s.TopHoneycombs(pb.TopHoneycombsRequest(word_list=v)),
        NOT_FOUND,
        WordListNotFoundError,
    ),
    "ScoreHoneycomb letters": (
        lambda s, v: s.ScoreHoneycomb(pb.ScoreHoneycombRequest(letters=v, center="A")),
        INVALID,
        InvalidHoneycombError,
    ),
    "ScoreHoneycomb center": (
        lambda s, v: s.ScoreHoneycomb(pb.ScoreHoneycombRequest(letters="AEGINRT", center=v)),
        INVALID,
        InvalidHoneycombError,
    ),
}


def _refusal(call: Callable[[], Any]) -> tuple[grpc.RpcError, error_details_pb2.ErrorInfo]:
    """Return the error ``call`` ends with and the ErrorInfo its status carries."""
    with pytest.raises(grpc.RpcError) as caught:
        call()
    error = caught.value
    status = rpc_status.from_call(error)  # type: ignore[arg-type]
    assert status is not None, f"no rich status: {error.code()} {error.details()[:200]}"
    info = error_details_pb2.ErrorInfo()
    assert status.details[0].Unpack(info)
    return error, info


def _check_bounded(error: grpc.RpcError, info: error_details_pb2.ErrorInfo, value: str) -> None:
    message = error.details()
    assert len(message) <= MESSAGE_CHARACTERS + 40, len(message)
    assert value[: SHOWN_CHARACTERS + 1] not in message
    assert all(len(v) <= METADATA_CHARACTERS + 40 for v in info.metadata.values())
    trailer = sum(len(key) + len(val) for key, val in error.trailing_metadata())
    assert trailer < 4096, trailer


@pytest.mark.parametrize("value_name", VALUES)
@pytest.mark.parametrize("path", PATHS)
def test_each_error_path_answers_its_reason_to_a_huge_value(
    stub: pb_grpc.GuessworkStub, path: str, value_name: str
) -> None:
    call, code, error_class = PATHS[path]
    value = VALUES[value_name]
    error, info = _refusal(lambda: call(stub, value))
    assert (error.code(), info.reason) == (code, error_class.reason), error.details()[:200]
    _check_bounded(error, info, value)


@pytest.mark.parametrize("method", ["SuggestGuess", "CheckGuess", "EvilReply", "AnalyzeGame"])
def test_a_jotto_count_of_thousands_of_digits_is_impossible_not_internal(
    stub: pb_grpc.GuessworkStub, method: str
) -> None:
    digits = "9" * 5_000
    history = [pb.Turn(guess="crane", reply=digits)]
    requests = {
        "SuggestGuess": pb.SuggestGuessRequest(policy=JOTTO, history=history),
        "CheckGuess": pb.CheckGuessRequest(policy=JOTTO, history=history, guess="slate"),
        "EvilReply": pb.EvilReplyRequest(policy=JOTTO, history=history, guess="slate"),
        "AnalyzeGame": pb.AnalyzeGameRequest(policy=JOTTO, history=history, answer="slate"),
    }
    error, info = _refusal(lambda: getattr(stub, method)(requests[method]))
    assert (error.code(), info.reason) == (INVALID, ImpossibleReplyError.reason)
    assert "(5,000 characters)" in error.details()
    _check_bounded(error, info, digits)
