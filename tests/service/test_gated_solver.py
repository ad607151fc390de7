"""The live gate as a wrapper (issue #45, point 4): every call of the LiveSolver protocol
reaches the builder's solver through one generic gated call (service.live_gate), an
expensive one through the gate's expensive lane, its cost limit checked before any
waiting."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest

from guesswork.client.catalog import Catalog
from guesswork.client.catalog_lookup import CatalogLookup
from guesswork.client.errors import CostLimitError, ServiceUnavailableError
from guesswork.client.live_solver import LiveSolver
from guesswork.service.live_gate import CALL_ACTIVE, GatedLiveSolver, LiveGate

POLICY = "wordle-2309-normal-neg-entropy"


def protocol_methods() -> set[str]:
    """Return the names of the LiveSolver protocol's methods."""
    return {name for name, value in vars(LiveSolver).items() if callable(value) and name[0] != "_"}


def calls(catalog: Catalog) -> dict[str, tuple[Any, ...]]:
    """Return the arguments of one call of each method of the protocol."""
    lookup = CatalogLookup(catalog).policy(POLICY)
    policy = lookup.policy
    off_list = len(policy.vocabulary) + np.arange(5, dtype=np.int64)  # words of the wider list
    boards = [np.arange(0, 40, dtype=np.int64), np.arange(40, 90, dtype=np.int64)]
    return {
        "rank": (policy, np.arange(60, dtype=np.int64), 3),
        "rank_words": (policy, lookup.open_words, off_list, 3),
        "rank_boards": (policy, boards, 3),
    }


@contextmanager
def holding(gate: LiveGate, expensive: bool = False) -> Iterator[None]:
    """Hold one of ``gate``'s places (``expensive``: a place of its lane too) for the block,
    from another thread, as another client's live work would."""
    started, release = threading.Event(), threading.Event()

    def hold() -> None:
        started.set()
        release.wait(60)

    with ThreadPoolExecutor(1) as pool:
        held = pool.submit(gate.run, hold, expensive=expensive)
        assert started.wait(60)
        try:
            yield
        finally:
            release.set()
        held.result(60)


@contextmanager
def call_ended() -> Iterator[None]:
    """Mark the call of this thread ended for the block: live work that would wait
    at the gate is dropped instead (ServiceUnavailableError)."""
    token = CALL_ACTIVE.set(lambda: False)
    try:
        yield
    finally:
        CALL_ACTIVE.reset(token)


def test_every_call_of_the_protocol_passes_the_gate(catalog: Catalog) -> None:
    arguments = calls(catalog)
    assert set(arguments) == protocol_methods()  # a new method of the protocol is covered
    for name, args in arguments.items():
        gate = LiveGate(2)
        gated = GatedLiveSolver(gate)
        call: Callable[..., Any] = getattr(gated, name)
        assert call(*args) == getattr(gated.solver(), name)(*args), name
        assert (gate.busiest, gate.running) == (1, 0), name  # admitted, and done
        assert call.__doc__ == getattr(LiveSolver, name).__doc__  # the protocol's promise
        # With every place taken, it waits at the gate (dropped: its call has ended).
        with holding(gate), holding(gate), call_ended(), pytest.raises(ServiceUnavailableError):
            call(*args)


def test_expensive_work_leaves_a_place_for_other_live_work() -> None:
    gate = LiveGate(2)
    with holding(gate, expensive=True):
        with call_ended(), pytest.raises(ServiceUnavailableError, match="expensive"):
            gate.run(lambda: "another expensive one", expensive=True)
        assert gate.run(lambda: "off-tree") == "off-tree"  # the other place
    assert gate.run(lambda: "expensive again", expensive=True) == "expensive again"
    assert (gate.busiest, gate.running) == (2, 0)


def test_the_cost_limit_is_checked_before_any_waiting(catalog: Catalog) -> None:
    """A position over MAX_BOARD_CELLS is refused at once, even at a full gate."""
    policy = catalog.policy(POLICY)
    # 60 distinct boards of about 2,300 targets each: 2,309 guesses x 135k targets.
    boards = [np.arange(0, 2309 - k, dtype=np.int64) for k in range(60)]
    gate = LiveGate(1)
    gated = GatedLiveSolver(gate)
    with holding(gate), call_ended():
        with pytest.raises(CostLimitError) as refused:
            gated.rank_boards(policy, boards, 3)
        assert refused.value.metadata["unit"] == "reply_cells"
        with pytest.raises(ServiceUnavailableError):  # within the limit: it would wait
            gated.rank_boards(policy, boards[:2], 3)
    assert gate.busiest == 1  # the holder alone: nothing of ours was computed
