"""What chose a policy's guesses: the stored strategy, as a typed value.

A policy core stores its strategy as a msgpack map; these classes are that
map, typed, with :meth:`to_map` giving back exactly the stored bytes' map
(same keys, same order) and :func:`strategy_from_map` reading it:

``GreedyStrategy``  ``{"kind": "greedy", "metric", "window", "arithmetic",
    "jotto_order", "seed"}``: the one-step metric (``max``, ``expectation``,
    ``neg_entropy``, ``entropy``, ``random`` or ``approx_entropy``), the normal-mode window
    ``[low, high or nil]`` (nil: hard mode, consistent guesses only; in a
    policy of mode ``nyt-hard`` it is normal mode's window over the guesses
    the NYT rule allows after the replies so far, the remaining targets,
    which the rule always allows, outside it), the
    seed notebook whose arithmetic breaks near-ties (``2022``/``2020``), the
    Jotto list order (Jotto only) and the random guesser's seed. Metric
    ``approx_entropy`` (the Wordle-player seed's step) adds a last key,
    ``retry_percent``: the share of the candidates, best by its estimate,
    whose exact entropy it computes; other metrics' maps lack the key.
``OptimalStrategy``  ``{"kind": "optimal", "objective", "beam", "max_guesses",
    "first_guess", "metric", "window", "arithmetic", "jotto_order"}``: an
    optimised tree (objective ``total`` or ``minimax``; ``beam`` K for a
    K-best lookahead, nil for an exact search; an optional worst-case cap
    and fixed opener) and, in the last four keys, the greedy step that
    answers its off-tree histories live (its ``fallback``).
``WordTreeStrategy``  ``{"kind": "word-tree", "tree"}``: a Guess My Word tree
    (``binary``, ``adjacent-merge`` or ``optimal``; see builder.guess_my_word),
    whose off-tree histories are answered by the same kind of tree over the
    words left. It has no greedy step.

:attr:`label` is what listings call the policy's "metric": the greedy metric,
``optimal``, ``minimax``, ``lookahead-K`` for an optimised tree, or the
Guess My Word tree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import MalformedPolicyError

#: The Wordle-player seed's metric, and its default retry percent (its ``a``).
APPROX_ENTROPY = "approx_entropy"
DEFAULT_RETRY_PERCENT = 3.0


@dataclass(frozen=True)
class GreedyStrategy:
    """A greedy one-step metric, its candidate window and arithmetic."""

    metric: str = "neg_entropy"
    #: (low, high or None): normal mode's window; None: hard mode.
    window: tuple[int, int | None] | None = (4, 125)
    arithmetic: str = "2022"
    jotto_order: str | None = None
    seed: int | None = None
    #: approx_entropy only: percent of the candidates whose exact entropy is computed.
    retry_percent: float | None = None

    kind = "greedy"

    @property
    def label(self) -> str:
        """Return the metric's name, e.g. ``neg_entropy``."""
        return self.metric

    @property
    def fallback(self) -> GreedyStrategy:
        """Return the step that answers off-tree histories live: this one."""
        return self

    def to_map(self) -> dict[str, Any]:
        """Return the stored map (keys in their stored order)."""
        stored: dict[str, Any] = {
            "kind": self.kind,
            "metric": self.metric,
            "window": None if self.window is None else list(self.window),
            "arithmetic": self.arithmetic,
            "jotto_order": self.jotto_order,
            "seed": self.seed,
        }
        # Only approx_entropy has the key, so every other policy's bytes stay as they were.
        if self.metric == APPROX_ENTROPY:
            percent = DEFAULT_RETRY_PERCENT if self.retry_percent is None else self.retry_percent
            stored["retry_percent"] = float(percent)
        return stored


#: The objective of an Absurdle policy's strategy and certificate: the shortest line
#: that beats Absurdle's adversary, stored as a complete tree (builder.absurdle_policy).
ABSURDLE = "absurdle"


@dataclass(frozen=True)
class OptimalStrategy:
    """An optimised tree's search, and the greedy step it falls back to live."""

    objective: str = "total"
    beam: int | None = None
    max_guesses: int | None = None
    first_guess: str | None = None
    fallback: GreedyStrategy = GreedyStrategy()

    kind = "optimal"

    @property
    def absurdle(self) -> bool:
        """Return True for an Absurdle policy's strategy (its line, completed)."""
        return self.objective == ABSURDLE

    @property
    def label(self) -> str:
        """Return ``lookahead-K``, ``minimax`` or ``optimal``."""
        if self.beam is not None:
            return f"lookahead-{self.beam}"
        return "minimax" if self.objective == "minimax" else "optimal"

    def to_map(self) -> dict[str, Any]:
        """Return the stored map (keys in their stored order)."""
        step = self.fallback.to_map()
        return {
            "kind": self.kind,
            "objective": self.objective,
            "beam": self.beam,
            "max_guesses": self.max_guesses,
            "first_guess": self.first_guess,
            "metric": step["metric"],
            "window": step["window"],
            "arithmetic": step["arithmetic"],
            "jotto_order": step["jotto_order"],
        }


@dataclass(frozen=True)
class WordTreeStrategy:
    """A Guess My Word tree: ``binary``, ``adjacent-merge`` or ``optimal``."""

    tree: str = "optimal"

    kind = "word-tree"

    @property
    def label(self) -> str:
        """Return the tree, e.g. ``optimal``."""
        return self.tree

    def to_map(self) -> dict[str, Any]:
        """Return the stored map."""
        return {"kind": self.kind, "tree": self.tree}


def ranking_metric(strategy: GreedyStrategy | OptimalStrategy | WordTreeStrategy) -> str:
    """Return the metric that ranks a policy's alternatives and gives their values: its
    greedy step's (an optimised tree's fallback), or "" for a Guess My Word tree."""
    if isinstance(strategy, WordTreeStrategy):
        return ""
    return strategy.fallback.metric


#: A strategy with a greedy step (its ``fallback``): every kind but Guess My Word trees.
StepStrategy = GreedyStrategy | OptimalStrategy
Strategy = GreedyStrategy | OptimalStrategy | WordTreeStrategy


def _field(stored: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    value = stored.get(key)
    if value is not None and (not isinstance(value, kind) or isinstance(value, bool)):
        raise MalformedPolicyError(f"{where}: strategy.{key} is of the wrong type")
    return value


def _greedy(stored: dict[str, Any], where: str) -> GreedyStrategy:
    window = _field(stored, "window", list, where)
    if window is not None and (
        len(window) != 2
        or not isinstance(window[0], int)
        or not (window[1] is None or isinstance(window[1], int))
    ):
        raise MalformedPolicyError(f"{where}: strategy.window is not [low, high or nil]")
    metric = _field(stored, "metric", str, where)
    arithmetic = _field(stored, "arithmetic", str, where)
    if metric is None or arithmetic is None:
        raise MalformedPolicyError(f"{where}: strategy lacks its metric or arithmetic")
    retry_percent = _field(stored, "retry_percent", (int, float), where)
    if retry_percent is not None and not 0 < retry_percent <= 100:
        raise MalformedPolicyError(f"{where}: strategy.retry_percent is not in (0, 100]")
    return GreedyStrategy(
        metric=metric,
        window=None if window is None else (window[0], window[1]),
        arithmetic=arithmetic,
        jotto_order=_field(stored, "jotto_order", str, where),
        seed=_field(stored, "seed", int, where),
        retry_percent=None if retry_percent is None else float(retry_percent),
    )


def strategy_from_map(stored: dict[str, Any], where: str) -> Strategy:
    """Return the typed strategy of a stored map.

    Raises:
        MalformedPolicyError: an unknown kind, or a field of the wrong type.
    """
    kind = stored.get("kind")
    if kind == GreedyStrategy.kind:
        return _greedy(stored, where)
    if kind == OptimalStrategy.kind:
        objective = _field(stored, "objective", str, where)
        if objective is None:
            raise MalformedPolicyError(f"{where}: strategy lacks its objective")
        return OptimalStrategy(
            objective=objective,
            beam=_field(stored, "beam", int, where),
            max_guesses=_field(stored, "max_guesses", int, where),
            first_guess=_field(stored, "first_guess", str, where),
            fallback=_greedy(stored, where),
        )
    if kind == WordTreeStrategy.kind:
        tree = _field(stored, "tree", str, where)
        if tree is None:
            raise MalformedPolicyError(f"{where}: strategy lacks its tree")
        return WordTreeStrategy(tree)
    raise MalformedPolicyError(f"{where}: unknown strategy kind {kind!r}")
