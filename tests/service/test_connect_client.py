"""The Connect project's own client (connectrpc) against guesswork-serve --http: the
HTTP adapter speaks Connect's unary protocol as its clients do, in JSON and binary
protobuf, with their error details."""

from __future__ import annotations

import pytest
from connectrpc.client import ConnectClientSync
from connectrpc.compat._codec import ProtoBinaryCodec, ProtoJSONCodec
from connectrpc.errors import ConnectError
from connectrpc.method import IdempotencyLevel, MethodInfo, StreamType
from google.rpc import error_details_pb2

from guesswork.client.catalog import Catalog
from guesswork.protos.guesswork.v1 import guesswork_pb2 as pb
from guesswork.service.server import GuessworkServer

SUGGEST = MethodInfo(
    name="SuggestGuess",
    service_name="guesswork.v1.Guesswork",
    input=pb.SuggestGuessRequest,
    output=pb.SuggestGuessResponse,
    idempotency_level=IdempotencyLevel.NO_SIDE_EFFECTS,
    stream_type=StreamType.UNARY,
)
POLICY = "wordle-2309-normal-neg-entropy"


@pytest.mark.parametrize("codec", [ProtoJSONCodec(), ProtoBinaryCodec()], ids=["json", "proto"])
def test_the_connect_client_gets_the_same_answers_and_errors(
    codec: object, http_server: GuessworkServer, catalog: Catalog
) -> None:
    address = f"http://127.0.0.1:{http_server.http_port}"
    policy = catalog.policy(POLICY)
    history = [("raise", ".Y..."), ("clout", "G....")]
    request = pb.SuggestGuessRequest(
        policy=POLICY, history=[pb.Turn(guess=g, reply=r) for g, r in history]
    )
    with ConnectClientSync(address, codec=codec) as client:  # type: ignore[arg-type]
        answer = client.execute_unary(request=request, method=SUGGEST)
        assert answer.guess == policy.next_guess(history) and answer.remaining == 2
        assert list(answer.alternatives) == ["CHAMP"] and len(answer.alternative_values) == 1
        with pytest.raises(ConnectError) as caught:
            client.execute_unary(request=pb.SuggestGuessRequest(policy="chess"), method=SUGGEST)
    assert caught.value.code.name == "NOT_FOUND"
    (detail,) = caught.value.details
    assert detail.type_name == "google.rpc.ErrorInfo"
    info = error_details_pb2.ErrorInfo.FromString(detail.message_bytes)
    assert info.reason == "POLICY_NOT_FOUND" and info.metadata["policy"] == "chess"
