"""Mode rules over a game's replies: grouping targets, the seeds' hard mode,
NYT hard mode, and the Evil Wordle and Absurdle repliers.

The mode names (``HARD``, ``NORMAL``, ``NYT_HARD``) and the legality rules a
guess must meet in each hard mode live here, beside the game rules of
guesswork.client.games they are built on; bots use them as the service does.
"""

from __future__ import annotations

from collections.abc import Sequence

from .games import GREEN, YELLOW, Game, ReplyCode, Word, code_to_colours


def partition(game: Game, guess: Word, targets: list[Word]) -> dict[ReplyCode, list[Word]]:
    """Return the targets grouped by the reply ``guess`` gets from each.

    Groups appear in order of their first target, and keep the targets' order.
    """
    branches: dict[ReplyCode, list[Word]] = {}
    for target in targets:
        branches.setdefault(game.reply(guess, target), []).append(target)
    return branches


def consistent_targets(
    game: Game, targets: list[Word], guess: Word, reply: ReplyCode
) -> list[Word]:
    """Return the targets that would give ``reply`` to ``guess``, in order."""
    return [target for target in targets if game.reply(guess, target) == reply]


def consistency_problem(
    game: Game, turns: Sequence[tuple[Word, ReplyCode]], word: Word
) -> str | None:
    """Return why ``word`` breaks the seeds' hard mode after ``turns`` (None: it may).

    The seeds' rule: a guess must be a possible secret, i.e. every earlier
    guess would have got the same reply had ``word`` been the secret.
    """
    for number, (guessed, code) in enumerate(turns, start=1):
        got = game.reply(guessed, word)
        if got != code:
            return (
                f"{word} is not consistent with turn {number}: {guessed} would get "
                f"{game.format_reply(got)}, not {game.format_reply(code)}"
            )
    return None


#: The guessing modes of a policy: the seeds' hard mode (guesses from the
#: targets still possible), normal mode (any guess), and NYT hard mode (any
#: guess meeting :func:`nyt_hard_problem`'s rule; Wordle-like games only).
HARD, NORMAL, NYT_HARD = "hard", "normal", "nyt-hard"
MODES = (HARD, NORMAL, NYT_HARD)


def nyt_hard_problem(game: Game, turns: Sequence[tuple[Word, ReplyCode]], word: Word) -> str | None:
    """Return why ``word`` breaks the NYT hard mode after ``turns`` (None: it may).

    The NYT rule: every green letter stays in its place, and every revealed
    (green or yellow) letter is used again, as often as it was revealed. It is
    the rule of games whose replies colour letters (``game.coloured_replies``),
    and lives with them (client.games.wordle).

    Raises:
        TypeError: the game's replies colour no letters.
    """
    return game.nyt_hard_problem(turns, word)


def evil_reply(game: Game, guess: Word, targets: Sequence[Word]) -> tuple[ReplyCode, int]:
    """Return the Evil replier's reply to ``guess`` and how many ``targets`` it keeps.

    The seed's greedy adversary: the reply whose branch keeps the most
    targets (the winning reply counts as keeping none), ties to the branch
    whose first target comes first in ``targets``' order. It concedes (the
    winning reply, keeping 1) only when ``guess`` is the one target left.
    """
    branches: dict[ReplyCode, int] = {}
    for target in targets:
        code = game.reply(guess, target)
        branches[code] = branches.get(code, 0) + 1
    best, kept = game.win_reply, 0
    for code, size in branches.items():  # in order of first target
        if code != game.win_reply and size > kept:
            best, kept = code, size
    return (best, kept) if kept else (game.win_reply, 1)


def reveal_order(code: ReplyCode, length: int) -> tuple[int, int, ReplyCode]:
    """Return how much a Wordle reply reveals, as Absurdle ranks it: its greens, its
    yellows, then the reply read left to right (green above yellow above grey).

    This is the order of qntm's Absurdle ("entropy lost"): of two classes of
    equal size, its adversary keeps the one whose reply reveals less.
    """
    colours = code_to_colours(code, length)
    return colours.count(GREEN), colours.count(YELLOW), code


def absurdle_reply(game: Game, guess: Word, targets: Sequence[Word]) -> tuple[ReplyCode, int]:
    """Return Absurdle's reply to ``guess`` and how many ``targets`` it keeps.

    qntm's adversary: of the classes the reply splits ``targets`` into, the
    largest; of equal ones, the one whose reply reveals least
    (:func:`reveal_order`). The winning reply reveals most, so it is given only
    when ``guess`` is the one target left.
    """
    sizes: dict[ReplyCode, int] = {}
    for target in targets:
        code = game.reply(guess, target)
        sizes[code] = sizes.get(code, 0) + 1
    code = min(sizes, key=lambda c: (-sizes[c], reveal_order(c, game.length)))
    return code, sizes[code]
