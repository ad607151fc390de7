"""``guesswork-build boards``: multi-board play evaluated against one board at a time.

Plays Dordle, Quordle, Octordle or any number of boards over a Wordle policy's
lists with the joint step and with the baseline (the single-board policy solving
the boards in order; builder.multiboard_eval), on the same games: every ordered
pair of distinct secrets (``--every-pair``, two boards), or a fixed random sample
(``--games`` games drawn with ``--seed``). Prints each strategy's mean guesses,
share solved within the guess limit, worst case and the mean's ratio to the
baseline's.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..client.catalog import open_store
from ..client.errors import UsageError
from ..client.multiboard import MAX_BOARDS, VARIANTS
from ..client.progress import progress_on, say
from ..client.text import plural
from .command_types import Outcome
from .multiboard_eval import JOINT, ONE_AT_A_TIME, BoardsEvaluator, BoardsScore


@dataclass(frozen=True)
class BoardsOptions:
    """``boards``' options: the catalog read (None: the user's over the shipped one),
    the Wordle policy, the boards (a count or a variant's name), the guess limit
    (None: the boards plus five), and the games: ``--every-pair``, or ``--games``
    drawn with ``--seed``."""

    catalog: str | None
    policy: str
    boards: str
    limit: int | None
    every_pair: bool
    games: int
    seed: int
    quiet: bool


def board_count(text: str) -> int:
    """Return the boards ``--boards`` names: a count, or a variant's name.

    Raises:
        UsageError: neither a count from 1 to MAX_BOARDS nor a known variant.
    """
    if text.lower() in VARIANTS:
        return VARIANTS[text.lower()]
    if text.isdigit() and 1 <= int(text) <= MAX_BOARDS:
        return int(text)
    raise UsageError(
        f"--boards must be 1 to {MAX_BOARDS} or one of {', '.join(VARIANTS)}, not {text[:40]!r}"
    )


def boards(options: BoardsOptions) -> Outcome:
    """Evaluate both strategies on the same games; report them side by side.

    Raises:
        UsageError: a bad count, limit or sample size; --every-pair without two
            boards; a policy that is not Wordle's.
        PolicyNotFoundError, PolicyFormatError: as the catalog raises them.
    """
    count = board_count(options.boards)
    quiet = not progress_on(options.quiet)  # its stderr lines are progress (client.progress)
    if options.limit is not None and not count <= options.limit <= 200:
        raise UsageError(f"--limit must be {count} (the boards) to 200, not {options.limit}")
    if options.every_pair and count != 2:
        raise UsageError(f"--every-pair counts two-board games, not {count}-board ones")
    if not options.every_pair and not 1 <= options.games <= 10_000_000:
        raise UsageError(f"--games must be 1 to 10000000, not {options.games}")
    with open_store(options.catalog) as catalog:
        policy = catalog.policy(options.policy.removeprefix("policies/"))
    if not policy.game.multi_board:
        raise UsageError(f"{policy.name} is {policy.game.id}'s: multi-board games are Wordle's")
    # The whole reply matrix first: seconds on the longest lists.
    say(
        f"boards: the replies of {len(policy.vocabulary):,} guesses x {len(policy.targets):,} "
        "targets, then each strategy's games",
        quiet=quiet,
    )
    evaluator = BoardsEvaluator(policy, count, options.limit)
    scores: list[BoardsScore] = []
    seconds: dict[str, float] = {}
    for strategy in (JOINT, ONE_AT_A_TIME):
        started = time.perf_counter()
        if options.every_pair:
            scores.append(evaluator.every_pair(strategy, _progress(strategy, quiet)))
        else:
            scores.append(evaluator.sample(strategy, options.games, options.seed))
        seconds[strategy] = time.perf_counter() - started
        if not quiet:
            print(f"{strategy}: {seconds[strategy]:.1f} s", file=sys.stderr)
    joint, baseline = scores
    games = (
        "every ordered pair of distinct secrets"
        if options.every_pair
        else (f"{plural(options.games, 'random game', grouped=True)} (seed {options.seed})")
    )
    info = {
        "policy": policy.name,
        "boards": count,
        "guess_limit": evaluator.limit,
        "games": joint.games,
        "every_pair": bool(options.every_pair),
        "seed": None if options.every_pair else options.seed,
        "strategies": [score.to_json() for score in scores],
        "mean_ratio": joint.mean / baseline.mean,
        "seconds": {name: round(value, 1) for name, value in seconds.items()},
    }
    lines = [f"{policy.name}, {count} boards, limit {evaluator.limit}: {games}"]
    for score in scores:
        lines.append(
            f"  {score.strategy:<14} mean {score.mean:.4f}  within {evaluator.limit}: "
            f"{100 * score.within_limit:.3f}%  worst {score.worst}  "
            f"({seconds[score.strategy]:.1f} s)"
        )
    lines.append(f"  joint / one at a time: {info['mean_ratio']:.4f} of the mean guesses")
    return Outcome(info, lines)


def _progress(strategy: str, quiet: bool) -> Callable[[int], None] | None:
    if quiet:
        return None
    last = [0.0]

    def tell(games: int) -> None:
        now = time.perf_counter()
        if now - last[0] >= 10:
            last[0] = now
            print(f"{strategy}: {games:,} games counted", file=sys.stderr, flush=True)

    return tell
