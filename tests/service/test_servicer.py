"""The servicer's signature tells the truth (issue #45, point 4): each method takes its
request alone, as the transport-independent pipeline (service.calls) calls it; no gRPC
context reaches it (the gRPC adapter, service.server, owns that)."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

from guesswork.client.catalog import Catalog
from guesswork.client.catalog_lookup import CatalogLookup
from guesswork.protos.guesswork.v1 import guesswork_pb2 as pb
from guesswork.service.local import LocalGuesswork
from guesswork.service.options import ServerOptions
from guesswork.service.servicer import GuessworkServicer

ROOT = Path(__file__).resolve().parents[2]


def test_each_method_takes_its_request_alone(catalog: Catalog) -> None:
    servicer = GuessworkServicer(ServerOptions(address="127.0.0.1:0"))
    servicer.load(LocalGuesswork(catalog))
    for method in pb.DESCRIPTOR.services_by_name["Guesswork"].methods:
        behaviour = getattr(servicer, method.name)
        assert list(inspect.signature(behaviour).parameters) == ["request"], method.name
        annotation = inspect.signature(behaviour).parameters["request"].annotation
        assert annotation == f"pb.{method.input_type.name}", method.name
    answer = servicer.SuggestGuess(pb.SuggestGuessRequest(policy="wordle-2309-normal-neg-entropy"))
    assert (answer.guess, answer.source) == ("RAISE", pb.SOURCE_STORED)


def test_the_transport_independent_pipeline_imports_no_grpc() -> None:
    for module in ("service/servicer.py", "service/calls.py", "service/local.py"):
        tree = ast.parse((ROOT / module).read_text(encoding="utf-8"))
        imported = [
            alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.Import)
            for alias in node.names
        ] + [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
        assert not [name for name in imported if name.split(".")[0] == "grpc"], module


def test_the_core_in_process_is_the_catalogs_lookups(catalog: Catalog) -> None:
    """LocalGuesswork answers as the lookup core itself, not through a layer that forwards
    each call to another object (LiveCatalogLookup, merged into it, was one)."""
    answers = LocalGuesswork(catalog)
    assert isinstance(answers, CatalogLookup) and answers.lookups is answers
    assert answers.suggest("wordle-2309-normal-neg-entropy").guess == "RAISE"
    assert answers.policy("wordle-2309-normal-neg-entropy").live is not None
