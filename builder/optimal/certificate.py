"""Certificates: what an optimised tree claims, and the per-node figures that prove it.

A certificate records the objective value, the best lower bound, the
parameters, and per node the subtree's value and the static bound of its
target set, which ``verify_certificate`` recomputes from scratch.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..tree import GuessTree
from .bounds import INFEASIBLE
from .problem import Problem, SearchOptions
from .root import Outcome
from .search import Search
from .witness import Witness


@dataclass(frozen=True)
class Certificate:
    """What an optimised tree claims and what proves it.

    ``value`` is the objective of the tree (total guesses, or worst case);
    ``lower_bound`` the best proven lower bound on the optimum (equal to
    ``value`` when ``proven``; with a fixed first guess, the optimum among
    trees starting with it). ``node_values[i]`` is node i's subtree value and
    ``node_bounds[i]`` the static lower bound of its target set (the least,
    over every guess, of the bound that guess gets in the scan; see
    :mod:`.bounds`). ``roots`` lists each first guess considered with its
    exact value or the bound that refuted it.
    """

    objective: str
    value: int
    lower_bound: int
    proven: bool
    beam: int | None
    max_guesses: int | None
    first_guess: str | None
    hard: bool
    node_values: np.ndarray = field(repr=False)
    node_bounds: np.ndarray = field(repr=False)
    roots: list[tuple[str, int, bool]] = field(default_factory=list, repr=False)
    #: NYT hard mode: every guess met the NYT rule after the replies before it.
    nyt_hard: bool = False
    #: A search over every opener: how each of ``roots`` was settled, in the same
    #: order ("search", "static" or "one-level"; see :class:`.root.RootResult`).
    #: Empty when every root was searched (then the key is not written).
    settled_by: tuple[str, ...] = ()
    #: A search over every opener led by this opener (SearchOptions.lead_opener),
    #: or None (the key is then not written).
    lead_opener: str | None = None
    #: A tie-break objective (``total-then-worst``, ``worst-then-total``): the
    #: tree's worst case ``worst`` and ``refuted``, a proven lower bound on the total
    #: of any tree within ``worst - 1`` guesses (INFEASIBLE: there is none;
    #: ``total-then-worst``: the tree's total + 1, see .tie_break), which proves that
    #: worst case least among the trees of its total (``total-then-worst``:
    #: refuted > value) or among all trees (``worst-then-total``: INFEASIBLE).
    #: None otherwise (the key is then not written).
    tie_break: dict[str, int] | None = None
    #: A search over every opener: each opener settled by search (but the tree's own)
    #: with the witness of its value (:mod:`.witness`), in the order of ``roots``.
    #: Empty when there are none (then the keys are not written).
    witnesses: dict[str, Witness] = field(default_factory=dict, repr=False)

    def to_map(self) -> dict[str, Any]:
        """Return the certificate as a msgpack-ready map (int32 arrays as bytes)."""
        return {
            "objective": self.objective,
            "value": self.value,
            "lower_bound": self.lower_bound,
            "proven": self.proven,
            "beam": self.beam,
            "max_guesses": self.max_guesses,
            "first_guess": self.first_guess,
            "hard": self.hard,
            "node_values": np.ascontiguousarray(self.node_values, "<i4").tobytes(),
            "node_bounds": np.ascontiguousarray(self.node_bounds, "<i4").tobytes(),
            "roots": [[word, value, exact] for word, value, exact in self.roots],
            # Only where set, so other modes' certificates keep their bytes.
            **({"nyt_hard": True} if self.nyt_hard else {}),
            **({"settled_by": list(self.settled_by)} if self.settled_by else {}),
            **({"lead_opener": self.lead_opener} if self.lead_opener else {}),
            **self._witness_map(),
            # Last: a stored optimum gains it afterwards (builder.least_worst), as here.
            **({"tie_break": dict(self.tie_break)} if self.tie_break else {}),
        }

    def _witness_map(self) -> dict[str, Any]:
        """Return the witnesses' keys: ``witnesses``, {opener: [[reply code, bound], ...]},
        and ``witnesses_uncapped``, the openers whose witnesses the uncapped search
        proved (each key only where it has any)."""
        if not self.witnesses:
            return {}
        uncapped = [word for word, witness in self.witnesses.items() if witness.uncapped]
        return {
            "witnesses": {word: witness.to_list() for word, witness in self.witnesses.items()},
            **({"witnesses_uncapped": uncapped} if uncapped else {}),
        }


def node_masses(
    node_size: np.ndarray,
    node_first: np.ndarray,
    target_order: np.ndarray,
    weights: np.ndarray | None,
) -> np.ndarray:
    """Return each node's total target weight (its size when ``weights`` is None).

    Returns:
        An int64 array, one entry per node.
    """
    sizes = np.asarray(node_size, dtype=np.int64)
    if weights is None:
        return sizes
    # Prefix sums over the targets in tree order: a node's targets are one run of it.
    running = np.concatenate(([0], np.cumsum(weights[np.asarray(target_order)], dtype=np.int64)))
    first = np.asarray(node_first, dtype=np.int64)
    masses: np.ndarray = running[first + sizes] - running[first]
    return masses


def node_values(tree: GuessTree, minimax: bool, weights: np.ndarray | None = None) -> np.ndarray:
    """Return each node's subtree value: its worst case (minimax) or total guesses
    (weighted by each target's weight when ``weights`` is given).

    Returns:
        An int64 array, one value per node.
    """
    count = tree.node_count
    masses = node_masses(tree.node_size, tree.node_first, tree.target_order, weights)
    values = np.zeros(count, dtype=np.int64)
    for node in range(count - 1, -1, -1):
        start, stop = int(tree.edge_offsets[node]), int(tree.edge_offsets[node + 1])
        below = [int(values[child]) for child in tree.edge_child[start:stop]]
        if minimax:
            values[node] = 1 + max(below, default=0)
        else:
            values[node] = int(masses[node]) + sum(below)
    return values


def node_bounds_of(
    problem: Problem,
    options: SearchOptions,
    node_targets: Sequence[np.ndarray],
    depths: Sequence[int],
    known: dict[bytes, int] | None = None,
    states: Sequence[bytes] | None = None,
) -> np.ndarray:
    """Return each node's static lower bound (least over all guesses), for certificates.

    ``depths`` are the guesses each node has left, ``states`` their NYT
    constraint states (NYT hard mode; None: none). Bounds in ``known`` (a
    search's :attr:`~.search.Search.static`) are used as they are; the others are
    computed.

    Returns:
        An int64 array, one bound per node (INFEASIBLE where no guess is feasible).
    """
    plain = Search(problem, dataclasses.replace(options, beam=None, workers=1))
    known = known or {}
    states = states if states is not None else [b""] * len(node_targets)
    out = np.zeros(len(node_targets), dtype=np.int64)
    for i, (targets, depth, state) in enumerate(zip(node_targets, depths, states, strict=True)):
        if len(targets) <= 2:
            out[i] = plain.values.trivial_of(targets)
            continue
        recorded = known.get(plain.values.key(targets, depth, state))
        if recorded is not None:
            out[i] = recorded
            continue
        bounds = plain.scan(targets, depth, state=state).bounds
        out[i] = int(bounds[0]) if len(bounds) else INFEASIBLE
    return out


@dataclass(frozen=True)
class Optimized:
    """An optimised tree with its certificate and search figures."""

    tree: GuessTree
    certificate: Certificate
    outcome: Outcome
