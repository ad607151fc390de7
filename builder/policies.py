"""Policy specifications: what to build, its stable name, and building it.

A :class:`PolicySpec` holds every input that determines a policy; building
the same spec twice gives byte-identical policy cores. ``DEFAULT_SPECS`` is the
shipped catalog: every policy behind the seed tables of REFERENCE.md, plus
normal-mode ``neg_entropy`` Wordle trees with the full 12972-word guess list
and over enable1's words of every length from 4 to 11 letters.
"""

from __future__ import annotations

import dataclasses
import re
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..client.games import Game, Wordle, make_game
from ..client.letters import KEEP_ACCENTS, LANGUAGES, LetterRule, rule_for
from ..client.policy_format import ListRef, PolicyData, PriorRef
from ..client.progress import Progress
from ..client.rules import HARD, MODES, NYT_HARD
from ..client.stats import policy_stats
from ..client.strategy import (
    APPROX_ENTROPY,
    DEFAULT_RETRY_PERCENT,
    GreedyStrategy,
    OptimalStrategy,
    StepStrategy,
)
from ..client.tree_arrays import no_alternatives
from . import __version__
from .alternatives import strategy_alternatives
from .errors import SpecError
from .evaluate import score_stats
from .greedy import GreedyOptions, check_approx_entropy, step_of
from .greedy_tree import build_greedy_tree
from .matrices import letter_array
from .metrics import ARITHMETIC, DEFAULT_WINDOW
from .optimal import CodeSymmetry, Optimized, SearchOptions, optimize
from .optimal.memo import DEFAULT_MEMO_LIMIT
from .optimal.problem import check_matrix_size
from .priors import prior_label, resolve_prior, weights_for
from .tree import GuessTree
from .wordlists import WordList, fixed_words, jotto_allowable, load_wordlist

BUILDER = f"guesswork {__version__}"

#: Short names of the shipped lists, used in policy names.
_SHORT_NAMES = {
    "wordle-answers-2309": "2309",
    "wordle-answers-2315": "2315",
    "wordle-guesses-12972": "12972",
    "wordle-answers-3158": "3158",
    "wordle-guesses-14855": "14855",
    "sgb-words": "sgb",
    "enable1": "enable1",
}


@dataclass(frozen=True)
class GameSpec:
    """The game, its word lists and its mode: what every policy spec shares.

    ``targets`` and ``guesses`` are shipped list names, paths or ``-``
    (standard input); ``guesses`` None means the targets. ``colours`` is
    Mastermind's (whose lists are every code, not word lists).
    """

    game: str = "wordle"
    length: int = 5
    targets: str = "wordle-answers-2309"
    guesses: str | None = None
    mode: str = "normal"
    jotto_order: str = "sorted"
    colours: int | None = None
    #: Users' lists' letter rule (client.letters.rule_for): their language, and
    #: whether accents fold (None: the language's default).
    language: str | None = None
    fold_accents: bool | None = None
    #: The targets' answer likelihoods: a shipped prior's name or a ``WORD WEIGHT``
    #: file (builder.priors); None, every target alike.
    weights: str | None = None

    @property
    def hard(self) -> bool:
        """Return True for hard mode (consistent guesses only)."""
        return self.mode == HARD

    @property
    def nyt_hard(self) -> bool:
        """Return True for NYT hard mode (any guess the NYT rule allows)."""
        return self.mode == NYT_HARD

    def check_game(self) -> Game:
        """Return the game after checking the game, lists and mode agree.

        Raises:
            SpecError: contradictory options, with the fix in the message.
            UnknownGameError, InvalidWordError: bad game, length or colours.
        """
        game = make_game(self.game, self.length, self.colours)
        if self.mode not in MODES:
            raise SpecError(f"unknown mode {self.mode!r}; use {', '.join(MODES)}")
        if game.consistent_only and not self.hard:
            raise SpecError(f"{game.id} allows only consistent guesses; use --mode hard")
        if self.nyt_hard and not game.coloured_replies:
            raise SpecError(f"--mode nyt-hard is Wordle's rule; {game.id} has no NYT hard mode")
        if self.guesses == "-" and self.targets == "-":
            raise SpecError("standard input can supply only one of --targets and --guesses")
        if self.language is not None and self.language not in LANGUAGES:
            raise SpecError(f"unknown language {self.language!r}; known: {', '.join(LANGUAGES)}")
        if self.weights is not None and not game.target_weights:
            raise SpecError(f"--weights applies to games with a secret to find, not {game.id}")
        return game

    def lists(self, game: Game) -> tuple[WordList, WordList]:
        """Return the target and guess lists for ``game`` (Mastermind: every code twice).

        Raises:
            WordListError: a list is unknown, unreadable or invalid.
        """
        if game.fixed_words:
            codes = fixed_words(game)
            return codes, codes
        rule = rule_for(self.language, self.fold_accents)
        targets = load_list(self.targets, game, self.jotto_order, rule)
        if self.guesses is None or self.guesses == self.targets:
            return targets, targets
        return targets, load_list(self.guesses, game, self.jotto_order, rule)

    def prior(self, targets: WordList) -> tuple[PriorRef, np.ndarray] | None:
        """Return the prior ``weights`` names and each target's weight, or None: all alike.

        Raises:
            PriorError: the prior is unknown, unreadable, invalid or lacks a target.
        """
        if self.weights is None:
            return None
        prior = resolve_prior(self.weights)
        weights = weights_for(prior, targets.words, targets.name)
        return PriorRef(prior.name, prior.sha256, dict(prior.params)), weights

    def name_parts(self, game: Game) -> list[str]:
        """Return the start of a policy name: game, lists, prior, Jotto order and mode."""
        parts = [game.name]
        if not game.fixed_words:
            parts.append(_list_label(self.targets))
            if self.guesses not in (None, self.targets):
                parts.append("g" + _list_label(self.guesses))
            if self.weights is not None:
                parts.append("weighted-" + prior_label(self.weights))
            if game.letter_set_lists and self.jotto_order != "sorted":
                parts.append(self.jotto_order.replace("-", ""))
            parts.append(self.mode)
        return parts

    def jotto_order_of(self, game: Game) -> str | None:
        """Return the Jotto list order a strategy records (None for other games)."""
        return self.jotto_order if game.letter_set_lists else None


@dataclass(frozen=True)
class PolicySpec(GameSpec):
    """Everything that determines a greedy policy: the game spec and the greedy step."""

    metric: str = "neg_entropy"
    window: tuple[int, int | None] = DEFAULT_WINDOW
    arithmetic: str = "auto"
    seed: int = 0
    #: approx_entropy only: percent of the candidates whose exact entropy is computed.
    retry_percent: float = DEFAULT_RETRY_PERCENT

    def resolved_arithmetic(self) -> str:
        """Return the seed arithmetic to use: explicit, or inferred from the other options.

        The seeds' tables differ in floating-point details (builder.partitions) and ties
        in Jotto's six-reply partitions are common enough that the notebook's own
        arithmetic is needed to reproduce its trees exactly: 2020 when the options follow
        the 2020 notebook (first-seen Jotto order or an unbounded window), else 2022.
        """
        if self.arithmetic != "auto":
            return self.arithmetic
        return "2020" if self.jotto_order == "first-seen" or self.window[1] is None else "2022"

    def check(self) -> Game:
        """Return the game after checking the spec is consistent.

        Raises:
            SpecError: contradictory options, with the fix in the message.
            UnknownGameError, InvalidWordError: bad game or length.
        """
        game = self.check_game()
        if self.metric == "random" and not self.hard:
            raise SpecError("the random guesser makes only consistent guesses; use --mode hard")
        if self.arithmetic != "auto" and self.arithmetic not in ARITHMETIC:
            raise SpecError(f"unknown arithmetic {self.arithmetic!r}; use auto, 2022 or 2020")
        if self.metric != APPROX_ENTROPY and self.retry_percent != DEFAULT_RETRY_PERCENT:
            raise SpecError("--retry-percent applies to --metric approx_entropy only")
        if self.weights is not None and self.metric in (APPROX_ENTROPY, "random"):
            raise SpecError(f"--weights does not apply to --metric {self.metric}")
        try:
            check_approx_entropy(
                GreedyOptions(metric=self.metric, retry_percent=self.retry_percent), game
            )
        except ValueError as error:
            raise SpecError(str(error)) from None
        return game

    def strategy(self, game: Game) -> GreedyStrategy:
        """Return the stored strategy of the policy this spec builds."""
        return GreedyStrategy(
            metric=self.metric,
            window=None if self.hard else self.window,
            arithmetic=self.resolved_arithmetic(),
            jotto_order=self.jotto_order_of(game),
            seed=self.seed if self.metric == "random" else None,
            retry_percent=self.retry_percent if self.metric == APPROX_ENTROPY else None,
        )

    def name(self) -> str:
        """Return the policy's stable, human-readable name.

        E.g. ``wordle-2309-normal-neg-entropy``, ``jotto-sgb-firstseen-hard-max``,
        ``wordle-2315-g12972-normal-neg-entropy``,
        ``wordle-8-enable1-normal-approx-entropy-r10`` (a retry percent of 10).
        """
        game = make_game(self.game, self.length, self.colours)
        parts = [*self.name_parts(game), self.metric.replace("_", "-")]
        if not self.hard and self.window != DEFAULT_WINDOW:
            low, high = self.window
            parts.append(f"w{low}-{'any' if high is None else high}")
        if self.arithmetic != "auto":
            parts.append(f"a{self.arithmetic}")
        if self.metric == "random":
            parts.append(f"seed{self.seed}")
        if self.metric == APPROX_ENTROPY and self.retry_percent != DEFAULT_RETRY_PERCENT:
            parts.append(f"r{self.retry_percent:g}".replace(".", "p"))
        return "-".join(parts)


def _list_label(spec: str) -> str:
    if spec in _SHORT_NAMES:
        return _SHORT_NAMES[spec]
    if spec == "-":
        return "stdin"
    # A newer official list (guesswork-build lists update): wordle-answers-N reads N.
    stem = re.sub(r"^wordle-(answers|guesses)-(?=[0-9]+$)", "", Path(spec).stem.lower())
    return re.sub(r"[^a-z0-9]+", "-", stem).strip("-") or "list"


def load_list(spec: str, game: Game, jotto_order: str, rule: LetterRule = KEEP_ACCENTS) -> WordList:
    """Return the word list ``spec`` for ``game``, a user's read with the letter
    ``rule`` (client.letters); Jotto's is derived as the seeds do.

    Raises:
        WordListError: the list is unknown, unreadable or invalid.
    """
    if not game.letter_set_lists:
        return load_wordlist(spec, game, rule)
    source = load_wordlist(spec, Wordle(game.length), rule)
    return WordList.from_words(
        f"jotto({source.name},{jotto_order})",
        jotto_allowable(source.words, game.length, jotto_order),
    )


@dataclass(frozen=True)
class BuiltPolicy:
    """A built tree, its policy record, and the seconds the whole build took: the word
    lists and their replies, the tree (a search's included) and the record."""

    spec: GameSpec
    tree: GuessTree
    data: PolicyData
    seconds: float


def build_policy(
    spec: PolicySpec, *, progress: Progress | None = None, alternatives: bool = True
) -> BuiltPolicy:
    """Build the tree ``spec`` describes and its policy record (its ``seconds`` all of it;
    no ranked alternatives when ``alternatives`` is False: a record only reported).

    Raises:
        SpecError, WordListError, UnknownGameError, InvalidWordError,
        IndistinguishableTargetsError: bad options or lists.
    """
    report = progress if progress is not None else Progress("", enabled=False)
    started = time.perf_counter()  # all of it: the time printed is the time waited
    game = spec.check()
    report.say("reading the word lists and their replies")
    targets, guesses = spec.lists(game)
    prior = spec.prior(targets)
    strategy = spec.strategy(game)
    step = step_of(strategy, len(guesses), game, nyt_hard=spec.nyt_hard)
    report.say(f"building the tree ({len(targets):,} targets x {len(guesses):,} guesses)")
    weights = None if prior is None else prior[1]
    tree = build_greedy_tree(game, targets, guesses, step.options, progress=report, weights=weights)
    report.close()  # the tree's bar ends before the next line
    if alternatives:
        report.say("ranking each node's alternatives for the record")
    data = policy_data(spec.name(), spec.mode, strategy, tree, prior, alternatives, report)
    return BuiltPolicy(spec, tree, data, time.perf_counter() - started)


def policy_data(
    name: str,
    mode: str,
    strategy: StepStrategy,
    tree: GuessTree,
    prior: tuple[PriorRef, np.ndarray] | None = None,
    alternatives: bool = True,
    progress: Progress | None = None,
) -> PolicyData:
    """Return the storable record of ``tree``, built by ``strategy``.

    Each node's alternatives are ranked by the strategy's greedy step (for an
    optimised tree: the step that answers its off-tree histories live), over
    the targets weighted by ``prior`` (its reference and each target's weight)
    when given; its statistics are then weighted too (client.stats.prior_stats).
    ``alternatives`` False leaves them out (a record only reported, never
    stored: ranking them costs a third of a second on a 2315-target tree);
    ``progress`` counts the nodes ranked.
    """
    weights = None if prior is None else prior[1]
    stats = (
        score_stats(tree.target_scores).to_policy_stats()
        if weights is None
        else policy_stats(tree.target_scores.tolist(), weights.tolist(), prior=True)
    )
    return PolicyData(
        name=name,
        game=tree.game,
        mode=mode,
        strategy=strategy,
        targets=ListRef(tree.targets.name, tree.targets.sha256, len(tree.targets)),
        guesses=ListRef(tree.guesses.name, tree.guesses.sha256, len(tree.guesses)),
        extra_words=tree.vocabulary[len(tree.guesses) :],
        builder=BUILDER,
        stats=stats,
        arrays={
            "node_guess": tree.node_guess,
            "node_size": tree.node_size,
            "node_first": tree.node_first,
            "edge_offsets": tree.edge_offsets,
            "edge_reply": tree.edge_reply,
            "edge_child": tree.edge_child,
            "target_order": tree.target_order,
            **(
                strategy_alternatives(tree, strategy, mode, weights, progress)
                if alternatives
                else no_alternatives(tree.node_count)
            ),
        },
        weights=weights,
        prior=None if prior is None else prior[0],
    )


@dataclass(frozen=True)
class OptimalSpec(GameSpec):
    """Everything that determines an optimised (optimal, capped, minimax or lookahead) policy."""

    objective: str = "total"
    max_guesses: int | None = None
    first_guess: str | None = None
    beam: int | None = None
    #: A search over every opener searches this one first (faster with a good one:
    #: the tree and its name are the same with any lead, the certificate records
    #: it; see SearchOptions).
    lead_opener: str | None = None
    #: Among the trees of least total, the one of least worst case, proven: the
    #: objective ``total-then-worst`` under the plain optimum's name (the tree is one
    #: of least total; its certificate's ``tie_break`` says no tree of that total has
    #: a smaller worst case). For the shipped optima, whose names are kept.
    least_worst: bool = False

    @property
    def search_objective(self) -> str:
        """Return the objective the search runs: ``total-then-worst`` for a
        ``least_worst`` spec, else :attr:`objective`."""
        return "total-then-worst" if self.least_worst else self.objective

    def options(self, workers: int = 1) -> SearchOptions:
        """Return the search options this spec asks for."""
        return SearchOptions(
            objective=self.search_objective,
            hard=self.hard,
            nyt_hard=self.nyt_hard,
            max_guesses=self.max_guesses,
            first_guess=self.first_guess,
            beam=self.beam,
            workers=workers,
            lead_opener=self.lead_opener,
        )

    def check(self) -> Game:
        """Return the game after checking the spec is consistent.

        Raises:
            SpecError, SearchError: contradictory options.
            UnknownGameError, InvalidWordError: bad game, length or colours.
        """
        game = self.check_game()
        if not game.minimises_guesses:
            raise SpecError(
                "antiwordle's player wants the most guesses, and optimize minimises them; "
                "use evaluate --game antiwordle for its greedy trees"
            )
        if self.least_worst and self.objective != "total":
            raise SpecError(
                f"least_worst breaks a least total's ties; the objective is {self.objective}"
            )
        self.options().check()
        if self.weights is not None and self.objective == "minimax":
            raise SpecError(
                "--weights applies to the objectives with a total (the expected guesses), "
                "not minimax"
            )
        return game

    def strategy(self, game: Game) -> OptimalStrategy:
        """Return the stored strategy: the search, and the greedy step it falls back to.

        Off-tree histories are answered live by the greedy neg_entropy step (an
        exact search per request would not fit the service's budget).
        """
        return OptimalStrategy(
            objective=self.search_objective,
            beam=self.beam,
            max_guesses=self.max_guesses,
            first_guess=self.first_guess,
            fallback=GreedyStrategy(
                metric="neg_entropy",
                window=None if self.hard else DEFAULT_WINDOW,
                arithmetic="2022",
                jotto_order=self.jotto_order_of(game),
            ),
        )

    def name(self) -> str:
        """Return the policy's stable name.

        E.g. ``wordle-2315-g12972-normal-optimal-first-salet``,
        ``jotto-2309-hard-lookahead4-first-debar``, ``mastermind-minimax``,
        ``wordle-2315-g12972-normal-optimal-total-then-worst-first-salet``.
        """
        parts = self.name_parts(make_game(self.game, self.length, self.colours))
        if self.beam is not None:
            parts.append(f"lookahead{self.beam}")
            if self.objective == "minimax":
                parts.append("minimax")
        else:
            parts.append("minimax" if self.objective == "minimax" else "optimal")
            if self.objective in ("total-then-worst", "worst-then-total"):
                parts.append(self.objective)
        if self.max_guesses is not None:
            parts.append(f"cap{self.max_guesses}")
        if self.first_guess is not None:
            parts.append(f"first-{self.first_guess.lower()}")
        return "-".join(parts)


def build_optimal_policy(
    spec: OptimalSpec,
    *,
    workers: int = 1,
    checkpoint: Path | None = None,
    progress: Progress | None = None,
    bound_store: str | None = None,
    memo_limit: int | None = DEFAULT_MEMO_LIMIT,
    scheduler: str | None = None,
    alternatives: bool = True,
    ceiling: int | None = None,
) -> tuple[BuiltPolicy, Optimized]:
    """Search for the tree ``spec`` describes; return its policy record and the search.

    ``bound_store``: a bound store file (builder.optimal.bound_store) to read and add to
    (None: nothing kept between runs); ``memo_limit`` bounds each process's memo
    (builder.optimal.memo); ``scheduler``: a Dask cluster (builder.optimal.cluster; None:
    a local one when ``workers`` > 1); none changes the tree. ``alternatives`` False:
    none in the record (a tree only reported). ``ceiling``: only a tree below it.

    Raises:
        SpecError, SearchError (NoTreeBelowCeilingError: none below ``ceiling``),
        WordListError, UnknownGameError, InvalidWordError.
    """
    started = time.perf_counter()  # all of it, as build_policy's: the time waited
    report, game = progress or Progress("", enabled=False), spec.check()
    report.say("reading the word lists and their replies")
    targets, guesses = spec.lists(game)
    prior = spec.prior(targets)
    report.say(f"searching ({len(targets):,} targets x {len(guesses):,} guesses)")
    # Before the colour symmetry, which takes seconds on the largest code sets (13 s
    # for 9 colours x 6 pegs): a search that cannot fit is refused at once.
    check_matrix_size(len(guesses), len(targets))
    symmetry, colours = None, game.interchangeable_colours
    if colours is not None:
        symmetry = CodeSymmetry(letter_array(targets.words, game.length), colours)
    result = optimize(
        game,
        targets,
        guesses,
        dataclasses.replace(
            spec.options(workers),
            bound_store=bound_store,
            memo_limit=memo_limit,
            scheduler=scheduler,
            ceiling=ceiling,
        ),
        symmetry=symmetry,
        checkpoint=checkpoint,
        progress=progress,
        weights=None if prior is None else prior[1],
    )
    report.close()  # the search's bar ends before the next line
    if alternatives:
        report.say("ranking each node's alternatives for the record")
    strategy = spec.strategy(game)
    data = policy_data(spec.name(), spec.mode, strategy, result.tree, prior, alternatives)
    data = dataclasses.replace(data, certificate=result.certificate.to_map())
    return BuiltPolicy(spec, result.tree, data, time.perf_counter() - started), result
