"""The ``guesswork-build`` commands: each takes parsed options and returns an Outcome.

An Outcome carries the JSON value (``--json``), the text lines otherwise, and
the exit status. Commands raise GuessworkError (or UsageError) for bad input;
builder.cli turns those into one-line messages.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from guesswork.builder.catalog_commands import (
    Outcome,
    _check_name_free,
    _existing_catalog,
    _renamed,
    _write_atomically,
    _write_location,
    cache,
    export,
    import_policy,
    list_policies,
    lists,
    remove,
    verify,
)
from guesswork.builder.evaluate import (
    FIRST_GUESS_METRICS,
    evil_game,
    first_guess_values,
    format_cumulative,
    score_stats,
)
from guesswork.builder.guess_my_word import (
    DEFAULT_WORD_TREES,
    adjacent_merge,
    binary_search,
    confidence_interval_95,
    entropy,
    expected_guesses,
    guess_counts,
    optimal_alphabetic,
    optimal_bst,
    sample_guesses,
    word_tree_policy,
)
from guesswork.builder.optimal import SearchStats, default_workers
from guesswork.builder.optimal import cluster as search_engines
from guesswork.builder.optimal.store import BOUND_STORE_VARIABLE, BoundStore
from guesswork.builder.policies import (
    CATALOG_SPECS,
    SLOW_SPECS,
    OptimalSpec,
    PolicySpec,
    build_any,
    build_optimal_policy,
    build_policy,
    load_list,
    reuse_policy,
)
from guesswork.builder.progress import Progress
from guesswork.builder.report import report
from guesswork.builder.spelling_bee import DEFAULT_BEE_TABLES, build_bee_table
from guesswork.builder.store import (
    StoredBeeTable,
    StoredPolicy,
    export_bytes,
    kept_bee_tables,
    merged,
    publish_catalog,
)
from guesswork.builder.weighted_lists import load_weighted_list, shipped_weighted_list
from guesswork.builder.word_trees import Variant
from guesswork.builder.wordlists import WordList
from guesswork.client.catalog import Catalog, open_catalog
from guesswork.client.errors import UsageError
from guesswork.client.games import Game, make_game
from guesswork.client.letters import rule_for
from guesswork.client.strategy import DEFAULT_RETRY_PERCENT
from guesswork.client.text import plural


def spec_from_args(args: argparse.Namespace) -> PolicySpec:
    """Return the policy spec the tree options describe.

    Raises:
        UsageError: ``--retry-percent`` with a metric other than approx_entropy.
    """
    if args.retry_percent is not None and args.metric != "approx_entropy":
        raise UsageError("--retry-percent applies to --metric approx_entropy only")
    return PolicySpec(
        game=args.game,
        length=args.length,
        targets=args.targets,
        guesses=args.guesses,
        mode=args.mode,
        metric=args.metric,
        window=args.window,
        jotto_order=args.jotto_order,
        arithmetic=args.arithmetic,
        seed=args.seed,
        retry_percent=(DEFAULT_RETRY_PERCENT if args.retry_percent is None else args.retry_percent),
        language=args.language,
        fold_accents=args.fold_accents,
    )


def evaluate(args: argparse.Namespace) -> Outcome:
    """Build the tree the options describe and report its scores."""
    if args.game == "guess-my-word":
        return evaluate_guess_my_word(args)
    if args.strategy or args.variant:
        raise UsageError("--strategy and --variant apply to --game guess-my-word only")
    spec = spec_from_args(args)
    progress = Progress(f"{spec.game} {spec.mode} {spec.metric}", enabled=not args.quiet)
    try:
        built = build_policy(spec, progress=progress)
    finally:
        progress.close()
    tree, game = built.tree, built.tree.game
    stats = score_stats(tree.target_scores)
    evil = evil_game(tree)
    low, high = spec.window
    report = {
        "game": game.id,
        "length": game.length,
        "targets": len(tree.targets),
        "guesses": len(tree.guesses),
        "targets_list": tree.targets.name,
        "guesses_list": tree.guesses.name,
        "targets_sha256": tree.targets.sha256,
        "guesses_sha256": tree.guesses.sha256,
        "mode": spec.mode,
        "metric": spec.metric,
        "window": None if spec.hard else [low, high],
        "arithmetic": spec.strategy(game).arithmetic,
        "seed": spec.strategy(game).seed,
        "policy": built.data.name,
        "first_guess": tree.first_guess,
        **stats.to_json(),
        "nodes": tree.node_count,
        "evil_game": [list(move) for move in evil],
        "seconds": round(built.seconds, 4),
    }
    minimising = spec.metric
    if spec.metric == "approx_entropy":
        report["retry_percent"] = spec.retry_percent
        minimising += f" (exact for the best {spec.retry_percent:g}% by estimate)"
    consider = (
        "consistent guesses only"
        if spec.hard
        else f"any {'NYT-legal ' if spec.nyt_hard else ''}guess when {low} <= remaining"
        f"{'' if high is None else f' <= {high}'}"
    )
    lines = [
        f"{game.name}: {plural(len(tree.targets), 'target', grouped=True)} "
        f"({tree.targets.name}), {plural(len(tree.guesses), 'guess', grouped=True)} "
        f"({tree.guesses.name}); mode {spec.mode} ({consider}); "
        f"minimising {minimising}",
        f'first guess: "{tree.first_guess}"',
        f"median: {plural(round(stats.median), 'guess')}, "
        f"mean: {stats.mean:.2f} ± {stats.stdev:.2f}, "
        f"worst: {stats.worst}, best: {stats.best}",
        f"cumulative: {format_cumulative(stats)}",
        "evil replier's game: " + ", ".join(f"{guess} {reply}" for guess, reply in evil),
        f"built in {built.seconds:.3f} s ({plural(tree.node_count, 'node', grouped=True)})",
    ]
    return Outcome(report, lines)


def evaluate_guess_my_word(args: argparse.Namespace) -> Outcome:
    """Build a Guess My Word tree and report its exact and sampled expected guesses."""
    strategy = args.strategy or "optimal"
    variant: Variant = "live" if args.variant == "live" else "deduce"
    if args.samples < 1:
        raise UsageError("--samples must be at least 1")
    shipped = args.targets in (None, "wordle-answers-2309")  # the evaluate default
    weights = shipped_weighted_list() if shipped else load_weighted_list(args.targets)
    started = time.perf_counter()
    if strategy == "binary":
        tree = binary_search(weights, variant)
    elif strategy == "adjacent-merge":
        tree = adjacent_merge(weights)
    else:
        tree = optimal_alphabetic(weights) if variant == "deduce" else optimal_bst(weights)
    seconds = time.perf_counter() - started
    mean = expected_guesses(tree, weights, variant)
    counts = guess_counts(tree, variant)
    sampled = sample_guesses(tree, weights, variant, args.samples, args.seed)
    sample_mean, low, high = confidence_interval_95(sampled)
    report = {
        "game": "guess-my-word",
        "targets": len(weights.words),
        "targets_list": "common-words" if shipped else args.targets,
        "strategy": strategy,
        "variant": variant,
        "first_guess": tree.first_guess,
        "mean": mean,
        "entropy": entropy(weights),
        "worst": int(counts.max()),
        "best": int(counts.min()),
        "sampled": {"samples": args.samples, "mean": sample_mean, "low": low, "high": high},
        "seconds": round(seconds, 4),
    }
    lines = [
        f"guess-my-word ({variant}): {len(weights.words):,} weighted words, {strategy} tree",
        f'first guess: "{tree.first_guess}"',
        f"expected guesses {mean:.3f} (entropy {report['entropy']:.3f} bits), worst "
        f"{report['worst']}, best {report['best']}",
        f"sampled over {args.samples:,} games: {sample_mean:.3f} (95% interval {low:.3f} to "
        f"{high:.3f})",
    ]
    return Outcome(report, lines)


def default_word_tree(strategy: str, variant: Variant) -> StoredPolicy:
    """Return a shipped Guess My Word tree as a policy with its words, ready to publish."""
    weights = shipped_weighted_list()
    data = word_tree_policy(weights, strategy, variant)
    return StoredPolicy.from_data(data, weights.words, weights.words)


def _lists_for(args: argparse.Namespace) -> tuple[Game, WordList, WordList]:
    if args.guesses == "-" and args.targets == "-":
        raise UsageError("standard input can supply only one of --targets and --guesses")
    game = make_game(args.game, args.length)
    rule = rule_for(args.language, args.fold_accents)
    targets = load_list(args.targets, game, args.jotto_order, rule)
    if args.guesses is None or args.guesses == args.targets:
        return game, targets, targets
    return game, targets, load_list(args.guesses, game, args.jotto_order, rule)


def first_guesses(args: argparse.Namespace) -> Outcome:
    """Rank every guess by each metric, best and worst."""
    if args.top < 1:
        raise UsageError("--top must be at least 1")
    game, targets, guesses = _lists_for(args)
    arithmetic = PolicySpec(jotto_order=args.jotto_order, arithmetic=args.arithmetic)
    tables: dict[str, object] = {}
    lines = []
    for metric in args.metric or FIRST_GUESS_METRICS:
        ranked = first_guess_values(
            game, targets, guesses, metric, arithmetic.resolved_arithmetic()
        )
        best, worst = ranked[: args.top], ranked[-args.top :]
        tables[metric] = {
            "best": [{"word": w, "value": v} for v, w in best],
            "worst": [{"word": w, "value": v} for v, w in worst],
        }
        places = {"max": 0, "expectation": 2}.get(metric, 3)

        def cells(rows: list[tuple[float, str]], places: int = places) -> str:
            return " ".join(f"{word}:{value:.{places}f}" for value, word in rows)

        lines.append(f"{metric:>11}: {cells(best)} | {cells(worst)}")
    report = {
        "game": game.id,
        "targets": len(targets),
        "guesses": len(guesses),
        "targets_list": targets.name,
        "guesses_list": guesses.name,
        "metrics": tables,
    }
    return Outcome(report, lines)


def _stored(spec: PolicySpec, progress: Progress | None = None) -> tuple[StoredPolicy, float]:
    built = build_policy(spec, progress=progress)
    tree = built.tree
    return StoredPolicy.from_data(built.data, tree.targets.words, tree.guesses.words), built.seconds


def build(args: argparse.Namespace) -> Outcome:
    """Build one policy and publish the catalog with it added (replaced only with --replace)."""
    spec = spec_from_args(args)
    spec.check()
    location = _write_location(args)
    catalog = _existing_catalog(location)
    _check_name_free(catalog, location, args.name or spec.name(), args.replace)
    progress = Progress(args.name or spec.name(), enabled=not args.quiet)
    try:
        stored, seconds = _stored(spec, progress)
    finally:
        progress.close()
    stored = _renamed(stored, args.name)
    path = publish_catalog(location, merged(catalog, [stored]), kept_bee_tables(catalog))
    info = {
        "name": stored.data.name,
        "catalog": str(path),
        "content_hash": stored.content_hash,
        "mean": stored.data.stats["mean"],
        "worst": stored.data.stats["worst"],
        "seconds": round(seconds, 4),
    }
    line = (
        f"built {info['name']} in {seconds:.2f} s: mean {info['mean']:.2f}, "
        f"worst {info['worst']}; published {path}"
    )
    return Outcome(info, [line])


def _reused(sources: list[Catalog], spec: PolicySpec | OptimalSpec) -> StoredPolicy | None:
    """Return a slow spec's policy from the first ``--reuse`` catalog that has it
    (checked by :func:`reuse_policy`), or None to build it.

    Raises:
        SpecError: a catalog has the policy but it is not what the spec builds.
    """
    if spec not in SLOW_SPECS:
        return None
    for catalog in sources:
        if spec.name() in catalog.names():
            return reuse_policy(catalog, spec)
    return None


def build_all(args: argparse.Namespace) -> Outcome:
    """Build every default policy into a fresh catalog and publish it.

    Raises:
        UsageError: no ``--catalog``: a whole catalog replaces its file, so the
            file is never implied (the user's would lose its policies).
    """
    if args.catalog is None:
        raise UsageError(
            "build-all writes a whole new catalog: name the file with --catalog "
            "(`make catalog` uses --catalog policies/catalog.sqlite)"
        )
    sources = [open_catalog(location) for location in args.reuse]
    stored_policies, rows = [], []
    for number, spec in enumerate(CATALOG_SPECS, start=1):
        started = time.perf_counter()
        stored, how = _reused(sources, spec), "reused"
        if stored is None:
            built, how = build_any(spec, workers=args.workers), "built"
            tree = built.tree
            stored = StoredPolicy.from_data(built.data, tree.targets.words, tree.guesses.words)
        seconds = time.perf_counter() - started
        stored_policies.append(stored)
        rows.append({"name": stored.data.name, "seconds": round(seconds, 4), "how": how})
        if not args.quiet:
            print(f"[{number}/{len(CATALOG_SPECS)}] {stored.data.name} {how} {seconds:.2f} s",
                  file=sys.stderr)  # fmt: skip
    bees = [StoredBeeTable(*build_bee_table(name, allow_s)) for name, allow_s in DEFAULT_BEE_TABLES]
    if not args.quiet:
        print(f"honeycomb tables: {', '.join(bee.table.key for bee in bees)}", file=sys.stderr)
    for strategy, variant in DEFAULT_WORD_TREES:
        started = time.perf_counter()
        stored = default_word_tree(strategy, variant)
        stored_policies.append(stored)
        rows.append({"name": stored.data.name, "seconds": round(time.perf_counter() - started, 4)})
    if not args.quiet:
        print(f"Guess My Word trees: {len(DEFAULT_WORD_TREES)}", file=sys.stderr)
    path = publish_catalog(args.catalog, stored_policies, bees)
    lines = [f"{row['name']:<48} {row['seconds']:>8.2f} s {row.get('how', '')}" for row in rows]
    lines.append(
        f"published {plural(len(rows), 'policy')} ({len(DEFAULT_WORD_TREES)} of them Guess My Word "
        f"trees) and {len(bees)} honeycomb tables to {path}"
    )
    return Outcome({"catalog": str(path), "policies": rows}, lines)


def gmw_list(args: argparse.Namespace) -> Outcome:
    """Regenerate the shipped Guess My Word list from wordfreq."""
    from guesswork.builder.gmw_list import DEFAULT_OUTPUT, write_list

    output = Path(args.output) if args.output else DEFAULT_OUTPUT
    count, digest = write_list(args.top, output)
    line = (
        f"wrote {output}: {plural(count, 'word')}, sha256 {digest} "
        "(register it in builder/weighted_lists.py)"
    )
    return Outcome({"file": str(output), "words": count, "sha256": digest}, [line])


def wordlist(args: argparse.Namespace) -> Outcome:
    """Write a language's most frequent words of one length (builder.language_lists)."""
    from guesswork.builder.language_lists import list_name, write_list

    rule = rule_for(args.language, args.fold_accents)
    output = Path(args.output) if args.output else None
    text, count, digest = write_list(args.language, args.length, args.top, rule, output)
    name = list_name(args.language, args.length, args.top)
    info = {"name": name, "language": args.language, "file": args.output, "words": count,
            "sha256": digest}  # fmt: skip
    if output is None:  # the list itself on standard output
        return Outcome({**info, "text": text}, text.splitlines())
    return Outcome(info, [f"wrote {output}: {plural(count, 'word')} ({name}), sha256 {digest}"])


def optimize(args: argparse.Namespace) -> Outcome:
    """Search for an optimal, capped, minimax or lookahead tree; optionally store it."""
    game_id = args.game
    length = args.length
    if game_id == "mastermind":
        length = args.pegs if args.pegs is not None else (4 if length is None else length)
    elif args.pegs is not None or args.colours is not None:
        raise UsageError("--colors and --pegs apply to --game mastermind only")
    spec = OptimalSpec(
        game=game_id,
        length=5 if length is None else length,
        targets=args.targets,
        guesses=args.guesses,
        mode=args.mode,
        objective=args.objective,
        max_guesses=args.max_guesses,
        first_guess=args.first_guess,
        beam=args.beam,
        colours=args.colours,
        jotto_order=args.jotto_order,
        language=args.language,
        fold_accents=args.fold_accents,
    )
    spec.check()
    # By default only a search over every first guess (the long runs) spreads
    # over every core, and only on Dask: fixed-first-guess and lookahead runs
    # take seconds, less than starting workers costs, and the process pool
    # (no Dask) shares no first pass, so it is slower than one process there.
    long_run = spec.first_guess is None and spec.beam is None and search_engines.dask_installed()
    workers = args.workers if args.workers is not None else (default_workers() if long_run else 1)
    checkpoint = Path(args.checkpoint) if args.checkpoint else None
    bound_store = args.bound_store or os.environ.get(BOUND_STORE_VARIABLE) or None
    name = args.name or spec.name()
    location = _write_location(args) if args.store else ""
    catalog = _existing_catalog(location) if args.store else None
    if args.store:
        _check_name_free(catalog, location, name, args.replace)
    progress = Progress(spec.name(), enabled=not args.quiet, unit="root branch", open_ended=True)
    started = time.perf_counter()
    try:
        built, result = build_optimal_policy(
            spec, workers=workers, checkpoint=checkpoint, progress=progress,
            bound_store=bound_store, memo_limit=args.memo_limit, scheduler=args.scheduler,
        )  # fmt: skip
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
        "memo_limit": args.memo_limit,
        "memo_peak_bytes": outcome.stats.memo_peak_bytes,
        "memo_peak_entries": outcome.stats.memo_peak_entries,
        "memo_evictions": outcome.stats.memo_evictions,
        **_store_report(bound_store, outcome.stats),
    }
    lines = [
        f"{name}: first guess {info['first_guess']}, total {total} "
        f"(mean {info['mean']:.4f}), worst {info['worst']}",
        f"{'proven optimal' if cert.proven else 'not proven'}: lower bound {cert.lower_bound}"
        + (f" (gap {info['gap']})" if not cert.proven else "")
        + (f", given first guess {spec.first_guess}" if spec.first_guess else "")
        + f"; {seconds:.2f} s",
    ]
    lines.append(
        f"ran {outcome.engine}"
        + (f" on {plural(outcome.workers, 'worker')}" if outcome.engine != "in-process" else "")
        + f"; memo peak {outcome.stats.memo_peak_bytes / (1 << 20):,.1f} MiB"
        + f" ({plural(outcome.stats.memo_evictions, 'entry', grouped=True)} evicted)"
        + f", limit {'none' if args.memo_limit is None else f'{args.memo_limit >> 20:,} MiB'}"
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
    stored = StoredPolicy.from_data(built.data, built.tree.targets.words, built.tree.guesses.words)
    stored = _renamed(stored, args.name)
    if args.store:
        path = publish_catalog(location, merged(catalog, [stored]), kept_bee_tables(catalog))
        info["catalog"] = str(path)
        lines.append(f"stored {name} in {path}")
    if args.output:
        path = Path(args.output)
        _write_atomically(path, export_bytes(stored))
        info["file"] = str(path)
        lines.append(f"wrote {path}")
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


COMMANDS: dict[str, Callable[[argparse.Namespace], Outcome]] = {
    "optimize": optimize,
    "evaluate": evaluate,
    "first-guesses": first_guesses,
    "lists": lists,
    "build": build,
    "build-all": build_all,
    "list": list_policies,
    "verify": verify,
    "export": export,
    "import": import_policy,
    "remove": remove,
    "gmw-list": gmw_list,
    "wordlist": wordlist,
    "cache": cache,
    "report": report,
}
