"""Refutation witnesses: what shows, class by class, that an opener's total is what
a search over every opener recorded for it.

A search over every opener settles most openers by bounds anyone can recompute
in a moment (the root's scan, the first pass's one-level bound). The rest are
settled by a search: refuted (their total cannot get below the best opener's),
or searched exactly. What proves those is spread over the search's memo, so
without more a checker can only run the search again. A *witness* is the part
of it a checker needs: the opener's reply classes whose proven lower bound
(or exact value) is more than what the class's own scan gives, each named by
its reply code with that bound. Every other class is worth at least what a
fresh :class:`~.search.Search` gives it without searching (its one-level
bound: the least static bound over its guesses, or the trap family's bound),
so the classes' bounds, the witnessed ones in place of the cheap ones,
combine (:meth:`.set_values.SetValues.combine`) to at least the opener's recorded
value, and so to at least the tree's.

A checker (:mod:`.witness_check`) therefore recomputes the cheap bounds,
puts the witness's in, checks the total, and proves each witnessed bound with
a search of that class alone under that budget, skipping those the total does
not need. A witness made by the uncapped search (``uncapped``: the refutation
:func:`.refute.uncapped_search` found) holds without the cap too, and is proved
the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .bounds import INFEASIBLE
from .search import Search


@dataclass(frozen=True)
class Witness:
    """One opener's witnessed classes: (reply code, proven lower bound) pairs in
    reply-code order, and whether those bounds were proven without the cap."""

    classes: tuple[tuple[int, int], ...]
    #: The bounds are the uncapped search's (refute.uncapped_search): a tree within
    #: the cap is a tree, so they bound the capped classes as well.
    uncapped: bool = False

    def to_list(self) -> list[list[int]]:
        """Return the classes as a msgpack- and JSON-ready list of [code, bound]."""
        return [[code, bound] for code, bound in self.classes]

    def to_record(self) -> dict[str, Any]:
        """Return the witness as a checkpoint record's keys (see :mod:`.checkpoint`)."""
        return {"witness": self.to_list(), **({"uncapped": True} if self.uncapped else {})}

    @classmethod
    def from_list(cls, pairs: Sequence[Sequence[int]], uncapped: bool = False) -> Witness:
        """Return the witness of ``pairs`` ([code, bound] lists), sorted by code.

        Raises:
            ValueError: a pair is not two non-negative integers, or a code repeats.
        """
        classes: list[tuple[int, int]] = []
        for pair in pairs:
            if (
                len(pair) != 2 or not all(type(n) is int and n >= 0 for n in pair)  # bools are not
            ):
                raise ValueError(f"a witness class is [reply code, bound], not {pair!r}")
            classes.append((int(pair[0]), int(pair[1])))
        classes.sort()
        if len({code for code, _ in classes}) != len(classes):
            raise ValueError("a witness names a reply class twice")
        return cls(tuple(classes), uncapped)


def is_witness_list(value: Any) -> bool:
    """Return True if ``value`` has the shape :meth:`Witness.to_list` gives."""
    if not isinstance(value, list):
        return False
    try:
        Witness.from_list(value)
    except (TypeError, ValueError):
        return False
    return True


def witness_of(
    search: Search,
    guess: int,
    classes: Sequence[np.ndarray],
    states: Sequence[bytes],
    values: Sequence[int],
    depth: int,
    *,
    by_scan: bool = True,
    uncapped: bool = False,
) -> Witness:
    """Return the witness of opener ``guess`` whose ``classes`` (in constraint
    ``states``, ``depth`` guesses left) were proven worth at least ``values``.

    A class is witnessed when its value is more than a checker gets for it
    without searching: with ``by_scan``, the static bound its scan recorded in
    ``search.static`` (where there is one; else its size's floor), without, its
    floor alone. Classes of one or two targets never are (their values are
    exact and cheap). ``by_scan=False`` makes the witness depend on the values
    alone, not on which scans the memo still holds: for an exact opener, whose
    values are path-independent, so a resumed run gives the same witness.
    Bounds of :data:`INFEASIBLE` or more are written as INFEASIBLE (no tree
    within the cap).

    Returns:
        The witness, classes in reply-code order.
    """
    rules = search.values
    kept: list[tuple[int, int]] = []
    for part, state, value in zip(classes, states, values, strict=True):
        if len(part) <= 2:
            continue
        cheap = rules.floor(part)
        if by_scan:
            scanned = search.static.get(rules.key(part, depth, state))
            if scanned is not None:
                cheap = max(cheap, scanned)
        if value > cheap:
            code = int(search.problem.matrix[guess, int(part[0])])
            kept.append((code, min(int(value), INFEASIBLE)))
    kept.sort()
    return Witness(tuple(kept), uncapped)
