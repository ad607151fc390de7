"""The ``guesswork-build`` commands: each takes parsed options and returns an Outcome.

An Outcome carries the JSON value (``--json``), the text lines otherwise, and
the exit status. Commands raise GuessworkError (or UsageError) for bad input;
builder.cli turns those into one-line messages.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from collections.abc import Callable
from pathlib import Path

from ..client.catalog import Catalog, open_catalog
from ..client.errors import UsageError
from ..client.games import Game, make_game
from ..client.letters import KEEP_ACCENTS, LANGUAGES, rule_for
from ..client.progress import Progress, progress_on, say
from ..client.strategy import DEFAULT_RETRY_PERCENT
from ..client.text import plural
from .any_spec import AnySpec, build_any, reuse_policy
from .catalog_commands import (
    Outcome,
    _check_name_free,
    _renamed,
    _write_location,
    cache,
    export,
    import_policy,
    list_policies,
    lists,
    remove,
    upgrade,
    verify,
)
from .catalog_specs import (
    BOARD_OPENING_POLICIES,
    CATALOG_SPECS,
    SLOW_SPECS,
)
from .errors import PriorError
from .evaluate import (
    FIRST_GUESS_METRICS,
    evil_game,
    first_guess_values,
    format_cumulative,
    score_stats,
)
from .files import replace_file
from .gmw_list import DEFAULT_OUTPUT as GMW_LIST_FILE
from .gmw_list import write_list as write_gmw_list
from .guess_my_word import (
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
from .language_lists import list_name
from .language_lists import write_list as write_language_list
from .least_worst import with_least_worst
from .multiboard_openings import with_board_openings
from .policies import (
    OptimalSpec,
    PolicySpec,
    build_policy,
    load_list,
)
from .prior_making import DEFAULT_NAME, generate_prior
from .publish import (
    StoredBeeTable,
    StoredPolicy,
    kept_bee_tables,
    merged,
    publish_catalog,
)
from .publish_lock import publishing
from .report import report
from .search_commands import optimize
from .spelling_bee import DEFAULT_BEE_TABLES, build_bee_table
from .today_commands import calendar_priors
from .weighted_lists import load_weighted_list, shipped_weighted_list
from .word_trees import Variant
from .wordlists import WordList, load_wordlist


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
        weights=args.weights,
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
        # Reported, never stored: no alternatives to rank (half the time of a big tree).
        built = build_policy(spec, progress=progress, alternatives=False)
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
        "weights": built.data.prior.name if built.data.prior is not None else None,
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
        *(
            [
                f"weighted by the prior {built.data.prior.name}: expected guesses "
                f"{built.data.stats['mean']:.4f} (the mean above counts every target alike)"
            ]
            if built.data.prior is not None
            else []
        ),
        "evil replier's game: " + ", ".join(f"{guess} {reply}" for guess, reply in evil),
        f"built in {built.seconds:.3f} s ({plural(tree.node_count, 'node', grouped=True)})",
    ]
    return Outcome(report, lines)


def evaluate_guess_my_word(args: argparse.Namespace) -> Outcome:
    """Build a Guess My Word tree and report its exact and sampled expected guesses."""
    strategy = args.strategy or "optimal"
    variant: Variant = "live" if args.variant == "live" else "deduce"
    shipped = args.targets in (None, "wordle-answers-2309")  # the evaluate default
    started = time.perf_counter()  # the list read too, as every build's seconds
    weights = shipped_weighted_list() if shipped else load_weighted_list(args.targets)
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
    game, targets, guesses = _lists_for(args)
    say(f"first-guesses: the replies of {len(guesses):,} guesses x {len(targets):,} targets")
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
    with publishing(location) as catalog:  # fail before the build if the name is taken
        _check_name_free(catalog, location, args.name or spec.name(), args.replace)
    progress = Progress(args.name or spec.name(), enabled=not args.quiet)
    try:
        stored, seconds = _stored(spec, progress)
    finally:
        progress.close()
    stored = _renamed(stored, args.name)
    progress.say(f"adding it to {location}")
    with publishing(location) as catalog:  # read again: another publish may have landed
        _check_name_free(catalog, location, stored.data.name, args.replace)
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


def _reused(
    sources: list[Catalog],
    spec: AnySpec,
    workers: int = 1,
    checkpoints: Path | None = None,
    quiet: bool = True,
) -> tuple[StoredPolicy, str] | None:
    """Return a slow spec's policy from the first ``--reuse`` catalog that has it
    (checked by :func:`reuse_policy`) and how it was taken ("reused", or "reused,
    tie-break added"), or None to build it.

    A ``least_worst`` spec's plain least-total tree (stored before its spec asked
    for the tie-break) is reused with the tie-break proven and added
    (builder.least_worst: one capped search, on ``workers`` processes, its
    checkpoint in ``checkpoints`` if given, its progress on standard error unless
    ``quiet``), not searched again.

    Raises:
        SpecError: a catalog has the policy but it is not what the spec builds.
    """
    if spec not in SLOW_SPECS:
        return None
    for catalog in sources:
        if spec.name() not in catalog.names():
            continue
        if isinstance(spec, OptimalSpec) and spec.least_worst:
            certificate = catalog.policy(spec.name()).data.certificate or {}
            if certificate.get("objective") == "total":
                plain = reuse_policy(catalog, dataclasses.replace(spec, least_worst=False))
                checkpoint = None if checkpoints is None else checkpoints / f"{spec.name()}.ckpt"
                progress = Progress(f"{spec.name()}: tie-break", enabled=not quiet)
                try:
                    proven = with_least_worst(
                        plain, spec, workers=workers, checkpoint=checkpoint, progress=progress
                    )
                finally:
                    progress.close()
                return proven, "reused, tie-break added"
        return reuse_policy(catalog, spec), "reused"
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
    # What it reports on stderr is progress: off under --quiet or GUESSWORK_PROGRESS=0.
    quiet = not progress_on(args.quiet)
    sources = [open_catalog(location) for location in args.reuse]
    stored_policies, rows = [], []
    for number, spec in enumerate(CATALOG_SPECS, start=1):
        # Minutes each for a search; a reused policy is checked, seconds.
        say(f"build-all: [{number}/{len(CATALOG_SPECS)}] {spec.name()}", quiet=quiet)
        started = time.perf_counter()
        taken = _reused(sources, spec, args.workers, args.checkpoints, quiet)
        if taken is None:
            built, how = build_any(spec, workers=args.workers), "built"
            tree = built.tree
            stored = StoredPolicy.from_data(built.data, tree.targets.words, tree.guesses.words)
        else:
            stored, how = taken
        # A reused policy's openings were recomputed and compared by reuse_policy's verify.
        if stored.data.name in BOARD_OPENING_POLICIES and stored.data.openings is None:
            stored = with_board_openings(stored)
        seconds = time.perf_counter() - started
        stored_policies.append(stored)
        rows.append({"name": stored.data.name, "seconds": round(seconds, 4), "how": how})
        if not quiet:
            print(
                f"[{number}/{len(CATALOG_SPECS)}] {stored.data.name} {how} {seconds:.2f} s",
                file=sys.stderr,
            )
    say("build-all: the honeycomb tables", quiet=quiet)
    bees = [StoredBeeTable(*build_bee_table(name, allow_s)) for name, allow_s in DEFAULT_BEE_TABLES]
    if not quiet:
        print(f"honeycomb tables: {', '.join(bee.table.key for bee in bees)}", file=sys.stderr)
    say("build-all: the Guess My Word trees", quiet=quiet)
    for strategy, variant in DEFAULT_WORD_TREES:
        started = time.perf_counter()
        stored = default_word_tree(strategy, variant)
        stored_policies.append(stored)
        rows.append({"name": stored.data.name, "seconds": round(time.perf_counter() - started, 4)})
    if not quiet:
        print(f"Guess My Word trees: {len(DEFAULT_WORD_TREES)}", file=sys.stderr)
    say(f"build-all: publishing {args.catalog}", quiet=quiet)
    path = publish_catalog(args.catalog, stored_policies, bees)
    lines = [f"{row['name']:<48} {row['seconds']:>8.2f} s {row.get('how', '')}" for row in rows]
    lines.append(
        f"published {plural(len(rows), 'policy')} ({len(DEFAULT_WORD_TREES)} of them Guess My Word "
        f"trees) and {len(bees)} honeycomb tables to {path}"
    )
    return Outcome({"catalog": str(path), "policies": rows}, lines)


def gmw_list(args: argparse.Namespace) -> Outcome:
    """Regenerate the shipped Guess My Word list from wordfreq."""
    output = Path(args.output) if args.output else GMW_LIST_FILE
    say("gmw-list: reading wordfreq's English word frequencies")
    count, digest = write_gmw_list(args.top, output)
    line = (
        f"wrote {output}: {plural(count, 'word')}, sha256 {digest} "
        "(register it in builder/weighted_lists.py)"
    )
    return Outcome({"file": str(output), "words": count, "sha256": digest}, [line])


def wordlist(args: argparse.Namespace) -> Outcome:
    """Write a language's most frequent words of one length (builder.language_lists)."""
    rule = rule_for(args.language, args.fold_accents)
    output = Path(args.output) if args.output else None
    say(f"wordlist: reading wordfreq's word frequencies ({args.language})")
    text, count, digest = write_language_list(args.language, args.length, args.top, rule, output)
    name = list_name(args.language, args.length, args.top)
    info = {
        "name": name,
        "language": args.language,
        "file": args.output,
        "words": count,
        "sha256": digest,
    }
    if output is None:  # the list itself on standard output
        return Outcome({**info, "text": text}, text.splitlines())
    return Outcome(info, [f"wrote {output}: {plural(count, 'word')} ({name}), sha256 {digest}"])


def priors(args: argparse.Namespace) -> Outcome:
    """Write the answer likelihoods of a word list (builder.priors): to ``--output``,
    named after its stem, or to standard output."""
    if args.calendar:
        return calendar_priors(args)
    if args.date is not None or args.history is not None:
        raise UsageError("--date and --history make a calendar prior: add --calendar")
    rule = rule_for(args.language) if args.language in LANGUAGES else KEEP_ACCENTS
    words = load_wordlist(args.words, make_game("wordle", args.length), rule)
    output = Path(args.output) if args.output else None
    say(f"priors: weighing {len(words.words):,} words by wordfreq's frequencies")
    prior = generate_prior(
        words.words,
        language=args.language,
        width=args.width,
        n_common=args.common,
        plural_factor=args.plural_factor,
        past_factor=args.past_factor,
        scale=args.scale,
        name=output.stem if output else DEFAULT_NAME,
    )
    prior = dataclasses.replace(prior, params={**prior.params, "words": words.name})
    text = prior.to_text()
    top = prior.ranked()[:10]
    info = {
        "name": prior.name,
        "words_list": words.name,
        "words": len(prior),
        "output": args.output,
        "sha256": prior.sha256,
        "total_weight": prior.total,
        "top": [{"word": word, "weight": weight} for word, weight in top],
        "plurals": prior.params["plurals"],
        "past_tenses": prior.params["past_tenses"],
        "params": prior.params,
    }
    if output is None:  # the prior itself on standard output
        return Outcome({**info, "text": text}, text.splitlines())
    try:
        replace_file(output, text.encode("utf-8"))
    except OSError as error:
        raise PriorError(f"{output}: cannot write ({error.strerror})") from None
    lines = [
        f"wrote {output}: {plural(len(prior), 'word', grouped=True)} ({words.name}), "
        f"total weight {prior.total:,}, sha256 {prior.sha256}",
        f"judged plural: {prior.params['plurals']:,}, past tense: "
        f"{prior.params['past_tenses']:,} (lexicon {prior.params['lexicon']})",
        "most likely: " + ", ".join(f"{word} {weight:,}" for word, weight in top),
    ]
    return Outcome(info, lines)


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
    "upgrade": upgrade,
    "gmw-list": gmw_list,
    "wordlist": wordlist,
    "priors": priors,
    "cache": cache,
    "report": report,
}
