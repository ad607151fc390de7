"""The ``guesswork-build`` commands that build: evaluate, first-guesses, build,
build-all, gmw-list, wordlist and priors. Each takes its frozen dataclass of
options (defined beside it, built by builder.cli) and returns an Outcome.

An Outcome (builder.command_types) carries the JSON value (``--json``), the text
lines otherwise, and the exit status. Commands raise GuessworkError (or
UsageError) for bad input; builder.cli turns those into one-line messages.
"""

from __future__ import annotations

import dataclasses
import sys
import time
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

from ..client.catalog import open_catalog
from ..client.errors import UsageError
from ..client.games import Game, Mastermind, make_game
from ..client.letters import KEEP_ACCENTS, LANGUAGES, rule_for
from ..client.progress import Progress, progress_on, say
from ..client.strategy import DEFAULT_RETRY_PERCENT
from ..client.text import plural
from .catalog_build import CatalogStep, HoneycombTablesDone, PolicyDone, build_catalog
from .catalog_writes import check_name_free, renamed, write_location
from .command_types import DayOptions, ListOptions, Naming, Outcome, TreeOptions
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
    adjacent_merge,
    binary_search,
    confidence_interval_95,
    entropy,
    expected_guesses,
    guess_counts,
    optimal_alphabetic,
    optimal_bst,
    sample_guesses,
)
from .language_lists import list_name
from .language_lists import write_list as write_language_list
from .policies import GameSpec, PolicySpec, build_policy
from .prior_making import DEFAULT_NAME, generate_prior
from .publish import StoredPolicy, kept_bee_tables, merged, publish_catalog
from .publish_lock import publishing
from .today_commands import calendar_priors
from .weighted_lists import load_weighted_list, shipped_weighted_list
from .word_trees import Variant
from .wordlists import WordList, load_wordlist


def tree_spec(tree: TreeOptions) -> PolicySpec:
    """Return the policy spec the tree options describe.

    Raises:
        UsageError: ``--retry-percent`` with a metric other than approx_entropy.
    """
    if tree.retry_percent is not None and tree.metric != "approx_entropy":
        raise UsageError("--retry-percent applies to --metric approx_entropy only")
    lists = tree.lists
    return PolicySpec(
        game=lists.game,
        length=game_of(lists).length,
        colours=lists.colours,
        targets=lists.targets,
        guesses=lists.guesses,
        mode=tree.mode,
        metric=tree.metric,
        window=tree.window,
        jotto_order=lists.jotto_order,
        arithmetic=lists.arithmetic,
        seed=tree.seed,
        retry_percent=(DEFAULT_RETRY_PERCENT if tree.retry_percent is None else tree.retry_percent),
        language=lists.language,
        fold_accents=lists.fold_accents,
        weights=tree.weights,
    )


@dataclass(frozen=True)
class EvaluateOptions:
    """``evaluate``'s options: the tree's, and Guess My Word's ``--strategy``,
    ``--variant`` and ``--samples``."""

    tree: TreeOptions
    strategy: str | None
    variant: str | None
    samples: int
    quiet: bool


def evaluate(options: EvaluateOptions) -> Outcome:
    """Build the tree the options describe and report its scores."""
    if options.tree.lists.game == "guess-my-word":
        return evaluate_guess_my_word(options)
    if options.strategy or options.variant:
        raise UsageError("--strategy and --variant apply to --game guess-my-word only")
    spec = tree_spec(options.tree)
    progress = Progress(f"{spec.game} {spec.mode} {spec.metric}", enabled=not options.quiet)
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


def evaluate_guess_my_word(options: EvaluateOptions) -> Outcome:
    """Build a Guess My Word tree and report its exact and sampled expected guesses."""
    strategy = options.strategy or "optimal"
    variant: Variant = "live" if options.variant == "live" else "deduce"
    targets = options.tree.lists.targets
    shipped = targets in (None, "wordle-answers-2309")  # the evaluate default
    started = time.perf_counter()  # the list read too, as every build's seconds
    weights = shipped_weighted_list() if shipped else load_weighted_list(targets)
    if strategy == "binary":
        tree = binary_search(weights, variant)
    elif strategy == "adjacent-merge":
        tree = adjacent_merge(weights)
    else:
        tree = optimal_alphabetic(weights) if variant == "deduce" else optimal_bst(weights)
    seconds = time.perf_counter() - started
    mean = expected_guesses(tree, weights, variant)
    counts = guess_counts(tree, variant)
    sampled = sample_guesses(tree, weights, variant, options.samples, options.tree.seed)
    sample_mean, low, high = confidence_interval_95(sampled)
    report = {
        "game": "guess-my-word",
        "targets": len(weights.words),
        "targets_list": "common-words" if shipped else targets,
        "strategy": strategy,
        "variant": variant,
        "first_guess": tree.first_guess,
        "mean": mean,
        "entropy": entropy(weights),
        "worst": int(counts.max()),
        "best": int(counts.min()),
        "sampled": {"samples": options.samples, "mean": sample_mean, "low": low, "high": high},
        "seconds": round(seconds, 4),
    }
    lines = [
        f"guess-my-word ({variant}): {len(weights.words):,} weighted words, {strategy} tree",
        f'first guess: "{tree.first_guess}"',
        f"expected guesses {mean:.3f} (entropy {report['entropy']:.3f} bits), worst "
        f"{report['worst']}, best {report['best']}",
        f"sampled over {options.samples:,} games: {sample_mean:.3f} (95% interval {low:.3f} to "
        f"{high:.3f})",
    ]
    return Outcome(report, lines)


def game_of(lists: ListOptions) -> Game:
    """Return the game the list options name: ``--length`` (None: the game's default, 5
    letters or Mastermind's 4 pegs), and Mastermind's ``--colours`` and ``--pegs`` (its
    length, as optimize takes them).

    Raises:
        UsageError: ``--pegs`` for another game, or with a different ``--length``.
        UnknownGameError, InvalidWordError: an unknown game, a length or number of
            colours out of range, or colours given for another game than Mastermind.
    """
    length = lists.length
    if lists.pegs is not None:
        if lists.game != Mastermind.id:
            raise UsageError("--pegs applies to --game mastermind only (--length elsewhere)")
        if length not in (None, lists.pegs):
            raise UsageError("--pegs and --length are the same thing for mastermind: give one")
        length = lists.pegs
    return make_game(lists.game, length, lists.colours)


def _lists_for(options: ListOptions) -> tuple[Game, WordList, WordList]:
    """Return the game and its target and guess lists, as a build reads them
    (GameSpec.lists: Mastermind's every code, whatever ``--targets`` says).

    Raises:
        UsageError: ``-`` (standard input) for both lists.
        UnknownGameError, InvalidWordError, WordListError: a bad game or list.
    """
    if options.guesses == "-" and options.targets == "-":
        raise UsageError("standard input can supply only one of --targets and --guesses")
    game = game_of(options)
    spec = GameSpec(
        game=options.game,
        length=game.length,
        targets=options.targets,
        guesses=options.guesses,
        jotto_order=options.jotto_order,
        colours=options.colours,
        language=options.language,
        fold_accents=options.fold_accents,
    )
    return (game, *spec.lists(game))


@dataclass(frozen=True)
class FirstGuessesOptions:
    """``first-guesses``' options: the lists, the ``--metric`` ranked by (none: the
    default three) and ``--top``."""

    lists: ListOptions
    metric: tuple[str, ...] | None
    top: int


def first_guesses(options: FirstGuessesOptions) -> Outcome:
    """Rank every guess by each metric, best and worst."""
    game, targets, guesses = _lists_for(options.lists)
    say(f"first-guesses: the replies of {len(guesses):,} guesses x {len(targets):,} targets")
    arithmetic = PolicySpec(
        jotto_order=options.lists.jotto_order, arithmetic=options.lists.arithmetic
    )
    tables: dict[str, object] = {}
    lines = []
    for metric in options.metric or FIRST_GUESS_METRICS:
        ranked = first_guess_values(
            game, targets, guesses, metric, arithmetic.resolved_arithmetic()
        )
        best, worst = ranked[: options.top], ranked[-options.top :]
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


@dataclass(frozen=True)
class BuildOptions:
    """``build``'s options: the catalog written (None: the user's), the tree's
    options and the policy's name there."""

    catalog: str | None
    tree: TreeOptions
    naming: Naming
    quiet: bool


def build(options: BuildOptions) -> Outcome:
    """Build one policy and publish the catalog with it added (replaced only with --replace)."""
    spec = tree_spec(options.tree)
    spec.check()
    name, replacing = options.naming.name, options.naming.replace
    location = write_location(options.catalog)
    with publishing(location) as catalog:  # fail before the build if the name is taken
        check_name_free(catalog, location, name or spec.name(), replacing)
    progress = Progress(name or spec.name(), enabled=not options.quiet)
    try:
        stored, seconds = _stored(spec, progress)
    finally:
        progress.close()
    stored = renamed(stored, name)
    progress.say(f"adding it to {location}")
    with publishing(location) as catalog:  # read again: another publish may have landed
        check_name_free(catalog, location, stored.data.name, replacing)
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


@dataclass(frozen=True)
class BuildAllOptions:
    """``build-all``'s options: the catalog file written (required), the ``--reuse``
    catalogs, the tie-breaks' ``--checkpoints`` folder and the searches' ``--workers``."""

    catalog: str | None
    quiet: bool
    reuse: tuple[str, ...]
    checkpoints: Path | None
    workers: int


def build_all(options: BuildAllOptions) -> Outcome:
    """Build the shipped catalog's contents (builder.catalog_specs.SHIPPED_CONTENTS) into
    a fresh catalog and publish it (builder.catalog_build.build_catalog); say each
    policy built on standard error unless ``--quiet``.

    Raises:
        UsageError: no ``--catalog``: a whole catalog replaces its file, so the
            file is never implied (the user's would lose its policies).
    """
    if options.catalog is None:
        raise UsageError(
            "build-all writes a whole new catalog: name the file with --catalog "
            "(`make catalog` uses --catalog policies/catalog.sqlite)"
        )
    # What it reports on stderr is progress: off under --quiet or GUESSWORK_PROGRESS=0.
    quiet = not progress_on(options.quiet)

    def tell(step: CatalogStep) -> None:
        if quiet:
            return
        if isinstance(step, PolicyDone):
            line = (
                f"[{step.number}/{step.total}] {step.entry.name} {step.entry.how} "
                f"{step.entry.seconds:.2f} s"
            )
        elif isinstance(step, HoneycombTablesDone):
            line = f"honeycomb tables: {', '.join(step.keys)}"
        else:
            line = f"Guess My Word trees: {step.count}"
        print(line, file=sys.stderr)

    with ExitStack() as stack:
        sources = [stack.enter_context(open_catalog(location)) for location in options.reuse]
        done = build_catalog(
            options.catalog,
            reuse=sources,
            workers=options.workers,
            checkpoints=options.checkpoints,
            quiet=quiet,
            on_step=tell,
        )
    rows = [entry.to_json() for entry in done.entries]
    lines = [f"{row['name']:<48} {row['seconds']:>8.2f} s {row.get('how', '')}" for row in rows]
    lines.append(
        f"published {plural(len(rows), 'policy')} ({done.word_trees} of them Guess My Word "
        f"trees) and {done.honeycomb_tables} honeycomb tables to {done.path}"
    )
    return Outcome({"catalog": str(done.path), "policies": rows}, lines)


@dataclass(frozen=True)
class GmwListOptions:
    """``gmw-list``'s options: the wordfreq words considered and the file (None: the
    shipped list)."""

    top: int
    output: str | None


def gmw_list(options: GmwListOptions) -> Outcome:
    """Regenerate the shipped Guess My Word list from wordfreq."""
    output = Path(options.output) if options.output else GMW_LIST_FILE
    say("gmw-list: reading wordfreq's English word frequencies")
    count, digest = write_gmw_list(options.top, output)
    line = (
        f"wrote {output}: {plural(count, 'word')}, sha256 {digest} "
        "(register it in builder/weighted_lists.py)"
    )
    return Outcome({"file": str(output), "words": count, "sha256": digest}, [line])


@dataclass(frozen=True)
class WordlistOptions:
    """``wordlist``'s options: the language, its letter rule, the word length, how many
    words, and the file (None: standard output)."""

    language: str
    fold_accents: bool | None
    length: int
    top: int
    output: str | None


def wordlist(options: WordlistOptions) -> Outcome:
    """Write a language's most frequent words of one length (builder.language_lists)."""
    rule = rule_for(options.language, options.fold_accents)
    output = Path(options.output) if options.output else None
    say(f"wordlist: reading wordfreq's word frequencies ({options.language})")
    text, count, digest = write_language_list(
        options.language, options.length, options.top, rule, output
    )
    name = list_name(options.language, options.length, options.top)
    info = {
        "name": name,
        "language": options.language,
        "file": options.output,
        "words": count,
        "sha256": digest,
    }
    if output is None:  # the list itself on standard output
        return Outcome({**info, "text": text}, text.splitlines())
    return Outcome(info, [f"wrote {output}: {plural(count, 'word')} ({name}), sha256 {digest}"])


@dataclass(frozen=True)
class PriorsOptions:
    """``priors``' options: the words, their length, the file (None: standard output),
    wordfreq's language and the sigmoid's parameters; or ``--calendar``: the day's
    calendar prior instead."""

    words: str
    length: int
    output: str | None
    language: str
    width: float
    common: int
    plural_factor: float
    past_factor: float
    scale: int
    calendar: bool
    day: DayOptions


def priors(options: PriorsOptions) -> Outcome:
    """Write the answer likelihoods of a word list (builder.priors): to ``--output``,
    named after its stem, or to standard output."""
    if options.calendar:
        return calendar_priors(options.day, options.output)
    if options.day.date is not None or options.day.history is not None:
        raise UsageError("--date and --history make a calendar prior: add --calendar")
    rule = rule_for(options.language) if options.language in LANGUAGES else KEEP_ACCENTS
    words = load_wordlist(options.words, make_game("wordle", options.length), rule)
    output = Path(options.output) if options.output else None
    say(f"priors: weighing {len(words.words):,} words by wordfreq's frequencies")
    prior = generate_prior(
        words.words,
        language=options.language,
        width=options.width,
        n_common=options.common,
        plural_factor=options.plural_factor,
        past_factor=options.past_factor,
        scale=options.scale,
        name=output.stem if output else DEFAULT_NAME,
    )
    prior = dataclasses.replace(prior, params={**prior.params, "words": words.name})
    text = prior.to_text()
    top = prior.ranked()[:10]
    info = {
        "name": prior.name,
        "words_list": words.name,
        "words": len(prior),
        "output": options.output,
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
