"""A stored least-total optimum's worst case, proven least among the trees of its total.

A spec with ``least_worst`` asks for the objective ``total-then-worst`` under the
plain optimum's name (see :class:`.policies.OptimalSpec`). Built from scratch,
that is the total search and then the tie-break's capped search
(:mod:`.optimal.tie_break`). The shipped global optima were proven before the
tie-break existed, over hours of search; their trees need not be searched
again, only the tie-break added: one capped search with the ceiling ``T + 1``
(``T`` the tree's total) that finds no tree of total ``T`` within one guess fewer
than the tree's worst case. The policy that comes out is byte for byte what
the whole build gives when that search finds none; when it finds one, the tree
itself changes, and only a whole build (``make catalog``) makes it.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from ..client.progress import Progress
from .errors import SpecError
from .optimal import optimize
from .optimal.tie_break import same_total_within
from .policies import OptimalSpec
from .publish import StoredPolicy


def with_least_worst(
    stored: StoredPolicy,
    spec: OptimalSpec,
    *,
    workers: int = 1,
    progress: Progress | None = None,
    checkpoint: Path | None = None,
) -> StoredPolicy:
    """Return ``stored`` (``spec``'s least-total tree, its certificate's objective
    ``total``) with the tie-break proven and recorded, as a ``least_worst`` build gives it.

    Runs the capped search that must find no tree of the same total within one
    guess fewer than the tree's worst case (minutes to hours for the Wordle
    optima, on ``workers`` processes), resuming from and recording in the
    checkpoint beside ``checkpoint`` if given (``NAME.total-capC-belowV``, as
    the whole build's tie-break names it).

    Raises:
        SpecError: ``spec`` asks for no tie-break, the policy's certificate is not a
            plain total one, or a tree of the same total has a smaller worst case
            (then the tree changes: build the policy again).
        SearchError: the search cannot run.
    """
    certificate = stored.data.certificate
    if not spec.least_worst:
        raise SpecError(f"{spec.name()} asks for no tie-break")
    if certificate is None or certificate.get("objective") != "total":
        raise SpecError(f"{spec.name()}: the stored tree has no plain total certificate")
    game = spec.check()
    targets, guesses = spec.lists(game)
    prior = spec.prior(targets)
    value = int(certificate["value"])
    worst = int(stored.data.stats["worst"])
    total_options = dataclasses.replace(spec.options(workers), objective="total")
    found = same_total_within(
        optimize,
        game,
        targets,
        guesses,
        total_options,
        value,
        worst - 1,
        progress=progress,
        checkpoint=checkpoint,
        weights=None if prior is None else prior[1],
    )
    if found is not None:
        raise SpecError(
            f"{spec.name()}: a tree of the same total ({value}) takes at most "
            f"{int(found.tree.target_scores.max())} guesses, fewer than the stored tree's "
            f"{worst}: build it again (make catalog) to ship that tree"
        )
    # The keys in the order Certificate.to_map writes them: the tie-break last.
    proven = {
        **certificate,
        "objective": spec.search_objective,
        "tie_break": {"worst": worst, "refuted": value + 1},
    }
    data = dataclasses.replace(stored.data, strategy=spec.strategy(game), certificate=proven)
    words = stored.words
    return StoredPolicy.from_data(
        data, words[data.targets.sha256][1], words[data.guesses.sha256][1]
    )
