"""``guesswork play --boards N``: the interactive helper for multi-board games.

Dordle (``--boards 2``), Quordle (4), Octordle (8) or any number of boards
(client.multiboard): the helper shows the next guess for every unsolved
board together and reads the replies, one per unsolved board in board
order, until every board is solved. Besides replies it understands:

* ``WORD REPLY REPLY ...``: the player played another word;
* a blank line: the game refused the guess shown, so the next-best one is shown;
* ``undo``: take back the last guess; ``help`` or ``?``; ``q`` to quit.

Like all of ``client``, this module imports neither ``builder`` nor ``service``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .errors import GuessworkError
from .letters import upper_word
from .play import read_until_taken
from .text import plural

if TYPE_CHECKING:
    from .core import Guesswork
    from .multiboard import BoardsSuggestion

History = list[tuple[str, str]]

#: Alternatives asked for at each turn: the next-best guesses blank lines walk through.
PLAY_ALTERNATIVES = 20
BOARDS_COMMANDS = (
    "At the replies> prompt:",
    "  REPLY REPLY ...       the replies to the guess shown, one per unsolved board, in",
    "                        board order: .Y..G, gybbb, 01002 or coloured squares",
    "  WORD REPLY REPLY ...  you played WORD instead, and the boards replied so",
    "  (blank line)          the game refused the guess shown: show the next-best one",
    "  undo                  take back the last guess",
    "  help, ?               this list",
    "  q, quit               stop",
)
_HELP = ("help", "?")
_UNDO = "undo"


class BoardsSession:
    """One multi-board game in the helper: each board's turns and the answer to them."""

    def __init__(self, backend: Guesswork, policy: str, boards: int) -> None:
        self.backend, self.policy = backend, policy
        self.histories: list[History] = [[] for _ in range(boards)]
        self.answer: BoardsSuggestion = backend.suggest_boards(
            policy, self.histories, PLAY_ALTERNATIVES
        )
        #: Words the game refused (blank lines): not shown again.
        self.refused: list[str] = []

    @property
    def choices(self) -> list[str]:
        """Return the guess shown first and its alternatives, less the refused words."""
        ranked = [self.answer.guess, *self.answer.alternatives]
        return [word for word in ranked if word not in self.refused] or ranked

    @property
    def open_boards(self) -> list[int]:
        """Return the numbers (0-based) of the boards not solved yet."""
        return [i for i, board in enumerate(self.answer.boards) if not board.solved]

    def show(self) -> None:
        """Print the next guess and each board's count (``done`` for a solved one)."""
        counts = "  ".join(
            f"{i + 1}:{'done' if board.solved else board.remaining}"
            for i, board in enumerate(self.answer.boards)
        )
        turn = self.answer.turn + 1
        print(f"Guess {turn} of {self.answer.guess_limit}: {self.choices[0]}  (possible {counts})")

    def take(self, line: str) -> bool:
        """Act on one line typed at the prompt (stripped; not a quit). Returns True when
        the turns changed, so the next guess is to be shown."""
        command = line.lower()
        if command in _HELP:
            print("\n".join(BOARDS_COMMANDS))
            return False
        if command == _UNDO:
            return self._undo()
        if not line:
            if len(self.choices) < 2:
                print("No more alternatives; type the replies, or 'WORD REPLY REPLY ...'.")
                return False
            self.refused.append(self.choices[0])
            print(f"Guess {self.answer.turn + 1}: {self.choices[0]}  (the next best)")
            return False
        tokens = line.split()
        wanted = len(self.open_boards)
        if len(tokens) == wanted:
            guess, replies = self.choices[0], tokens
        elif len(tokens) == wanted + 1:
            guess, replies = tokens[0], tokens[1:]
        else:
            print(
                f"Not accepted: type {plural(wanted, 'reply', 'replies')}, one per unsolved "
                f"board ({', '.join(str(i + 1) for i in self.open_boards)}), in board order"
            )
            return False
        histories = [list(history) for history in self.histories]
        for board, reply in zip(self.open_boards, replies, strict=True):
            histories[board].append((guess, reply))
        try:
            self.answer = self.backend.suggest_boards(self.policy, histories, PLAY_ALTERNATIVES)
        except GuessworkError as error:
            hint = "if an earlier reply was mistyped, undo takes it back"
            if len(tokens) == wanted + 1:
                # One entry more than the boards left reads as 'WORD REPLY ...': say so,
                # for a player who typed a reply for a board already solved.
                hint = (
                    f"{len(tokens)} entries for {plural(wanted, 'unsolved board')} are read "
                    f"as 'WORD {' '.join(['REPLY'] * wanted)}'; solved boards take no reply"
                )
            print(f"Not accepted: {error} ({hint})")
            return False
        self.histories = histories
        return True

    def _undo(self) -> bool:
        """Take back the last guess on every board that had it."""
        turns = max(len(history) for history in self.histories)
        if not turns:
            print("Nothing to undo.")
            return False
        guess = ""
        for history in self.histories:
            if len(history) == turns:
                guess = history.pop()[0]
        print(f"Took back guess {turns}: {upper_word(guess)}")
        self.answer = self.backend.suggest_boards(self.policy, self.histories, PLAY_ALTERNATIVES)
        return True


def play_boards(
    backend: Guesswork, policy: str, boards: int, read: Callable[[str], str] = input
) -> int:
    """Run the multi-board helper until every board is solved; return the exit status
    (0 when the game is won, quit or the input ends).

    Raises:
        GuessworkError: the first suggestion fails (no such policy, not a Wordle
            policy, a bad board count); later refusals are printed and asked again.
    """
    session = BoardsSession(backend, policy, boards)
    print(
        f"{policy}, {plural(boards, 'board')}, {session.answer.guess_limit} guesses: type the "
        "replies, one per unsolved board in board order; help or ? for every command; q to quit."
    )
    while not session.answer.solved:
        session.show()
        if not read_until_taken(read, "replies> ", session.take):
            return 0
    used = session.answer.turn
    within = "within" if used <= session.answer.guess_limit else "past"
    print(
        f"Solved all {plural(boards, 'board')} in {plural(used, 'guess')} "
        f"({within} the limit of {session.answer.guess_limit})."
    )
    return 0
