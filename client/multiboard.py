"""Multi-board Wordle: Dordle, Quordle, Octordle, and any number of boards.

A game has N boards, each with its own secret (distinct words of one list),
and a guess limit. Every guess is played on every unsolved board, each board
replies by Wordle's rule, and a board is solved when its secret is guessed
(it then takes no more guesses). The game is won when every board is solved
within the limit; the named variants' limits are the boards plus five
(:func:`guess_limit`): Dordle 2 boards in 7, Quordle 4 in 9, Octordle 8 in 13.

A position is one history per board, each a list of (guess, reply) turns as
single-board play takes them: an unsolved board's history holds every guess
played so far, a solved board's the guesses up to the one that solved it.
:func:`board_progress` checks that the histories tell one game. The answer to
"what next?" is a :class:`BoardsSuggestion`; its guess is ranked by the joint
metric :data:`JOINT_METRIC` (builder.multiboard says how), except that a
board known to one word gets that word played. :class:`MultiBoard` holds
a game's rules as a value.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .errors import BadRequestError
from .games import Game, Wordle

#: The named games: boards per game.
VARIANTS = {"dordle": 2, "quordle": 4, "octordle": 8}
#: The most boards a game may have (Duotrigordle's 32).
MAX_BOARDS = 32
#: The most reply cells (candidate guesses x targets left, summed over the distinct
#: unsolved boards) one live multi-board answer may compute: about 3.5 s of two
#: cores (builder.multiboard.joint_cost). Past it the service answers COST_LIMIT
#: before any work. It admits a fresh game of any board count on every 5-letter
#: policy (14855 x 14855 is 221 million: boards alike are valued once), the 6- and
#: 11-letter ones; a fresh 7- to 10-letter board (400-810 million) is refused
#: until a guess has been played on it.
MAX_BOARD_CELLS = 250_000_000
#: How the joint step ranks guesses: the information about every board's secret
#: (bits, summed over the boards) plus one bit per board the guess may solve
#: (expected solved boards), as builder.multiboard defines it.
JOINT_METRIC = "joint_entropy"


def guess_limit(boards: int) -> int:
    """Return the guess limit of a game of ``boards`` boards: the boards plus five, as
    Dordle (7), Quordle (9), Octordle (13), Sedecordle (21) and Duotrigordle (37) have."""
    return boards + 5


def check_board_count(boards: int) -> None:
    """Raise BadRequestError unless 1 <= ``boards`` <= MAX_BOARDS."""
    if not 1 <= boards <= MAX_BOARDS:
        raise BadRequestError(
            f"a game has 1 to {MAX_BOARDS} boards, not {boards}",
            metadata={"field": "boards", "limit": MAX_BOARDS, "value": boards},
        )


@dataclass(frozen=True)
class MultiBoard:
    """The rules of a multi-board game, as a value (like client.games' games).

    ``boards`` boards of one Wordle game (``board``), each with its own secret,
    all different; every guess is played on every unsolved board, each board
    replies by ``board``'s rule, and the game is won when every board is solved
    within ``limit`` guesses. :func:`multi_board` makes the named ones.

    Raises:
        BadRequestError: boards outside 1..MAX_BOARDS, or a limit below the boards.
    """

    boards: int
    limit: int
    board: Game = field(default_factory=Wordle)

    def __post_init__(self) -> None:
        check_board_count(self.boards)
        if self.limit < self.boards:
            raise BadRequestError(
                f"{self.boards} boards need a limit of at least {self.boards} guesses, "
                f"not {self.limit}",
                metadata={"field": "limit", "value": self.limit},
            )

    @property
    def id(self) -> str:
        """Return the game's name: ``dordle``, ``quordle``, ``octordle`` or ``N-boards``."""
        named = {count: name for name, count in VARIANTS.items()}
        return named.get(self.boards, f"{self.boards}-boards")

    def replies(self, guess: str, secrets: Sequence[str]) -> tuple[int, ...]:
        """Return each board's reply code to ``guess``, one per secret, in board order.

        Raises:
            BadRequestError: not one secret per board, or secrets that repeat.
        """
        if len(secrets) != self.boards or len(set(secrets)) != len(secrets):
            raise BadRequestError(
                f"{self.id} takes {self.boards} different secrets, not {list(secrets)[:40]}",
                metadata={"field": "secrets"},
            )
        return tuple(self.board.reply(guess, secret) for secret in secrets)

    def progress(self, histories: Sequence[Sequence[tuple[str, int]]]) -> BoardProgress:
        """Return the guesses played and the boards solved (:func:`board_progress`),
        after checking there is one history per board.

        Raises:
            BadRequestError: as :func:`board_progress`, or not one history per board.
        """
        if len(histories) != self.boards:
            raise BadRequestError(
                f"{self.id} has {self.boards} boards, not {len(histories)}",
                metadata={"field": "boards", "value": len(histories)},
            )
        return board_progress(histories, self.board.win_reply)


def multi_board(
    boards: int | str, board: Game | None = None, limit: int | None = None
) -> MultiBoard:
    """Return the rules of a game of ``boards`` boards (a count, or a variant's name:
    dordle, quordle, octordle) of ``board`` (default: Wordle), its guess limit
    ``limit`` (default: :func:`guess_limit`).

    Raises:
        BadRequestError: an unknown name, a count outside 1..MAX_BOARDS, or a
            limit below the boards.
    """
    if isinstance(boards, str):
        if boards.lower() not in VARIANTS:
            raise BadRequestError(
                f"unknown multi-board game {boards[:40]!r}; known: {', '.join(VARIANTS)}",
                metadata={"field": "boards"},
            )
        boards = VARIANTS[boards.lower()]
    check_board_count(boards)
    return MultiBoard(boards, guess_limit(boards) if limit is None else limit, board or Wordle())


@dataclass(frozen=True)
class BoardProgress:
    """The guesses of a multi-board position and which boards are solved."""

    #: Every guess played so far, in order (the longest board history's).
    guesses: tuple[str, ...]
    #: Per board: solved (its last reply was the win).
    solved: tuple[bool, ...]


def board_progress(histories: Sequence[Sequence[tuple[str, int]]], win: int) -> BoardProgress:
    """Return the guesses played and the boards solved, checking that the per-board
    histories (checked turns: canonical guess and reply code) tell one game.

    Raises:
        BadRequestError: a board's guesses are not the game's (every unsolved
            board has every guess; a solved board the guesses up to its win),
            or one guess solves two boards (their secrets differ); the error
            names the board (``boards[i]``, 0-based) and the turn.
    """
    check_board_count(len(histories))
    longest = max(histories, key=len)
    guesses = tuple(word for word, _ in longest)
    solved = []
    winners: dict[str, int] = {}  # a solving guess -> the board it solved
    for number, turns in enumerate(histories):
        for turn, ((word, _), played) in enumerate(zip(turns, guesses, strict=False), start=1):
            if word != played:
                raise BadRequestError(
                    f"board {number + 1} turn {turn} guesses {word}, but another board's "
                    f"turn {turn} is {played}: every guess is played on every board",
                    metadata={"field": f"boards[{number}]", "turn": turn},
                )
        won = bool(turns) and turns[-1][1] == win
        if won and turns[-1][0] in winners:
            raise BadRequestError(
                f"boards {winners[turns[-1][0]] + 1} and {number + 1} are both solved by "
                f"{turns[-1][0]}: a game's boards have different secrets",
                metadata={"field": f"boards[{number}]", "turn": len(turns)},
            )
        if won:
            winners[turns[-1][0]] = number
        if len(turns) < len(guesses) and not won:
            raise BadRequestError(
                f"board {number + 1} has {len(turns)} of the {len(guesses)} guesses played and "
                f"is not solved: every guess is played on every unsolved board",
                metadata={"field": f"boards[{number}]", "turn": len(turns) + 1},
            )
        solved.append(won)
    return BoardProgress(guesses, tuple(solved))


@dataclass(frozen=True)
class BoardState:
    """One board of a multi-board position."""

    #: Targets still possible on the board (1 once solved).
    remaining: int
    #: The board's secret has been guessed.
    solved: bool


@dataclass(frozen=True)
class BoardsSuggestion:
    """A suggested next guess for a multi-board position.

    Attributes:
        guess: the word to play on every unsolved board (upper case); once every
            board is solved, the last guess.
        boards: each board's targets left and whether it is solved, in order.
        solved: every board is solved.
        alternatives: next-best guesses by ``alternative_metric``, best first.
        alternative_values: their joint values, lower is better.
        alternative_metric: :data:`JOINT_METRIC` ("" when none are ranked).
        source: ``"live"``: computed for this position.
        turn: the guesses played so far.
        guess_limit: the game's guess limit (:func:`guess_limit`).
    """

    guess: str
    boards: tuple[BoardState, ...]
    solved: bool
    alternatives: tuple[str, ...]
    source: str
    turn: int
    guess_limit: int
    alternative_values: tuple[float, ...] = ()
    alternative_metric: str = ""
