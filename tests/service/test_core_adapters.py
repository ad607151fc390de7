"""The application core answers the same through every transport.

LocalGuesswork (in process) and RemoteClient (over gRPC, through the servicer
and client.messages) implement client.core.Guesswork; each call here is made
both ways on the same catalog and the typed results must be equal, field for
field, errors included.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from guesswork.client.catalog import Catalog
from guesswork.client.core import RULE_NYT, Guesswork
from guesswork.client.errors import GuessworkError
from guesswork.client.remote import RemoteClient
from guesswork.service.local import LocalGuesswork
from guesswork.service.server import GuessworkServer

W = "wordle-2309-normal-neg-entropy"
HARD = "wordle-2309-hard-max"
WEIGHTED = "wordle-14855-weighted-wordfreq-normal-neg-entropy"

#: Each call of the core, as (label, call); every method of the protocol is here.
CALLS: list[tuple[str, Callable[[Guesswork], Any]]] = [
    ("policies", lambda g: g.policies()),
    ("policies of a game", lambda g: g.policies("mastermind")),
    ("policy_info", lambda g: g.policy_info(W)),
    ("policy_info, weighted", lambda g: g.policy_info(f"policies/{WEIGHTED}")),
    ("suggest stored", lambda g: g.suggest(W, [("raise", ".Y...")])),
    ("suggest live", lambda g: g.suggest(W, [("crane", ".Y...")], 3)),
    ("suggest off the answer list", lambda g: g.suggest(W, [("tacos", "GGGG.")])),
    ("score", lambda g: g.score(HARD, "ninny", "annex")),
    ("check", lambda g: g.check(HARD, [("arise", ".....")], "could")),
    ("check, NYT rule", lambda g: g.check(HARD, [("crane", "G.Y..")], "blast", RULE_NYT)),
    ("evil_reply", lambda g: g.evil_reply("wordle-2309-normal-max", [], "arise")),
    ("analyze", lambda g: g.analyze(W, [("raise", ".Y..."), ("clout", "G....")])),
    ("top_honeycombs", lambda g: g.top_honeycombs("enable1", False, 3)),
    ("score_honeycomb", lambda g: g.score_honeycomb("AEGINRT", "R")),
    ("unknown policy", lambda g: g.suggest("chess")),
    ("bad reply", lambda g: g.suggest(W, [("raise", "XYZ")])),
    ("unknown rule", lambda g: g.check(HARD, [], "could", "lenient")),
    ("bad honeycomb", lambda g: g.score_honeycomb("AEGINR", "R")),
]


@pytest.fixture(scope="module")
def both(
    catalog: Catalog, server: tuple[GuessworkServer, int]
) -> Iterator[tuple[Guesswork, Guesswork]]:
    with RemoteClient(f"127.0.0.1:{server[1]}", timeout=60) as remote:
        yield LocalGuesswork(catalog), remote


def _outcome(call: Callable[[Guesswork], Any], answers: Guesswork) -> Any:
    """Return what ``call`` answers, or its error's class, message and metadata."""
    try:
        return call(answers)
    except GuessworkError as error:
        return type(error), str(error), {k: str(v) for k, v in error.metadata.items()}


@pytest.mark.parametrize(("label", "call"), CALLS, ids=[label for label, _ in CALLS])
def test_in_process_and_over_grpc_answer_alike(
    both: tuple[Guesswork, Guesswork], label: str, call: Callable[[Guesswork], Any]
) -> None:
    local, remote = both
    here, there = _outcome(call, local), _outcome(call, remote)
    if label == "top_honeycombs":
        # The contract sends no list hash: the remote table's is empty.
        assert here.list_sha256 and not there.list_sha256
        here = dataclasses.replace(here, list_sha256="")
    if isinstance(here, tuple) and here and isinstance(here[0], type):
        # The service adds the policy to an error's metadata (the stable contract).
        there[2].pop("policy", None)
        here[2].pop("policy", None)
    assert here == there


def test_listing_reads_no_policy_in_either(
    both: tuple[Guesswork, Guesswork], catalog: Catalog
) -> None:
    """Summaries come from the manifest: a listing reads no policy, and the service's
    listing is the same summaries."""
    _, remote = both
    fresh = LocalGuesswork(Catalog(catalog.location, catalog._stored))
    infos = fresh.policies()
    assert infos == remote.policies() and len(infos) > 50
    assert fresh.catalog._loaded == {}
    weighted = fresh.policy_info(WEIGHTED)
    assert weighted.weights == "wordfreq" and weighted.uniform_mean is not None
    assert sum(count for _, count in weighted.histogram) == weighted.count
