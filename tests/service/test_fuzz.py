"""Random and malformed requests never produce UNKNOWN or INTERNAL, and the server stays up."""

from __future__ import annotations

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from guesswork.protos.guesswork.v1 import guesswork_pb2 as pb
from guesswork.protos.guesswork.v1 import guesswork_pb2_grpc as pb_grpc

POLICIES = st.sampled_from(
    [
        "wordle-2309-normal-max",
        "policies/jotto-2309-hard-max",
        "antiwordle-2309-hard-entropy",
        "wordle-2315-g12972-normal-neg-entropy",
        "guess-my-word-common-words-optimal-live",
        "policies/guess-my-word-common-words-binary-deduce",
        "",
        "chess",
        "policies/",
        "x" * 300,
    ]
)
WORDS = st.one_of(
    st.sampled_from(
        [
            "RAISE",
            "arise",
            "ninny",
            "DRAPE",
            "fuzzy",
            "tiger",
            "aahed",
            "xylyl",
            "house",
            "not",
            "the",
            "zzz",
        ]
    ),
    st.text(max_size=12),
)
REPLIES = st.one_of(
    st.sampled_from(
        [".....", "GGGGG", "GGGGY", ".Y..G", "2", "5", "7", "-1", "🟩🟨⬛⬛⬛", "bbbbb"]
    ),
    st.text(alphabet="GY.gybx012🟩🟨⬛⬜🟧🟦 \u200d\ufe0f", max_size=8),
    st.text(max_size=8),
)
TURNS = st.lists(st.builds(pb.Turn, guess=WORDS, reply=REPLIES), max_size=70)
ALLOWED = {
    grpc.StatusCode.OK,
    grpc.StatusCode.INVALID_ARGUMENT,
    grpc.StatusCode.NOT_FOUND,
    grpc.StatusCode.FAILED_PRECONDITION,
    grpc.StatusCode.RESOURCE_EXHAUSTED,
}

REQUESTS = st.one_of(
    st.builds(
        lambda p, h, a: (
            "SuggestGuess",
            pb.SuggestGuessRequest(policy=p, history=h, max_alternatives=a),
        ),
        POLICIES,
        TURNS,
        st.integers(-5, 60),
    ),
    st.builds(
        lambda p, g, t: ("ScoreGuess", pb.ScoreGuessRequest(policy=p, guess=g, target=t)),
        POLICIES,
        WORDS,
        WORDS,
    ),
    st.builds(
        lambda p, h, g, r: (
            "CheckGuess",
            pb.CheckGuessRequest(policy=p, history=h, guess=g, rule=r),
        ),
        POLICIES,
        TURNS,
        WORDS,
        st.integers(0, 5),
    ),
    st.builds(
        lambda p, h, g: ("EvilReply", pb.EvilReplyRequest(policy=p, history=h, guess=g)),
        POLICIES,
        TURNS,
        WORDS,
    ),
    st.builds(lambda n: ("GetPolicy", pb.GetPolicyRequest(name=n)), POLICIES),
    st.builds(
        lambda w, s, n: ("TopHoneycombs", pb.TopHoneycombsRequest(word_list=w, allow_s=s, count=n)),
        st.sampled_from(["enable1", "", "sgb-words", "nope"]),
        st.booleans(),
        st.integers(-3, 60),
    ),
    st.builds(
        lambda letters, c, w, s: (
            "ScoreHoneycomb",
            pb.ScoreHoneycombRequest(letters=letters, center=c, word_list=w, allow_s=s),
        ),
        st.one_of(st.sampled_from(["AEGINRT", "aeinrst", "AEGINRR"]), st.text(max_size=9)),
        st.text(max_size=2),
        st.sampled_from(["enable1", "", "nope"]),
        st.booleans(),
    ),
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(REQUESTS)
def test_fuzzed_requests_get_canonical_errors(
    stub: pb_grpc.GuessworkStub, request: tuple[str, object]
) -> None:
    method, message = request
    try:
        getattr(stub, method)(message, timeout=30)
        code = grpc.StatusCode.OK
    except grpc.RpcError as error:
        code = error.code()
    assert code in ALLOWED, (method, message, code)


def test_server_is_healthy_after_fuzzing(
    channel: grpc.Channel, stub: pb_grpc.GuessworkStub
) -> None:
    health = health_pb2_grpc.HealthStub(channel)
    status = health.Check(health_pb2.HealthCheckRequest(service="guesswork.v1.Guesswork")).status
    assert status == health_pb2.HealthCheckResponse.SERVING
    assert (
        stub.SuggestGuess(pb.SuggestGuessRequest(policy="wordle-2309-normal-max")).guess == "ARISE"
    )
