"""``guesswork-build optimize``: the exact (or lookahead) search's command.

It takes the search's options (builder.command_types.OptimizeOptions), runs
builder.policies.build_optimal_policy (in process or on a Dask cluster, with a
checkpoint, a bound store and a memo limit as asked), optionally stores the tree
in a catalog, and reports the value, its proof and the search's figures (see
builder.command_types for the Outcome every command returns).
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from ..client.errors import UsageError
from ..client.progress import Progress
from ..client.text import plural
from .absurdle_command import optimize_absurdle
from .catalog_writes import check_publish, store_built
from .command_types import OptimizeOptions, Outcome
from .errors import NoTreeBelowCeilingError
from .optimal import INFEASIBLE, SearchStats, search_workers
from .optimal import cluster as search_engines
from .optimal.bound_store import BOUND_STORE_VARIABLE, BoundStore
from .policies import OptimalSpec, build_optimal_policy


def optimize(options: OptimizeOptions) -> Outcome:
    """Search for an optimal, capped, minimax or lookahead tree; optionally store it
    (``--game absurdle``: the shortest line that beats Absurdle, see absurdle_command)."""
    if options.game == "absurdle":
        return optimize_absurdle(options)
    if options.challenge is not None:
        raise UsageError("--challenge applies to --game absurdle only")
    if options.ceiling is not None and options.objective != "total":
        # A tie-break runs its own ceilings (builder.optimal.tie_break); minimax has none.
        raise UsageError("--ceiling applies to --objective total only")
    game_id = options.game
    length = options.length
    if game_id == "mastermind":
        length = options.pegs if options.pegs is not None else (4 if length is None else length)
    elif options.pegs is not None or options.colours is not None:
        raise UsageError("--colors and --pegs apply to --game mastermind only")
    spec = OptimalSpec(
        game=game_id,
        length=5 if length is None else length,
        targets=options.targets,
        guesses=options.guesses,
        mode=options.mode,
        objective=options.objective,
        max_guesses=options.max_guesses,
        first_guess=options.first_guess,
        beam=options.beam,
        colours=options.colours,
        jotto_order=options.jotto_order,
        language=options.language,
        fold_accents=options.fold_accents,
        weights=options.weights,
        lead_opener=options.lead_opener,
    )
    spec.check()
    # By default only a large search over every first guess spreads over every
    # core, and only on Dask (optimal.search_workers says the rule and its
    # measurements); the process pool (no Dask) shares no first pass, so it is
    # slower than one process there.
    started = time.perf_counter()  # end to end, the lists included: the time waited
    # Root branches are searched largest first, so done/total would promise far too
    # much time left: their reports carry counts and time so far only.
    progress = Progress(
        spec.name(), enabled=not options.quiet, unit="root branch", open_ended=True, estimate=False
    )
    workers = options.workers
    if workers is None:
        game = spec.check()
        progress.say("reading the word lists and their replies")
        targets, guesses = spec.lists(game)
        every_first_guess = spec.first_guess is None and spec.beam is None
        cells = len(targets) * len(guesses)
        workers = search_workers(every_first_guess, cells, search_engines.dask_installed())
    checkpoint = Path(options.checkpoint) if options.checkpoint else None
    bound_store = options.bound_store or os.environ.get(BOUND_STORE_VARIABLE) or None
    name = options.target.naming.name or spec.name()
    location = check_publish(options.target, name)
    try:
        built, result = build_optimal_policy(
            spec,
            ceiling=options.ceiling,
            workers=workers,
            checkpoint=checkpoint,
            progress=progress,
            bound_store=bound_store,
            memo_limit=options.memo_limit,
            scheduler=options.scheduler,
            # Alternatives are only for a stored policy: a proof only reported skips them.
            alternatives=bool(options.target.publish or options.target.output),
        )
    except NoTreeBelowCeilingError as below:
        # Not a failure: the ceiling is proven a lower bound, which is the answer asked.
        return _refuted(name, spec, below, time.perf_counter() - started)
    finally:
        progress.close()
    seconds = time.perf_counter() - started
    cert, outcome = result.certificate, result.outcome
    scores = built.tree.target_scores
    total, count = int(scores.sum()), len(scores)
    info: dict[str, Any] = {
        "name": name,
        "objective": spec.objective,
        "first_guess": built.tree.first_guess,
        "total": total,
        "mean": total / count,
        "worst": int(scores.max()),
        "count": count,
        "value": cert.value,
        "lower_bound": cert.lower_bound,
        "gap": cert.value - cert.lower_bound,
        "proven": cert.proven,
        "beam": spec.beam,
        "max_guesses": spec.max_guesses,
        "fixed_first_guess": spec.first_guess,
        # --ceiling: a tree below it was found (a refutation returns _refuted's report).
        "ceiling": options.ceiling,
        "refuted": False,
        "seconds": round(seconds, 3),
        "search_seconds": round(outcome.seconds, 3),
        "sets_expanded": outcome.stats.expanded,
        # A search over every opener: how many survived the first pass (else null).
        "openers_surviving": outcome.survivors,
        # What ran the units: in-process, processes (a local pool), dask-local or
        # dask (--scheduler), and on how many workers (a cluster's: its own count).
        "engine": outcome.engine,
        "workers": outcome.workers,
        # Each process's memo: its limit, the most it held (largest process) and
        # the entries evicted to stay within it (all processes).
        "memo_limit": options.memo_limit,
        "memo_peak_bytes": outcome.stats.memo_peak_bytes,
        "memo_peak_entries": outcome.stats.memo_peak_entries,
        "memo_evictions": outcome.stats.memo_evictions,
        **_store_report(bound_store, outcome.stats),
        # A weighted search: the prior, and its expected guesses (value / total weight).
        "weights": built.data.prior.name if built.data.prior is not None else None,
        "weighted_mean": built.data.stats["mean"] if built.data.prior is not None else None,
        # A tie-break objective: the tree's worst case, and a proven bound on the total
        # of any tree within one guess fewer (INFEASIBLE, 2**40: none), which proves it.
        "tie_break": cert.tie_break,
    }
    lines = [
        f"{name}: first guess {info['first_guess']}, total {total} "
        f"(mean {info['mean']:.4f}), worst {info['worst']}"
        + (
            f"; weighted by {info['weights']}: value {cert.value}, expected guesses "
            f"{info['weighted_mean']:.4f}"
            if info["weights"]
            else ""
        ),
        f"{'proven optimal' if cert.proven else 'not proven'}: lower bound {cert.lower_bound}"
        + (f" (gap {info['gap']})" if not cert.proven else "")
        + (f", given first guess {spec.first_guess}" if spec.first_guess else "")
        + f"; {seconds:.2f} s",
    ]
    if cert.tie_break is not None:
        worst, refuted = cert.tie_break["worst"], cert.tie_break["refuted"]
        fewer = "no tree" if refuted >= INFEASIBLE else f"every tree totals {refuted} or more"
        among = "of total " + str(cert.value) if spec.objective == "total-then-worst" else "at all"
        lines.append(
            f"worst case {worst}, the least of any tree {among}: within {worst - 1} guesses {fewer}"
        )
    lines.append(
        f"ran {outcome.engine}"
        + (f" on {plural(outcome.workers, 'worker')}" if outcome.engine != "in-process" else "")
        + f"; memo peak {outcome.stats.memo_peak_bytes / (1 << 20):,.1f} MiB"
        + f" ({plural(outcome.stats.memo_evictions, 'entry', grouped=True)} evicted)"
        + f", limit {'none' if options.memo_limit is None else f'{options.memo_limit >> 20:,} MiB'}"
    )
    if outcome.survivors is not None:
        lines.append(
            f"{outcome.survivors} openers survived the first pass's one-level bounds "
            "and were searched"
        )
    if bound_store is not None:
        rate = info["store_hit_rate"]
        lines.append(
            f"bound store {bound_store}: {info['store_hits']:,} of {info['store_lookups']:,} "
            f"sets found ({0.0 if rate is None else rate:.1%}); {info['store_rows']:,} rows"
        )
    store_built(options.target, built, location, info, lines)
    return Outcome(info, lines)


def _refuted(
    name: str, spec: OptimalSpec, refuted: NoTreeBelowCeilingError, seconds: float
) -> Outcome:
    """Return optimize's report when no tree gets below ``--ceiling``: ``refuted`` true,
    the proven ``lower_bound`` (the ceiling or more; 2**40 when no tree meets the cap
    at all, ``infeasible`` then true) and no tree (``total`` null); nothing is stored."""
    infeasible = refuted.bound >= INFEASIBLE
    info: dict[str, Any] = {
        "name": name,
        "objective": spec.objective,
        "fixed_first_guess": spec.first_guess,
        "max_guesses": spec.max_guesses,
        "ceiling": refuted.ceiling,
        "refuted": True,
        "lower_bound": refuted.bound,
        "infeasible": infeasible,
        "total": None,
        "proven": True,
        "seconds": round(seconds, 3),
    }
    what = f"given first guess {spec.first_guess}, " if spec.first_guess else ""
    proof = (
        f"no tree meets the cap of {spec.max_guesses} guesses"
        if infeasible
        else f"every tree totals {refuted.bound} or more"
    )
    lines = [f"{name}: refuted at the ceiling {refuted.ceiling}: {what}{proof}; {seconds:.2f} s"]
    return Outcome(info, lines)


def _store_report(path: str | None, stats: SearchStats) -> dict[str, Any]:
    """Return optimize's bound-store figures: the file, lookups, hits, hit rate, rows.

    Raises:
        BoundStoreError: the store cannot be read to count its rows.
    """
    rows = None
    if path is not None:
        store = BoundStore(path)
        try:
            rows = store.rows()
        finally:
            store.close()
    lookups, hits = stats.store_lookups, stats.store_hits
    return {
        "bound_store": path,
        "store_lookups": lookups,
        "store_hits": hits,
        "store_hit_rate": round(hits / lookups, 4) if lookups else None,
        "store_rows": rows,
    }
