"""A real server on an ephemeral loopback port, shared by the service tests."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest

from guesswork.client.catalog import Catalog, open_catalog
from guesswork.protos.guesswork.v1 import guesswork_pb2_grpc as pb_grpc
from guesswork.service.server import GuessworkServer, ServerOptions, start_server


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return open_catalog()


@pytest.fixture(scope="session")
def server(catalog: Catalog) -> Iterator[tuple[GuessworkServer, int]]:
    started = start_server(ServerOptions(address="127.0.0.1:0"), catalog)
    yield started
    started[0].stop(0, drain=0)


@pytest.fixture(scope="session")
def http_server(catalog: Catalog) -> Iterator[GuessworkServer]:
    """A server with the HTTP/JSON adapter and the page too (--http), both on free ports."""
    options = ServerOptions(address="127.0.0.1:0", http_address="127.0.0.1:0")
    started, _ = start_server(options, catalog)
    assert started.http_port is not None
    yield started
    started.stop(0, drain=0)


@pytest.fixture(scope="session")
def channel(server: tuple[GuessworkServer, int]) -> Iterator[grpc.Channel]:
    with grpc.insecure_channel(f"127.0.0.1:{server[1]}") as opened:
        yield opened


@pytest.fixture(scope="session")
def stub(channel: grpc.Channel) -> pb_grpc.GuessworkStub:
    return pb_grpc.GuessworkStub(channel)
