"""The games by id: the one list a new game's module is added to.

:data:`GAMES` maps each game's id to its class; :func:`make_game` makes a game
from an id and its options, each class reading its own
(:meth:`~guesswork.client.games.base.Game.from_options`).
"""

from __future__ import annotations

from ..errors import UnknownGameError
from .base import Game
from .guess_my_word import GuessMyWord
from .jotto import Jotto
from .mastermind import Mastermind
from .wordle import Antiwordle, Wordle

GAMES: dict[str, type[Game]] = {
    cls.id: cls for cls in (Wordle, Antiwordle, Jotto, Mastermind, GuessMyWord)
}


def make_game(
    game_id: str, length: int | None = None, colours: int | None = None, variant: str | None = None
) -> Game:
    """Return the rules object for ``game_id`` with words of ``length`` letters.

    ``length`` defaults to the game's own default: 5 letters, 4 pegs for
    Mastermind, 0 (any) for Guess My Word. ``colours`` is for Mastermind only
    (default 6), so ``make_game("mastermind")`` is the classic 6-colour, 4-peg
    game and ``make_game("mastermind", 5, 8)`` has 8 colours and 5 pegs.
    ``variant`` is for Guess My Word only (default ``deduce``).

    Raises:
        UnknownGameError: no such game (the message lists the known ones).
        InvalidWordError: the length, number of colours or variant is outside
            the supported range, or was given for another game.
    """
    try:
        cls = GAMES[game_id]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise UnknownGameError(
            f"unknown game {game_id!r}; known games: {known}", metadata={"game": game_id}
        ) from None
    return cls.from_options(length, colours, variant)
