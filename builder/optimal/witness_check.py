"""Checking a search over every opener from its certificate (``verify --prove``).

The tree's value ``T`` is its own proof of being reachable; what makes it the
optimum is that no other opener gets below it. The certificate records, for
every opener, the value or bound that settled it and how (``settled_by``),
and for the openers settled by search a witness (:mod:`.witness`). Each is
proven again here with two fresh searches (:class:`~.search.Search`): one that only
looks ahead (a class's *cheap* bound: the least static bound over its guesses,
or its trap family's, the same whatever was searched before), and one whose
memo holds what this check proves by search (so what one opener's check
proves, the next may reuse):

* ``static``: the root's scan gives the recorded bound (``verify`` checks that
  without ``--prove``), nothing more to do;
* ``one-level``: the first pass again: the opener's classes' bounds without
  search (:meth:`.Search.class_bounds`) must reach ``T``;
* ``search`` with a witness: the classes' cheap bounds, the witnessed ones in
  their place, must reach the recorded value (the arithmetic), and each
  witnessed bound the total needs to reach ``T`` is proven by a search of that
  class alone under that bound (the uncapped search's where the witness is
  uncapped); witnessed bounds the slack (the total less ``T``) does without
  are skipped, the largest classes first, as are those the class's own scan
  already gives;
* ``search`` without a witness (an older checkpoint's record), and a
  first-pass bound that this check finds below ``T``: the opener alone is
  refuted again at ceiling ``T``, as ``optimize --first-guess W --ceiling T``
  does.

The first fault ends the check and names the opener, the class (its reply)
and the bound claimed against the one found.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from multiprocessing import get_context

import numpy as np

from ...client.progress import Progress
from .bounds import INFEASIBLE
from .problem import Problem, SearchOptions
from .refute import uncapped_search
from .root import RootSearch
from .search import Search
from .symmetry import SymmetryHook
from .witness import Witness


@dataclass(frozen=True)
class OpenerClaim:
    """What a certificate says of one opener (one entry of its ``roots``)."""

    guess: int
    word: str
    #: Its exact value or the bound that refuted it.
    value: int
    #: "search", "static" or "one-level" (see :class:`.root.RootResult`).
    settled_by: str
    witness: Witness | None = None


@dataclass
class CheckCounts:
    """What a check did: openers by how they were proven, and witnessed classes."""

    by_static: int = 0
    by_first_pass: int = 0
    by_witness: int = 0
    #: Openers refuted again by a search of their own (no witness, or a first-pass
    #: bound below the tree's value here).
    by_search: int = 0
    #: Witnessed classes proven by a search, and those skipped (the slack or the
    #: class's own scan made their bound unnecessary).
    classes_searched: int = 0
    classes_skipped: int = 0
    seconds: float = 0.0
    faults: list[str] = field(default_factory=list)

    def add(self, other: CheckCounts) -> None:
        """Add ``other``'s counts and faults (a worker process's) to these."""
        for name in ("by_static", "by_first_pass", "by_witness", "by_search"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.classes_searched += other.classes_searched
        self.classes_skipped += other.classes_skipped
        self.faults += other.faults


class WitnessChecker:
    """Proves a certificate's openers one by one (see the module docstring)."""

    def __init__(
        self,
        problem: Problem,
        options: SearchOptions,
        symmetry: SymmetryHook | None = None,
        reply_text: Callable[[int], str] = str,
    ) -> None:
        """Check openers of ``problem`` searched under ``options`` (the certificate's);
        ``reply_text`` names a reply code in faults."""
        self.problem = problem
        self.options = dataclasses.replace(
            options, workers=1, scheduler=None, bound_store=None, ceiling=None, first_guess=None
        )
        self.search = Search(problem, self.options, symmetry)
        #: The search that only looks ahead: its memo holds one-level bounds alone, so
        #: a class's cheap bound does not depend on what was searched before it.
        self.fresh = Search(problem, self.options, symmetry)
        self.reply_text = reply_text
        self.everything = np.arange(problem.n_targets, dtype=np.int64)
        self.depth = self.options.root_depth
        #: The root's scan: its reply counts speed the classes' look-ahead (as in
        #: the search's first pass) and change no bound.
        self.root = self.fresh.scan(self.everything, self.depth, ())
        self.counts = CheckCounts()

    def check(self, claim: OpenerClaim, tree_value: int) -> str | None:
        """Return the fault of ``claim`` against the tree's value, or None if it holds.

        Raises:
            SearchError: as the search (it polls nothing here, so only on a bad option).
        """
        if claim.settled_by == "static":
            # verify recomputed the root scan's bound and checked it reaches the value.
            self.counts.by_static += 1
            return None
        if claim.settled_by == "one-level":
            if self._one_level(claim.guess, tree_value) >= tree_value:
                self.counts.by_first_pass += 1
                return None
            return self._refute(claim, tree_value)
        if claim.witness is None:
            return self._refute(claim, tree_value)
        fault = self._check_witness(claim, claim.witness, tree_value)
        if fault is None:
            self.counts.by_witness += 1
        return fault

    def _one_level(self, guess: int, best: int) -> int:
        """Return ``guess``'s first-pass bound, stopped once it reaches ``best`` (as the
        search's first pass makes it, with the root scan's reply counts)."""
        _, _, bounds = self.fresh.class_bounds(
            guess, self.everything, best, self.depth - 1, (guess,), node=self.root
        )
        return self.fresh.values.combine(self.everything, bounds)

    def _refute(self, claim: OpenerClaim, tree_value: int) -> str | None:
        """Return the fault if opener ``claim`` has a tree below ``tree_value`` (searched
        as ``optimize --first-guess W --ceiling T`` does), else None."""
        self.counts.by_search += 1
        root = RootSearch(self.problem, self.options, search=self.search)
        root.root_scan = self.root
        value, exact = root.evaluate_root(claim.guess, self.everything, tree_value, self.depth)
        if exact and value < tree_value:
            return f"opener {claim.word} has a tree of {value}, below the tree's {tree_value}"
        return None

    def _check_witness(self, claim: OpenerClaim, witness: Witness, tree_value: int) -> str | None:
        """Return the first fault of ``claim``'s witness, or None if it proves the opener
        worth at least ``tree_value`` (see the module docstring)."""
        search, rules = self.search, self.search.values
        guess, below, everything = claim.guess, self.depth - 1, self.everything
        classes, states = rules.split_states(guess, everything, b"")
        codes = [int(self.problem.matrix[guess, int(part[0])]) for part in classes]
        position = {code: index for index, code in enumerate(codes)}
        cheap = [search.known_bound(p, below, s) for p, s in zip(classes, states, strict=True)]
        claimed = list(cheap)
        witnessed: dict[int, int] = {}
        for code, bound in witness.classes:
            index = position.get(code)
            if index is None or len(classes[index]) <= 2:
                return (
                    f"opener {claim.word}: its witness names the reply {self.reply_text(code)}, "
                    f"which leaves no class of three or more targets"
                )
            witnessed[index] = bound
            claimed[index] = max(claimed[index], bound)
        looked: set[int] = set()

        def look(index: int) -> None:
            # The class's bound without search: its scan's least bound (or trap family's),
            # from the search that only looks ahead, without the root's reply counts: with
            # them the count may read guesses the class's constraint state does not allow
            # (Search.probe_of), a weaker bound than its own scan's, which the witness
            # assumed.
            if index in looked or len(classes[index]) <= 2:
                return
            looked.add(index)
            found = self.fresh.lookahead_bound(classes[index], below, (guess,), states[index])
            cheap[index] = max(cheap[index], found)
            claimed[index] = max(claimed[index], found)

        # The arithmetic: the cheap bounds, largest class first (as the search tightens
        # them), until with the witness's they reach the recorded value.
        for index in range(len(classes)):
            if rules.combine(everything, claimed) >= claim.value:
                break
            look(index)
        total = rules.combine(everything, claimed)
        if total < claim.value:
            return (
                f"opener {claim.word}: its witness and its other classes' bounds total "
                f"{total}, short of its recorded {claim.value}"
            )
        # The proof: only what the total needs to reach the tree's value, the costliest
        # (largest) classes dropped first while the slack allows.
        for index in witnessed:
            look(index)
        wanted = [i for i in witnessed if claimed[i] > cheap[i]]
        for index in sorted(wanted, key=lambda i: -len(classes[i])):
            trial = list(claimed)
            trial[index] = cheap[index]
            if rules.combine(everything, trial) >= tree_value:
                claimed = trial
        self.counts.classes_skipped += len(witnessed)
        for index in sorted(wanted, key=lambda i: len(classes[i])):  # a fault soonest
            if claimed[index] <= cheap[index]:
                continue
            self.counts.classes_skipped -= 1
            self.counts.classes_searched += 1
            bound = claimed[index]
            found = self._solve(classes[index], bound, guess, states[index], witness.uncapped)
            if found < bound:
                return (
                    f"opener {claim.word}, reply {self.reply_text(codes[index])} "
                    f"({len(classes[index])} targets): witness bound {bound}, "
                    f"but a search finds {found}"
                )
        return None

    def _solve(
        self, targets: np.ndarray, bound: int, guess: int, state: bytes, uncapped: bool
    ) -> int:
        """Return the class's value if below ``bound``, else a proven bound >= it (the
        uncapped search's where ``uncapped``: it bounds the capped value too)."""
        search = uncapped_search(self.search) if uncapped else self.search
        below = search.options.root_depth - 1
        return search.solve(targets, min(bound, INFEASIBLE), below, (guess,), state)


def check_phases(claims: Sequence[OpenerClaim]) -> list[tuple[str, list[OpenerClaim]]]:
    """Return the claims in the phases they are checked and reported in, each with its
    label: first the openers settled by their bounds (a scan or one-level bounds:
    thousands a minute), then those settled by search (a search of each witnessed
    class: a second to minutes each), so that neither kind's rate sets the other's
    estimate of the time left. An empty phase is left out."""
    by_bounds = [claim for claim in claims if claim.settled_by != "search"]
    by_search = [claim for claim in claims if claim.settled_by == "search"]
    phases = (
        ("proving the openers settled by bounds", by_bounds),
        ("proving the openers settled by search", by_search),
    )
    return [(label, group) for label, group in phases if group]


def check_openers(
    checker: WitnessChecker,
    claims: Sequence[OpenerClaim],
    tree_value: int,
    progress: Progress | None = None,
) -> CheckCounts:
    """Check every claim against the tree's value, phase by phase (:func:`check_phases`,
    each a phase of ``progress``), until the first fault.

    Returns:
        The checker's counts, ``faults`` holding the first fault (empty if none).
    """
    started = time.perf_counter()
    counts = checker.counts
    for label, group in check_phases(claims):
        if progress is not None:
            progress.phase(label, "opener", len(group))
        for done, claim in enumerate(group, start=1):
            fault = checker.check(claim, tree_value)
            if fault is not None:
                counts.faults.append(fault)
                break
            if progress is not None:
                progress.update(done, len(group), progress.elapsed(), f"now {claim.word}")
        if counts.faults:
            break
    counts.seconds = time.perf_counter() - started
    return counts


#: Claims a worker process checks per task: enough to repay a task's round trip,
#: few enough that the processes finish together and a fault stops the rest soon.
CHUNK = 40

#: This process's checker, when it is a worker of :func:`check_openers_in_processes`.
_worker: WitnessChecker | None = None


def _init_worker(
    problem: Problem,
    options: SearchOptions,
    symmetry: SymmetryHook | None,
    reply_text: Callable[[int], str],
) -> None:
    """Give this worker process its own checker (the pool's initializer)."""
    global _worker
    _worker = WitnessChecker(problem, options, symmetry, reply_text)


def _check_chunk(claims: list[OpenerClaim], tree_value: int) -> CheckCounts:
    """Check ``claims`` in this worker process, until the first fault; return what the
    chunk added to the worker's counts.

    Raises:
        RuntimeError: the process was not started by :func:`check_openers_in_processes`.
    """
    if _worker is None:
        raise RuntimeError("_check_chunk runs only in a worker of check_openers_in_processes")
    _worker.counts = CheckCounts()
    return check_openers(_worker, claims, tree_value)


def check_openers_in_processes(
    problem: Problem,
    options: SearchOptions,
    symmetry: SymmetryHook | None,
    reply_text: Callable[[int], str],
    claims: Sequence[OpenerClaim],
    tree_value: int,
    workers: int,
    progress: Progress | None = None,
) -> CheckCounts:
    """Check every claim as :func:`check_openers` does, spread over ``workers``
    spawned processes (each with its own :class:`WitnessChecker` and memo) in chunks
    of :data:`CHUNK`, stopping at the first fault any of them finds.

    ``reply_text`` must pickle (a module-level function or a bound method of a
    game), as the processes are spawned (see :mod:`.workers` on why not forked).

    Returns:
        The counts of every process added up, ``faults`` holding the first fault found.
    """
    started = time.perf_counter()
    total = CheckCounts()
    pool = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=get_context("spawn"),
        initializer=_init_worker,
        initargs=(problem, options, symmetry, reply_text),
    )
    try:
        # One phase at a time on the same processes (their memos carry over).
        for label, group in check_phases(claims):
            if total.faults:
                break
            if progress is not None:
                progress.phase(label, "opener", len(group))
            chunks = [group[i : i + CHUNK] for i in range(0, len(group), CHUNK)]
            sizes: dict[Future[CheckCounts], int] = {
                pool.submit(_check_chunk, chunk, tree_value): len(chunk) for chunk in chunks
            }
            pending, done = set(sizes), 0
            while pending and not total.faults:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    total.add(future.result())
                    done += sizes[future]
                if progress is not None:
                    status = f"{workers} processes"
                    progress.update(done, len(group), progress.elapsed(), status)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    total.seconds = time.perf_counter() - started
    return total
