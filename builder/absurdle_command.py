"""``guesswork-build optimize --game absurdle``: the fewest guesses that beat Absurdle.

Reads the lists, the mode (normal, or ``nyt-hard``: Absurdle's hard mode), a
fixed first guess and a challenge word, runs builder.absurdle.absurdle_optimum
and reports the line with its proof. ``--publish`` and ``--output`` store the
line as a policy (builder.absurdle_policy; not a challenge line, which ends on
one word). Options of the tree searches that do not apply to a line
(objectives, caps, beams, workers) are refused.
"""

from __future__ import annotations

from ..client.errors import UsageError
from ..client.progress import say
from ..client.rules import HARD, NYT_HARD
from .absurdle import MAX_GUESSES, absurdle_optimum
from .absurdle_policy import AbsurdleSpec, build_absurdle_policy
from .catalog_writes import check_publish, store_built
from .command_types import OptimizeOptions, Outcome
from .policies import OptimalSpec

#: Options of optimize that a line does not take, and the reason given.
_REFUSED = {
    "objective": "--objective",
    "beam": "--beam",
    "lead_opener": "--lead-opener",
    "weights": "--weights",
    "workers": "--workers",
    "scheduler": "--scheduler",
    "checkpoint": "--checkpoint",
    "bound_store": "--bound-store",
    "colours": "--colors",
    "pegs": "--pegs",
}


def optimize_absurdle(options: OptimizeOptions) -> Outcome:
    """Find and prove the shortest line that beats Absurdle; report it.

    Raises:
        UsageError: an option that does not apply to Absurdle, or the seeds' hard
            mode (Absurdle's is the NYT rule: ``--mode nyt-hard``).
        SearchError, WordListError: as builder.absurdle.absurdle_optimum and the
            list loaders.
    """
    for attribute, option in _REFUSED.items():
        value = getattr(options, attribute)
        if value not in (None, False) and not (attribute == "objective" and value == "total"):
            raise UsageError(f"{option} does not apply to --game absurdle (its play is one line)")
    if options.mode == HARD:
        raise UsageError("Absurdle's hard mode is the NYT rule: use --mode nyt-hard")
    target = options.target
    storing = bool(target.publish or target.output)
    if storing and options.challenge:
        raise UsageError(
            "a challenge line ends on one word and is not stored: drop --publish and --output"
        )
    length = 5 if options.length is None else options.length
    spec = OptimalSpec("wordle", length=length, targets=options.targets, guesses=options.guesses)
    game = spec.check()
    say("absurdle: reading the word lists")
    targets, guesses = spec.lists(game)
    hard = options.mode == NYT_HARD
    policy_spec = AbsurdleSpec(
        length=length,
        targets=options.targets,
        guesses=options.guesses,
        mode=options.mode,
        first_guess=options.first_guess,
    )
    location = check_publish(target, target.naming.name or policy_spec.name()) if storing else ""
    size = f"{len(targets):,} targets x {len(guesses):,} guesses"
    say(f"absurdle: searching for the shortest line that beats it ({size})")
    line = absurdle_optimum(
        game,
        targets,
        guesses,
        first_guess=options.first_guess,
        hard=hard,
        challenge=options.challenge,
        max_guesses=options.max_guesses or MAX_GUESSES,
    )
    # The policy's name (what --publish stores), a challenge line's marked as such.
    name = target.naming.name or (
        policy_spec.name()
        + (f"-challenge-{options.challenge.lower()}" if options.challenge else "")
    )
    info = {
        "name": name,
        "game": "absurdle",
        "mode": "nyt-hard" if hard else "normal",
        "targets": targets.name,
        "guesses": guesses.name,
        "first_guess": line.guesses[0],
        "fixed_first_guess": options.first_guess.upper() if options.first_guess else None,
        "challenge": options.challenge.upper() if options.challenge else None,
        # The guesses the guesser can guarantee: the line's length.
        "worst": line.worst,
        "lower_bound": line.lower_bound,
        "proven": line.proven,
        "line": [[guess, reply] for guess, reply in zip(line.guesses, line.replies, strict=True)],
        "sets_searched": line.sets_searched,
        "seconds": round(line.seconds, 3),
    }
    given = f", given first guess {info['fixed_first_guess']}" if options.first_guess else ""
    lines = [
        f"{name}: {line.worst} guesses beat Absurdle"
        + (f", ending on {info['challenge']}" if options.challenge else "")
        + f"{given}; proven: no line of {line.worst - 1} does ({line.seconds:.2f} s)",
        "  ".join(
            f"{guess} {reply}" for guess, reply in zip(line.guesses, line.replies, strict=True)
        ),
    ]
    if storing:
        built = build_absurdle_policy(policy_spec, line)
        store_built(target, built, location, info, lines)
    return Outcome(info, lines)
