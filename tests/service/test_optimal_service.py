"""Optimised policies (issue #6) are served like any other: stored walks, live answers,
and Mastermind's (black, white) replies, over a real server."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import grpc
import numpy as np
import pytest

from guesswork.builder.catalog_specs import DEFAULT_OPTIMAL_SPECS
from guesswork.builder.cli import run as build_run
from guesswork.client.catalog import Catalog, open_catalog
from guesswork.client.games import Mastermind
from guesswork.protos.guesswork.v1 import guesswork_pb2 as pb
from guesswork.protos.guesswork.v1 import guesswork_pb2_grpc as pb_grpc
from guesswork.service.server import ServerOptions, start_server
from tests.service.test_guess_my_word import suggest

OPTIMAL = [spec.name() for spec in DEFAULT_OPTIMAL_SPECS]


@pytest.mark.parametrize("name", OPTIMAL)
def test_shipped_optimal_policies_are_served_as_stored(
    stub: pb_grpc.GuessworkStub, catalog: Catalog, name: str
) -> None:
    policy = catalog.policy(name)
    assert policy.data.certificate is not None
    rng = np.random.default_rng(11)
    for index in rng.choice(len(policy.targets), 60, replace=False).tolist():
        target = policy.targets[index]
        guesses = policy.play(target)
        history: list[tuple[str, str]] = []
        for guess in guesses:
            answer = suggest(stub, name, history)
            assert (answer.guess, answer.source) == (guess, pb.SOURCE_STORED)
            history.append((guess, policy.game.format_reply(policy.game.reply(guess, target))))
        assert suggest(stub, name, history).solved


def test_an_off_tree_history_is_answered_live(stub: pb_grpc.GuessworkStub) -> None:
    name = OPTIMAL[0]
    answer = suggest(stub, name, [("CRANE", ".Y..Y")])
    assert answer.source == pb.SOURCE_LIVE and answer.remaining >= 1


@pytest.fixture(scope="module")
def mastermind_stub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[pb_grpc.GuessworkStub]:
    folder: Path = tmp_path_factory.mktemp("mastermind")
    catalog = folder / "catalog.sqlite"
    argv = [
        "optimize",
        "--game",
        "mastermind",
        "--colors",
        "6",
        "--pegs",
        "4",
        "--objective",
        "minimax",
        "--publish",
        "--catalog",
        str(catalog),
        "--quiet",
    ]
    assert build_run(argv) == 0
    server, port = start_server(ServerOptions(address="127.0.0.1:0"), open_catalog(str(catalog)))
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        yield pb_grpc.GuessworkStub(channel)
    server.stop(0, drain=0)


def test_mastermind_is_played_through_the_service_within_five(
    mastermind_stub: pb_grpc.GuessworkStub,
) -> None:
    game = Mastermind(4, 6)
    codes = ["".join(c) for c in itertools.product("ABCDEF", repeat=4)]
    for secret in codes[::37]:
        history: list[tuple[str, str]] = []
        while True:
            answer = suggest(mastermind_stub, "mastermind-minimax", history)
            if answer.solved:
                break
            assert answer.source == pb.SOURCE_STORED
            history.append((answer.guess, game.format_reply(game.reply(answer.guess, secret))))
        assert history[-1][0] == secret and len(history) <= 5


def test_mastermind_reply_errors_are_specific(mastermind_stub: pb_grpc.GuessworkStub) -> None:
    with pytest.raises(grpc.RpcError) as caught:
        suggest(mastermind_stub, "mastermind-minimax", [("AABC", "3B1W")])
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    with pytest.raises(grpc.RpcError) as caught:
        suggest(mastermind_stub, "mastermind-minimax", [("AABG", "1B")])
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
