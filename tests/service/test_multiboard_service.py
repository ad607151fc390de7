"""SuggestBoards over a real server: the same answers as in process, the errors named."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import grpc
import pytest

from guesswork.client.catalog import Catalog
from guesswork.client.games import Wordle
from guesswork.client.messages import boards_suggestion
from guesswork.client.remote import RemoteClient
from guesswork.protos.guesswork.v1 import guesswork_pb2 as pb
from guesswork.protos.guesswork.v1 import guesswork_pb2_grpc as pb_grpc
from guesswork.service.local import LocalGuesswork
from guesswork.service.server import GuessworkServer, ServerOptions, start_server

from .test_contract import details, turns

POLICY = "wordle-2309-normal-neg-entropy"
#: Each channel its own connection (gRPC otherwise shares one between channels).
OWN_CONNECTION = [("grpc.use_local_subchannel_pool", 1)]
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


#: A Quordle's secrets: after TACIT and PLUMB solve two boards, CRIMP is known on the
#: third and FJORD or HYDRO left on the fourth.
QUORDLE = ("TACIT", "PLUMB", "CRIMP", "FJORD")


@pytest.mark.reliability
def test_a_suggestion_is_never_among_its_own_alternatives(
    stub: pb_grpc.GuessworkStub, catalog: Catalog
) -> None:
    """A Quordle played to the end on today's policy: the page showed "Guess CRIMP (or
    FJORD, HYDRO, CRIMP)". A board known to one word puts it first; where fewer
    candidates than asked were left, the ranking reached the word set aside and
    listed it again. Every turn's alternatives are now distinct, without the guess."""
    from guesswork.client.policy_choice import today_policy

    policy = today_policy(catalog.list())
    boards: list[list[tuple[str, str]]] = [[] for _ in QUORDLE]
    turns_played = 0
    while True:
        histories = [pb.BoardHistory(history=turns(*board)) for board in boards]
        answer = stub.SuggestBoards(
            pb.SuggestBoardsRequest(policy=policy, boards=histories, max_alternatives=3),
            timeout=120,
        )
        if answer.solved:
            break
        alternatives = list(answer.alternatives)
        assert answer.guess not in alternatives, (answer.guess, alternatives)
        assert len(set(alternatives)) == len(alternatives)
        assert len(answer.alternative_values) == len(alternatives)
        for board, secret in zip(boards, QUORDLE, strict=True):
            if not board or board[-1][1] != "GGGGG":
                board.append(
                    (answer.guess, WORDLE.format_reply(WORDLE.reply(answer.guess, secret)))
                )
        turns_played += 1
        assert turns_played <= 9
    assert turns_played == 6


#: A fresh board of the 8-letter policy: 28,420 guesses x 28,420 targets, 808 million
#: reply cells (about 12 s of two cores, 60 s on a loaded server; issue #42 point 8).
OVER_LIMIT = pb.SuggestBoardsRequest(
    policy="wordle-8-enable1-normal-neg-entropy", boards=[pb.BoardHistory()]
)
#: A fresh Duotrigordle on the 14855-word weighted policy: under the limit once its 32
#: alike boards are valued once (221 million cells); 32 times that before.
WEIGHTED = "wordle-14855-weighted-wordfreq-normal-neg-entropy"
EXPENSIVE = pb.SuggestBoardsRequest(policy=WEIGHTED, boards=[pb.BoardHistory()] * 32)


@pytest.mark.reliability
def test_a_position_over_the_cost_limit_is_refused_before_any_work(
    stub: pb_grpc.GuessworkStub, server: tuple[GuessworkServer, int]
) -> None:
    """It was computed: 12 s of both cores here, a minute on a loaded server."""
    from guesswork.client.multiboard import MAX_BOARD_CELLS

    gate = server[0].servicer.live
    before = gate.busiest
    code, reason, metadata, message = details(lambda: stub.SuggestBoards(OVER_LIMIT, timeout=120))
    assert (code, reason) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "COST_LIMIT")
    assert metadata["limit"] == str(MAX_BOARD_CELLS) and metadata["unit"] == "reply_cells"
    assert int(metadata["cost"]) == 28_420 * 28_420 > MAX_BOARD_CELLS
    assert metadata["policy"] == OVER_LIMIT.policy and len(message) < 300
    assert gate.busiest == before  # refused before the live gate: nothing was computed


@pytest.mark.reliability
def test_expensive_boards_in_flight_leave_a_live_place_for_another_client(
    catalog: Catalog,
) -> None:
    """Two clients' expensive SuggestBoards held both live places (--max-live 2), and
    another client's off-tree SuggestGuess waited for one to end (0.04 s -> 24.5 s):
    now expensive work holds at most --max-live - 1 places, so the off-tree answer
    comes while both expensive calls are still unanswered."""
    started, port = start_server(
        ServerOptions(address="127.0.0.1:0", max_live=2, cache_entries=0), catalog
    )
    servicer = started.servicer
    done: list[str] = []
    lock = threading.Lock()

    def call(name: str, run: Callable[[pb_grpc.GuessworkStub], object]) -> None:
        # Each client its own connection, as separate clients have.
        with grpc.insecure_channel(f"127.0.0.1:{port}", options=OWN_CONNECTION) as channel:
            run(pb_grpc.GuessworkStub(channel))
        with lock:
            done.append(name)

    def in_flight() -> int:
        # The calls holding a --max-concurrent place (its semaphore's free places).
        return servicer.options.max_concurrent - servicer.slots._value  # type: ignore[attr-defined]

    expensive = [
        threading.Thread(
            target=call, args=(f"boards {n}", lambda s: s.SuggestBoards(EXPENSIVE, timeout=300))
        )
        for n in range(2)
    ]
    try:
        for thread in expensive:
            thread.start()
        for _ in range(12_000):  # both expensive calls are in the server, one computing
            if in_flight() == 2 and servicer.live.running >= 1:
                break
            time.sleep(0.01)
        assert in_flight() == 2 and servicer.live.running >= 1 and not done
        off_tree = pb.SuggestGuessRequest(
            policy="wordle-2315-g12972-normal-neg-entropy",
            history=turns(("qajaq", "....."), ("crane", "Y..Y.")),
        )
        call("off-tree", lambda s: s.SuggestGuess(off_tree, timeout=300))
        with lock:
            assert done[0] == "off-tree", done  # answered while both were in flight
        for thread in expensive:
            thread.join(timeout=600)
        assert sorted(done) == ["boards 0", "boards 1", "off-tree"]
    finally:
        started.stop(0, drain=0)
